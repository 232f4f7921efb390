// A fully connected layer, Y = relu(X W), one output a thread in 16x16
// blocks. Every thread of a block column reads the same column of W, each
// row of threads in its own warp request: W's elements are read 16 times a
// block from global memory, and warplint reports shared-staging-candidate.
// dense_after.cu takes the advice: 16x16 tiles of X and W staged in shared
// memory, each element loaded once a block. Usage: dense_before [OUT.bin]
#include "../rewrites/bench_util.h"

constexpr int kTile = 16;

__global__ void denseRelu(const float *__restrict__ X, const float *__restrict__ W, float *__restrict__ Y,
                          int inputs, int outputs) {
  int row = blockIdx.y * kTile + threadIdx.y;
  int col = blockIdx.x * kTile + threadIdx.x;
  float acc = 0.f;
  for (int k = 0; k < inputs; ++k)
    acc += X[row * inputs + k] * W[k * outputs + col];
  Y[row * outputs + col] = fmaxf(acc, 0.f);
}

#include "dense_host.h"

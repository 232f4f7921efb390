// y = A x with one thread per row: consecutive lanes read addresses a whole
// row apart. One warp per row reads each row contiguously.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void matvecThreadPerRow(const float *A, const float *x, float *y, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n)
    return;
  float s = 0.f;
  for (int k = 0; k < n; ++k)
    s += A[row * n + k] * x[k];
  y[row] = s;
}

__global__ void matvecWarpPerRow(const float *A, const float *x, float *y, int n) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (row >= n)
    return;
  float s = 0.f;
  for (int k = lane; k < n; k += 32)
    s += A[row * n + k] * x[k];
  for (int off = 16; off > 0; off /= 2)
    s += __shfl_down_sync(0xffffffffu, s, off);
  if (lane == 0)
    y[row] = s;
}

int main() {
  const int n = 8192;
  float *A, *x, *y;
  cudaMalloc(&A, size_t(n) * n * sizeof(float));
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  matvecThreadPerRow<<<n / 128, 128>>>(A, x, y, n);
  matvecWarpPerRow<<<n * 32 / 256, 256>>>(A, x, y, n);
  cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}

// Block reductions (seed 002 §4.2.2). Interleaved addressing makes the bank
// conflicts grow with the stride; sequential addressing has none.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int THREADS = 256;

__global__ void reduceInterleaved(const int *in, int *out, int n) {
  __shared__ int sdata[THREADS];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < blockDim.x)
      sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

__global__ void reduceSequential(const int *in, int *out, int n) {
  __shared__ int sdata[THREADS];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

int main() {
  const int n = 1 << 24;
  int *in, *out;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, (n / THREADS) * sizeof(int));
  cudaMemset(in, 0, n * sizeof(int));
  reduceInterleaved<<<n / THREADS, THREADS>>>(in, out, n);
  reduceSequential<<<n / THREADS, THREADS>>>(in, out, n);
  cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  cudaFree(in);
  cudaFree(out);
  return 0;
}

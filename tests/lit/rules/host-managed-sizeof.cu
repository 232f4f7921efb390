// `sizeof(*p)` does not evaluate `*p`: a managed buffer sized by its own
// element (`cudaMallocManaged(&p, sizeof(*p) * n)`) and then filled by a
// kernel was never touched by the host, so managed-memory-no-prefetch must
// not report the kernel. The host's later read of what the kernel wrote is
// a real touch and is reported. A buffer of at most one page is not (below).
// RUN: %not %warplint check %s --rules managed-memory-no-prefetch --color=never 2>&1 | %FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>

__global__ void fill(unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i * 2654435761u;
}

constexpr int N = 1 << 22;

unsigned filledOnDevice() {
  unsigned *r;
  cudaMallocManaged((void **)&r, sizeof(*r) * N);
  fill<<<N / 256, 256>>>(r, N);
  cudaDeviceSynchronize();
  // CHECK: :[[@LINE+2]]:10: note: the host touches managed memory 'r' that kernel 'fill' (line [[@LINE-2]]) used, with no cudaMemPrefetchAsync to the host in between
  // CHECK: note: a note only: the measured prefetch back buys {{[0-9.]+}}x on the host's read (below 1.3x)
  return r[N - 1];
}

unsigned alignedOnDevice() {
  unsigned *r;
  cudaMallocManaged((void **)&r, alignof(decltype(r[0])) * N);
  fill<<<N / 256, 256>>>(r, N);
  cudaDeviceSynchronize();
  unsigned v = sizeof(r[0]);
  cudaFree(r);
  return v;
}

// A buffer of one page or less (an atomicAdd result) moves as one page fault
// whichever side asks: nothing for a prefetch to save, not reported.
__global__ void total(const unsigned *in, unsigned *sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(sum, in[i]);
}

unsigned onePageResult(const unsigned *dIn) {
  unsigned *sum;
  cudaMallocManaged(&sum, sizeof(unsigned));
  *sum = 0;
  total<<<N / 256, 256>>>(dIn, sum, N);
  cudaDeviceSynchronize();
  unsigned v = *sum;
  cudaFree(sum);
  return v;
}

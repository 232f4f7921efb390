// A thread's consecutive 4-byte words in a fully unrolled constant loop are
// one 8- or 16-byte access on the GPU when nvcc can prove the start aligned
// (LDS.64 / LDS.128 / STS.128, seen with cuobjdump -sass, nvcc 13, sm_90):
// the bank conflicts are those of the wide access (analyzer/warp/FusedWords.h).
// RUN: %not %warplint check %s --fail-min-gain 0 --rules shared-bank-conflict --color=never 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: %warplint check %s --dump-model 2>&1 | %FileCheck %s --check-prefix=MODEL
// The accesses fused, in kernel order (the guarded, second-array and
// offset-start ones are not):
// MODEL-COUNT-2: 4-byte words of 4 iterations of the unrolled k loop taken as one 16-byte access (LDS.128/STS.128, as nvcc emits it)
// MODEL: 4-byte words of 2 iterations of the unrolled k loop taken as one 8-byte access (LDS.64/STS.64, as nvcc emits it)
// MODEL-COUNT-3: taken as one 16-byte access
// MODEL-NOT: taken as one

// ---- negatives: fused, and conflict-free as the compiler emits them -----

// s[4*t + k], k = 0..3, in the kernel's only static shared array (offset 0):
// one LDS.128 per thread, quarter-warps read 128 contiguous bytes.
__global__ void fourWords(const float *in, float *out) {
  __shared__ float s[512];
  int t = threadIdx.x;
  for (int k = 0; k < 4; ++k)
    s[128 * k + t] = in[blockIdx.x * 512 + 128 * k + t];
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < 4; ++k)
    acc += s[4 * t + k];
  out[blockIdx.x * 128 + t] = acc;
}

// The same with a C-style counter in a while loop.
__global__ void whileCounter(const int *in, int *out) {
  __shared__ int s[512];
  int t = threadIdx.x, k = 0;
  while (k < 4) {
    s[128 * k + t] = in[blockIdx.x * 512 + 128 * k + t];
    ++k;
  }
  __syncthreads();
  int acc = 0;
  k = 0;
  while (k < 4) {
    acc += s[4 * t + k];
    ++k;
  }
  out[blockIdx.x * 128 + t] = acc;
}

// Two words: one LDS.64, half-warps read 128 contiguous bytes.
__global__ void twoWords(const int *in, int *out) {
  __shared__ int s[256];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 256 + t];
  s[t + 128] = in[blockIdx.x * 256 + t + 128];
  __syncthreads();
  int acc = 0;
  for (int k = 0; k < 2; ++k)
    acc += s[2 * t + k];
  out[blockIdx.x * 128 + t] = acc;
}

// Writes: one STS.128.
__global__ void fourWordWrites(const int *in, int *out) {
  __shared__ int s[512];
  int t = threadIdx.x;
  for (int k = 0; k < 4; ++k)
    s[4 * t + k] = in[blockIdx.x * 512 + 128 * k + t];
  __syncthreads();
  out[blockIdx.x * 128 + t] = s[t];
}

// Dynamic shared memory starts 16-byte aligned.
__global__ void dynamicFourWords(const int *in, int *out) {
  extern __shared__ int d[];
  int t = threadIdx.x;
  for (int k = 0; k < 4; ++k)
    d[128 * k + t] = in[blockIdx.x * 512 + 128 * k + t];
  __syncthreads();
  int acc = 0;
  for (int k = 0; k < 4; ++k)
    acc += d[4 * t + k];
  out[blockIdx.x * 128 + t] = acc;
}

// ---- positives: still conflicted ----------------------------------------

// Fused, and still 2-way: quarter-warps of 16-byte accesses 32 bytes apart.
__global__ void eightStride(const int *in, int *out) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int k = 0; k < 8; ++k)
    s[128 * k + t] = in[blockIdx.x * 1024 + 128 * k + t];
  __syncthreads();
  int acc = 0;
  for (int k = 0; k < 4; ++k)
    // CHECK: :[[@LINE+1]]:12: warning: 2-way bank conflict on read of shared 's'
    acc += s[8 * t + k];
  out[blockIdx.x * 128 + t] = acc;
}

// A guard inside the loop that reads k: nvcc predicates four word loads.
__global__ void guardedWords(const int *in, int *out, int n) {
  __shared__ int s[512];
  int t = threadIdx.x;
  for (int k = 0; k < 4; ++k)
    s[128 * k + t] = in[blockIdx.x * 512 + 128 * k + t];
  __syncthreads();
  int acc = 0;
  for (int k = 0; k < 4; ++k)
    if (k < n)
      // CHECK: :[[@LINE+1]]:14: warning: 4-way bank conflict on read of shared 's'
      acc += s[4 * t + k];
  out[blockIdx.x * 128 + t] = acc;
}

// A second static shared array: ptxas packs it after the first, 4-byte
// aligned, and keeps four word loads.
__global__ void secondArray(const int *in, int *out) {
  __shared__ int a[3];
  __shared__ int s[512];
  int t = threadIdx.x;
  if (t < 3)
    a[t] = t;
  for (int k = 0; k < 4; ++k)
    s[128 * k + t] = in[blockIdx.x * 512 + 128 * k + t];
  __syncthreads();
  int acc = a[t % 3];
  for (int k = 0; k < 4; ++k)
    // CHECK: :[[@LINE+1]]:12: warning: 4-way bank conflict on read of shared 's'
    acc += s[4 * t + k];
  out[blockIdx.x * 128 + t] = acc;
}

// Starting one word in: not provably 16-byte aligned, evaluated as written.
__global__ void offsetStart(const int *in, int *out) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int k = 0; k < 8; ++k)
    s[128 * k + t] = in[blockIdx.x * 1024 + 128 * k + t];
  __syncthreads();
  int acc = 0;
  for (int k = 0; k < 4; ++k)
    // CHECK: :[[@LINE+1]]:12: warning: 4-way bank conflict on read of shared 's'
    acc += s[4 * t + 1 + k];
  out[blockIdx.x * 128 + t] = acc;
}

int main() {
  fourWords<<<4, 128>>>(0, 0);
  whileCounter<<<4, 128>>>(0, 0);
  twoWords<<<4, 128>>>(0, 0);
  fourWordWrites<<<4, 128>>>(0, 0);
  dynamicFourWords<<<4, 128, 2048>>>(0, 0);
  eightStride<<<4, 128>>>(0, 0);
  guardedWords<<<4, 128>>>(0, 0, 4);
  secondArray<<<4, 128>>>(0, 0);
  offsetStart<<<4, 128>>>(0, 0);
}

// C-style loop counters declared before the loop, a counter reused by two
// loops, `while` loops counted by the body, and locals assigned more than
// once followed to their reaching assignment.
// RUN: %not %warplint check %s --rules shared-bank-conflict,global-uncoalesced --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning: --implicit-check-not=error:

__global__ void cStyleCounter(float *out) {
  __shared__ float s[32][32];
  int i;
  float a = 0.f;
  s[threadIdx.y][threadIdx.x] = 1.f;
  __syncthreads();
  // Fused by nvcc into LDS.128 (analyzer/warp/FusedWords.h): 8-way, not 32.
  // CHECK-MESSAGES: :[[@LINE+2]]:33: warning: 8-way bank conflict on read of shared 's'
  // CHECK-MESSAGES: note: address of 's[threadIdx.x][i]' = s + threadIdx.x*128 + i*4 bytes
  for (i = 0; i < 32; i++) a += s[threadIdx.x][i];
  // The same counter again, now along a row: conflict-free.
  for (i = 0; i < 32; i++) a += s[i][threadIdx.x];
  out[threadIdx.x] = a;
}

__global__ void whileCounter(float *out) {
  __shared__ float s[32][32];
  __shared__ float p[32][33];
  s[threadIdx.y][threadIdx.x] = p[threadIdx.y][threadIdx.x] = 1.f;
  __syncthreads();
  int k = 0;
  float a = 0.f;
  while (k < 32) {
    // CHECK-MESSAGES: :[[@LINE+1]]:10: warning: 32-way bank conflict on read of shared 's'
    a += s[threadIdx.x][k];
    a += p[threadIdx.x][k]; // padded: conflict-free
    ++k;
  }
  // Halving stride, counted down.
  __shared__ float t[1024];
  int step = 16;
  while (step > 0) {
    // CHECK-MESSAGES: :[[@LINE+2]]:10: warning: 16-way bank conflict on read of shared 't'
    // CHECK-MESSAGES: note: block (32, 1, 1) from the launch at line {{[0-9]+}}; worst at step = 16
    a += t[threadIdx.x * step];
    step >>= 1;
  }
  out[threadIdx.x] = a;
}

// A local assigned twice: each access sees the assignment that reaches it.
__global__ void reachingAssignment(float *out, const float *in, int n) {
  __shared__ float s[1024];
  int c = threadIdx.x * 32;
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: 32-way bank conflict on write of shared 's'
  s[c] = 1.f;
  c = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[c]; // free
  // A parameter overwritten before use: n = 1 is coalesced.
  n = 1;
  out[threadIdx.x + 32] = in[threadIdx.x * n];
  n = 32;
  // CHECK-MESSAGES: :[[@LINE+1]]:27: warning: uncoalesced global read of 'in': 32 sectors per request where 4 suffice
  out[threadIdx.x + 64] = in[threadIdx.x * n];
}

// Joined at an `if`: the lane-dependent choice is kept exactly.
__global__ void joinedBranches(float *out, bool transposed) {
  __shared__ float s[1024];
  int j = threadIdx.x;
  if (transposed)
    j = threadIdx.x * 32;
  s[threadIdx.x] = 0.f;
  __syncthreads();
  // 32-way only when `transposed`: a condition on a parameter, silent.
  out[threadIdx.x] = s[j];
  int w = threadIdx.x * 2;
  if (threadIdx.x >= 16)
    w = threadIdx.x * 2 + 1;
  // Lanes 0-15 even words, 16-31 odd words 33..63: all distinct banks.
  out[threadIdx.x + 32] = s[w];
  int v = threadIdx.x;
  if (threadIdx.x & 1)
    v = threadIdx.x * 32;
  // Even lanes: words 0-30, odd lanes: bank 0 at 16 words, with lane 0: 17-way.
  // CHECK-MESSAGES: :[[@LINE+1]]:27: warning: 17-way bank conflict on read of shared 's'
  out[threadIdx.x + 64] = s[v];
}

// An early exit: after it, only the branch that falls through reaches.
__global__ void earlyExit(float *out, int mode) {
  __shared__ float s[1024];
  int stride = 1;
  if (mode == 0) {
    stride = 32;
    return;
  }
  s[threadIdx.x * stride] = 1.f; // stride 1 here: free
  out[threadIdx.x] = s[threadIdx.x];
}

// A counter changed conditionally inside the loop is not a recurrence: its
// value is unknown, nothing is reported.
__global__ void conditionalCounter(float *out, const int *flags) {
  __shared__ float s[1024];
  int k = 0;
  s[threadIdx.x] = 0.f;
  __syncthreads();
  float a = 0.f;
  while (k < 8) {
    a += s[threadIdx.x * k];
    if (flags[threadIdx.x])
      ++k;
    ++k;
  }
  out[threadIdx.x] = a;
}

void launchLoops(float *f, const float *c, const int *flags, int n, bool t) {
  cStyleCounter<<<1, dim3(32, 32)>>>(f);
  whileCounter<<<1, 32>>>(f);
  reachingAssignment<<<1, 32>>>(f, c, n);
  joinedBranches<<<1, 32>>>(f, t);
  earlyExit<<<1, 32>>>(f, n);
  conditionalCounter<<<1, 32>>>(f, flags);
}

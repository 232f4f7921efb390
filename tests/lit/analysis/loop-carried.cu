// Locals a loop body updates once per iteration (`off *= 2`) are recurrences
// over the loop's counter: accesses before the update see this iteration's
// value, accesses after it the next one's. A conditional update stays unknown.
// RUN: %not %warplint check --fail-min-gain 0 %s --rules shared-bank-conflict --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning: --implicit-check-not=error:

__global__ void upSweep(float *data) {
  __shared__ float s[512];
  unsigned tid = threadIdx.x;
  s[tid] = data[tid];
  s[tid + 256] = data[tid + 256];
  unsigned off = 1;
  for (unsigned d = 256; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d)
      // 32 active lanes 2*off words apart until d < 32: worst 16-way at off = 8.
      // CHECK-MESSAGES: :[[@LINE+4]]:7: warning: 16-way bank conflict on read-modify-write of shared 's'
      // CHECK-MESSAGES: note: block (256, 1, 1) from the launch at line {{[0-9]+}}; worst at off = 8
      // CHECK-MESSAGES: :[[@LINE+2]]:37: warning: 16-way bank conflict on read of shared 's'
      // CHECK-MESSAGES: note: block (256, 1, 1) from the launch at line {{[0-9]+}}; worst at off = 8
      s[off * (2 * tid + 2) - 1] += s[off * (2 * tid + 1) - 1];
    off *= 2;
  }
  data[tid] = s[tid];
}

// The update comes first: the access sees the doubled value, 2*stride words
// apart from the first iteration on.
__global__ void updateFirst(float *out) {
  __shared__ float s[2048];
  int stride = 1;
  s[threadIdx.x] = 0.f;
  for (int k = 0; k < 5; ++k) {
    stride *= 2;
    // k = 0: stride 2 (2-way) ... k = 4: stride 32 (32-way), 32 lanes in bounds.
    // CHECK-MESSAGES: :[[@LINE+2]]:33: warning: 32-way bank conflict on read of shared 's'
    // CHECK-MESSAGES: note: block (32, 1, 1) from the launch at line {{[0-9]+}}; worst at stride = 32
    out[k * 32 + threadIdx.x] = s[threadIdx.x * stride];
  }
}

// Updated only on some iterations: its value is not a recurrence.
__global__ void conditionalUpdate(float *out, int n) {
  __shared__ float s[1024];
  int stride = 1;
  s[threadIdx.x] = 0.f;
  for (int k = 0; k < 4; ++k) {
    if (k % 2)
      stride *= 2;
    out[threadIdx.x] += s[threadIdx.x * stride];
  }
}

// Padded Blelloch indexing (one word every 32) keeps the same loop silent.
#define PAD(i) ((i) + ((i) >> 5))
__global__ void upSweepPadded(float *data) {
  __shared__ float s[512 + 16];
  unsigned tid = threadIdx.x;
  s[PAD(tid)] = data[tid];
  s[PAD(tid + 256)] = data[tid + 256];
  unsigned off = 1;
  for (unsigned d = 256; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d && off < 2)
      s[PAD(off * (2 * tid + 2) - 1)] += s[PAD(off * (2 * tid + 1) - 1)];
    off *= 2;
  }
  data[tid] = s[PAD(tid)];
}

void launchAll(float *f, int n) {
  upSweep<<<1, 256>>>(f);
  updateFirst<<<1, 32>>>(f);
  conditionalUpdate<<<1, 32>>>(f, n);
  upSweepPadded<<<1, 256>>>(f);
}

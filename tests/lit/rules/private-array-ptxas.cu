// REQUIRES: nvcc
// --ptxas-confirm compiles the file with nvcc -Xptxas -v: a finding gets the
// kernel's stack frame as a note, and the static verdict is dropped where
// ptxas shows no stack frame.
// RUN: %not %warplint check %s --rules private-array-local-memory --ptxas-confirm --color=never 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: %not %warplint check %s --rules private-array-local-memory --ptxas-confirm --format json | %FileCheck %s --check-prefix=JSON

// CHECK: :[[@LINE+5]]:7: warning: private array 'bins' (int[16], 64 bytes a thread) is placed in local memory
// CHECK: note: confirmed: ptxas (nvcc {{[0-9.]+}}, sm_90) reports a 64-byte stack frame for 'histogram16'
// JSON: "stack_frame_bytes": 64
// JSON: "tool": "ptxas (nvcc {{[0-9.]+}}, sm_90)"
__global__ void histogram16(const int *in, int *out, int n) {
  int bins[16] = {0};
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    bins[in[i] & 15]++;
  for (int b = 0; b < 16; ++b)
    atomicAdd(&out[b], bins[b]);
}

// Below the measured size thresholds, a dynamic subscript is only reported
// when ptxas shows the stack frame: an insertion sort of 6 (24 bytes).
// CHECK: :[[@LINE+3]]:9: warning: private array 'v' (float[6], 24 bytes a thread) is placed in local memory
// CHECK: note: confirmed: ptxas ({{.*}}) reports a 24-byte stack frame for 'sort6'
__global__ void sort6(const float *in, float *out) {
  float v[6];
  for (int k = 0; k < 6; ++k)
    v[k] = in[threadIdx.x * 6 + k];
  for (int a = 1; a < 6; ++a) {
    float x = v[a];
    int j = a - 1;
    while (j >= 0 && v[j] > x) {
      v[j + 1] = v[j];
      --j;
    }
    v[j + 1] = x;
  }
  out[threadIdx.x] = v[3];
}

// Registers per ptxas: no finding.
__global__ void unrolled(const float *in, float *out) {
  float t[8];
  for (int k = 0; k < 8; ++k)
    t[k] = in[threadIdx.x * 8 + k];
  float s = 0;
  for (int k = 0; k < 8; ++k)
    s += t[k] * t[7 - k];
  out[threadIdx.x] = s;
}

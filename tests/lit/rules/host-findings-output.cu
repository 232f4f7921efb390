// Host-side findings have no kernel: they go through NOLINT, JSON, SARIF,
// baselines and --explain like the kernel rules' findings.
// RUN: %not %warplint check %s --rules host-pageable-transfer --color=never --show-suppressed 2>&1 | %FileCheck %s --check-prefix=TEXT
// RUN: %not %warplint check %s --rules host-pageable-transfer --format json -o %t.json
// RUN: %FileCheck %s --check-prefix=JSON < %t.json
// RUN: %not %warplint check %s --rules host-pageable-transfer --format sarif | %FileCheck %s --check-prefix=SARIF
// RUN: %warplint check %s --rules host-pageable-transfer --baseline %t.json --color=never 2>&1 | %FileCheck %s --check-prefix=BASELINE
// RUN: %not %warplint check %s --color=never --explain 2>&1 | %FileCheck %s --check-prefix=EXPLAIN

#include <cuda_runtime.h>
#include <cstdlib>

__global__ void twice(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= 2.0f;
}

int main() {
  const int n = 1 << 20;
  float *h = (float *)malloc(n * sizeof(float));
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  // TEXT: :[[@LINE+2]]:3: warning: cudaMemcpy copies 4 MiB from pageable host memory 'h'
  // JSON: "kernel": ""
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  twice<<<n / 256, 256>>>(d, n);
  // TEXT: :[[@LINE+2]]:3: warning: cudaMemcpy copies 4 MiB into pageable host memory 'h'
  // TEXT: note: suppressed by NOLINT at {{.*}}:[[@LINE+1]]: the result is read once
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost); // NOLINT(host-pageable-transfer) the result is read once
  // JSON: "host_function": "main"
  // JSON: "predicted_kernel_speedup_unavailable": "a host-side finding
  // SARIF: "ruleId": "host-pageable-transfer"
  // BASELINE: 1 finding in the baseline not shown
  // EXPLAIN: warning: cudaMemcpy copies 4 MiB from pageable host memory 'h'
  free(h);
  return 0;
}

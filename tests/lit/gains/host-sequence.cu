// A host-side finding priced on the GPU work its host function shows: the
// copies at the profile's measured transfer times, the launches at the cost
// model's kernel time, as written and with the finding's change
// (gains/SequenceGains.h). The fixture profile's round numbers make the sums
// checkable: 16 MiB from pageable memory at 12 GB/s is 1398 us, pinned at
// 24 GB/s 699 us.
// RUN: %python %S/../rules/Inputs/host_profile_fixture.py %S/../../../probes/profiles/h100.json %t.json
// RUN: %not %warplint check %s --rules host-pageable-transfer,host-transfer-batching --profile %t.json --color=never 2>&1 | %FileCheck %s
// RUN: %not %warplint check %s --rules host-pageable-transfer,host-transfer-batching --profile %t.json --format json | %FileCheck %s --check-prefix=JSON

#include <cuda_runtime.h>
#include <cstdlib>

__global__ void twice(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
}

// Two pageable 16 MiB copies around one small kernel: pinning the input
// halves its copy; pinning both halves the whole.
// CHECK: :[[@LINE+11]]:3: warning: cudaMemcpy copies 16 MiB from pageable host memory 'hIn'
// CHECK: note: the GPU work 'pipeline' shows (2 copies, 1 launch, run one after another): ~2.8 ms as written (copies {{9[0-9]|100}}%), ~2.1 ms with 'hIn' pinned: ~1.3{{[0-9]}}x; with every copied host buffer of 'pipeline' pinned: ~1.4 ms, ~1.9{{[0-9]}}x (host-fixture profile)
// JSON: "predicted_sequence_speedup": 1.3
// JSON: "predicted_sequence_speedup_all_pinned": 1.9
// JSON: "sequence_cost": {
// JSON: "host_function": "pipeline"
void pipeline(int n) {
  size_t bytes = 16 << 20;
  float *hIn = (float *)malloc(bytes), *hOut = (float *)malloc(bytes), *dIn, *dOut;
  cudaMalloc(&dIn, bytes);
  cudaMalloc(&dOut, bytes);
  cudaMemcpy(dIn, hIn, bytes, cudaMemcpyHostToDevice);
  twice<<<(4 << 20) / 256, 256>>>(dIn, dOut, 4 << 20);
  // CHECK: :[[@LINE+1]]:3: warning: cudaMemcpy copies 16 MiB into pageable host memory 'hOut'
  cudaMemcpy(hOut, dOut, bytes, cudaMemcpyDeviceToHost);
  free(hIn);
  free(hOut);
}

// The rows copied one by one in a loop whose count is a run-time value:
// the finding stands, its sequence gain is not guessed.
// CHECK: :[[@LINE+7]]:5: warning: cudaMemcpy in the for loop at line {{[0-9]+}} copies a different piece each iteration
// CHECK-NOT: GPU work
// JSON: "predicted_sequence_speedup_unavailable": "the for loop at line [[@LINE+4]] has no constant trip count"
void rows(float *dM, int rowsCount) {
  float *hM;
  cudaMallocHost(&hM, 1 << 20);
  for (int r = 0; r < rowsCount; ++r)
    cudaMemcpy(dM + r * 256, hM + r * 256, 1024, cudaMemcpyHostToDevice);
  cudaFreeHost(hM);
}

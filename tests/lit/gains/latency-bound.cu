// A kernel whose every part of the machine stays below 60% of its peak is
// latency-bound (Nsight Compute's Speed-of-Light rule uses the same 60%):
// the cost block says so and names each part's share of its peak; a kernel
// that fills a unit is not.
// RUN: %warplint check %s --format json --quiet 2>/dev/null | %python %S/Inputs/costs_only.py | %FileCheck %s
// RUN: %warplint check %s --explain --quiet 2>/dev/null | %FileCheck %s --check-prefix=EXPLAIN

// One warp an SM with one load in flight: DRAM far from its peak.
__global__ void fewWarps(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] + 1.0f;
}

// Eight loads a thread in flight at full occupancy: DRAM near its peak.
__global__ void manyLoads(const float4 *in, float4 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 s = make_float4(0, 0, 0, 0);
#pragma unroll
  for (int j = 0; j < 8; ++j) {
    float4 v = in[i + j * 2097152];
    s.x += v.x;
    s.y += v.y;
    s.z += v.z;
    s.w += v.w;
  }
  out[i] = s;
}

void launch(const float *a, float *b, const float4 *c, float4 *d) {
  fewWarps<<<132, 32>>>(a, b);
  manyLoads<<<8192, 256>>>(c, d);
}

// CHECK: "kernel": "fewWarps"
// CHECK: "latency_bound": true,
// CHECK-NEXT: "peak_shares": {
// (132 blocks of one warp: the launch's fixed time is most of its time, which the statement says.)
// CHECK: "latency-bound: the launch's fixed time is {{[0-9]+}}% of the kernel's time, when no unit works (busiest part: {{[a-z0-9]+}} at {{[0-9]+}}% of its peak
// CHECK: "kernel": "manyLoads"
// CHECK: "bottleneck": "dram",
// CHECK-NEXT: "latency_bound": false,
// CHECK-NEXT: "peak_shares": {
// CHECK-NEXT: "l1tex": {{[0-9.]+}},
// CHECK-NEXT: "memory": 0.{{[6-9]}}

// EXPLAIN: cost model (h100 profile): {{[a-z0-9]+}} is the bottleneck
// EXPLAIN-NEXT: busy against each part's peak: l1tex {{[0-9]+}}% memory {{[0-9]+}}% sm {{[0-9]+}}% (latency-bound: none at 60%)
// EXPLAIN: cost model (h100 profile): dram is the bottleneck
// EXPLAIN-NEXT: busy against each part's peak: l1tex {{[0-9]+}}% memory {{[6-9][0-9]}}% sm {{[0-9]+}}%{{$}}

// The fixed time of a launch (probe kernel_fixed_time: the launch, the ramp of
// the first wave of blocks and the tail, as Nsight Compute's
// gpu__time_duration sees an empty grid) is added to every kernel's time as
// the `launch` component: a kernel of one small block is mostly that time and
// latency-bound (no unit near its peak), a long kernel barely changes, and the
// bottleneck is still named from the kernel's work.
// RUN: %warplint check %s --format json --quiet 2>/dev/null | %python %S/Inputs/costs_only.py | %FileCheck %s
// RUN: %warplint check %s --explain --quiet 2>/dev/null | %FileCheck %s --check-prefix=EXPLAIN

// One block of 32 threads, one load and one store each.
__global__ void oneSmallBlock(const float *in, float *out) {
  int i = threadIdx.x;
  out[i] = in[i] * 2.0f;
}

// Eight loads a thread in flight at full occupancy over 256 MiB: DRAM near its peak.
__global__ void longStream(const float4 *in, float4 *out) {
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
  oneSmallBlock<<<1, 32>>>(a, b);
  longStream<<<8192, 256>>>(c, d);
}

// CHECK: "kernel": "oneSmallBlock"
// CHECK: "latency_bound": true,
// CHECK: "components_us": {
// CHECK: "launch": {{[1-9][0-9.]*}}
// CHECK: "fractions": {
// CHECK: "launch": 0.{{[5-9]}}
// CHECK: "launch": "fixed time of a launch with a first wave of 1 blocks (kernel_fixed_time: gpu__time_duration of trivial blocks)"
// CHECK: "a launch's fixed time ({{[0-9.]+}} us: the launch, the first wave of 1 blocks ramping onto the SMs and the tail; kernel_fixed_time) is added to the work's {{[0-9.e-]+}} us; the same before and after a fix"
// CHECK: "latency-bound: the launch's fixed time is {{[5-9][0-9]}}% of the kernel's time, when no unit works
// CHECK: "kernel": "longStream"
// CHECK: "bottleneck": "dram",
// CHECK-NEXT: "latency_bound": false,
// CHECK: "components_us": {
// CHECK: "launch": {{[1-9][0-9.]*}}
// CHECK: "fractions": {
// CHECK: "launch": 0.0{{[0-9]*}}

// EXPLAIN: kernel 'oneSmallBlock'
// EXPLAIN: cost model (h100 profile): {{[a-z0-9]+}} is the bottleneck
// EXPLAIN-NEXT: busy against each part's peak: l1tex {{[0-9]+}}% memory {{[0-9]+}}% sm {{[0-9]+}}% (latency-bound: none at 60%)
// EXPLAIN: {{^}}  launch {{.*}} fixed time of a launch with a first wave of 1 blocks
// EXPLAIN: kernel 'longStream'
// EXPLAIN: cost model (h100 profile): dram is the bottleneck
// EXPLAIN: {{^}}  launch {{.*}} fixed time of a launch with a first wave of 1056 blocks

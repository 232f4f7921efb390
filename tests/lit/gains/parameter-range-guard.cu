// A guard of the thread's place against bounds from scalar parameters
// (`if (i > x4 - 1) return;`, i = x3 + blockIdx.z * blockDim.z +
// threadIdx.z) passes in no thread of block 0 when every parameter takes the
// one stated value (x3 = x4 = 1024): the accesses behind it are counted as
// every thread passing it, not as never running (HeCBench minimod's
// stencil: ncu counts 1,002 shared wavefronts a block, the tally had 192).
// A padding the conflict's note names but --fix refuses to apply is priced
// on every access of the array, as a user applies it by hand.
// RUN: %warplint check %s --format json --quiet 2>/dev/null | %python %S/Inputs/costs_only.py | %FileCheck %s
// RUN: %warplint check %s --format json --quiet 2>/dev/null | %python -c "import json,sys; d=json.load(sys.stdin); print(sorted({f['details']['kernel_cost']['change'] for f in d['findings'] if f['rule'] == 'shared-bank-conflict'}))" | %FileCheck %s --check-prefix=CHANGE

#define N 16
__global__ void stencilInterior(long x3, long x4, long y3, long y4, long z3, long z4, const float *u, float *v) {
  __shared__ float s[N][N][N];
  long i = x3 + blockIdx.z * blockDim.z + threadIdx.z;
  long j = y3 + blockIdx.y * blockDim.y + threadIdx.y;
  long k = z3 + blockIdx.x * blockDim.x + threadIdx.x;
  int tz = threadIdx.z, ty = threadIdx.y, tx = threadIdx.x;
  s[tz][ty][tx] = u[(i * N + j) * N + k];
  __syncthreads();
  if (i > x4 - 1 || j > y4 - 1 || k > z4 - 1)
    return;
  v[(i * N + j) * N + k] = s[tz][ty][tx] + s[tz][ty + 1][tx] + s[tz + 1][ty][tx] + s[tz][ty][tx + 1];
}

void launch(long x3, long x4, long y3, long y4, long z3, long z4, const float *u, float *v) {
  stencilInterior<<<dim3(4, 4, 4), dim3(8, 8, 8)>>>(x3, x4, y3, y4, z3, z4, u, v);
}

// CHECK: "kernel": "stencilInterior"
// CHECK: "rule_speedups": {
// CHECK-NEXT: "shared-bank-conflict":
// CHECK: "accesses behind a guard of the thread's place against scalar parameters that no thread of block 0 passes at the stated values (each parameter 1024) are counted as every thread passing it: the launch's sizes decide, and run them in most blocks"
// CHANGE: ["the padding of 's' the note names (8 elements)"]

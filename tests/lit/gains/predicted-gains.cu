// Each finding the kernel cost model can price states its predicted gain on
// its kernel; --sort gain, --min-gain and --fail-min-gain act on it.
// RUN: %not %warplint check %s --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning: --implicit-check-not=error:
// RUN: %not %warplint check %s --format json | %FileCheck %s --check-prefix=JSON
// RUN: %not %warplint check %s --explain --color=never 2>&1 | %FileCheck %s --check-prefix=EXPLAIN
// RUN: %not %warplint check %s --sort gain --color=never 2>&1 | %FileCheck %s --check-prefix=SORTED
// RUN: %not %warplint check %s --min-gain 20 --color=never 2>&1 | %FileCheck %s --check-prefix=MINGAIN
// RUN: %warplint check %S/Inputs/readonly-only.cu --color=never 2>&1 | %FileCheck %s --check-prefix=NEGLIGIBLE
// RUN: %not %warplint check %S/Inputs/readonly-only.cu --fail-min-gain 0 --quiet
// RUN: %warplint check %S/Inputs/readonly-only.cu --format sarif | %FileCheck %s --check-prefix=SARIF

#define TILE 32

// A 32-way conflicted transpose: shared-memory bound, the padding pays.
__global__ void transposeConflict(float *out, const float *__restrict__ in, int n) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    // CHECK-MESSAGES: :[[@LINE+2]]:28: warning: 32-way bank conflict on read of shared 'tile'
    // CHECK-MESSAGES: note: kernel transposeConflict: shared-memory bound (model: shared {{[0-9]+}}%{{.*}}); the padding of 'tile': ~{{1\.[3-9][0-9]*}}x on this kernel (h100 profile; --explain shows the model)
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Already right: padded, no finding and nothing to price.
__global__ void transposePadded(float *out, const float *__restrict__ in, int n) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// A pointer only read but not const: the model counts nothing the fix changes. (No launch states
// its grid, so the launch's fixed time is left out: the work's size is assumed.)
// CHECK-MESSAGES: :[[@LINE+2]]:45: note: pointer parameter 'in' is only read{{.*}}[readonly-param]
// CHECK-MESSAGES: note: kernel copyRows: DRAM-bound {{.*}}: no change the model can see (~1.00x)
__global__ void copyRows(float *out, float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}

void run(float *out, float *in, int n) {
  dim3 block(TILE, 8), grid(n / TILE, n / TILE);
  transposeConflict<<<grid, block>>>(out, in, n);
  transposePadded<<<grid, block>>>(out, in, n);
  copyRows<<<(n + 255) / 256, 256>>>(out, in, n);
}

// JSON-DAG: "bottleneck": "shared"
// JSON-DAG: "kernel_cost": {
// JSON-DAG: "predicted_kernel_speedup": {{1\.[3-9]}}
// JSON: "costs": [
// JSON: "kernel": "transposeConflict"
// JSON: "components_us": {
// JSON: "occupancy": {
// JSON: "rule_speedups": {
// JSON: "kernel": "transposePadded"
// JSON-NOT: "rule_speedups"
// JSON: "kernel": "copyRows"

// EXPLAIN: kernel 'transposeConflict'
// EXPLAIN: cost model (h100 profile): shared is the bottleneck
// EXPLAIN: component
// EXPLAIN: shared
// EXPLAIN: occupancy: 8 blocks (64 warps) an SM, limited by threads
// EXPLAIN: ~{{[0-9.]+}}x  shared-bank-conflict at line {{[0-9]+}}: the padding of 'tile'

// SORTED: warning: 32-way bank conflict
// SORTED: note: {{.*}}[readonly-param]
// SORTED: top predicted gains: ~{{[0-9.]+}}x {{.*}}predicted-gains.cu:{{[0-9]+}} shared-bank-conflict (transposeConflict)

// MINGAIN: warning: 32-way bank conflict
// MINGAIN-NOT: [readonly-param]
// MINGAIN: predicted below --min-gain not shown

// NEGLIGIBLE: note: {{.*}}[readonly-param]
// NEGLIGIBLE: no change the model can see (~1.00x)

// SARIF: "rank": 0.0

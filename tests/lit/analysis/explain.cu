// RUN: %not %warplint check --fail-min-gain 0 %s --explain --color=never 2>/dev/null | %FileCheck %s
// RUN: %not %warplint check --fail-min-gain 0 %s --format json | %FileCheck %s --check-prefix=JSON
// RUN: %warplint check %s --dump-model | %FileCheck %s --check-prefix=MODEL
// RUN: %not %warplint check --fail-min-gain 0 %s --explain --format json 2>&1 | %FileCheck %s --check-prefix=USAGE
// USAGE: --explain prints a text table; JSON reports and --dump-model already carry the classification

// The classification of seed 000's Fig. 14, one table per kernel.

#define N 1024

__constant__ float coeff[16];

// CHECK: kernel 'naive' ({{.*}}explain.cu:[[@LINE+1]]): block (16, 16, 1) from the launch at line {{[0-9]+}}
__global__ void naive(const float *A, const float *B, float *C, int n) {
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.f;
  for (int k = 0; k < n; ++k)
    acc += A[row * n + k] * B[k * n + col];
  C[row * n + col] = acc;
}
// CHECK-NEXT: object space class accesses guidelines findings
// CHECK-NEXT: A global read-only 1 read C_2, G_1, T_4 -
// CHECK-NEXT: B global reused 1 read S_5, T_4 shared-staging-candidate (line 19)
// CHECK-NEXT: C global streaming 1 write G_3 -
// CHECK-NEXT: evidence:
// CHECK-NEXT: A: only read in this kernel, through every alias; each element it reads is read 16 times by 16 threads (up to 16) in one warp request of one block (block (16, 16, 1), the first 16 iterations of k); the threads that share an element read it in one warp request (a broadcast)
// CHECK-NEXT: B: only read in this kernel, through every alias; each element it reads is read 16 times by 16 threads (up to 16) in 8 warp requests of one block (block (16, 16, 1), the first 16 iterations of k)
// CHECK-NEXT: C: only written, in warp requests of at most twice the ideal sectors

// CHECK-LABEL: kernel 'tiled'
__global__ void tiled(const float *__restrict__ A, const float *__restrict__ B, float *C, int n) {
  __shared__ float As[16][16];
  __shared__ float Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty;
  int col = blockIdx.x * 16 + tx;
  float acc = 0.f;
  for (int t = 0; t < n / 16; ++t) {
    As[ty][tx] = A[row * n + t * 16 + tx];
    Bs[ty][tx] = B[(t * 16 + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}
// CHECK-NEXT: object space class accesses guidelines findings
// CHECK-NEXT: A global streaming 1 read G_3 -
// CHECK-NEXT: B global streaming 1 read G_3 -
// CHECK-NEXT: C global streaming 1 write G_3 -
// CHECK-NEXT: As shared reused 1 read, 1 write S_1, S_2 -
// CHECK-NEXT: Bs shared reused 1 read, 1 write S_1, S_2 -
// CHECK: As: {{.*}} reads of an element another thread wrote

// CHECK-LABEL: kernel 'mixed'
__global__ void mixed(const float *in, const int *idx, float *out, float *col, int n) {
  float window[4];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < 4; ++j)
    window[j] = in[i * n + j] * coeff[j];
  float s = 0.f;
  for (int j = 0; j < 4; ++j)
    s += window[j] + in[idx[i]];
  out[i] = s;
  col[i * 32] = s;
}
// CHECK-NEXT: object space class accesses guidelines findings
// CHECK-NEXT: in global strided 2 reads (1 unevaluated) G_3, T_4 global-uncoalesced (line {{[0-9]+}})
// CHECK-NEXT: idx global streaming 1 read G_3, T_4 -
// CHECK-NEXT: out global streaming 1 write G_3 -
// CHECK-NEXT: col global strided 1 write G_3 global-uncoalesced (line {{[0-9]+}})
// CHECK-NEXT: window local temporal {{.*}} L_1, L_2, L_3, L_4 -
// CHECK-NEXT: coeff constant read-only 1 read C_1, C_2, C_3 -
// CHECK-NEXT: evidence:
// CHECK-NEXT: in: 1 of 2 accesses not evaluated (data-dependent index); only read in this kernel, through every alias; its worst warp request touches {{.*}}x the sectors its bytes need
// CHECK: coeff: __constant__: read-only for the kernel; 1 of 1 read warp-uniform (a broadcast)

// JSON: "classification": [
// JSON: "kernel": "naive",
// JSON: "name": "B",
// JSON-NEXT: "space": "global",
// JSON-NEXT: "kind": "pointer parameter",
// JSON-NEXT: "class": "reused",
// JSON: "requests_per_element": 8.0
// JSON: "guidelines": [
// JSON-NEXT: "S_5",
// JSON: "findings": [
// JSON-NEXT: {
// JSON-NEXT: "rule": "shared-staging-candidate",

// MODEL: "data_objects": [
// MODEL: "class": "read-only",
// MODEL: "name": "A",

void launch(float *a, float *b, float *c, int *idx) {
  naive<<<dim3(N / 16, N / 16), dim3(16, 16)>>>(a, b, c, N);
  tiled<<<dim3(N / 16, N / 16), dim3(16, 16)>>>(a, b, c, N);
  mixed<<<N / 256, 256>>>(a, idx, b, c, N);
}

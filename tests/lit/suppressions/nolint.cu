// Inline suppressions in clang-tidy's syntax. Positives: the finding is
// silenced (not printed, counted in the summary, listed with
// --show-suppressed with its reason). Negatives: a comment naming another
// rule, a next-line comment two lines up, a region that ended, an unmatched
// region start, the word inside a string or another word silence nothing.
// (Check lines spell the directives as NO{{LINT}}..., which is not one.)
// RUN: %not %warplint check %s --color=never > %t.txt 2> %t.err
// RUN: %FileCheck %s --input-file=%t.txt --check-prefix=CHECK --implicit-check-not='[shared-bank-conflict]' --implicit-check-not='[readonly-param]'
// RUN: %FileCheck %s --input-file=%t.err --check-prefix=WARN
// RUN: %not %warplint check %s --color=never --show-suppressed > %t.shown.txt 2>&1
// RUN: %FileCheck %s --input-file=%t.shown.txt --check-prefix=SHOWN
// RUN: %not %warplint check %s --format json > %t.json 2>/dev/null
// RUN: %FileCheck %s --input-file=%t.json --check-prefix=JSON
// SARIF keeps every finding as a result; the silenced ones carry an
// inSource suppression with the reason.
// RUN: %not %warplint check %s --format sarif > %t.sarif 2>/dev/null
// RUN: %FileCheck %s --input-file=%t.sarif --check-prefix=SARIF
// RUN: %FileCheck %s --input-file=%t.sarif --check-prefix=SARIF-ALL
// SARIF: "suppressions": [
// SARIF-NEXT: {
// SARIF-NEXT: "kind": "inSource",
// SARIF-NEXT: "status": "accepted",
// SARIF-NEXT: "justification": "measured: 2% of the runtime",
// SARIF-ALL-COUNT-7: "kind": "inSource"
// SARIF-ALL-NOT: "kind": "inSource"

#include <cuda_runtime.h>

#define TILE 32

// ---- silenced ---------------------------------------------------------------

__global__ void sameLine(float *out) {
  __shared__ float tile[TILE][TILE];
  tile[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * TILE + threadIdx.x] = tile[threadIdx.x][threadIdx.y]; // NOLINT(shared-bank-conflict) measured: 2% of the runtime
  // SHOWN: nolint.cu:[[#@LINE-1]]:{{[0-9]+}}: warning: 32-way bank conflict on read of shared 'tile'{{.*}}[shared-bank-conflict]
  // SHOWN: nolint.cu:[[#@LINE-2]]:{{[0-9]+}}: note: suppressed by NO{{LINT}} at {{.*}}nolint.cu:[[#@LINE-2]]: measured: 2% of the runtime
  // JSON: "rule": "shared-bank-conflict",
  // JSON: "kind": "NO{{LINT}}",
  // JSON: "line": [[#@LINE-5]],
  // JSON: "justification": "measured: 2% of the runtime"
}

__global__ void nextLine(float *out) {
  __shared__ float tile[TILE][TILE];
  tile[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  // NOLINTNEXTLINE(shared-bank-conflict): the transpose is the point of this kernel
  out[threadIdx.y * TILE + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // SHOWN: nolint.cu:[[#@LINE-1]]:{{[0-9]+}}: warning: 32-way bank conflict
  // SHOWN: note: suppressed by NO{{LINT}}NEXTLINE at {{.*}}nolint.cu:[[#@LINE-3]]: the transpose is the point of this kernel
}

__global__ void bare(float *out) {
  __shared__ float tile[TILE][TILE];
  tile[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * TILE + threadIdx.x] = tile[threadIdx.x][threadIdx.y]; // NOLINT
  // SHOWN: note: suppressed by NO{{LINT}} at {{.*}}nolint.cu:[[#@LINE-1]]{{$}}
}

__global__ void glob(float *out) {
  __shared__ float tile[TILE][TILE];
  tile[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * TILE + threadIdx.x] = tile[threadIdx.x][threadIdx.y]; // NOLINT(shared-*)
  // SHOWN: note: suppressed by NO{{LINT}} at {{.*}}nolint.cu:[[#@LINE-1]]{{$}}
}

__global__ void prefixed(float *out) {
  __shared__ float tile[TILE][TILE];
  tile[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * TILE + threadIdx.x] = tile[threadIdx.x][threadIdx.y]; /* NOLINT(bugprone-foo, warplint-*) shared with clang-tidy */
  // SHOWN: note: suppressed by NO{{LINT}} at {{.*}}nolint.cu:[[#@LINE-1]]: shared with clang-tidy{{$}}
}

// NOLINTBEGIN(readonly-param) legacy API, the signatures are frozen
__global__ void regionA(float *out, float *in) { out[threadIdx.x] = in[threadIdx.x]; }
__global__ void regionB(float *out, float *in) { out[threadIdx.x] = in[threadIdx.x] * 2.f; }
// NOLINTEND(readonly-param)
// SHOWN: nolint.cu:[[#@LINE-3]]:{{[0-9]+}}: note: pointer parameter 'in' is only read
// SHOWN: note: suppressed by NO{{LINT}}BEGIN at {{.*}}nolint.cu:[[#@LINE-5]]: legacy API, the signatures are frozen

// ---- not silenced -------------------------------------------------------------

__global__ void otherRule(float *out) {
  __shared__ float tile[TILE][TILE];
  tile[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * TILE + threadIdx.x] = tile[threadIdx.x][threadIdx.y]; // NOLINT(global-uncoalesced)
  // CHECK: nolint.cu:[[#@LINE-1]]:{{[0-9]+}}: warning: 32-way bank conflict on read of shared 'tile'{{.*}}[shared-bank-conflict]
}

__global__ void tooFarAbove(float *out) {
  __shared__ float tile[TILE][TILE];
  tile[threadIdx.y][threadIdx.x] = threadIdx.x;
  // NOLINTNEXTLINE(shared-bank-conflict)
  __syncthreads();
  out[threadIdx.y * TILE + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // CHECK: nolint.cu:[[#@LINE-1]]:{{[0-9]+}}: warning: 32-way bank conflict on read of shared 'tile'{{.*}}[shared-bank-conflict]
}

__global__ void notAWord(float *out) {
  __shared__ float tile[TILE][TILE];
  tile[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * TILE + threadIdx.x] = tile[threadIdx.x][threadIdx.y]; // XNOLINT, NOLINTED
  // CHECK: nolint.cu:[[#@LINE-1]]:{{[0-9]+}}: warning: 32-way bank conflict on read of shared 'tile'{{.*}}[shared-bank-conflict]
}

__global__ void inString(float *out) {
  __shared__ float tile[TILE][TILE];
  tile[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * TILE + threadIdx.x] = tile[threadIdx.x][threadIdx.y]; if (out[0] < 0.f) printf("NOLINT");
  // CHECK: nolint.cu:[[#@LINE-1]]:{{[0-9]+}}: warning: 32-way bank conflict on read of shared 'tile'{{.*}}[shared-bank-conflict]
}

// After its end the region silences nothing.
__global__ void afterRegion(float *out, float *in) { out[threadIdx.x] = in[threadIdx.x] + 1.f; }
// CHECK: nolint.cu:[[#@LINE-1]]:{{[0-9]+}}: note: pointer parameter 'in' is only read{{.*}}[readonly-param]

// An END that names another list does not close the BEGIN; the BEGIN is
// unmatched and silences nothing.
// NOLINTBEGIN(readonly-param)
__global__ void unmatched(float *out, float *in) { out[threadIdx.x] = in[threadIdx.x] + 3.f; }
// CHECK: nolint.cu:[[#@LINE-1]]:{{[0-9]+}}: note: pointer parameter 'in' is only read{{.*}}[readonly-param]
// NOLINTEND(shared-bank-conflict)

// WARN-DAG: nolint.cu:[[#@LINE-2]]:4: warning: NO{{LINT}}END(shared-bank-conflict) has no matching NO{{LINT}}BEGIN(shared-bank-conflict)
// WARN-DAG: nolint.cu:[[#@LINE-6]]:4: warning: NO{{LINT}}BEGIN(readonly-param) has no matching NO{{LINT}}END(readonly-param); it suppresses nothing
// WARN: 4 warnings and 2 notes in 1 file ({{.*}}); 7 findings suppressed
// SHOWN: 4 warnings and 2 notes in 1 file ({{.*}}); 7 findings suppressed

int main() {
  float *a, *b;
  cudaMalloc(&a, 4096);
  cudaMalloc(&b, 4096);
  sameLine<<<1, dim3(32, 32)>>>(a);
  nextLine<<<1, dim3(32, 32)>>>(a);
  bare<<<1, dim3(32, 32)>>>(a);
  glob<<<1, dim3(32, 32)>>>(a);
  prefixed<<<1, dim3(32, 32)>>>(a);
  otherRule<<<1, dim3(32, 32)>>>(a);
  tooFarAbove<<<1, dim3(32, 32)>>>(a);
  notAWord<<<1, dim3(32, 32)>>>(a);
  inString<<<1, dim3(32, 32)>>>(a);
  return 0;
}

// `--format sarif` carries each finding's fix. Applied by a SARIF consumer
// (byte regions, checked against the line/column regions) the fixes give the
// same file as --fix: padding and const edits here, packing edits (insertions
// that share offsets with replacements) in narrow-access.cu.
// RUN: grep -v CHECK- %s > %t.sarif.cu
// RUN: grep -v CHECK- %s > %t.fixed.cu
// RUN: %not %warplint check %t.sarif.cu --format sarif -o %t.log.sarif
// RUN: %FileCheck --input-file=%t.log.sarif %s --check-prefix=CHECK-SARIF
// RUN: python3 %S/Inputs/apply_sarif_fixes.py %t.log.sarif
// RUN: %not %warplint check %t.fixed.cu --fix > /dev/null 2>&1
// RUN: diff %t.sarif.cu %t.fixed.cu
// RUN: grep -v CHECK- %S/narrow-access.cu > %t.sarif2.cu
// RUN: grep -v CHECK- %S/narrow-access.cu > %t.fixed2.cu
// RUN: %not %warplint check %t.sarif2.cu --format sarif -o %t.log2.sarif
// RUN: python3 %S/Inputs/apply_sarif_fixes.py %t.log2.sarif
// RUN: %not %warplint check %t.fixed2.cu --fix > /dev/null 2>&1
// RUN: diff %t.sarif2.cu %t.fixed2.cu

// CHECK-SARIF: "fixes": [
// CHECK-SARIF: "text": "declare 'in' as 'const float *in'"
// CHECK-SARIF: "deletedRegion": {
// CHECK-SARIF-NEXT: "byteOffset":
// CHECK-SARIF-NEXT: "byteLength": 0,
// CHECK-SARIF-NEXT: "startLine":
// CHECK-SARIF: "insertedContent": {
// CHECK-SARIF-NEXT: "text": "const "
// CHECK-SARIF: "text": "pad the innermost dimension of 'tile' by 1 (32 -> 33 elements a row): 'TILE' -> 'TILE + 1'"
// CHECK-SARIF: "byteLength": 4,
// CHECK-SARIF: "text": "TILE + 1"

#define TILE 32
__global__ void transpose(float *out, float *in) {
  __shared__ float tile[TILE][TILE];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * TILE + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * TILE + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void scale(float *out, float *in, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = s * in[i];
}

// The block shape the padding fix is shown for.
void launchTranspose(float *out, float *in) { transpose<<<1, dim3(TILE, 8)>>>(out, in); }

// The exported YAML, applied by clang-apply-replacements, gives the same
// file as --fix; --fix-dry-run prints the same change as a unified diff and
// leaves the file alone.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: grep -v CHECK- %s > %t.dir/input.cu
// RUN: grep -v CHECK- %s > %t.fixed.cu
// RUN: %not %warplint check %t.dir/input.cu --export-fixes %t.dir/fixes.yaml > /dev/null 2>&1
// RUN: %FileCheck --input-file=%t.dir/fixes.yaml %s --check-prefix=CHECK-YAML
// RUN: clang-apply-replacements %t.dir
// RUN: %not %warplint check %t.fixed.cu --fix > /dev/null 2>&1
// RUN: diff %t.dir/input.cu %t.fixed.cu
// RUN: grep -v CHECK- %s > %t.dry.cu
// RUN: %not %warplint check %t.dry.cu --fix-dry-run --color=never 2>/dev/null | %FileCheck %s --check-prefix=CHECK-DIFF
// RUN: grep -v CHECK- %s | diff - %t.dry.cu
// The same for the packing fixes, whose insertions share offsets with edits.
// RUN: rm -rf %t.dir2 && mkdir -p %t.dir2
// RUN: grep -v CHECK- %S/narrow-access.cu > %t.dir2/input.cu
// RUN: grep -v CHECK- %S/narrow-access.cu > %t.fixed2.cu
// RUN: %not %warplint check %t.dir2/input.cu --export-fixes %t.dir2/fixes.yaml > /dev/null 2>&1
// RUN: clang-apply-replacements %t.dir2
// RUN: %not %warplint check %t.fixed2.cu --fix > /dev/null 2>&1
// RUN: diff %t.dir2/input.cu %t.fixed2.cu

#define TILE 32
__global__ void transpose(float *out, float *in) {
  __shared__ float tile[TILE][TILE];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * TILE + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * TILE + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
int main() { transpose<<<1, dim3(32, 32)>>>(0, 0); }

// CHECK-YAML: MainSourceFile: "{{.*}}input.cu"
// CHECK-YAML: - DiagnosticName: "readonly-param"
// CHECK-YAML: ReplacementText: "const "
// CHECK-YAML: - DiagnosticName: "shared-bank-conflict"
// CHECK-YAML: ReplacementText: "TILE + 1"

// CHECK-DIFF: --- {{.*}}dry.cu
// CHECK-DIFF-NEXT: +++ {{.*}}dry.cu
// CHECK-DIFF-NEXT: @@ -{{[0-9]+}},8 +{{[0-9]+}},8 @@
// CHECK-DIFF: -__global__ void transpose(float *out, float *in) {
// CHECK-DIFF-NEXT: -  __shared__ float tile[TILE][TILE];
// CHECK-DIFF-NEXT: +__global__ void transpose(float *out, const float *in) {
// CHECK-DIFF-NEXT: +  __shared__ float tile[TILE][TILE + 1];

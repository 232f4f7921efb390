// Padding when no padding is conflict-free: a 16x16 block over a 16-wide tile
// writes two rows a warp, so any row pitch that frees the column read makes
// the row write wrap onto itself. The padding with the fewest wavefronts
// above the ideal is applied when it beats the layout as written; the finding
// states the conflicts it leaves, and a note gives the XOR swizzle, which the
// trials show conflict-free. A layout no padding improves is left alone.
// RUN: grep -v CHECK- %s > %t.cu
// RUN: %not %warplint check --fail-min-gain 0 %t.cu --no-cuda-toolkit --fix --color=never > %t.log 2>&1
// RUN: %FileCheck --input-file=%t.cu %s --check-prefix=CHECK-FIXES
// RUN: %FileCheck --input-file=%t.log %s --check-prefix=CHECK-LOG
// Idempotent: the padded tile's remaining 2-way conflicts get no second padding.
// RUN: cp %t.cu %t.again.cu
// RUN: %not %warplint check --fail-min-gain 0 %t.again.cu --no-cuda-toolkit --fix --color=never > %t.again.log 2>&1
// RUN: diff %t.cu %t.again.cu
// RUN: %FileCheck --input-file=%t.again.log %s --check-prefix=CHECK-AGAIN
// The facts behind the choice, in JSON.
// RUN: %not %warplint check --fail-min-gain 0 %s --no-cuda-toolkit --format json | %FileCheck %s --check-prefix=CHECK-JSON

#include <cuda_runtime.h>

__global__ void transpose16(const float *in, float *out) {
  __shared__ float tile[16][16];
  // CHECK-FIXES: {{^}}  __shared__ float tile[16][18];{{$}}
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 16 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 16 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
// CHECK-LOG: warning: 8-way bank conflict on read of shared 'tile'
// [16][17] leaves 2-way conflicts on both the write and the read; [16][18]
// frees the read (rows 18 words apart put odd columns on odd banks) and
// leaves the write 2-way: one wavefront above the ideal against two.
// CHECK-LOG: note: fix (--fix): pad the innermost dimension of 'tile' by 2 (16 -> 18 elements a row): '16' -> '18'; no padding makes every access conflict-free; padding to [16][18] leaves 2-way conflicts on the write 'tile[threadIdx.y][threadIdx.x]' at line {{[0-9]+}} (1 wavefront above the conflict-free ideal over all accesses, against 7 as written)
// CHECK-LOG: note: alternative (not applied): an XOR swizzle is conflict-free for every access of 'tile' and keeps its size [16][16]: write each access tile[r][c] as tile[r][c ^ r] (reads and writes alike)

// A stride inside the row: every padding leaves the same 2-way conflict.
__global__ void strideInRow(float *out) {
  __shared__ float rows[4][64];
  // CHECK-FIXES: {{^}}  __shared__ float rows[4][64];{{$}}
  rows[threadIdx.y][threadIdx.x * 2] = 1.f;
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = rows[threadIdx.y][threadIdx.x];
}
// CHECK-LOG: warning: 2-way bank conflict on write of shared 'rows'
// CHECK-LOG: note: no padding fix: no padding up to 32 elements makes every access conflict-free or lowers the wavefronts of the layout as written

// CHECK-LOG: warplint: fixed {{.*}}: pad the innermost dimension of 'tile' by 2 (16 -> 18 elements a row): '16' -> '18' [shared-bank-conflict]

// After the fix: the 2-way conflicts it stated remain, and no second padding.
// CHECK-AGAIN: warning: 2-way bank conflict on write of shared 'tile'
// CHECK-AGAIN: note: no padding fix: no padding up to {{[0-9]+}} elements makes every access conflict-free or lowers the wavefronts of the layout as written
// CHECK-AGAIN-NOT: warplint: fixed

// CHECK-JSON: "fix": {
// CHECK-JSON: "excess_wavefronts": 1,
// CHECK-JSON-NEXT: "excess_wavefronts_as_written": 7,
// CHECK-JSON: "partial": true,
// CHECK-JSON: "residual": [
// CHECK-JSON: "degree": 2,
// CHECK-JSON: "residual_degree": 2,

int main() {
  transpose16<<<1, dim3(16, 16)>>>(0, 0);
  strideInRow<<<1, dim3(32, 4)>>>(0);
}

// Padding fixes of shared-bank-conflict: applied where safe (macro argument
// edited at the declaration, literals, templates, 8-byte elements), refused
// with the reason when the layout escapes, absent on already padded tiles.
// RUN: grep -v CHECK- %s > %t.cu
// RUN: %not %warplint check %t.cu --fix --color=never > %t.log 2>&1
// RUN: %FileCheck --input-file=%t.cu %s --check-prefix=CHECK-FIXES
// RUN: %FileCheck --input-file=%t.log %s --check-prefix=CHECK-LOG
// Idempotent: a second --fix changes nothing.
// RUN: cp %t.cu %t.again.cu
// RUN: %not %warplint check %t.again.cu --fix --color=never > %t.again.log 2>&1
// RUN: diff %t.cu %t.again.cu
// RUN: %FileCheck --input-file=%t.again.log %s --check-prefix=CHECK-AGAIN

#include <cuda_runtime.h>
#define TILE_DIM 32
#define BLOCK_ROWS 8
// CHECK-FIXES: {{^}}#define TILE_DIM 32{{$}}

__global__ void transposeMacro(float *out, const float *in, int n) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  // CHECK-FIXES: {{^}}  __shared__ float tile[TILE_DIM][TILE_DIM + 1];{{$}}
  int x = blockIdx.x * TILE_DIM + threadIdx.x, y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void literalDouble(double *out) {
  __shared__ double d[32][32];
  // CHECK-FIXES: {{^}}  __shared__ double d[32][33];{{$}}
  d[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = d[threadIdx.x][threadIdx.y];
}

// A 16x16 block: a warp writes two rows. Any padding that frees the column
// read makes the row write conflict (the second row wraps onto the first's
// banks), so the padding with the fewest wavefronts is applied and the
// conflict it leaves is stated (tests/lit/fixes/padding-partial.cu).
__global__ void halfTile(int *out) {
  __shared__ int h[16][16];
  // CHECK-FIXES: {{^}}  __shared__ int h[16][18];{{$}}
  h[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * 16 + threadIdx.x] = h[threadIdx.x][threadIdx.y];
}
// CHECK-LOG: warning: 8-way bank conflict on read of shared 'h'
// CHECK-LOG: note: fix (--fix): pad the innermost dimension of 'h' by 2 (16 -> 18 elements a row): '16' -> '18'; no padding makes every access conflict-free; padding to [16][18] leaves 2-way conflicts on the write 'h[threadIdx.y][threadIdx.x]'

template <int N> __global__ void transposeTemplate(float *out) {
  __shared__ float t[N][N];
  // CHECK-FIXES: {{^}}  __shared__ float t[N][N + 1];{{$}}
  t[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * N + threadIdx.x] = t[threadIdx.x][threadIdx.y];
}
template __global__ void transposeTemplate<32>(float *);

// Already padded: no finding, no second padding.
__global__ void alreadyPadded(float *out) {
  __shared__ float p[32][33];
  // CHECK-FIXES: {{^}}  __shared__ float p[32][33];{{$}}
  p[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = p[threadIdx.x][threadIdx.y];
}

// A 16x16 block over an 18x18 halo tile: each warp covers two rows 18 words
// apart (2-way). The first conflict-free row is 48 words, more than a quarter
// over 18: offered in words only.
__global__ void haloTile(const float *in, float *out) {
  __shared__ float halo[18][18];
  // CHECK-FIXES: {{^}}  __shared__ float halo[18][18];{{$}}
  halo[threadIdx.y + 1][threadIdx.x + 1] = in[threadIdx.y * 16 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 16 + threadIdx.x] = halo[threadIdx.y + 1][threadIdx.x + 1] + halo[threadIdx.y][threadIdx.x + 1];
}
// CHECK-LOG: warning: 2-way bank conflict on write of shared 'halo'
// CHECK-LOG: note: no padding fix: the smallest conflict-free padding is 30 elements (18 -> 48 a row), more than a quarter of the row; an XOR swizzle keeps the size

// float4 elements read by column through a copy: padded by one float4.
__global__ void float4Columns(float4 *out) {
  __shared__ float4 v4[32][8];
  // CHECK-FIXES: {{^}}  __shared__ float4 v4[32][9];{{$}}
  v4[threadIdx.x][threadIdx.y] = make_float4(1.f, 2.f, 3.f, 4.f);
  __syncthreads();
  float4 r = v4[threadIdx.x][threadIdx.y];
  out[threadIdx.y * 32 + threadIdx.x] = r;
}

// ---- refusals: the layout escapes --------------------------------------

__device__ float firstOf(const float *row) { return row[0]; }

__global__ void addressPassedOn(float *out) {
  __shared__ float a[32][32];
  // CHECK-FIXES: {{^}}  __shared__ float a[32][32];{{$}}
  a[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = a[threadIdx.x][threadIdx.y] + firstOf(a[threadIdx.y]);
}
// CHECK-LOG: warning: 32-way bank conflict on read of shared 'a'
// CHECK-LOG: note: no padding fix: its layout escapes: its address is passed to 'firstOf'

__global__ void pointerArithmetic(float *out) {
  __shared__ float b[32][32];
  // CHECK-FIXES: {{^}}  __shared__ float b[32][32];{{$}}
  b[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  float *flat = &b[0][0] + 5;
  out[threadIdx.y * 32 + threadIdx.x] = b[threadIdx.x][threadIdx.y] + *flat;
}
// CHECK-LOG: warning: 32-way bank conflict on read of shared 'b'
// CHECK-LOG: note: no padding fix: its layout escapes:

__global__ void vectorCast(float *out) {
  __shared__ float c[32][32];
  // CHECK-FIXES: {{^}}  __shared__ float c[32][32];{{$}}
  c[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  float4 v = reinterpret_cast<float4 *>(c[threadIdx.y])[threadIdx.x % 8];
  out[threadIdx.y * 32 + threadIdx.x] = c[threadIdx.x][threadIdx.y] + v.x;
}
// CHECK-LOG: warning: 32-way bank conflict on read of shared 'c'
// CHECK-LOG: note: no padding fix: its layout escapes: it is accessed through a cast to 'float4 *' (a vector access that padding would misalign)

__global__ void sizeOfTile(float *out) {
  __shared__ float s[32][32];
  // CHECK-FIXES: {{^}}  __shared__ float s[32][32];{{$}}
  s[threadIdx.y][threadIdx.x] = sizeof(s);
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = s[threadIdx.x][threadIdx.y];
}
// CHECK-LOG: warning: 32-way bank conflict on read of shared 's'
// CHECK-LOG: note: no padding fix: its layout escapes: its size is taken with sizeof

__device__ void bulk_copy_async(float *dst, const float *src, int bytes);
__global__ void asyncCopy(float *out, const float *in) {
  __shared__ float q[32][32];
  // CHECK-FIXES: {{^}}  __shared__ float q[32][32];{{$}}
  bulk_copy_async(&q[0][0], in, sizeof(float) * 1024);
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = q[threadIdx.x][threadIdx.y];
}
// CHECK-LOG: warning: 32-way bank conflict on read of shared 'q'
// CHECK-LOG: note: no padding fix: its layout escapes: it is the target or source of the bulk/async copy 'bulk_copy_async'

__global__ void flattened(float *out) {
  __shared__ float f[32][32];
  // CHECK-FIXES: {{^}}  __shared__ float f[32][32];{{$}}
  int tid = threadIdx.y * 32 + threadIdx.x;
  f[0][tid] = tid;
  __syncthreads();
  out[tid] = f[threadIdx.x][threadIdx.y];
}
// CHECK-LOG: warning: 32-way bank conflict on read of shared 'f'
// CHECK-LOG: note: no padding fix: its layout escapes: the last index of 'f[0][tid]' at line {{[0-9]+}} leaves its row (flattened indexing)

#define DECLARE_TILE(name) __shared__ float name[32][32]
__global__ void declaredInMacro(float *out) {
  DECLARE_TILE(m);
  // CHECK-FIXES: {{^}}  DECLARE_TILE(m);{{$}}
  m[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = m[threadIdx.x][threadIdx.y];
}
// CHECK-LOG: warning: 32-way bank conflict on read of shared 'm'
// CHECK-LOG: note: no padding fix: its innermost dimension is not written at the declaration

__global__ void oneDimensional(int *out) {
  __shared__ int o[1024];
  // CHECK-FIXES: {{^}}  __shared__ int o[1024];{{$}}
  o[threadIdx.x * 32] = 1;
  __syncthreads();
  out[threadIdx.x] = o[threadIdx.x];
}
// CHECK-LOG: note: no padding fix: a one-dimensional array has no rows to pad

// CHECK-LOG: warplint: fixed {{.*}}: pad the innermost dimension of 'tile' by 1 (32 -> 33 elements a row): 'TILE_DIM' -> 'TILE_DIM + 1' [shared-bank-conflict]
// CHECK-LOG: warplint: fixed {{.*}}: pad the innermost dimension of 'd' by 1 (32 -> 33 elements a row): '32' -> '33'
// CHECK-LOG: warplint: fixed {{.*}}: pad the innermost dimension of 'h' by 2 (16 -> 18 elements a row): '16' -> '18'
// CHECK-LOG: warplint: fixed {{.*}}: pad the innermost dimension of 't' by 1 (32 -> 33 elements a row): 'N' -> 'N + 1'

// CHECK-AGAIN-NOT: warplint: fixed
// CHECK-AGAIN-NOT: pad the innermost

int main() {
  transposeMacro<<<dim3(32, 32), dim3(TILE_DIM, BLOCK_ROWS)>>>(0, 0, 1024);
  literalDouble<<<1, dim3(32, 32)>>>(0);
  halfTile<<<1, dim3(16, 16)>>>(0);
  alreadyPadded<<<1, dim3(32, 32)>>>(0);
  addressPassedOn<<<1, dim3(32, 32)>>>(0);
  pointerArithmetic<<<1, dim3(32, 32)>>>(0);
  vectorCast<<<1, dim3(32, 32)>>>(0);
  sizeOfTile<<<1, dim3(32, 32)>>>(0);
  asyncCopy<<<1, dim3(32, 32)>>>(0, 0);
  flattened<<<1, dim3(32, 32)>>>(0);
  declaredInMacro<<<1, dim3(32, 32)>>>(0);
  oneDimensional<<<1, 32>>>(0);
  haloTile<<<1, dim3(16, 16)>>>(0, 0);
  float4Columns<<<1, dim3(32, 8)>>>(0);
  transposeTemplate<32><<<1, dim3(32, 8)>>>(0);
}

// Ground-truth corpus: shared-memory tiles of several shapes and element
// sizes, padded and swizzled, broadcasts, 3-D blocks and warp-id offsets.
// Convention: at most one shared access and one global access per source
// line, so that ncu's per-line counters belong to one access each.
// Expected verdicts (shared / global) are noted as POS/NEG before each kernel.
#include "common.cuh"

constexpr int T = 32;
constexpr int ROWS = 8;

// K01 float 32x32 transpose, column read: shared POS (32-way), global NEG.
__global__ void trF32Naive(const float *in, float *out, int n) {
  __shared__ float tile[T][T];
  int x = blockIdx.x * T + threadIdx.x;
  int y = blockIdx.y * T + threadIdx.y;
  for (int j = 0; j < T; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * T + threadIdx.x;
  y = blockIdx.x * T + threadIdx.y;
  for (int j = 0; j < T; j += ROWS) {
    float v = tile[threadIdx.x][threadIdx.y + j];
    out[(y + j) * n + x] = v;
  }
}

// K02 float 32x33 (padded) transpose: shared NEG, global NEG.
__global__ void trF32Pad(const float *in, float *out, int n) {
  __shared__ float tile[T][T + 1];
  int x = blockIdx.x * T + threadIdx.x;
  int y = blockIdx.y * T + threadIdx.y;
  for (int j = 0; j < T; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * T + threadIdx.x;
  y = blockIdx.x * T + threadIdx.y;
  for (int j = 0; j < T; j += ROWS) {
    float v = tile[threadIdx.x][threadIdx.y + j];
    out[(y + j) * n + x] = v;
  }
}

// K03 double 32x32 transpose: the column read conflicts in each half-warp
// phase: shared POS (16-way), global NEG.
__global__ void trF64Naive(const double *in, double *out, int n) {
  __shared__ double tile[T][T];
  int x = blockIdx.x * T + threadIdx.x;
  int y = blockIdx.y * T + threadIdx.y;
  for (int j = 0; j < T; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * T + threadIdx.x;
  y = blockIdx.x * T + threadIdx.y;
  for (int j = 0; j < T; j += ROWS) {
    double v = tile[threadIdx.x][threadIdx.y + j];
    out[(y + j) * n + x] = v;
  }
}

// K04 double 32x33: shared NEG, global NEG.
__global__ void trF64Pad(const double *in, double *out, int n) {
  __shared__ double tile[T][T + 1];
  int x = blockIdx.x * T + threadIdx.x;
  int y = blockIdx.y * T + threadIdx.y;
  for (int j = 0; j < T; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * T + threadIdx.x;
  y = blockIdx.x * T + threadIdx.y;
  for (int j = 0; j < T; j += ROWS) {
    double v = tile[threadIdx.x][threadIdx.y + j];
    out[(y + j) * n + x] = v;
  }
}

// K05 16x16 float tile, (16,16) block, column read: shared POS (8-way),
// global NEG (two 64-byte rows a warp).
__global__ void tr16Naive(const float *in, float *out, int n) {
  __shared__ float tile[16][16];
  int x = blockIdx.x * 16 + threadIdx.x;
  int y = blockIdx.y * 16 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  float v = tile[threadIdx.x][threadIdx.y];
  out[(blockIdx.x * 16 + threadIdx.y) * n + blockIdx.y * 16 + threadIdx.x] = v;
}

// K06 16x17 padded: shared NEG, global NEG.
__global__ void tr16Pad(const float *in, float *out, int n) {
  __shared__ float tile[16][17];
  int x = blockIdx.x * 16 + threadIdx.x;
  int y = blockIdx.y * 16 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  float v = tile[threadIdx.x][threadIdx.y];
  out[(blockIdx.x * 16 + threadIdx.y) * n + blockIdx.y * 16 + threadIdx.x] = v;
}

// K07 byte tile 32x32, column read: four lanes a word apart... 32 bytes a
// row puts lanes 8 words apart: shared POS (8-way); byte rows: global NEG.
__global__ void trU8Naive(const unsigned char *in, unsigned char *out, int n) {
  __shared__ unsigned char tile[T][T];
  int x = blockIdx.x * T + threadIdx.x;
  int y = blockIdx.y * T + threadIdx.y;
  for (int j = 0; j < T; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * T + threadIdx.x;
  y = blockIdx.x * T + threadIdx.y;
  for (int j = 0; j < T; j += ROWS) {
    unsigned char v = tile[threadIdx.x][threadIdx.y + j];
    out[(y + j) * n + x] = v;
  }
}

// K08 XOR-swizzled 32x32 float tile: element (r, c) lives at [r][c ^ r].
// shared NEG both ways, global NEG.
__global__ void trF32Swizzle(const float *in, float *out, int n) {
  __shared__ float tile[T][T];
  int x = blockIdx.x * T + threadIdx.x;
  int y = blockIdx.y * T + threadIdx.y;
  for (int j = 0; j < T; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x ^ (threadIdx.y + j)] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * T + threadIdx.x;
  y = blockIdx.x * T + threadIdx.y;
  for (int j = 0; j < T; j += ROWS) {
    float v = tile[threadIdx.x][(threadIdx.y + j) ^ threadIdx.x];
    out[(y + j) * n + x] = v;
  }
}

// K09 broadcasts: every lane of a warp reads one word (row head), then a
// row of the tile: shared NEG, global NEG.
__global__ void bcastRow(const float *in, float *out, int n) {
  __shared__ float tile[ROWS][T];
  int x = blockIdx.x * T + threadIdx.x;
  int y = blockIdx.y * ROWS + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  float head = tile[threadIdx.y][0];
  float first = tile[0][threadIdx.x];
  out[y * n + x] = head * first;
}

// K10 float4 tile read by rows: shared NEG (quarter-warp phases), global NEG.
__global__ void f4Rows(const float4 *in, float4 *out) {
  __shared__ float4 s4[ROWS][T];
  int t = blockIdx.x * (ROWS * T) + threadIdx.y * T + threadIdx.x;
  s4[threadIdx.y][threadIdx.x] = in[t];
  __syncthreads();
  float4 v = s4[ROWS - 1 - threadIdx.y][threadIdx.x];
  out[t] = v;
}

// K11 float4 tile read by columns (lanes 128 bytes apart): shared POS
// (8-way in each quarter-warp phase), global NEG.
__global__ void f4Cols(const float4 *in, float4 *out) {
  __shared__ float4 s4[T][ROWS];
  int t = blockIdx.x * (ROWS * T) + threadIdx.y * T + threadIdx.x;
  s4[threadIdx.x][threadIdx.y] = in[t];
  __syncthreads();
  float4 v = s4[threadIdx.x][ROWS - 1 - threadIdx.y];
  out[t] = v;
}

// K12 float2 32x32 tile read by columns: shared POS (16-way per half-warp).
__global__ void f2Cols(const float2 *in, float2 *out, int n) {
  __shared__ float2 s2[T][T];
  int x = blockIdx.x * T + threadIdx.x;
  int y = blockIdx.y * T + threadIdx.y;
  for (int j = 0; j < T; j += ROWS)
    s2[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  for (int j = 0; j < T; j += ROWS) {
    float2 v = s2[threadIdx.x][threadIdx.y + j];
    out[(y + j) * n + x] = v;
  }
}

// K13 float2 32x33 padded: shared NEG.
__global__ void f2ColsPad(const float2 *in, float2 *out, int n) {
  __shared__ float2 s2[T][T + 1];
  int x = blockIdx.x * T + threadIdx.x;
  int y = blockIdx.y * T + threadIdx.y;
  for (int j = 0; j < T; j += ROWS)
    s2[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  for (int j = 0; j < T; j += ROWS) {
    float2 v = s2[threadIdx.x][threadIdx.y + j];
    out[(y + j) * n + x] = v;
  }
}

// K14 3-D block (8,4,4), tile indexed [z][y][x]: shared NEG, global NEG.
__global__ void block3dLinear(const float *in, float *out) {
  __shared__ float s[4][4][8];
  int t = (threadIdx.z * 4 + threadIdx.y) * 8 + threadIdx.x;
  int g = blockIdx.x * 128 + t;
  s[threadIdx.z][threadIdx.y][threadIdx.x] = in[g];
  __syncthreads();
  float v = s[3 - threadIdx.z][threadIdx.y][threadIdx.x];
  out[g] = v;
}

// K15 3-D block (8,4,4), tile indexed [x][y][z]: lanes 16 words apart in x
// and 4 in y: shared POS (4-way), global NEG.
__global__ void block3dSwapped(const float *in, float *out) {
  __shared__ float s[8][4][4];
  int t = (threadIdx.z * 4 + threadIdx.y) * 8 + threadIdx.x;
  int g = blockIdx.x * 128 + t;
  s[threadIdx.x][threadIdx.y][threadIdx.z] = in[g];
  __syncthreads();
  float v = s[threadIdx.x][threadIdx.y][3 - threadIdx.z];
  out[g] = v;
}

// K16 warp-id offset, row per warp: shared NEG, global NEG.
__global__ void warpRows(const float *in, float *out) {
  __shared__ float s[8][32];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int g = blockIdx.x * 256 + threadIdx.x;
  s[warp][lane] = in[g];
  __syncthreads();
  float v = s[7 - warp][lane];
  out[g] = v;
}

// K17 warp-id offset, column per warp ([lane][warp], 8 words a row):
// shared POS (8-way), global NEG.
__global__ void warpCols(const float *in, float *out) {
  __shared__ float s[32][8];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int g = blockIdx.x * 256 + threadIdx.x;
  s[lane][warp] = in[g];
  __syncthreads();
  float v = s[lane][7 - warp];
  out[g] = v;
}

// K18 warp-id offset, column per warp with 9-word rows: shared NEG.
__global__ void warpColsPad(const float *in, float *out) {
  __shared__ float s[32][9];
  int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  int g = blockIdx.x * 256 + threadIdx.x;
  s[lane][warp] = in[g];
  __syncthreads();
  float v = s[lane][7 - warp];
  out[g] = v;
}

int main() {
  const int n = 1024; // row pitch in elements (warplint assumes 1024 too)
  float *fi = (float *)devbuf(size_t(n) * n * 4, 1);
  float *fo = (float *)devbuf(size_t(n) * n * 4, 2);
  double *di = (double *)devbuf(size_t(n) * n * 8, 3);
  double *dout = (double *)devbuf(size_t(n) * n * 8, 4);
  dim3 blk(T, ROWS), grd(8, 8);
  RUN("trF32Naive", (trF32Naive<<<grd, blk>>>(fi, fo, n)));
  RUN("trF32Pad", (trF32Pad<<<grd, blk>>>(fi, fo, n)));
  RUN("trF64Naive", (trF64Naive<<<grd, blk>>>(di, dout, n)));
  RUN("trF64Pad", (trF64Pad<<<grd, blk>>>(di, dout, n)));
  RUN("tr16Naive", (tr16Naive<<<dim3(8, 8), dim3(16, 16)>>>(fi, fo, n)));
  RUN("tr16Pad", (tr16Pad<<<dim3(8, 8), dim3(16, 16)>>>(fi, fo, n)));
  RUN("trU8Naive", (trU8Naive<<<grd, blk>>>((const unsigned char *)fi,
                                            (unsigned char *)fo, n)));
  RUN("trF32Swizzle", (trF32Swizzle<<<grd, blk>>>(fi, fo, n)));
  RUN("bcastRow", (bcastRow<<<grd, blk>>>(fi, fo, n)));
  RUN("f4Rows", (f4Rows<<<64, blk>>>((const float4 *)fi, (float4 *)fo)));
  RUN("f4Cols", (f4Cols<<<64, blk>>>((const float4 *)fi, (float4 *)fo)));
  RUN("f2Cols", (f2Cols<<<grd, blk>>>((const float2 *)di, (float2 *)dout, n)));
  RUN("f2ColsPad",
      (f2ColsPad<<<grd, blk>>>((const float2 *)di, (float2 *)dout, n)));
  RUN("block3dLinear", (block3dLinear<<<64, dim3(8, 4, 4)>>>(fi, fo)));
  RUN("block3dSwapped", (block3dSwapped<<<64, dim3(8, 4, 4)>>>(fi, fo)));
  RUN("warpRows", (warpRows<<<64, 256>>>(fi, fo)));
  RUN("warpCols", (warpCols<<<64, 256>>>(fi, fo)));
  RUN("warpColsPad", (warpColsPad<<<64, 256>>>(fi, fo)));
  CK(cudaFree(fi));
  CK(cudaFree(fo));
  CK(cudaFree(di));
  CK(cudaFree(dout));
  printf("tiles: done\n");
  return 0;
}

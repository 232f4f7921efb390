// Wild-idiom corpus, group 1: launch shapes set indirectly. Kernels launched
// through function-pointer variables and tables, block shapes built by member
// assignment, sizes in const/constexpr variables, macros and template
// arguments, __launch_bounds__, cudaLaunchKernel, a launch-config struct, and
// partial shapes (x = 1, y = h: the lanes run along y). Each verdict depends on
// the shape. Convention (as in tiles.cu): at most one shared and one global
// access per source line. Expected (shared / global) before each kernel.
#include "wild.cuh"

constexpr int N = 256; // matrices are N x N ints
#define BLK_W 32
#define BLK_H 4
const int kRows = 8;

typedef void (*MatKernel)(const int *, int *, int);

// S01 launched through a function-pointer variable, block (32, 8): the
// column read of a 32x32 tile: shared POS (32-way), global NEG.
__global__ void fpTranspose(const int *in, int *out, int n) {
  __shared__ int tile[32][32];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) {
    int v = in[(y + j) * n + x];
    tile[threadIdx.y + j][threadIdx.x] = v;
  }
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) {
    int v = tile[threadIdx.x][threadIdx.y + j];
    out[(y + j) * n + x] = v;
  }
}

// S02 table entry 0, block (32, 8): padded 32x33 transpose: shared NEG, global NEG.
__global__ void tablePadded(const int *in, int *out, int n) {
  __shared__ int tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) {
    int v = in[(y + j) * n + x];
    tile[threadIdx.y + j][threadIdx.x] = v;
  }
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) {
    int v = tile[threadIdx.x][threadIdx.y + j];
    out[(y + j) * n + x] = v;
  }
}

// S03 table entry 1, block (32, 8): transpose without a tile, the read walks
// a column: global POS on the read, NEG on the write.
__global__ void tableColumn(const int *in, int *out, int n) {
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
  int v = in[x * n + y];
  out[y * n + x] = v;
}

static const MatKernel kTable[] = {tablePadded, tableColumn};

// S04 block (16, 16) set by member assignment: 16x16 tile read by columns:
// shared POS (8-way: two half-warps, 16 words a row), global NEG.
__global__ void memberDimTile(const int *in, int *out, int n) {
  __shared__ int tile[16][16];
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  int v = in[y * n + x];
  tile[threadIdx.y][threadIdx.x] = v;
  __syncthreads();
  int w = tile[threadIdx.x][threadIdx.y];
  out[(blockIdx.x * 16 + threadIdx.y) * n + blockIdx.y * 16 + threadIdx.x] = w;
}

// S05 block (8, 32) set by member assignment: a warp covers 4 rows of 8
// ints (one sector each): global NEG; shared rows mirrored: NEG.
__global__ void memberDimNarrow(const int *in, int *out, int n) {
  __shared__ int s[32][8];
  int x = blockIdx.x * 8 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  int v = in[y * n + x];
  s[threadIdx.y][threadIdx.x] = v;
  __syncthreads();
  int w = s[31 - threadIdx.y][threadIdx.x];
  out[y * n + x] = w;
}

// S06 sizes in constexpr variables, block (W, kRows) = (32, 8): a constexpr
// 32-word tile read by columns: shared POS (32-way), global NEG.
template <int W> __global__ void constexprTile(const int *in, int *out, int n) {
  __shared__ int tile[W][W];
  int x = blockIdx.x * W + threadIdx.x, y = blockIdx.y * W + threadIdx.y;
  for (int j = 0; j < W; j += kRows) {
    int v = in[(y + j) * n + x];
    tile[threadIdx.y + j][threadIdx.x] = v;
  }
  __syncthreads();
  int acc = 0;
  for (int j = 0; j < W; j += kRows) {
    int v = tile[threadIdx.x][threadIdx.y + j]; // must-agree: shared
    acc += v;
  }
  out[y * n + x] = acc;
}

// S07 sizes in macros, block (BLK_W, BLK_H) = (32, 4): lane tx reads row
// tx % 4, column tx / 4 + 8 * ty of a 4x32 tile: four lanes a bank in four
// rows: shared POS (4-way), global NEG.
__global__ void macroRows(const int *in, int *out, int n) {
  __shared__ int s[BLK_H][BLK_W];
  int x = blockIdx.x * BLK_W + threadIdx.x, y = blockIdx.y * BLK_H + threadIdx.y;
  int v = in[y * n + x];
  s[threadIdx.y][threadIdx.x] = v;
  __syncthreads();
  int r = threadIdx.x % BLK_H, c = (threadIdx.x / BLK_H) + 8 * threadIdx.y;
  int w = s[r][c]; // must-agree: shared
  out[y * n + x] = w;
}

// S08 block size a template argument of the launching function (THREADS =
// 64): each thread sums two adjacent words, s[2 * t]: shared POS (2-way);
// global read in[t] NEG.
template <int THREADS> __global__ void tmplPairs(const int *in, int *out) {
  __shared__ int s[2 * THREADS];
  int t = threadIdx.x;
  int a = in[blockIdx.x * 2 * THREADS + t];
  s[t] = a;
  int b = in[blockIdx.x * 2 * THREADS + THREADS + t];
  s[THREADS + t] = b;
  __syncthreads();
  int v = s[2 * t]; // must-agree: shared
  out[blockIdx.x * THREADS + t] = v;
}
template <int THREADS> void launchPairs(const int *in, int *out, int blocks) {
  RUN("tmplPairs", (tmplPairs<THREADS><<<blocks, THREADS>>>(in, out)));
}

// S09 __launch_bounds__(128), launched with a const int: stride-4 words:
// shared POS (4-way), global read stride 4 ints POS.
__global__ void __launch_bounds__(128) boundsStride4(const int *in, int *out) {
  __shared__ int s[4 * 128];
  int t = threadIdx.x;
  for (int k = 0; k < 4; ++k)
    s[t + 128 * k] = t + k;
  __syncthreads();
  int v = s[4 * t]; // must-agree: shared
  int g = in[blockIdx.x * 512 + 4 * t]; // must-agree: global
  out[blockIdx.x * 128 + t] = v + g;
}

// S10 partial shape (1, 32): the lanes run along y. A tile indexed
// [threadIdx.x][threadIdx.y] is a row here: shared NEG; global read of a
// row, in[... + threadIdx.y]: NEG.
__global__ void partialYRow(const int *in, int *out, int n) {
  __shared__ int s[1][32];
  int row = blockIdx.x, col = blockIdx.y * 32 + threadIdx.y;
  int v = in[row * n + col + threadIdx.x];
  s[threadIdx.x][threadIdx.y] = v;
  __syncwarp();
  int w = s[threadIdx.x][31 - threadIdx.y];
  out[row * n + col] = w;
}

// S11 partial shape (1, h), h = 64 from a const: the lanes run along y and
// each reads one row of a column: global POS; s[threadIdx.y][threadIdx.x]
// on a 64x32 tile: shared POS (32-way).
__global__ void partialYColumn(const int *in, int *out, int n) {
  __shared__ int s[64][32];
  int col = blockIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
  int v = in[row * n + col]; // must-agree: global
  s[threadIdx.y][threadIdx.x] = v; // must-agree: shared
  __syncthreads();
  int w = s[threadIdx.y][threadIdx.x]; // must-agree: shared
  out[row * n + col] = w + 1; // must-agree: global
}

// S12 launched by a host wrapper from a config struct, block (32, 8): the
// indices are swapped, the lanes walk a column: global POS (read), NEG
// (write).
struct LaunchCfg {
  dim3 grid, block;
};
__global__ void cfgSwapped(const int *in, int *out, int n) {
  int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[c * n + r];
  out[r * n + c] = v;
}
void launchCfg(const LaunchCfg &cfg, const int *in, int *out, int n) {
  RUN("cfgSwapped", (cfgSwapped<<<cfg.grid, cfg.block>>>(in, out, n)));
}

// S13 launched with cudaLaunchKernel, block (64, 1) under __launch_bounds__(64):
// linear shared and global: NEG, NEG.
__global__ void __launch_bounds__(64) apiLinear(const int *in, int *out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  int v = in[blockIdx.x * 64 + t];
  s[t] = v;
  __syncthreads();
  int w = s[63 - t];
  out[blockIdx.x * 64 + t] = w;
}

// S14 block (16, 2) in a dim3 copied from another: lanes 0-15 in row y,
// 16-31 in row y+1 of a 2x16 tile, halves swapped by tx ^ 8: shared NEG;
// global: two rows of 16 ints: NEG.
__global__ void copiedDim(const int *in, int *out, int n) {
  __shared__ int s[2][16];
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 2 + threadIdx.y;
  int v = in[y * n + x];
  s[threadIdx.y][threadIdx.x] = v;
  __syncwarp();
  int w = s[threadIdx.y][threadIdx.x ^ 8];
  out[y * n + x] = w;
}

// S15 launched through the kernel table with the partial shape (1, 32):
// the lanes run along y, so s[threadIdx.x][threadIdx.y] is a row: shared
// NEG (with a (32, 8) block it would be 32-way); global NEG.
__global__ void tableLanesY(const int *in, int *out, int n) {
  __shared__ int s[32][32];
  int row = blockIdx.y, col = blockIdx.x * 32 + threadIdx.y;
  int v = in[row * n + col + threadIdx.x];
  s[threadIdx.x][threadIdx.y] = v;
  __syncwarp();
  int w = s[threadIdx.x][threadIdx.y ^ 1];
  out[row * n + col] = w;
}

static const MatKernel kLanesY[] = {tableLanesY};

int main() {
  const int n = N;
  std::vector<int> h = hostSeq<int>(n * n, 1);
  int *in = toDevice(h);
  int *out = devZero<int>(n * n);
  auto at = [&](int r, int c) { return h[r * n + c]; };
  std::vector<int> tr = transposed(h, n), want(n * n);

  MatKernel fp = fpTranspose; // S01
  RUN("fpTranspose", (fp<<<dim3(n / 32, n / 32), dim3(32, 8)>>>(in, out, n)));
  expect("fpTranspose", out, tr);

  RUN("tablePadded", (kTable[0]<<<dim3(n / 32, n / 32), dim3(32, kRows)>>>(in, out, n))); // S02
  expect("tablePadded", out, tr);

  CK(cudaMemset(out, 0, n * n * 4));
  RUN("tableColumn", (kTable[1]<<<dim3(n / 32, n / 8), dim3(32, kRows)>>>(in, out, n))); // S03
  expect("tableColumn", out, tr);

  dim3 b16; // S04
  b16.x = 16;
  b16.y = 16;
  CK(cudaMemset(out, 0, n * n * 4));
  RUN("memberDimTile", (memberDimTile<<<dim3(n / 16, n / 16), b16>>>(in, out, n)));
  expect("memberDimTile", out, tr);

  dim3 b8x32; // S05
  b8x32.x = 8;
  b8x32.y = 32;
  b8x32.z = 1;
  RUN("memberDimNarrow", (memberDimNarrow<<<dim3(n / 8, n / 32), b8x32>>>(in, out, n)));
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c)
      want[r * n + c] = at((r / 32) * 32 + 31 - r % 32, c);
  expect("memberDimNarrow", out, want);

  constexpr int W = 32; // S06
  RUN("constexprTile", (constexprTile<W><<<dim3(n / W, n / W), dim3(W, kRows)>>>(in, out, n)));
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      if (r % 32 >= 8)
        continue; // only rows 0-7 of each tile are written
      int tr0 = (r / 32) * 32, tc0 = (c / 32) * 32, acc = 0;
      for (int j = 0; j < 32; j += 8)
        acc += at(tr0 + c % 32, tc0 + r % 32 + j);
      want[r * n + c] = acc;
    }
  {
    std::vector<int> got(n * n);
    CK(cudaMemcpy(got.data(), out, n * n * 4, cudaMemcpyDeviceToHost));
    for (int r = 0; r < n; ++r)
      if (r % 32 >= 8)
        for (int c = 0; c < n; ++c)
          want[r * n + c] = got[r * n + c];
  }
  expect("constexprTile", out, want);

  RUN("macroRows", (macroRows<<<dim3(n / BLK_W, n / BLK_H), dim3(BLK_W, BLK_H)>>>(in, out, n))); // S07
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      int tx = c % 32, ty = r % 4;
      int rr = tx % 4, cc = tx / 4 + 8 * ty;
      want[r * n + c] = at((r / 4) * 4 + rr, (c / 32) * 32 + cc);
    }
  expect("macroRows", out, want);

  launchPairs<64>(in, out, 64); // S08
  for (int i = 0; i < 64 * 64; ++i)
    want[i] = h[(i / 64) * 128 + (2 * (i % 64)) % 128];
  expect("tmplPairs", out, std::vector<int>(want.begin(), want.begin() + 64 * 64));

  const int threads128 = 128; // S09
  RUN("boundsStride4", (boundsStride4<<<64, threads128>>>(in, out)));
  for (int i = 0; i < 64 * 128; ++i) {
    int t = i % 128, s4 = 4 * t;
    want[i] = (s4 % 128) + s4 / 128 + h[(i / 128) * 512 + 4 * t];
  }
  expect("boundsStride4", out, std::vector<int>(want.begin(), want.begin() + 64 * 128));

  dim3 lanesY(1, 32); // S10
  RUN("partialYRow", (partialYRow<<<dim3(n, n / 32), lanesY>>>(in, out, n)));
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c)
      want[r * n + c] = at(r, (c / 32) * 32 + 31 - c % 32);
  expect("partialYRow", out, want);

  const int h64 = 64; // S11
  RUN("partialYColumn", (partialYColumn<<<dim3(n, n / h64), dim3(1, h64)>>>(in, out, n)));
  for (int i = 0; i < n * n; ++i)
    want[i] = h[i] + 1;
  expect("partialYColumn", out, want);

  LaunchCfg cfg; // S12
  cfg.block = dim3(32, 8);
  cfg.grid = dim3(n / cfg.block.x, n / cfg.block.y);
  launchCfg(cfg, in, out, n);
  expect("cfgSwapped", out, tr);

  { // S13
    const int *a0 = in;
    int *a1 = out;
    void *args[] = {(void *)&a0, (void *)&a1};
    RUN("apiLinear", CK(cudaLaunchKernel((const void *)apiLinear, dim3(64), dim3(64), args, 0, 0)));
    for (int i = 0; i < 64 * 64; ++i)
      want[i] = h[(i / 64) * 64 + 63 - i % 64];
    expect("apiLinear", out, std::vector<int>(want.begin(), want.begin() + 64 * 64));
  }

  dim3 base(16, 2), blk = base; // S14
  RUN("copiedDim", (copiedDim<<<dim3(n / 16, n / 2), blk>>>(in, out, n)));
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c)
      want[r * n + c] = at(r, (c / 16) * 16 + ((c % 16) ^ 8));
  expect("copiedDim", out, want);

  RUN("tableLanesY", (kLanesY[0]<<<dim3(n / 32, n), dim3(1, 32)>>>(in, out, n))); // S15
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c)
      want[r * n + c] = at(r, c ^ 1);
  expect("tableLanesY", out, want);

  freeAll(in, out);
  return finish("wild_shapes");
}

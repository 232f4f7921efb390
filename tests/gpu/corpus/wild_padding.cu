// Wild-idiom corpus, group 5: imperfect and perfect padding. 16x16 blocks
// over 16-wide tiles padded to 17 (2-way left: the two half-warps meet in
// one bank), 18 (column read conflict-free, row write not) and 33 (2-way),
// XOR swizzles that work and one that uses too few bits, padding on the
// wrong dimension, padding by 2, doubles, and manual 1-D padding.
// Convention: at most one shared and one global access per source line.
// Expected (shared / global) before each kernel.
#include "wild.cuh"

constexpr int N = 256;

// P01 block (16, 16), tile [16][17]: the two half-warps meet in one bank
// on the row write and on the column read: shared POS (2-way, both);
// global NEG.
__global__ void pad17For16(const int *in, int *out, int n) {
  __shared__ int tile[16][17];
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  int v = in[y * n + x];
  tile[threadIdx.y][threadIdx.x] = v; // must-agree: shared
  __syncthreads();
  int w = tile[threadIdx.x][threadIdx.y]; // must-agree: shared
  out[(blockIdx.x * 16 + threadIdx.y) * n + blockIdx.y * 16 + threadIdx.x] = w;
}

// P02 block (16, 16), tile [16][16]: shared POS (8-way); global NEG.
__global__ void pad16For16(const int *in, int *out, int n) {
  __shared__ int tile[16][16];
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  int v = in[y * n + x];
  tile[threadIdx.y][threadIdx.x] = v;
  __syncthreads();
  int w = tile[threadIdx.x][threadIdx.y]; // must-agree: shared
  out[(blockIdx.x * 16 + threadIdx.y) * n + blockIdx.y * 16 + threadIdx.x] = w;
}

// P03 block (16, 16), tile [16][18]: the column read puts one half-warp on
// even banks and the other on odd ones: NEG; the row write still has the
// half-warps meet in two banks: POS (2-way); global NEG.
__global__ void pad18For16(const int *in, int *out, int n) {
  __shared__ int tile[16][18];
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  int v = in[y * n + x];
  tile[threadIdx.y][threadIdx.x] = v; // must-agree: shared
  __syncthreads();
  int w = tile[threadIdx.x][threadIdx.y];
  out[(blockIdx.x * 16 + threadIdx.y) * n + blockIdx.y * 16 + threadIdx.x] = w;
}

// P04 block (16, 16), tile [16][33] (the 32-wide recipe on a 16-wide
// block): shared POS (2-way, write and read); global NEG.
__global__ void pad33For16(const int *in, int *out, int n) {
  __shared__ int tile[16][33];
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  int v = in[y * n + x];
  tile[threadIdx.y][threadIdx.x] = v; // must-agree: shared
  __syncthreads();
  int w = tile[threadIdx.x][threadIdx.y]; // must-agree: shared
  out[(blockIdx.x * 16 + threadIdx.y) * n + blockIdx.y * 16 + threadIdx.x] = w;
}

// P05 block (32, 8), tile [32][33]: shared NEG; global NEG.
__global__ void pad33For32(const int *in, int *out, int n) {
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

// P06 block (32, 8), tile [32][32] with an XOR swizzle, element (r, c) at
// [r][c ^ r]: shared NEG (write and read); global NEG.
__global__ void xorSwizzle32(const int *in, int *out, int n) {
  __shared__ int tile[32][32];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) {
    int r = threadIdx.y + j;
    int v = in[(y + j) * n + x];
    tile[r][threadIdx.x ^ r] = v;
  }
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) {
    int c = threadIdx.y + j;
    int v = tile[threadIdx.x][c ^ threadIdx.x];
    out[(y + j) * n + x] = v;
  }
}

// P07 the swizzle with too few bits, [r][c ^ (r & 7)]: the column read
// reaches 8 banks: shared POS (4-way); the row write stays NEG; global NEG.
__global__ void xorSwizzle3Bits(const int *in, int *out, int n) {
  __shared__ int tile[32][32];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) {
    int r = threadIdx.y + j;
    int v = in[(y + j) * n + x];
    tile[r][threadIdx.x ^ (r & 7)] = v;
  }
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) {
    int c = threadIdx.y + j;
    int v = tile[threadIdx.x][c ^ (threadIdx.x & 7)]; // must-agree: shared
    out[(y + j) * n + x] = v;
  }
}

// P08 block (16, 16), a 16x16 tile with an XOR swizzle [r][c ^ r]: shared
// NEG (write and read); global NEG.
__global__ void xorSwizzle16(const int *in, int *out, int n) {
  __shared__ int tile[16][16];
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  int v = in[y * n + x];
  tile[threadIdx.y][threadIdx.x ^ threadIdx.y] = v;
  __syncthreads();
  int w = tile[threadIdx.x][threadIdx.y ^ threadIdx.x];
  out[(blockIdx.x * 16 + threadIdx.y) * n + blockIdx.y * 16 + threadIdx.x] = w;
}

// P09 padding on the wrong dimension, [33][32], block (32, 8): shared POS
// (32-way on the column read); global NEG.
__global__ void padRows(const int *in, int *out, int n) {
  __shared__ int tile[33][32];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) {
    int v = in[(y + j) * n + x];
    tile[threadIdx.y + j][threadIdx.x] = v;
  }
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) {
    int v = tile[threadIdx.x][threadIdx.y + j]; // must-agree: shared
    out[(y + j) * n + x] = v;
  }
}

// P10 padding by 2, [32][34], block (32, 8): lanes tx and tx + 16 meet:
// shared POS (2-way); global NEG.
__global__ void pad34For32(const int *in, int *out, int n) {
  __shared__ int tile[32][34];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) {
    int v = in[(y + j) * n + x];
    tile[threadIdx.y + j][threadIdx.x] = v;
  }
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) {
    int v = tile[threadIdx.x][threadIdx.y + j]; // must-agree: shared
    out[(y + j) * n + x] = v;
  }
}

// P11 doubles, [32][33], block (32, 8): rows 66 words apart, each half-warp
// phase covers 32 banks: shared NEG; global NEG.
__global__ void doublePad33(const double *in, double *out, int n) {
  __shared__ double tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) {
    double v = in[(y + j) * n + x];
    tile[threadIdx.y + j][threadIdx.x] = v;
  }
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) {
    double v = tile[threadIdx.x][threadIdx.y + j];
    out[(y + j) * n + x] = v;
  }
}

// P12 doubles, [32][32]: shared POS (16-way a phase); global NEG.
__global__ void doublePad32(const double *in, double *out, int n) {
  __shared__ double tile[32][32];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) {
    double v = in[(y + j) * n + x];
    tile[threadIdx.y + j][threadIdx.x] = v;
  }
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) {
    double v = tile[threadIdx.x][threadIdx.y + j]; // must-agree: shared
    out[(y + j) * n + x] = v;
  }
}

// P13 manual 1-D padding, s[r * 33 + c], block 32: the column walk is
// conflict-free: shared NEG; global NEG.
__global__ void manualPad33(const int *in, int *out) {
  __shared__ int s[32 * 33];
  int t = threadIdx.x; // 32 threads
  for (int r = 0; r < 32; ++r) {
    int v = in[blockIdx.x * 1024 + r * 32 + t];
    s[r * 33 + t] = v;
  }
  __syncwarp();
  int acc = 0;
  for (int c = 0; c < 32; ++c) {
    int v = s[t * 33 + c];
    acc += v;
  }
  out[blockIdx.x * 32 + t] = acc;
}

// P14 the same without padding, s[r * 32 + c]: shared POS (32-way); global NEG.
__global__ void manualPad32(const int *in, int *out) {
  __shared__ int s[32 * 32];
  int t = threadIdx.x; // 32 threads
  for (int r = 0; r < 32; ++r) {
    int v = in[blockIdx.x * 1024 + r * 32 + t];
    s[r * 32 + t] = v;
  }
  __syncwarp();
  int acc = 0;
  for (int c = 0; c < 32; ++c) {
    int v = s[t * 32 + c]; // must-agree: shared
    acc += v;
  }
  out[blockIdx.x * 32 + t] = acc;
}

int main() {
  const int n = N;
  std::vector<int> h = hostSeq<int>(n * n, 5);
  int *in = toDevice(h);
  int *out = devZero<int>(n * n);
  std::vector<int> tr = transposed(h, n), want;
  std::vector<double> hd(n * n);
  for (int i = 0; i < n * n; ++i)
    hd[i] = h[i] * 0.25;
  std::vector<double> trd = transposed(hd, n);
  double *din = toDevice(hd);
  double *dout = devZero<double>(n * n);
  const dim3 g16(n / 16, n / 16), b16(16, 16), g32(n / 32, n / 32), b32(32, 8);
  auto again = [&] { CK(cudaMemset(out, 0, n * n * 4)); };

  RUN("pad17For16", (pad17For16<<<g16, b16>>>(in, out, n))); // P01
  expect("pad17For16", out, tr);
  again();
  RUN("pad16For16", (pad16For16<<<g16, b16>>>(in, out, n))); // P02
  expect("pad16For16", out, tr);
  again();
  RUN("pad18For16", (pad18For16<<<g16, b16>>>(in, out, n))); // P03
  expect("pad18For16", out, tr);
  again();
  RUN("pad33For16", (pad33For16<<<g16, b16>>>(in, out, n))); // P04
  expect("pad33For16", out, tr);
  again();
  RUN("pad33For32", (pad33For32<<<g32, b32>>>(in, out, n))); // P05
  expect("pad33For32", out, tr);
  again();
  RUN("xorSwizzle32", (xorSwizzle32<<<g32, b32>>>(in, out, n))); // P06
  expect("xorSwizzle32", out, tr);
  again();
  RUN("xorSwizzle3Bits", (xorSwizzle3Bits<<<g32, b32>>>(in, out, n))); // P07
  expect("xorSwizzle3Bits", out, tr);
  again();
  RUN("xorSwizzle16", (xorSwizzle16<<<g16, b16>>>(in, out, n))); // P08
  expect("xorSwizzle16", out, tr);
  again();
  RUN("padRows", (padRows<<<g32, b32>>>(in, out, n))); // P09
  expect("padRows", out, tr);
  again();
  RUN("pad34For32", (pad34For32<<<g32, b32>>>(in, out, n))); // P10
  expect("pad34For32", out, tr);
  RUN("doublePad33", (doublePad33<<<g32, b32>>>(din, dout, n))); // P11
  expect("doublePad33", dout, trd);
  CK(cudaMemset(dout, 0, n * n * 8));
  RUN("doublePad32", (doublePad32<<<g32, b32>>>(din, dout, n))); // P12
  expect("doublePad32", dout, trd);

  want.assign(64 * 32, 0);
  for (int b = 0; b < 64; ++b)
    for (int t = 0; t < 32; ++t)
      for (int c = 0; c < 32; ++c)
        want[b * 32 + t] += h[b * 1024 + t * 32 + c];
  RUN("manualPad33", (manualPad33<<<64, 32>>>(in, out))); // P13
  expect("manualPad33", out, want);
  again();
  RUN("manualPad32", (manualPad32<<<64, 32>>>(in, out))); // P14
  expect("manualPad32", out, want);

  freeAll(in, out, din, dout);
  return finish("wild_padding");
}

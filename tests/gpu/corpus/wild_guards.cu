// Wild-idiom corpus, group 8: accesses under guards that no lane passes with
// every parameter at one default value. A guard on block-uniform values the
// address does not read (spare == T, n < 4, blockIdx.x == 7, mode == 2), the
// grid's last block (else if (blockIdx.y == gridDim.y - 1)), a halo tile
// whose borders are parameters, and guards that share a parameter with the
// address (n == 1 with out[t * n]). Several kernels are launched through
// cudaLaunchKernel and cudaLaunchCooperativeKernel. Every kernel is run with
// values that make its guarded branch execute on the GPU. Convention: at most
// one shared and one global access per source line. Expected (shared /
// global / narrow) before each.
#include "wild.cuh"

#define T 256
constexpr int W = 256; // matrices are W x W ints

// G01 only when every block is full (n == gridDim.x * T): s[2 * t]:
// shared POS (2-way); global NEG.
__global__ void fullBlocksPair(const int *in, int *out, int n) {
  __shared__ int s[2 * T];
  int t = threadIdx.x;
  int spare = T - (gridDim.x * T - n);
  int v = in[blockIdx.x * 2 * T + t];
  s[t] = v;
  int w = in[blockIdx.x * 2 * T + T + t];
  s[T + t] = w;
  __syncthreads();
  if (spare == T) {
    int a = s[2 * t]; // must-agree: shared
    out[blockIdx.x * T + t] = a;
  }
}

// G02 the same guard, launched with cudaLaunchKernel: a 16-byte lane stride:
// global POS (read, 4x), NEG (write).
__global__ void fullBlocksStride(const int *in, int *out, int n) {
  int t = threadIdx.x;
  int spare = T - (gridDim.x * T - n);
  if (spare == T) {
    int v = in[(blockIdx.x * T + t) * 4]; // must-agree: global
    out[blockIdx.x * T + t] = v;
  }
}

// G03 the same guard, cudaLaunchKernel: a mirrored shared read:
// shared NEG, global NEG.
__global__ void fullBlocksMirror(const int *in, int *out, int n) {
  __shared__ int s[T];
  int t = threadIdx.x;
  int spare = T - (gridDim.x * T - n);
  int v = in[blockIdx.x * T + t];
  s[t] = v;
  __syncthreads();
  if (spare == T) {
    int a = s[T - 1 - t]; // must-agree: shared
    out[blockIdx.x * T + t] = a;
  }
}

// G04 a transpose taken only for few inputs (n < 4, run with n = 2), block
// (32, 8): column read of a 32x32 tile: shared POS (32-way); global NEG.
__global__ void fewInputsTranspose(const int *in, int *out, int n) {
  __shared__ int tile[32][32];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) {
    int v = in[(y + j) * W + x];
    tile[threadIdx.y + j][threadIdx.x] = v;
  }
  __syncthreads();
  if (n < 4) {
    int ox = blockIdx.y * 32 + threadIdx.x, oy = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) {
      int v = tile[threadIdx.x][threadIdx.y + j]; // must-agree: shared
      out[(oy + j) * W + ox] = v;
    }
  }
}

// G05 the same with the tile padded to 33: shared NEG, global NEG.
__global__ void fewInputsPadded(const int *in, int *out, int n) {
  __shared__ int tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) {
    int v = in[(y + j) * W + x];
    tile[threadIdx.y + j][threadIdx.x] = v;
  }
  __syncthreads();
  if (n < 4) {
    int ox = blockIdx.y * 32 + threadIdx.x, oy = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) {
      int v = tile[threadIdx.x][threadIdx.y + j]; // must-agree: shared
      out[(oy + j) * W + ox] = v;
    }
  }
}

// G06 one block does the work (blockIdx.x == 7), lanes 128 bytes apart:
// global POS (read), NEG (write).
__global__ void blockSevenStride(const int *in, int *out) {
  int t = threadIdx.x;
  if (blockIdx.x == 7) {
    int v = in[t * 32]; // must-agree: global
    out[t] = v;
  }
}

// G07 the same block reads a row: global NEG, NEG.
__global__ void blockSevenRow(const int *in, int *out) {
  int t = threadIdx.x;
  if (blockIdx.x == 7) {
    int v = in[7 * T + t];
    out[T + t] = v;
  }
}

// G08 the grid's last row of blocks reads its 16x16 tile by columns, block
// (16, 16): shared POS (8-way); global NEG.
__global__ void lastRowTile(const int *in, int *out, int w) {
  __shared__ int tile[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int gx = blockIdx.x * 16 + tx, gy = blockIdx.y * 16 + ty;
  int v = in[gy * w + gx];
  tile[ty][tx] = v;
  __syncthreads();
  int r = v;
  if (blockIdx.y == 0) {
    r = -v;
  } else if (blockIdx.y == gridDim.y - 1) {
    r = tile[tx][ty]; // must-agree: shared
  }
  out[gy * w + gx] = r;
}

// G09 the tile padded to 17: lanes 0 and 31 still meet in bank 0: shared POS (2-way); global NEG.
__global__ void lastRowPadded(const int *in, int *out, int w) {
  __shared__ int tile[16][17];
  int tx = threadIdx.x, ty = threadIdx.y;
  int gx = blockIdx.x * 16 + tx, gy = blockIdx.y * 16 + ty;
  int v = in[gy * w + gx];
  tile[ty][tx] = v; // must-agree: shared
  __syncthreads();
  int r = v;
  if (blockIdx.y == 0) {
    r = -v;
  } else if (blockIdx.y == gridDim.y - 1) {
    r = tile[tx][ty]; // must-agree: shared
  }
  out[gy * w + gx] = r;
}

// G10 the grid's last block walks a column of a w-wide matrix, block 256:
// global POS (read), NEG (write).
__global__ void lastBlockColumn(const int *in, int *out, int w) {
  int t = threadIdx.x;
  int r = 0;
  if (blockIdx.x == 0) {
    r = 1;
  } else if (blockIdx.x == gridDim.x - 1) {
    r = in[t * w + blockIdx.x]; // must-agree: global
  }
  out[blockIdx.x * T + t] = r;
}

// G11 a halo tile that shrinks by 2 * steps and starts top rows above and
// left columns left of the block (run with steps = top = left = 1), block
// (16, 16): the column store: shared POS (8-way); the row accesses and the
// global read NEG.
__global__ void haloTile(const int *src, int *dst, int steps, int top, int left, int cols) {
  __shared__ int tile[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = -1;
  __syncthreads();
  int y = (16 - 2 * steps) * blockIdx.y - top + ty;
  int x = (16 - 2 * steps) * blockIdx.x - left + tx;
  if (y >= 0 && x >= 0) {
    int v = src[y * cols + x]; // must-agree: global
    tile[tx][ty] = v; // must-agree: shared
  }
  __syncthreads();
  int r = tile[ty][tx];
  dst[((blockIdx.y * gridDim.x + blockIdx.x) * 16 + ty) * 16 + tx] = r;
}

// G12 the guard and the address share n (run with n = 1): out[t * n] is
// coalesced where the guard passes: global NEG (must stay silent).
__global__ void strideOneOnly(int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (n == 1)
    out[t * n] = t; // must-agree: global
}

// G13 the same in shared memory (run with stride = 1): shared NEG.
__global__ void sharedStrideOne(const int *in, int *out, int stride) {
  __shared__ int s[T];
  int t = threadIdx.x;
  int v = in[blockIdx.x * T + t];
  s[t] = v;
  __syncthreads();
  if (stride == 1) {
    int a = s[t * stride]; // must-agree: shared
    out[blockIdx.x * T + t] = a + 1;
  }
}

// G14 cudaLaunchCooperativeKernel with a block (32, 8) set member by member;
// column sums of a 32x32 tile when mode == 2: shared POS (32-way); global NEG.
__global__ void coopColumnSums(const int *in, int *out, int mode) {
  __shared__ int tile[32][32];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) {
    int v = in[(y + j) * W + x];
    tile[threadIdx.y + j][threadIdx.x] = v; // must-agree: shared
  }
  __syncthreads();
  if (mode == 2) {
    int acc = 0;
    for (int k = 0; k < 4; ++k) {
      int v = tile[threadIdx.x][threadIdx.y + 8 * k]; // must-agree: shared
      acc += v;
    }
    out[(blockIdx.y * gridDim.x + blockIdx.x) * 256 + threadIdx.y * 32 + threadIdx.x] = acc;
  }
}

// G15 the same with the tile padded to 33: shared NEG, global NEG.
__global__ void coopColumnSumsPadded(const int *in, int *out, int mode) {
  __shared__ int tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) {
    int v = in[(y + j) * W + x];
    tile[threadIdx.y + j][threadIdx.x] = v;
  }
  __syncthreads();
  if (mode == 2) {
    int acc = 0;
    for (int k = 0; k < 4; ++k) {
      int v = tile[threadIdx.x][threadIdx.y + 8 * k]; // must-agree: shared
      acc += v;
    }
    out[(blockIdx.y * gridDim.x + blockIdx.x) * 256 + threadIdx.y * 32 + threadIdx.x] = acc;
  }
}

// G16 cudaLaunchKernel, bytes when flag == 3: one byte a lane:
// narrow POS (read and write); global NEG.
__global__ void byteFlagged(const unsigned char *in, unsigned char *out, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (flag == 3) {
    unsigned char c = in[i];
    out[i] = (unsigned char)(c + 1);
  }
}

int main() {
  const int total = W * W;
  std::vector<int> h = hostSeq<int>(total, 8);
  int *in = toDevice(h);
  int *out = devZero<int>(total);
  std::vector<int> want(total);
  auto reset = [&]() {
    CK(cudaMemset(out, 0, total * sizeof(int)));
    std::fill(want.begin(), want.end(), 0);
  };
  auto prefix = [&](size_t k) { return std::vector<int>(want.begin(), want.begin() + k); };

  int n = 64 * T; // every block full
  reset();
  RUN("fullBlocksPair", (fullBlocksPair<<<n / T, T>>>(in, out, n))); // G01
  for (int i = 0; i < n; ++i)
    want[i] = h[(i / T) * 2 * T + 2 * (i % T)];
  expect("fullBlocksPair", out, prefix(n));

  {
    void *args[] = {&in, &out, &n};
    reset();
    RUN("fullBlocksStride", CK(cudaLaunchKernel((const void *)fullBlocksStride, dim3(n / T), dim3(T), args, 0, 0))); // G02
    for (int i = 0; i < n; ++i)
      want[i] = h[4 * i];
    expect("fullBlocksStride", out, prefix(n));
    reset();
    RUN("fullBlocksMirror", CK(cudaLaunchKernel((const void *)fullBlocksMirror, dim3(n / T), dim3(T), args, 0, 0))); // G03
    for (int i = 0; i < n; ++i)
      want[i] = h[(i / T) * T + T - 1 - i % T];
    expect("fullBlocksMirror", out, prefix(n));
  }

  std::vector<int> tr = transposed(h, W);
  reset();
  RUN("fewInputsTranspose", (fewInputsTranspose<<<dim3(W / 32, W / 32), dim3(32, 8)>>>(in, out, 2))); // G04
  expect("fewInputsTranspose", out, tr);
  reset();
  RUN("fewInputsPadded", (fewInputsPadded<<<dim3(W / 32, W / 32), dim3(32, 8)>>>(in, out, 2))); // G05
  expect("fewInputsPadded", out, tr);

  reset();
  RUN("blockSevenStride", (blockSevenStride<<<16, T>>>(in, out))); // G06
  for (int t = 0; t < T; ++t)
    want[t] = h[t * 32];
  expect("blockSevenStride", out, prefix(T));
  RUN("blockSevenRow", (blockSevenRow<<<16, T>>>(in, out))); // G07
  for (int t = 0; t < T; ++t)
    want[T + t] = h[7 * T + t];
  expect("blockSevenRow", out, prefix(2 * T));

  const int rowsOfBlocks = 4; // a W x 64 matrix in (16, 16) tiles
  auto lastRowWant = [&]() {
    for (int gy = 0; gy < rowsOfBlocks * 16; ++gy)
      for (int gx = 0; gx < W; ++gx) {
        int by = gy / 16, bx = gx / 16, tx = gx % 16, ty = gy % 16;
        int v = h[gy * W + gx];
        want[gy * W + gx] = by == 0 ? -v : by == rowsOfBlocks - 1 ? h[(by * 16 + tx) * W + bx * 16 + ty] : v;
      }
  };
  reset();
  RUN("lastRowTile", (lastRowTile<<<dim3(W / 16, rowsOfBlocks), dim3(16, 16)>>>(in, out, W))); // G08
  lastRowWant();
  expect("lastRowTile", out, prefix(rowsOfBlocks * 16 * W));
  reset();
  RUN("lastRowPadded", (lastRowPadded<<<dim3(W / 16, rowsOfBlocks), dim3(16, 16)>>>(in, out, W))); // G09
  lastRowWant();
  expect("lastRowPadded", out, prefix(rowsOfBlocks * 16 * W));

  reset();
  RUN("lastBlockColumn", (lastBlockColumn<<<8, T>>>(in, out, W))); // G10
  for (int b = 0; b < 8; ++b)
    for (int t = 0; t < T; ++t)
      want[b * T + t] = b == 0 ? 1 : b == 7 ? h[t * W + b] : 0;
  expect("lastBlockColumn", out, prefix(8 * T));

  {
    const int steps = 1, top = 1, left = 1, tiles = 4, cols = (16 - 2 * steps) * tiles + 1;
    std::vector<int> src = hostSeq<int>(cols * cols, 9);
    int *dsrc = toDevice(src);
    reset();
    RUN("haloTile", (haloTile<<<dim3(tiles, tiles), dim3(16, 16)>>>(dsrc, out, steps, top, left, cols))); // G11
    for (int by = 0; by < tiles; ++by)
      for (int bx = 0; bx < tiles; ++bx)
        for (int ty = 0; ty < 16; ++ty)
          for (int tx = 0; tx < 16; ++tx) {
            // dst(ty, tx) = tile[ty][tx], which thread (tx' = ty, ty' = tx) stored.
            int y = (16 - 2 * steps) * by - top + tx, x = (16 - 2 * steps) * bx - left + ty;
            want[((by * tiles + bx) * 16 + ty) * 16 + tx] = (y >= 0 && x >= 0) ? src[y * cols + x] : -1;
          }
    expect("haloTile", out, prefix(tiles * tiles * 256));
    CK(cudaFree(dsrc));
  }

  reset();
  RUN("strideOneOnly", (strideOneOnly<<<64, T>>>(out, 1))); // G12
  for (int i = 0; i < 64 * T; ++i)
    want[i] = i;
  expect("strideOneOnly", out, prefix(64 * T));

  reset();
  RUN("sharedStrideOne", (sharedStrideOne<<<64, T>>>(in, out, 1))); // G13
  for (int i = 0; i < 64 * T; ++i)
    want[i] = h[i] + 1;
  expect("sharedStrideOne", out, prefix(64 * T));

  {
    int mode = 2;
    void *args[] = {&in, &out, &mode};
    dim3 coop;
    coop.x = 32;
    coop.y = 8;
    auto sumsWant = [&]() {
      for (int by = 0; by < W / 32; ++by)
        for (int bx = 0; bx < W / 32; ++bx)
          for (int ty = 0; ty < 8; ++ty)
            for (int tx = 0; tx < 32; ++tx) {
              int acc = 0;
              for (int k = 0; k < 4; ++k)
                acc += h[(by * 32 + tx) * W + bx * 32 + ty + 8 * k];
              want[(by * (W / 32) + bx) * 256 + ty * 32 + tx] = acc;
            }
    };
    reset();
    RUN("coopColumnSums", CK(cudaLaunchCooperativeKernel((void *)coopColumnSums, dim3(W / 32, W / 32), coop, args, 0, 0))); // G14
    sumsWant();
    expect("coopColumnSums", out, prefix(64 * 256));
    reset();
    RUN("coopColumnSumsPadded", CK(cudaLaunchCooperativeKernel((void *)coopColumnSumsPadded, dim3(W / 32, W / 32), coop, args, 0, 0))); // G15
    sumsWant();
    expect("coopColumnSumsPadded", out, prefix(64 * 256));
  }

  {
    const int bytes = 16 * T;
    std::vector<unsigned char> hb(bytes), wb(bytes);
    for (int i = 0; i < bytes; ++i) {
      hb[i] = (unsigned char)(i * 13 + 5);
      wb[i] = (unsigned char)(hb[i] + 1);
    }
    unsigned char *din = toDevice(hb), *dout = devZero<unsigned char>(bytes);
    int flag = 3;
    void *args[] = {&din, &dout, &flag};
    RUN("byteFlagged", CK(cudaLaunchKernel((const void *)byteFlagged, dim3(bytes / T), dim3(T), args, 0, 0))); // G16
    expect("byteFlagged", dout, wb);
    freeAll(din, dout);
  }

  freeAll(in, out);
  return finish("wild_guards");
}

// Wild-idiom corpus, group 3: shared memory reached indirectly. A helper
// struct whose conversion operator returns the dynamic shared array, extern
// __shared__ char carved into typed pointers at byte offsets, shared pointers
// passed to __device__ functions and kept in structs, and cooperative groups
// (this_thread_block, thread_rank, tiled_partition, block.sync). Convention:
// at most one shared and one global access per source line. Expected
// (shared / global) before each kernel.
#include "wild.cuh"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// The dynamic shared array seen as T: one extern declaration per type (the
// usual idiom; extern __shared__ arrays of different types cannot share a
// name in one translation unit).
template <class T> struct SharedMemory {
  __device__ operator T *() {
    extern __shared__ int dynWords[];
    return reinterpret_cast<T *>(dynWords);
  }
};
template <> struct SharedMemory<double> {
  __device__ operator double *() {
    extern __shared__ double dynDoubles[];
    return dynDoubles;
  }
};

// H01 SharedMemory<int>, block 32, 1024 dynamic words: the lanes read down
// a column of a 32-word pitch, s[32 * t + c]: shared POS (32-way); global NEG.
__global__ void helperColumn(const int *in, int *out) {
  int *s = SharedMemory<int>();
  int t = threadIdx.x;
  for (int k = 0; k < 32; ++k) {
    int v = in[blockIdx.x * 1024 + 32 * k + t];
    s[32 * k + t] = v;
  }
  __syncwarp();
  int acc = 0;
  for (int c = 0; c < 32; ++c) {
    int v = s[32 * t + c];
    acc += v;
  }
  out[blockIdx.x * 32 + t] = acc;
}

// H02 SharedMemory<int>, block 256: sequential-addressing tree reduction,
// s[t] += s[t + st]: shared NEG; global NEG.
__global__ void helperReduce(const int *in, int *out) {
  int *s = SharedMemory<int>();
  int t = threadIdx.x;
  int v = in[blockIdx.x * 256 + t];
  s[t] = v;
  __syncthreads();
  for (int st = 128; st > 0; st >>= 1) {
    if (t < st)
      s[t] += s[t + st];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}

// H03 SharedMemory<double>, block 128: lanes 2 doubles (16 bytes) apart,
// d[2 * t]: shared POS (2-way in each half-warp phase); global NEG.
__global__ void helperDoubleStride(const double *in, double *out) {
  double *d = SharedMemory<double>();
  int t = threadIdx.x;
  double a = in[blockIdx.x * 256 + t];
  d[t] = a;
  double b = in[blockIdx.x * 256 + 128 + t];
  d[128 + t] = b;
  __syncthreads();
  double v = d[2 * t];
  out[blockIdx.x * 128 + t] = v;
}

// H04 extern __shared__ char carved into an int array and a float array at
// byte offset 1024, block 256: the int part linear (NEG), the float part
// read with lanes 32 words apart, f[(32 * t) % 256 + t / 8]: shared POS.
__global__ void carvedIntFloat(const int *in, float *out) {
  extern __shared__ char pool[];
  int *iv = reinterpret_cast<int *>(pool);
  float *fv = reinterpret_cast<float *>(pool + 256 * sizeof(int));
  int t = threadIdx.x;
  int v = in[blockIdx.x * 256 + t];
  iv[t] = v;
  fv[t] = float(v);
  __syncthreads();
  int w = iv[255 - t];
  float f = fv[(32 * t) % 256 + t / 8]; // must-agree: shared
  out[blockIdx.x * 256 + t] = f + float(w);
}

// H05 extern __shared__ char carved into a double array after 64 ints,
// block 64: d[t] linear 8-byte words: shared NEG; global NEG.
__global__ void carvedDouble(const double *in, double *out) {
  extern __shared__ char pool[];
  int *head = reinterpret_cast<int *>(pool);
  double *d = reinterpret_cast<double *>(pool + 64 * sizeof(int));
  int t = threadIdx.x;
  head[t] = t;
  double v = in[blockIdx.x * 64 + t];
  d[t] = v;
  __syncthreads();
  double w = d[63 - t];
  out[blockIdx.x * 64 + t] = w + head[t];
}

// H06 extern __shared__ char carved at a 4-byte offset into a 33-word
// pitch: c[33 * t]: shared NEG (pitch 33); global NEG.
__global__ void carvedPitch33(const int *in, int *out) {
  extern __shared__ char pool[];
  int *flag = reinterpret_cast<int *>(pool);
  int *c = reinterpret_cast<int *>(pool + sizeof(int));
  int t = threadIdx.x; // 32 threads
  if (t == 0)
    flag[0] = 1;
  for (int k = 0; k < 33; ++k) {
    int v = in[blockIdx.x * 1056 + 32 * k + t];
    c[32 * k + t] = v;
  }
  __syncwarp();
  int w = c[33 * t];
  out[blockIdx.x * 32 + t] = w + flag[0];
}

// H07 a shared tile passed to a __device__ function that stores a column:
// s[32 * r + c] with r the lane: shared POS (32-way); global NEG.
__device__ void storeColumn(int *s, int r, int c, int v) { s[32 * r + c] = v; } // must-agree: shared
__device__ int loadWord(const int *s, int i) { return s[i]; }
__global__ void deviceFnColumn(const int *in, int *out) {
  __shared__ int tile[32 * 32];
  int t = threadIdx.x; // 32 threads
  for (int c = 0; c < 32; ++c) {
    int v = in[blockIdx.x * 1024 + 32 * c + t];
    storeColumn(tile, t, c, v);
  }
  __syncwarp();
  int acc = 0;
  for (int c = 0; c < 32; ++c)
    acc += loadWord(tile, 32 * c + t);
  out[blockIdx.x * 32 + t] = acc;
}

// H08 a padded 2-D tile passed to a __device__ function as int (*)[33]:
// column read: shared NEG; global NEG.
__device__ int readCol(int (*tile)[33], int r, int c) { return tile[r][c]; }
__global__ void deviceFnPadded(const int *in, int *out, int n) {
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
    int v = readCol(tile, threadIdx.x, threadIdx.y + j);
    out[(y + j) * n + x] = v;
  }
}

// H09 cooperative groups: thread_rank of this_thread_block, block.sync(),
// lanes 2 words apart, s[2 * r]: shared POS (2-way); global NEG.
__global__ void cgRankStride2(const int *in, int *out) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ int s[512];
  int r = block.thread_rank();
  int a = in[blockIdx.x * 512 + r];
  s[r] = a;
  int b = in[blockIdx.x * 512 + 256 + r];
  s[256 + r] = b;
  block.sync();
  int v = s[2 * r];
  out[blockIdx.x * 256 + r] = v;
}

// H10 tiled_partition<32>: lane = thread_rank, warp = meta_group_rank, a
// column walk s[32 * lane + warp]: shared POS (32-way); global NEG.
__global__ void cgTileColumn(const int *in, int *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  __shared__ int s[32 * 32];
  int lane = warp.thread_rank(), w = warp.meta_group_rank(); // 8 warps
  for (int k = 0; k < 4; ++k) {
    int v = in[blockIdx.x * 1024 + 256 * k + block.thread_rank()];
    s[256 * k + block.thread_rank()] = v;
  }
  block.sync();
  int v = s[32 * lane + w];
  out[blockIdx.x * 256 + block.thread_rank()] = v;
}

// H11 thread_index() of a (32, 8) block: tile[idx.y][idx.x] and the row
// read tile[idx.y][31 - idx.x]: shared NEG; global NEG.
__global__ void cgIndex2d(const int *in, int *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ int tile[8][32];
  dim3 idx = block.thread_index();
  int x = blockIdx.x * 32 + idx.x, y = blockIdx.y * 8 + idx.y;
  int v = in[y * n + x];
  tile[idx.y][idx.x] = v;
  block.sync();
  int w = tile[idx.y][31 - idx.x];
  out[y * n + x] = w;
}

// H12 tiled_partition<16>: two 16-lane tiles a warp, each lane 2 words
// apart and the tiles 32 words apart, s[32 * g + 2 * r]: shared POS (2-way);
// global NEG.
__global__ void cgTile16(const int *in, int *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
  __shared__ int s[512];
  int r = t16.thread_rank(), g = t16.meta_group_rank(); // 16 tiles
  int a = in[blockIdx.x * 512 + block.thread_rank()];
  s[block.thread_rank()] = a;
  int b = in[blockIdx.x * 512 + 256 + block.thread_rank()];
  s[256 + block.thread_rank()] = b;
  block.sync();
  int v = s[32 * g + 2 * r];
  out[blockIdx.x * 256 + block.thread_rank()] = v;
}

// H13 a shared pointer kept in a struct with a pitch (32): at(lane, k)
// walks a column: shared POS (32-way); the fill buf[32 k + t]: NEG; global NEG.
struct TileView {
  int *p;
  int pitch;
  __device__ int at(int r, int c) const { return p[r * pitch + c]; }  // H13's reads
  __device__ int get(int r, int c) const { return p[r * pitch + c]; } // H14's reads
};
__global__ void viewPitch32(const int *in, int *out) {
  __shared__ int buf[32 * 32];
  TileView view{buf, 32};
  int t = threadIdx.x; // 32 threads
  for (int k = 0; k < 32; ++k) {
    int v = in[blockIdx.x * 1024 + 32 * k + t];
    buf[32 * k + t] = v;
  }
  __syncwarp();
  int acc = 0;
  for (int k = 0; k < 32; ++k)
    acc += view.at(t, k);
  out[blockIdx.x * 32 + t] = acc;
}

// H14 the same view with pitch 33, read through get(): shared NEG; global NEG.
__global__ void viewPitch33(const int *in, int *out) {
  __shared__ int buf[32 * 33];
  TileView view{buf, 33};
  int t = threadIdx.x; // 32 threads
  for (int k = 0; k < 32; ++k) {
    int v = in[blockIdx.x * 1024 + 32 * k + t];
    buf[33 * k + t] = v;
  }
  __syncwarp();
  int acc = 0;
  for (int k = 0; k < 32; ++k)
    acc += view.get(t, k);
  out[blockIdx.x * 32 + t] = acc;
}

int main() {
  const int words = 64 * 1056;
  std::vector<int> h = hostSeq<int>(words, 3);
  int *in = toDevice(h);
  int *out = devZero<int>(words);
  std::vector<double> hd(64 * 256);
  for (size_t i = 0; i < hd.size(); ++i)
    hd[i] = double(h[i]) + 0.5;
  double *din = toDevice(hd);
  double *dout = devZero<double>(64 * 256);
  std::vector<int> want;
  std::vector<double> wantd;

  auto rowSums = [&](int blocks) { // H01, H07, H13: sums of 32-word rows
    want.assign(blocks * 32, 0);
    for (int b = 0; b < blocks; ++b)
      for (int t = 0; t < 32; ++t)
        for (int c = 0; c < 32; ++c)
          want[b * 32 + t] += h[b * 1024 + 32 * t + c];
  };
  RUN("helperColumn", (helperColumn<<<64, 32, 1024 * 4>>>(in, out))); // H01
  rowSums(64);
  expect("helperColumn", out, want);

  RUN("helperReduce", (helperReduce<<<64, 256, 256 * 4>>>(in, out))); // H02
  want.assign(64, 0);
  for (int i = 0; i < 64 * 256; ++i)
    want[i / 256] += h[i];
  expect("helperReduce", out, want);

  RUN("helperDoubleStride", (helperDoubleStride<<<64, 128, 256 * 8>>>(din, dout))); // H03
  wantd.assign(64 * 128, 0);
  for (int i = 0; i < 64 * 128; ++i)
    wantd[i] = hd[(i / 128) * 256 + 2 * (i % 128)];
  expect("helperDoubleStride", dout, wantd);

  float *fout = (float *)out;
  RUN("carvedIntFloat", (carvedIntFloat<<<64, 256, 512 * 4>>>(in, fout))); // H04
  {
    std::vector<float> wf(64 * 256);
    for (int b = 0; b < 64; ++b)
      for (int t = 0; t < 256; ++t)
        wf[b * 256 + t] = float(h[b * 256 + (32 * t) % 256 + t / 8]) + float(h[b * 256 + 255 - t]);
    expect("carvedIntFloat", fout, wf);
  }

  RUN("carvedDouble", (carvedDouble<<<64, 64, 64 * 4 + 64 * 8>>>(din, dout))); // H05
  wantd.assign(64 * 64, 0);
  for (int i = 0; i < 64 * 64; ++i)
    wantd[i] = hd[(i / 64) * 64 + 63 - i % 64] + i % 64;
  expect("carvedDouble", dout, wantd);

  RUN("carvedPitch33", (carvedPitch33<<<64, 32, 4 + 1056 * 4>>>(in, out))); // H06
  want.assign(64 * 32, 0);
  for (int i = 0; i < 64 * 32; ++i)
    want[i] = h[(i / 32) * 1056 + 33 * (i % 32)] + 1;
  expect("carvedPitch33", out, want);

  RUN("deviceFnColumn", (deviceFnColumn<<<64, 32>>>(in, out))); // H07
  rowSums(64);
  expect("deviceFnColumn", out, want);

  {
    const int n = 256;
    RUN("deviceFnPadded", (deviceFnPadded<<<dim3(8, 8), dim3(32, 8)>>>(in, out, n))); // H08
    want.assign(n * n, 0);
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c)
        want[r * n + c] = h[c * n + r];
    expect("deviceFnPadded", out, want);
  }

  RUN("cgRankStride2", (cgRankStride2<<<64, 256>>>(in, out))); // H09
  want.assign(64 * 256, 0);
  for (int i = 0; i < 64 * 256; ++i)
    want[i] = h[(i / 256) * 512 + 2 * (i % 256)];
  expect("cgRankStride2", out, want);

  RUN("cgTileColumn", (cgTileColumn<<<64, 256>>>(in, out))); // H10
  for (int i = 0; i < 64 * 256; ++i) {
    int lane = i % 32, w = (i % 256) / 32;
    want[i] = h[(i / 256) * 1024 + 32 * lane + w];
  }
  expect("cgTileColumn", out, want);

  {
    const int n = 256;
    RUN("cgIndex2d", (cgIndex2d<<<dim3(8, 32), dim3(32, 8)>>>(in, out, n))); // H11
    want.assign(n * n, 0);
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c)
        want[r * n + c] = h[r * n + (c / 32) * 32 + 31 - c % 32];
    expect("cgIndex2d", out, want);
  }

  RUN("cgTile16", (cgTile16<<<64, 256>>>(in, out))); // H12
  want.assign(64 * 256, 0);
  for (int i = 0; i < 64 * 256; ++i) {
    int tr = i % 256, r = tr % 16, g = tr / 16;
    want[i] = h[(i / 256) * 512 + 32 * g + 2 * r];
  }
  expect("cgTile16", out, want);

  RUN("viewPitch32", (viewPitch32<<<64, 32>>>(in, out))); // H13
  rowSums(64);
  expect("viewPitch32", out, want);
  RUN("viewPitch33", (viewPitch33<<<64, 32>>>(in, out))); // H14
  expect("viewPitch33", out, want); // the same sums as H13
  freeAll(in, out, din, dout);
  return finish("wild_sharedhelpers");
}

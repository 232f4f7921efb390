// Wild-idiom corpus, group 2: warp-uniform values that are not constants.
// C-style loop counters declared before the loop, scalar parameters, values
// loaded at a block-uniform address (p[blockIdx.x]) and symbolic lane strides
// (m[size * (tid + t + 1) + t], src[tidy * width + tidx]). Whether a line is
// a conflict or uncoalesced depends only on how the lanes differ, and these
// values are the same in every lane. Convention: at most one shared and one
// global access per source line. Expected (shared / global) before each.
#include "wild.cuh"

// U01 loop counter declared before the loop, block (32, 8): column read of
// a 32x32 tile: shared POS (32-way); global NEG.
__global__ void counterBefore(const int *in, int *out, int n) {
  __shared__ int tile[32][32];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  int j;
  for (j = 0; j < 32; j += 8) {
    int v = in[(y + j) * n + x];
    tile[threadIdx.y + j][threadIdx.x] = v;
  }
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (j = 0; j < 32; j += 8) {
    int v = tile[threadIdx.x][threadIdx.y + j];
    out[(y + j) * n + x] = v;
  }
}

// U02 the same with a padded tile and the counter declared two lines up:
// shared NEG, global NEG.
__global__ void counterBeforePadded(const int *in, int *out, int n) {
  __shared__ int tile[32][33];
  int k, x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (k = 0; k < 32; k += 8) {
    int v = in[(y + k) * n + x];
    tile[threadIdx.y + k][threadIdx.x] = v;
  }
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (k = 0; k < 32; k += 8) {
    int v = tile[threadIdx.x][threadIdx.y + k];
    out[(y + k) * n + x] = v;
  }
}

// U03 while loop over a counter, block 128: each lane reads 4 consecutive
// words, s[4 * t + k]: shared POS (4-way); global NEG.
__global__ void whileCounter(const int *in, int *out) {
  __shared__ int s[512];
  int t = threadIdx.x, k = 0;
  while (k < 4) {
    int v = in[blockIdx.x * 512 + 128 * k + t];
    s[128 * k + t] = v;
    ++k;
  }
  __syncthreads();
  int acc = 0;
  k = 0;
  while (k < 4) {
    int v = s[4 * t + k];
    acc += v;
    ++k;
  }
  out[blockIdx.x * 128 + t] = acc;
}

// U04 a scalar parameter offset (64 at run time), block 256: in[off + i]:
// global NEG.
__global__ void paramOffset(const int *in, int *out, int off) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[off + i];
  out[i] = v;
}

// U05 a scalar parameter as the lane stride (8 at run time), block 256:
// global POS (read), NEG (write).
__global__ void paramStride(const int *in, int *out, int pitch) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i * pitch]; // must-agree: global
  out[i] = v;
}

// U06 a block-uniform base loaded from memory, starts[blockIdx.x] (multiples
// of 256), block 256: in[base + t]: global NEG.
__global__ void uniformBase(const int *in, const int *starts, int *out) {
  int base = starts[blockIdx.x];
  int v = in[base + threadIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// U07 a block-uniform base loaded from memory, lanes 4 words apart:
// in[base + 4 * t]: global POS; shared s[4 * t] on a 1024-word array:
// shared POS (4-way).
__global__ void uniformBaseStride4(const int *in, const int *starts, int *out) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  int base = starts[blockIdx.x];
  for (int k = 0; k < 4; ++k)
    s[256 * k + t] = 0;
  __syncthreads();
  int v = in[base + 4 * t];
  s[4 * t] = v; // must-agree: shared
  __syncthreads();
  int w = s[4 * t]; // must-agree: shared
  out[blockIdx.x * 256 + t] = w;
}

// U08 elimination update, m[size * (tid + t + 1) + t]: the lanes walk a
// column of a size x size matrix (size 256, t = 3): global POS (read and
// write, on separate lines).
__global__ void elimColumn(int *m, int size, int t) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= size - 1 - t)
    return;
  int v = m[size * (tid + t + 1) + t];
  m[size * (tid + t + 1) + t] = v * 2;
}

// U09 elimination row, m[size * (t + 1) + tid + t]: the lanes walk a row
// (misaligned by t + 1 words): global NEG.
__global__ void elimRow(int *m, int size, int t) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= size - t)
    return;
  int v = m[size * (t + 1) + tid + t];
  m[size * (t + 1) + tid + t] = v + 1;
}

// U10 src[tidy * width + tidx], width a parameter (256), block (16, 16):
// two rows of 64 bytes a warp: global NEG.
__global__ void tidyWidth(const int *src, int *dst, int width) {
  int tidx = blockIdx.x * blockDim.x + threadIdx.x;
  int tidy = blockIdx.y * blockDim.y + threadIdx.y;
  int v = src[tidy * width + tidx];
  dst[tidy * width + tidx] = v + 3;
}

// U11 the swapped index, src[tidx * width + tidy], block (32, 8): global
// POS (read), NEG (write).
__global__ void tidxWidth(const int *src, int *dst, int width) {
  int tidx = blockIdx.x * blockDim.x + threadIdx.x;
  int tidy = blockIdx.y * blockDim.y + threadIdx.y;
  int v = src[tidx * width + tidy]; // must-agree: global
  dst[tidy * width + tidx] = v;
}

// U12 a loop bound loaded from memory (count[0] = 8) with the lanes
// consecutive in each iteration: global NEG; the accumulator is shared,
// s[t]: NEG.
__global__ void loadedBound(const int *in, const int *count, int *out) {
  __shared__ int s[256];
  int t = threadIdx.x, c = count[0];
  s[t] = 0;
  for (int i = 0; i < c; ++i) {
    int v = in[blockIdx.x * 2048 + i * 256 + t];
    s[t] += v;
  }
  out[blockIdx.x * 256 + t] = s[t];
}

// U13 a shared shift from a parameter (5 at run time): s[t + shift]: shared
// NEG.
__global__ void paramShift(const int *in, int *out, int shift) {
  __shared__ int s[288];
  int t = threadIdx.x;
  int v = in[blockIdx.x * 256 + t];
  s[t + shift] = v;
  __syncthreads();
  int w = s[t + shift];
  out[blockIdx.x * 256 + t] = w;
}

// U14 an even/odd phase from a parameter (1 at run time): s[2 * t + phase]
// over 512 words: shared POS (2-way); global NEG.
__global__ void paramPhase(const int *in, int *out, int phase) {
  __shared__ int s[512];
  int t = threadIdx.x;
  int a = in[blockIdx.x * 512 + t];
  s[t] = a;
  int b = in[blockIdx.x * 512 + 256 + t];
  s[256 + t] = b;
  __syncthreads();
  int w = s[2 * t + phase];
  out[blockIdx.x * 256 + t] = w;
}

int main() {
  const int n = 256;
  std::vector<int> h = hostSeq<int>(n * n, 2);
  int *in = toDevice(h);
  int *out = devZero<int>(n * n);
  std::vector<int> want(n * n), tr = transposed(h, n);
  auto prefix = [&](size_t k) { return std::vector<int>(want.begin(), want.begin() + k); };

  RUN("counterBefore", (counterBefore<<<dim3(8, 8), dim3(32, 8)>>>(in, out, n))); // U01
  expect("counterBefore", out, tr);
  CK(cudaMemset(out, 0, n * n * 4));
  RUN("counterBeforePadded", (counterBeforePadded<<<dim3(8, 8), dim3(32, 8)>>>(in, out, n))); // U02
  expect("counterBeforePadded", out, tr);

  RUN("whileCounter", (whileCounter<<<64, 128>>>(in, out))); // U03
  for (int b = 0; b < 64; ++b)
    for (int t = 0; t < 128; ++t) {
      int acc = 0;
      for (int k = 0; k < 4; ++k)
        acc += h[b * 512 + 4 * t + k];
      want[b * 128 + t] = acc;
    }
  expect("whileCounter", out, prefix(64 * 128));

  RUN("paramOffset", (paramOffset<<<64, 256>>>(in, out, 64))); // U04
  for (int i = 0; i < 64 * 256; ++i)
    want[i] = h[64 + i];
  expect("paramOffset", out, prefix(64 * 256));

  RUN("paramStride", (paramStride<<<32, 256>>>(in, out, 8))); // U05
  for (int i = 0; i < 32 * 256; ++i)
    want[i] = h[8 * i];
  expect("paramStride", out, prefix(32 * 256));

  std::vector<int> starts(64);
  for (int b = 0; b < 64; ++b)
    starts[b] = ((b * 37) % 64) * 256;
  int *dstarts = toDevice(starts);
  RUN("uniformBase", (uniformBase<<<64, 256>>>(in, dstarts, out))); // U06
  for (int i = 0; i < 64 * 256; ++i)
    want[i] = h[starts[i / 256] + i % 256];
  expect("uniformBase", out, prefix(64 * 256));

  for (int b = 0; b < 64; ++b)
    starts[b] = ((b * 5) % 64) * 1024;
  CK(cudaMemcpy(dstarts, starts.data(), 64 * 4, cudaMemcpyHostToDevice));
  RUN("uniformBaseStride4", (uniformBaseStride4<<<64, 256>>>(in, dstarts, out))); // U07
  for (int i = 0; i < 64 * 256; ++i)
    want[i] = h[starts[i / 256] + 4 * (i % 256)];
  expect("uniformBaseStride4", out, prefix(64 * 256));

  int *m = toDevice(h);
  RUN("elimColumn", (elimColumn<<<1, 256>>>(m, n, 3))); // U08
  std::vector<int> hm = h;
  for (int tid = 0; tid < n - 1 - 3; ++tid)
    hm[n * (tid + 4) + 3] *= 2;
  expect("elimColumn", m, hm);
  RUN("elimRow", (elimRow<<<1, 256>>>(m, n, 3))); // U09
  for (int tid = 0; tid < n - 3; ++tid)
    hm[n * 4 + tid + 3] += 1;
  expect("elimRow", m, hm);

  RUN("tidyWidth", (tidyWidth<<<dim3(16, 16), dim3(16, 16)>>>(in, out, n))); // U10
  for (int i = 0; i < n * n; ++i)
    want[i] = h[i] + 3;
  expect("tidyWidth", out, want);
  RUN("tidxWidth", (tidxWidth<<<dim3(8, 32), dim3(32, 8)>>>(in, out, n))); // U11
  expect("tidxWidth", out, tr);

  std::vector<int> cnt(1, 8);
  int *dcnt = toDevice(cnt);
  RUN("loadedBound", (loadedBound<<<32, 256>>>(in, dcnt, out))); // U12
  for (int b = 0; b < 32; ++b)
    for (int t = 0; t < 256; ++t) {
      int acc = 0;
      for (int i = 0; i < 8; ++i)
        acc += h[b * 2048 + i * 256 + t];
      want[b * 256 + t] = acc;
    }
  expect("loadedBound", out, prefix(32 * 256));

  RUN("paramShift", (paramShift<<<64, 256>>>(in, out, 5))); // U13
  for (int i = 0; i < 64 * 256; ++i)
    want[i] = h[i];
  expect("paramShift", out, prefix(64 * 256));

  RUN("paramPhase", (paramPhase<<<64, 256>>>(in, out, 1))); // U14
  for (int i = 0; i < 64 * 256; ++i)
    want[i] = h[(i / 256) * 512 + 2 * (i % 256) + 1];
  expect("paramPhase", out, prefix(64 * 256));

  freeAll(in, out, m, dstarts, dcnt);
  return finish("wild_uniform");
}

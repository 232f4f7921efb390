// Wild-idiom corpus, group 4: byte accesses in many shapes. Grid-stride
// byte loops, `i = tid * 4; p[i..i+3]`, sixteen bytes a thread, bool flag
// arrays, interleaved RGB triples (as bytes and as uchar3), byte tiles in
// shared memory, and the right ways (uchar4, ushort) as negatives.
// Convention: at most one shared and one global access per source line; a
// byte moved is loaded on one line and stored on another. Expected verdicts:
// narrow = one-byte global instructions (SASS .U8/.S8), uncoalesced = the
// sector counters, conflict = the shared wavefronts. Byte pointers are
// spelled `unsigned char` in B01, B02 and B09 and through the typedef `u8`
// elsewhere (both are common in real code).
#include "wild.cuh"

typedef unsigned char u8;

// B01 grid-stride byte loop, one byte a lane an iteration: narrow POS,
// uncoalesced NEG.
__global__ void gridStrideBytes(const unsigned char *in, unsigned char *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    unsigned char v = in[i]; // must-agree: narrow
    out[i] = (unsigned char)(v + 1); // must-agree: narrow
  }
}

// B02 i = tid * 4, four byte statements on p[i], p[i+1], p[i+2], p[i+3]:
// narrow POS; each instruction's lanes are 4 bytes apart (4 sectors for
// one): uncoalesced POS by the counters.
__global__ void fourBytesAThread(const unsigned char *in, unsigned char *out) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  unsigned char a = in[i]; // must-agree: global
  unsigned char b = in[i + 1]; // must-agree: global
  unsigned char c = in[i + 2]; // must-agree: global
  unsigned char d = in[i + 3]; // must-agree: global
  out[i] = d; // must-agree: global
  out[i + 1] = c; // must-agree: global
  out[i + 2] = b; // must-agree: global
  out[i + 3] = a; // must-agree: global
}

// B03 the same bytes moved as one uchar4 a thread: narrow NEG, uncoalesced NEG.
__global__ void fourBytesUchar4(const uchar4 *in, uchar4 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  uchar4 v = in[i];
  out[i] = make_uchar4(v.w, v.z, v.y, v.x);
}

// B04 a loop over the four bytes of a thread, k = 0..3: narrow POS,
// uncoalesced POS.
__global__ void fourBytesLoop(const u8 *in, u8 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 4; ++k) {
    u8 v = in[4 * i + k]; // must-agree: global narrow
    out[4 * i + k] = u8(v ^ 0x5a); // must-agree: global narrow
  }
}

// B05 sixteen bytes a thread in a loop: narrow POS, uncoalesced POS
// (lanes 16 bytes apart).
__global__ void sixteenBytesLoop(const u8 *in, u8 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 16; ++k) {
    u8 v = in[16 * i + k]; // must-agree: global narrow
    out[16 * i + k] = u8(v + k); // must-agree: global narrow
  }
}

// B06 the sixteen bytes as one uint4: narrow NEG, uncoalesced NEG.
__global__ void sixteenBytesUint4(const uint4 *in, uint4 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  uint4 v = in[i];
  out[i] = make_uint4(v.w, v.z, v.y, v.x);
}

// B07 bool flags written one a lane: narrow POS (STG.U8), uncoalesced NEG.
__global__ void boolFlagsWrite(const int *in, bool *flags, int threshold) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  flags[i] = v > threshold;
}

// B08 bool flags read one a lane to select: narrow POS, uncoalesced NEG.
__global__ void boolFlagsSelect(const bool *flags, const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool f = flags[i];
  int v = in[i];
  out[i] = f ? v : -v;
}

// B09 interleaved RGB triples read as bytes, rgb[3 i + c]: narrow POS;
// 96 bytes over 32 lanes: uncoalesced POS (3-4 sectors for 1); the gray
// byte written one a lane: narrow POS, uncoalesced NEG.
__global__ void rgbToGray(const unsigned char *rgb, unsigned char *gray, int pixels) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= pixels)
    return;
  int r = rgb[3 * i]; // must-agree: global
  int g = rgb[3 * i + 1]; // must-agree: global
  int b = rgb[3 * i + 2]; // must-agree: global
  gray[i] = (unsigned char)((r + 2 * g + b) / 4); // must-agree: narrow
}

// B10 RGB pixels as a uchar3 struct (3-byte aligned, so three byte loads):
// narrow POS, uncoalesced POS.
__global__ void rgbUchar3(const uchar3 *rgb, u8 *red) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  uchar3 p = rgb[i];
  red[i] = u8(p.x + p.y + p.z);
}

// B11 RGBA as uchar4: narrow NEG, uncoalesced NEG.
__global__ void rgbaUchar4(const uchar4 *rgba, u8 *lum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  uchar4 p = rgba[i];
  lum[i] = u8((p.x + p.y + p.z) / 3);
}

// B12 a byte tile in shared memory read one byte a lane at 128-byte
// steps, s[128 * t]: shared POS (32-way); global NEG (one word a lane).
__global__ void byteTileColumn(const unsigned *in, u8 *out) {
  __shared__ u8 s[32 * 128];
  int t = threadIdx.x; // 32 threads
  unsigned *w = reinterpret_cast<unsigned *>(s);
  for (int k = 0; k < 32; ++k) {
    unsigned v = in[blockIdx.x * 1024 + 32 * k + t];
    w[32 * k + t] = v;
  }
  __syncwarp();
  u8 b = s[128 * t]; // must-agree: shared
  out[blockIdx.x * 32 + t] = b;
}

// B13 a byte tile read at 4-byte steps, s[4 * t]: one byte of each word,
// 32 banks: shared NEG; the byte store: narrow POS, uncoalesced NEG.
__global__ void byteTileWords(const unsigned *in, u8 *out) {
  __shared__ u8 s[4 * 256];
  int t = threadIdx.x;
  unsigned *w = reinterpret_cast<unsigned *>(s);
  unsigned v = in[blockIdx.x * 256 + t];
  w[t] = v;
  __syncthreads();
  u8 b = s[4 * t];
  out[blockIdx.x * 256 + t] = b;
}

// B14 two-byte ushort one a lane: narrow NEG (not byte-wide), uncoalesced NEG.
__global__ void ushortUnit(const unsigned short *in, unsigned short *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned short v = in[i];
  out[i] = (unsigned short)(v * 3u);
}

// B15 one byte a lane at a 32-byte stride: narrow POS, uncoalesced POS.
__global__ void byteStride32(const u8 *in, u8 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  u8 v = in[32 * i]; // must-agree: global
  out[i] = v;
}

int main() {
  const int bytes = 1 << 20;
  std::vector<u8> h(bytes);
  for (int i = 0; i < bytes; ++i)
    h[i] = u8((i * 131u + 7u) >> 3);
  u8 *in = toDevice(h);
  u8 *out = devZero<u8>(bytes);
  std::vector<u8> want;
  const int T = 256, G = 64, threads = T * G; // 16384 threads

  RUN("gridStrideBytes", (gridStrideBytes<<<G, T>>>(in, out, 1 << 18))); // B01
  want.assign(1 << 18, 0);
  for (int i = 0; i < (1 << 18); ++i)
    want[i] = u8(h[i] + 1);
  expect("gridStrideBytes", out, want);

  RUN("fourBytesAThread", (fourBytesAThread<<<G, T>>>(in, out))); // B02
  want.assign(4 * threads, 0);
  for (int i = 0; i < 4 * threads; ++i)
    want[i] = h[(i / 4) * 4 + 3 - i % 4];
  expect("fourBytesAThread", out, want);

  RUN("fourBytesUchar4", (fourBytesUchar4<<<G, T>>>((const uchar4 *)in, (uchar4 *)out))); // B03
  expect("fourBytesUchar4", out, want);

  RUN("fourBytesLoop", (fourBytesLoop<<<G, T>>>(in, out))); // B04
  for (int i = 0; i < 4 * threads; ++i)
    want[i] = u8(h[i] ^ 0x5a);
  expect("fourBytesLoop", out, want);

  RUN("sixteenBytesLoop", (sixteenBytesLoop<<<G, T>>>(in, out))); // B05
  want.assign(16 * threads, 0);
  for (int i = 0; i < 16 * threads; ++i)
    want[i] = u8(h[i] + i % 16);
  expect("sixteenBytesLoop", out, want);

  RUN("sixteenBytesUint4", (sixteenBytesUint4<<<G, T>>>((const uint4 *)in, (uint4 *)out))); // B06
  for (int i = 0; i < 16 * threads; ++i)
    want[i] = h[(i / 16) * 16 + (3 - (i % 16) / 4) * 4 + i % 4];
  expect("sixteenBytesUint4", out, want);

  const int *words = (const int *)in;
  std::vector<int> hw(threads);
  memcpy(hw.data(), h.data(), threads * 4);
  bool *flags = devZero<bool>(threads);
  const int thr = 1 << 30;
  RUN("boolFlagsWrite", (boolFlagsWrite<<<G, T>>>(words, flags, thr))); // B07
  {
    std::vector<char> got(threads);
    CK(cudaMemcpy(got.data(), flags, threads, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < threads; ++i)
      bad += (got[i] != 0) != (hw[i] > thr);
    printf("%s boolFlagsWrite\n", bad ? "MISMATCH" : "ok");
    g_failures += bad != 0;
  }
  int *iout = devZero<int>(threads);
  RUN("boolFlagsSelect", (boolFlagsSelect<<<G, T>>>(flags, words, iout))); // B08
  {
    std::vector<int> wi(threads);
    for (int i = 0; i < threads; ++i)
      wi[i] = hw[i] > thr ? hw[i] : -hw[i];
    expect("boolFlagsSelect", iout, wi);
  }

  const int pixels = threads;
  RUN("rgbToGray", (rgbToGray<<<G, T>>>(in, out, pixels))); // B09
  want.assign(pixels, 0);
  for (int i = 0; i < pixels; ++i)
    want[i] = u8((h[3 * i] + 2 * h[3 * i + 1] + h[3 * i + 2]) / 4);
  expect("rgbToGray", out, want);

  RUN("rgbUchar3", (rgbUchar3<<<G, T>>>((const uchar3 *)in, out))); // B10
  for (int i = 0; i < pixels; ++i)
    want[i] = u8(h[3 * i] + h[3 * i + 1] + h[3 * i + 2]);
  expect("rgbUchar3", out, want);

  RUN("rgbaUchar4", (rgbaUchar4<<<G, T>>>((const uchar4 *)in, out))); // B11
  for (int i = 0; i < pixels; ++i)
    want[i] = u8((h[4 * i] + h[4 * i + 1] + h[4 * i + 2]) / 3);
  expect("rgbaUchar4", out, want);

  const unsigned *uin = (const unsigned *)in;
  RUN("byteTileColumn", (byteTileColumn<<<G, 32>>>(uin, out))); // B12
  want.assign(G * 32, 0);
  for (int i = 0; i < G * 32; ++i)
    want[i] = h[(i / 32) * 4096 + 128 * (i % 32)];
  expect("byteTileColumn", out, want);

  RUN("byteTileWords", (byteTileWords<<<G, T>>>(uin, out))); // B13
  want.assign(G * T, 0);
  for (int i = 0; i < G * T; ++i)
    want[i] = h[4 * i];
  expect("byteTileWords", out, want);

  RUN("ushortUnit", (ushortUnit<<<G, T>>>((const unsigned short *)in, (unsigned short *)out))); // B14
  {
    std::vector<unsigned short> ws(threads);
    for (int i = 0; i < threads; ++i)
      ws[i] = (unsigned short)((h[2 * i] | (h[2 * i + 1] << 8)) * 3u);
    expect("ushortUnit", (const unsigned short *)out, ws);
  }

  RUN("byteStride32", (byteStride32<<<G / 2, T>>>(in, out))); // B15
  want.assign(threads / 2, 0);
  for (int i = 0; i < threads / 2; ++i)
    want[i] = h[32 * i];
  expect("byteStride32", out, want);

  freeAll(in, out, flags, iout);
  return finish("wild_bytes");
}

// Ground-truth corpus: global loads and stores. Strides, column walks,
// arrays of structs, misalignment, vectors, gathers, 2-D blocks, grid-stride
// and warp-per-row loops, templates, macros and cache-hinted loads.
// One global access per source line. Expected verdicts: POS/NEG.
#include "common.cuh"

// G01 unit stride: NEG / NEG.
__global__ void copyUnit(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  out[i] = v;
}

// G02 stride 2 read: POS (8 sectors where 4 suffice); write NEG.
__global__ void readStride2(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[2 * i];
  out[i] = v;
}

// G03 stride 32 read: POS (32 sectors); write NEG.
__global__ void readStride32(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[32 * i];
  out[i] = v;
}

// G04 each thread walks its own row: POS.
__global__ void rowPerThread(const float *in, float *out, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.f;
  for (int k = 0; k < 8; ++k)
    s += in[r * n + k];
  out[r] = s;
}

// G05 one byte a thread: NEG (one sector per request is the ideal).
__global__ void bytesUnit(const unsigned char *in, unsigned char *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned char v = in[i];
  out[i] = v + 1;
}

struct P4 { float x, y, z, w; };
struct P2 { float a, b; };

// G06 array of 16-byte structs, one field: POS (16 sectors where 4 suffice).
__global__ void aos16(const P4 *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = p[i].x;
  out[i] = v;
}

// G07 array of 8-byte structs, one field: POS (8 where 4).
__global__ void aos8(const P2 *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = p[i].a;
  out[i] = v;
}

// G08 shifted by one element: NEG (misalignment costs one sector).
__global__ void misaligned(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i + 1];
  out[i] = v;
}

// G09 float4 unit stride: NEG / NEG.
__global__ void vec4Unit(const float4 *in, float4 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = in[i];
  out[i] = v;
}

// G10 double, stride 4: POS (32 sectors where 8).
__global__ void doubleStride4(const double *in, double *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double v = in[4 * i];
  out[i] = v;
}

// G11 gather through an index array holding the identity: the index is
// data; measured NEG; warplint cannot see it (unknown, not reported).
__global__ void gatherIdentity(const float *in, const int *idx, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = idx[i];
  float v = in[j];
  out[i] = v;
}

// G12 gather through a scattered index array: measured POS; unknown to a
// static analysis (expected false negative, data-dependent).
__global__ void gatherScattered(const float *in, const int *idx, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = idx[i];
  float v = in[j];
  out[i] = v;
}

// G13 2-D (32,8) block, row-major: NEG / NEG.
__global__ void rows2d(const float *in, float *out, int n) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 8 + threadIdx.y;
  float v = in[y * n + x];
  out[y * n + x] = v;
}

// G14 2-D (8,32) block: each warp covers four 32-byte row pieces: NEG.
__global__ void narrow2d(const float *in, float *out, int n) {
  int x = blockIdx.x * 8 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  float v = in[y * n + x];
  out[y * n + x] = v;
}

// G15 naive transpose with a (32,8) block: read NEG, write POS.
__global__ void transposeDirect(const float *in, float *out, int n) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 8 + threadIdx.y;
  float v = in[y * n + x];
  out[x * n + y] = v;
}

// G16 grid-stride loop: NEG / NEG.
__global__ void gridStride(const float *in, float *out, int count) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count;
       i += blockDim.x * gridDim.x) {
    float v = in[i];
    out[i] = 2.f * v;
  }
}

// G17 warp per row, lanes stride through the row: NEG.
__global__ void warpPerRow(const float *in, float *out, int n) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  float s = 0.f;
  for (int c = lane; c < 256; c += 32)
    s += in[row * n + c];
  out[row * 32 + lane] = s;
}

// G18 template stride: stridedT<1> NEG, stridedT<8> POS (same line).
template <int S>
__global__ void stridedT(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i * S];
  out[i] = v;
}

#define PITCH 1024
#define AT(r, c) ((r) * PITCH + (c))

// G19 macros: column walk POS, row walk NEG.
__global__ void macroWalks(const float *in, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float a = 0.f, b = 0.f;
  for (int k = 0; k < 4; ++k) {
    a += in[AT(t, k)];
    b += in[AT(k, t)];
  }
  out[t] = a - b;
}

// G20 cache-hinted load with stride 4: POS.
__global__ void ldgStride4(const float *__restrict__ in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = __ldg(&in[4 * i]);
  out[i] = v;
}

// G21 strided write (stride 2): read NEG, write POS.
__global__ void writeStride2(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  out[2 * i] = v;
}

// G22 short, stride 16 elements (32 bytes): POS; store NEG.
__global__ void shortStride16(const short *in, short *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  short v = in[16 * i];
  out[i] = v;
}

// G23 int2 unit stride: NEG / NEG.
__global__ void int2Unit(const int2 *in, int2 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int2 v = in[i];
  out[i] = make_int2(v.y, v.x);
}

// G24 half the warp idle (i < n/2 guard on odd lanes... here even lanes):
// lanes 2 words apart active: POS? each request touches 4 sectors for 64
// bytes: 2x but only two wasted sectors. Kept as a threshold probe.
__global__ void evenLanes(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if ((threadIdx.x & 1) == 0) {
    float v = in[i];
    out[i] = v;
  }
}

int main() {
  const int n = 1024;
  const int threads = 256, blocks = 64, count = threads * blocks;
  float *fi = (float *)devbuf(size_t(n) * n * 4 * 2, 1); // 8 MiB
  float *fo = (float *)devbuf(size_t(n) * n * 4 * 2, 2);
  int *ident = nullptr, *scat = nullptr;
  {
    int *h = (int *)malloc(count * sizeof(int));
    for (int i = 0; i < count; ++i)
      h[i] = i;
    CK(cudaMalloc(&ident, count * sizeof(int)));
    CK(cudaMemcpy(ident, h, count * sizeof(int), cudaMemcpyHostToDevice));
    unsigned x = 7;
    for (int i = 0; i < count; ++i) {
      x = x * 1664525u + 1013904223u;
      h[i] = int((x >> 8) % (unsigned)(n * n));
    }
    CK(cudaMalloc(&scat, count * sizeof(int)));
    CK(cudaMemcpy(scat, h, count * sizeof(int), cudaMemcpyHostToDevice));
    free(h);
  }
  RUN("copyUnit", (copyUnit<<<blocks, threads>>>(fi, fo)));
  RUN("readStride2", (readStride2<<<blocks, threads>>>(fi, fo)));
  RUN("readStride32", (readStride32<<<blocks, threads>>>(fi, fo)));
  RUN("rowPerThread", (rowPerThread<<<4, threads>>>(fi, fo, n)));
  RUN("bytesUnit", (bytesUnit<<<blocks, threads>>>((const unsigned char *)fi,
                                                   (unsigned char *)fo)));
  RUN("aos16", (aos16<<<blocks, threads>>>((const P4 *)fi, fo)));
  RUN("aos8", (aos8<<<blocks, threads>>>((const P2 *)fi, fo)));
  RUN("misaligned", (misaligned<<<blocks, threads>>>(fi, fo)));
  RUN("vec4Unit", (vec4Unit<<<blocks, threads>>>((const float4 *)fi,
                                                 (float4 *)fo)));
  RUN("doubleStride4", (doubleStride4<<<blocks, threads>>>(
                           (const double *)fi, (double *)fo)));
  RUN("gatherIdentity", (gatherIdentity<<<blocks, threads>>>(fi, ident, fo)));
  RUN("gatherScattered", (gatherScattered<<<blocks, threads>>>(fi, scat, fo)));
  RUN("rows2d", (rows2d<<<dim3(8, 8), dim3(32, 8)>>>(fi, fo, n)));
  RUN("narrow2d", (narrow2d<<<dim3(8, 8), dim3(8, 32)>>>(fi, fo, n)));
  RUN("transposeDirect",
      (transposeDirect<<<dim3(8, 32), dim3(32, 8)>>>(fi, fo, n)));
  RUN("gridStride", (gridStride<<<16, threads>>>(fi, fo, count)));
  RUN("warpPerRow", (warpPerRow<<<blocks, threads>>>(fi, fo, n)));
  RUN("stridedT<1>", (stridedT<1><<<blocks, threads>>>(fi, fo)));
  RUN("stridedT<8>", (stridedT<8><<<blocks, threads>>>(fi, fo)));
  RUN("macroWalks", (macroWalks<<<4, threads>>>(fi, fo)));
  RUN("ldgStride4", (ldgStride4<<<blocks, threads>>>(fi, fo)));
  RUN("writeStride2", (writeStride2<<<blocks, threads>>>(fi, fo)));
  RUN("shortStride16", (shortStride16<<<blocks, threads>>>((const short *)fi,
                                                           (short *)fo)));
  RUN("int2Unit", (int2Unit<<<blocks, threads>>>((const int2 *)fi,
                                                 (int2 *)fo)));
  RUN("evenLanes", (evenLanes<<<blocks, threads>>>(fi, fo)));
  CK(cudaFree(fi));
  CK(cudaFree(fo));
  CK(cudaFree(ident));
  CK(cudaFree(scat));
  printf("global: done\n");
  return 0;
}

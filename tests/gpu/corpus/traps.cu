// Ground-truth corpus: traps. Run-time block shapes and parameters the
// analyzer has to assume, skewed tiles, reinterpret casts, aliases into
// dynamic shared memory, volatile warp-synchronous code, XOR pairs, modulo
// walks and lane guards. Expected verdicts (shared / global): POS/NEG; where
// an assumption decides, the note says which way it should go.
#include "common.cuh"

// X01 (16,16) block given at run time: shared POS (tile[tx][ty], 16x16 is
// 8-way for a (16,16) block; the default (32,8) would also give a conflict).
__global__ void runtimeShape(const float *in, float *out, int n) {
  __shared__ float tile[16][16];
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  float v = tile[threadIdx.x][threadIdx.y];
  out[y * n + x] = v;
}

// X02 shared stride from a parameter (33 at run time: no conflict; the
// analyzer assumes 1024 and says so).
__global__ void paramStride(const float *in, float *out, int stride) {
  __shared__ float s[32 * 33];
  unsigned t = threadIdx.x; // 32 threads
  for (int k = 0; k < 33; ++k)
    s[t + 32 * k] = in[blockIdx.x * 1056 + t + 32 * k];
  __syncwarp();
  float v = s[t * stride];
  out[blockIdx.x * 32 + t] = v;
}

// X03 skewed tile: element (r, c) at [r][(c + r) % 32]: column read NEG.
__global__ void skewTile(const float *in, float *out, int n) {
  __shared__ float tile[32][32];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    tile[threadIdx.y + j][(threadIdx.x + threadIdx.y + j) % 32] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) {
    float v = tile[threadIdx.x][(threadIdx.x + threadIdx.y + j) % 32];
    out[(y + j) * n + x] = v;
  }
}

// X04 float2 view of a float tile, every other float2: lanes 16 bytes
// apart, 8-byte accesses: shared POS (2-way per half-warp phase).
__global__ void castFloat2(const float *in, float *out) {
  __shared__ float s[4 * 256];
  unsigned t = threadIdx.x;
  for (int k = 0; k < 4; ++k)
    s[t + 256 * k] = in[blockIdx.x * 1024 + t + 256 * k];
  __syncthreads();
  float2 v = reinterpret_cast<const float2 *>(s)[2 * t];
  out[blockIdx.x * 256 + t] = v.x + v.y;
}

// X05 alias into dynamic shared memory at a 33-word offset, column walk of
// a 32-word pitch: shared POS (32-way).
__global__ void dynAlias(const float *in, float *out) {
  extern __shared__ float dyn[];
  float *second = dyn + 33;
  unsigned t = threadIdx.x; // 32 threads
  for (int k = 0; k < 33; ++k)
    dyn[t + 32 * k] = in[blockIdx.x * 1056 + t + 32 * k];
  __syncwarp();
  float v = second[t * 32];
  out[blockIdx.x * 32 + t] = v;
}

// X06 volatile warp-synchronous tail of a reduction: shared NEG.
__device__ void warpTail(volatile float *s, unsigned t) {
  s[t] += s[t + 32];
  s[t] += s[t + 16];
  s[t] += s[t + 8];
  s[t] += s[t + 4];
  s[t] += s[t + 2];
  s[t] += s[t + 1];
}
__global__ void volatileTail(const float *in, float *out) {
  __shared__ float s[64];
  unsigned t = threadIdx.x; // 32 threads
  s[t] = in[blockIdx.x * 64 + t];
  s[t + 32] = in[blockIdx.x * 64 + t + 32];
  __syncwarp();
  warpTail(s, t);
  if (t == 0)
    out[blockIdx.x] = s[0];
}

// X07 XOR pair swap in global memory: NEG.
__global__ void xorPairs(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i ^ 1];
  out[i] = v;
}

// X08 modulo walk, stride 7 floats (28 bytes): POS.
__global__ void moduloWalk(const float *in, float *out, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[(i * 7) % count];
  out[i] = v;
}

// X09 lane guard: half the lanes read with stride 8: POS (16 sectors for
// 64 bytes).
__global__ void guardedStride(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if ((threadIdx.x & 31) < 16) {
    float v = in[8 * i];
    out[i] = v;
  }
}

// X10 char4 tile read by columns (one word a char4): shared POS (32-way).
__global__ void char4Cols(const char4 *in, char4 *out) {
  __shared__ char4 s[32][32];
  int tx = threadIdx.x, ty = threadIdx.y; // (32, 8)
  for (int j = 0; j < 32; j += 8)
    s[ty + j][tx] = in[blockIdx.x * 1024 + (ty + j) * 32 + tx];
  __syncthreads();
  for (int j = 0; j < 32; j += 8) {
    char4 v = s[tx][ty + j];
    out[blockIdx.x * 1024 + (ty + j) * 32 + tx] = v;
  }
}

// X11 linear id over a (16,16) block, stride 2 words: shared POS (2-way).
__global__ void linearId2d(const float *in, float *out) {
  __shared__ float s[512];
  int tid = threadIdx.y * 16 + threadIdx.x;
  s[tid] = in[blockIdx.x * 512 + tid];
  s[tid + 256] = in[blockIdx.x * 512 + tid + 256];
  __syncthreads();
  float v = s[2 * tid];
  out[blockIdx.x * 256 + tid] = v;
}

// X12 double, (16,16) block rows: 2 rows of 128 bytes a warp: global NEG.
__global__ void doubleRows16(const double *in, double *out, int n) {
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  double v = in[y * n + x];
  out[y * n + x] = v;
}

int main() {
  const int n = 1024;
  float *fi = (float *)devbuf(size_t(n) * n * 4, 1);
  float *fo = (float *)devbuf(size_t(n) * n * 4, 2);
  int bs = 16; // run-time block edge
  dim3 rb(bs, bs);
  RUN("runtimeShape", (runtimeShape<<<dim3(8, 8), rb>>>(fi, fo, n)));
  RUN("paramStride", (paramStride<<<64, 32>>>(fi, fo, 33)));
  RUN("skewTile", (skewTile<<<dim3(8, 8), dim3(32, 8)>>>(fi, fo, n)));
  RUN("castFloat2", (castFloat2<<<64, 256>>>(fi, fo)));
  RUN("dynAlias", (dynAlias<<<64, 32, 33 * 32 * 4>>>(fi, fo)));
  RUN("volatileTail", (volatileTail<<<64, 32>>>(fi, fo)));
  RUN("xorPairs", (xorPairs<<<64, 256>>>(fi, fo)));
  RUN("moduloWalk", (moduloWalk<<<64, 256>>>(fi, fo, n * n)));
  RUN("guardedStride", (guardedStride<<<64, 256>>>(fi, fo)));
  RUN("char4Cols", (char4Cols<<<64, dim3(32, 8)>>>((const char4 *)fi,
                                                   (char4 *)fo)));
  RUN("linearId2d", (linearId2d<<<64, dim3(16, 16)>>>(fi, fo)));
  RUN("doubleRows16", (doubleRows16<<<dim3(8, 8), dim3(16, 16)>>>(
                          (const double *)fi, (double *)fo, n / 2)));
  CK(cudaFree(fi));
  CK(cudaFree(fo));
  printf("traps: done\n");
  return 0;
}

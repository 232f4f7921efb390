// Ground-truth corpus: matrix products (C = A*B and C = A*A^T) through
// shared tiles, word strides in shared memory, element types, templates,
// macros, a stencil halo and dynamic shared memory.
#include "common.cuh"

constexpr int TS = 16;

// M01 tiled C = A*B, 16x16: As[ty][k] broadcast, Bs[k][tx] rows: shared
// NEG, global NEG.
__global__ void matmulTiled(const float *A, const float *Bm, float *C, int n) {
  __shared__ float As[TS][TS], Bs[TS][TS];
  int row = blockIdx.y * TS + threadIdx.y, col = blockIdx.x * TS + threadIdx.x;
  float acc = 0.f;
  for (int t = 0; t < 4; ++t) {
    As[threadIdx.y][threadIdx.x] = A[row * n + t * TS + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = Bm[(t * TS + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < TS; ++k) {
      float a = As[threadIdx.y][k];
      acc += a * Bs[k][threadIdx.x];
    }
    __syncthreads();
  }
  C[row * n + col] = acc;
}

// M02 naive C = A*A^T (seed 002 §5.3), (32,8) block: A[col*n+k] walks a
// column across lanes: global POS; A[row*n+k] is uniform: NEG.
__global__ void aatNaive(const float *A, float *C, int n) {
  int row = blockIdx.y * 8 + threadIdx.y, col = blockIdx.x * 32 + threadIdx.x;
  float acc = 0.f;
  for (int k = 0; k < 64; ++k) {
    float a = A[row * n + k];
    acc += a * A[col * n + k];
  }
  C[row * n + col] = acc;
}

// M03 tiled C = A*A^T (seed 002 §5.4): the second tile is stored
// transposed, Bt[tx][ty]: 32-way on the store: shared POS.
__global__ void aatTiled(const float *A, float *C, int n) {
  __shared__ float As[32][32], Bt[32][32];
  int tx = threadIdx.x, ty = threadIdx.y; // (32, 32) block
  int row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
  float acc = 0.f;
  for (int t = 0; t < 2; ++t) {
    As[ty][tx] = A[row * n + t * 32 + tx];
    Bt[tx][ty] = A[(blockIdx.x * 32 + ty) * n + t * 32 + tx];
    __syncthreads();
    for (int k = 0; k < 32; ++k) {
      float a = As[ty][k];
      acc += a * Bt[k][tx];
    }
    __syncthreads();
  }
  C[row * n + col] = acc;
}

// M04 same with the transposed tile padded to 33 words: shared NEG.
__global__ void aatTiledPad(const float *A, float *C, int n) {
  __shared__ float As[32][32], Bt[32][33];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
  float acc = 0.f;
  for (int t = 0; t < 2; ++t) {
    As[ty][tx] = A[row * n + t * 32 + tx];
    Bt[tx][ty] = A[(blockIdx.x * 32 + ty) * n + t * 32 + tx];
    __syncthreads();
    for (int k = 0; k < 32; ++k) {
      float a = As[ty][k];
      acc += a * Bt[k][tx];
    }
    __syncthreads();
  }
  C[row * n + col] = acc;
}

// M05..M08 word strides in shared memory: 2 (POS, 2-way), 3 (NEG, odd),
// 4 (POS, 4-way), 32 (POS, 32-way).
__global__ void smemStride2(const float *in, float *out) {
  __shared__ float s[2 * 256];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 256 + t];
  s[t + 256] = in[blockIdx.x * 256 + t] + 1.f;
  __syncthreads();
  float v = s[2 * t];
  out[blockIdx.x * 256 + t] = v;
}

__global__ void smemStride3(const float *in, float *out) {
  __shared__ float s[3 * 256];
  unsigned t = threadIdx.x;
  for (int k = 0; k < 3; ++k)
    s[t + 256 * k] = in[blockIdx.x * 256 + t];
  __syncthreads();
  float v = s[3 * t];
  out[blockIdx.x * 256 + t] = v;
}

__global__ void smemStride4(const float *in, float *out) {
  __shared__ float s[4 * 256];
  unsigned t = threadIdx.x;
  for (int k = 0; k < 4; ++k)
    s[t + 256 * k] = in[blockIdx.x * 256 + t];
  __syncthreads();
  float v = s[4 * t];
  out[blockIdx.x * 256 + t] = v;
}

__global__ void smemStride32(const float *in, float *out) {
  __shared__ float s[32 * 32];
  unsigned t = threadIdx.x; // 32 threads
  for (int k = 0; k < 32; ++k)
    s[t + 32 * k] = in[blockIdx.x * 1024 + t + 32 * k];
  __syncthreads();
  float v = s[32 * t];
  out[blockIdx.x * 32 + t] = v;
}

// M09 doubles at stride 2 (16 bytes apart): shared POS (2-way per phase).
__global__ void smemF64Stride2(const double *in, double *out) {
  __shared__ double s[2 * 256];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 256 + t];
  s[t + 256] = in[blockIdx.x * 256 + t] * 2.0;
  __syncthreads();
  double v = s[2 * t];
  out[blockIdx.x * 256 + t] = v;
}

// M10 template tile, column read: templTile<float, 32> POS (32-way),
// templTile<float, 33> NEG, both on the same lines.
template <typename E, int P>
__global__ void templTile(const E *in, E *out) {
  __shared__ E s[32][P];
  int tx = threadIdx.x, ty = threadIdx.y; // (32, 8)
  for (int j = 0; j < 32; j += 8)
    s[ty + j][tx] = in[blockIdx.x * 1024 + (ty + j) * 32 + tx];
  __syncthreads();
  for (int j = 0; j < 32; j += 8) {
    E v = s[tx][ty + j];
    out[blockIdx.x * 1024 + (ty + j) * 32 + tx] = v;
  }
}

// M11 macro-indexed shared tile with a pitch macro of 16 words, lanes
// walking a column: shared POS (16-way with 32 lanes over 2 rows... ).
#define SP 16
#define SIDX(r, c) ((r) * SP + (c))
__global__ void macroTile(const float *in, float *out) {
  __shared__ float s[32 * SP];
  unsigned t = threadIdx.x; // 32 threads
  for (int k = 0; k < SP; ++k)
    s[SIDX(k, t % SP) + (t / SP) * 16 * SP] = in[blockIdx.x * 512 + k * 32 + t];
  __syncthreads();
  float v = s[SIDX(t, 3)];
  out[blockIdx.x * 32 + t] = v;
}

// M12 5-point stencil, (16,16) block, 18x18 tile with a halo: the interior
// read spans two rows 18 words apart: shared POS (2-way); global NEG.
__global__ void stencil18(const float *in, float *out, int n) {
  __shared__ float s[18][18];
  int x = blockIdx.x * 16 + threadIdx.x + 1, y = blockIdx.y * 16 + threadIdx.y + 1;
  s[threadIdx.y + 1][threadIdx.x + 1] = in[y * n + x];
  if (threadIdx.x == 0)
    s[threadIdx.y + 1][0] = in[y * n + x - 1];
  if (threadIdx.x == 15)
    s[threadIdx.y + 1][17] = in[y * n + x + 1];
  if (threadIdx.y == 0)
    s[0][threadIdx.x + 1] = in[(y - 1) * n + x];
  if (threadIdx.y == 15)
    s[17][threadIdx.x + 1] = in[(y + 1) * n + x];
  __syncthreads();
  float c = s[threadIdx.y + 1][threadIdx.x + 1];
  float l = s[threadIdx.y + 1][threadIdx.x];
  float r = s[threadIdx.y + 1][threadIdx.x + 2];
  float u = s[threadIdx.y][threadIdx.x + 1];
  float d = s[threadIdx.y + 2][threadIdx.x + 1];
  out[y * n + x] = c - 0.25f * (l + r + u + d);
}

// M13 5-point stencil, (32,8) block, 10x34 tile: shared NEG; global NEG.
__global__ void stencil34(const float *in, float *out, int n) {
  __shared__ float s[10][34];
  int x = blockIdx.x * 32 + threadIdx.x + 1, y = blockIdx.y * 8 + threadIdx.y + 1;
  s[threadIdx.y + 1][threadIdx.x + 1] = in[y * n + x];
  if (threadIdx.x == 0)
    s[threadIdx.y + 1][0] = in[y * n + x - 1];
  if (threadIdx.x == 31)
    s[threadIdx.y + 1][33] = in[y * n + x + 1];
  if (threadIdx.y == 0)
    s[0][threadIdx.x + 1] = in[(y - 1) * n + x];
  if (threadIdx.y == 7)
    s[9][threadIdx.x + 1] = in[(y + 1) * n + x];
  __syncthreads();
  float c = s[threadIdx.y + 1][threadIdx.x + 1];
  float l = s[threadIdx.y + 1][threadIdx.x];
  float r = s[threadIdx.y + 1][threadIdx.x + 2];
  float u = s[threadIdx.y][threadIdx.x + 1];
  float d = s[threadIdx.y + 2][threadIdx.x + 1];
  out[y * n + x] = c - 0.25f * (l + r + u + d);
}

// M14 dynamic shared memory, 64-bit words indexed with a 17-element row
// (odd): shared NEG.
__global__ void dynRows(const double *in, double *out) {
  extern __shared__ double dyn[];
  unsigned t = threadIdx.x; // 32 threads
  for (int k = 0; k < 17; ++k)
    dyn[t * 17 + k] = in[blockIdx.x * 1024 + k * 32 + t];
  __syncwarp();
  double v = dyn[t * 17 + 5];
  out[blockIdx.x * 32 + t] = v;
}

// M15 short (2-byte) tile read by columns, 32 shorts a row (64 bytes):
// lanes 16 words apart: shared POS (16-way).
__global__ void shortCols(const short *in, short *out) {
  __shared__ short s[32][32];
  int tx = threadIdx.x, ty = threadIdx.y; // (32, 8)
  for (int j = 0; j < 32; j += 8)
    s[ty + j][tx] = in[blockIdx.x * 1024 + (ty + j) * 32 + tx];
  __syncthreads();
  for (int j = 0; j < 32; j += 8) {
    short v = s[tx][ty + j];
    out[blockIdx.x * 1024 + (ty + j) * 32 + tx] = v;
  }
}

int main() {
  const int n = 1024;
  float *A = (float *)devbuf(size_t(n) * n * 4, 1);
  float *Bm = (float *)devbuf(size_t(n) * n * 4, 2);
  float *C = (float *)devbuf(size_t(n) * n * 4, 3);
  RUN("matmulTiled", (matmulTiled<<<dim3(4, 4), dim3(TS, TS)>>>(A, Bm, C, n)));
  RUN("aatNaive", (aatNaive<<<dim3(2, 8), dim3(32, 8)>>>(A, C, n)));
  RUN("aatTiled", (aatTiled<<<dim3(2, 2), dim3(32, 32)>>>(A, C, n)));
  RUN("aatTiledPad", (aatTiledPad<<<dim3(2, 2), dim3(32, 32)>>>(A, C, n)));
  RUN("smemStride2", (smemStride2<<<64, 256>>>(A, C)));
  RUN("smemStride3", (smemStride3<<<64, 256>>>(A, C)));
  RUN("smemStride4", (smemStride4<<<64, 256>>>(A, C)));
  RUN("smemStride32", (smemStride32<<<64, 32>>>(A, C)));
  RUN("smemF64Stride2",
      (smemF64Stride2<<<64, 256>>>((const double *)A, (double *)C)));
  RUN("templTile<float,32>",
      (templTile<float, 32><<<64, dim3(32, 8)>>>(A, C)));
  RUN("templTile<float,33>",
      (templTile<float, 33><<<64, dim3(32, 8)>>>(A, C)));
  RUN("macroTile", (macroTile<<<64, 32>>>(A, C)));
  RUN("stencil18", (stencil18<<<dim3(8, 8), dim3(16, 16)>>>(A, C, n)));
  RUN("stencil34", (stencil34<<<dim3(4, 16), dim3(32, 8)>>>(A, C, n)));
  RUN("dynRows", (dynRows<<<64, 32, 32 * 17 * sizeof(double)>>>(
                     (const double *)A, (double *)C)));
  RUN("shortCols", (shortCols<<<64, dim3(32, 8)>>>((const short *)A,
                                                   (short *)C)));
  CK(cudaFree(A));
  CK(cudaFree(Bm));
  CK(cudaFree(C));
  printf("misc: done\n");
  return 0;
}

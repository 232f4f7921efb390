// Ground-truth corpus: loops whose shared-memory stride changes per
// iteration: tree reductions (interleaved, modulo, sequential), scans and
// cyclic reduction. One shared access pattern per source line.
#include "common.cuh"

constexpr int B = 256;

// R01 interleaved addressing, index = 2*s*tid: shared POS (worst 8-way).
__global__ void reduceInterleaved(const float *in, float *out) {
  __shared__ float s[B];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * B + tid];
  __syncthreads();
  for (unsigned st = 1; st < B; st *= 2) {
    unsigned index = 2 * st * tid;
    if (index < B) {
      float a = s[index + st];
      s[index] += a;
    }
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// R02 modulo test (tid % (2*s) == 0): divergent but word-consecutive:
// shared NEG.
__global__ void reduceModulo(const float *in, float *out) {
  __shared__ float s[B];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * B + tid];
  __syncthreads();
  for (unsigned st = 1; st < B; st *= 2) {
    if (tid % (2 * st) == 0) {
      float a = s[tid + st];
      s[tid] += a;
    }
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// R03 sequential addressing: shared NEG.
__global__ void reduceSequential(const float *in, float *out) {
  __shared__ float s[B];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * B + tid];
  __syncthreads();
  for (unsigned st = B / 2; st > 0; st >>= 1) {
    if (tid < st) {
      float a = s[tid + st];
      s[tid] += a;
    }
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// R04 doubles, interleaved: shared POS.
__global__ void reduceInterleavedF64(const double *in, double *out) {
  __shared__ double s[B];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * B + tid];
  __syncthreads();
  for (unsigned st = 1; st < B; st *= 2) {
    unsigned index = 2 * st * tid;
    if (index < B) {
      double a = s[index + st];
      s[index] += a;
    }
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// R05 shuffle within warps, one partial a warp in shared: shared NEG.
__global__ void reduceShuffle(const float *in, float *out) {
  __shared__ float part[B / 32];
  unsigned tid = threadIdx.x;
  float v = in[blockIdx.x * B + tid];
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  if ((tid & 31) == 0)
    part[tid >> 5] = v;
  __syncthreads();
  if (tid < 32) {
    float w = tid < B / 32 ? part[tid] : 0.f;
    for (int o = 4; o > 0; o >>= 1)
      w += __shfl_down_sync(0xffffffffu, w, o);
    if (tid == 0)
      out[blockIdx.x] = w;
  }
}

// R06 Hillis-Steele inclusive scan, double-buffered: shared NEG.
__global__ void scanHillisSteele(const float *in, float *out) {
  __shared__ float buf[2][B];
  unsigned tid = threadIdx.x;
  int p = 0;
  buf[0][tid] = in[blockIdx.x * B + tid];
  __syncthreads();
  for (unsigned off = 1; off < B; off *= 2) {
    float v = buf[p][tid];
    if (tid >= off)
      v += buf[p][tid - off];
    buf[1 - p][tid] = v;
    p = 1 - p;
    __syncthreads();
  }
  out[blockIdx.x * B + tid] = buf[p][tid];
}

// R07 Blelloch up-sweep: ai = off*(2*tid+1)-1: shared POS.
__global__ void scanUpsweep(const float *in, float *out) {
  __shared__ float s[2 * B];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 2 * B + tid];
  s[tid + B] = in[blockIdx.x * 2 * B + tid + B];
  unsigned off = 1;
  for (unsigned d = B; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      unsigned ai = off * (2 * tid + 1) - 1;
      unsigned bi = off * (2 * tid + 2) - 1;
      float a = s[ai];
      s[bi] += a;
    }
    off *= 2;
  }
  __syncthreads();
  out[blockIdx.x * 2 * B + tid] = s[tid];
}

// R08 cyclic reduction forward phase on one 512-equation system a block
// (seed 003 §5.2): the stride doubles each step, so do the conflicts:
// shared POS.
constexpr int NE = 512;
__global__ void cyclicForward(const float *a_, const float *b_, const float *c_,
                              const float *d_, float *out) {
  __shared__ float a[NE], b[NE], c[NE], d[NE];
  unsigned t = threadIdx.x; // 256 threads
  const float *A = a_ + blockIdx.x * NE, *Bv = b_ + blockIdx.x * NE;
  const float *C = c_ + blockIdx.x * NE, *D = d_ + blockIdx.x * NE;
  a[t] = A[t];
  a[t + 256] = A[t + 256];
  b[t] = Bv[t] + 4.f;
  b[t + 256] = Bv[t + 256] + 4.f;
  c[t] = C[t];
  c[t + 256] = C[t + 256];
  d[t] = D[t];
  d[t + 256] = D[t + 256];
  __syncthreads();
  for (unsigned st = 1; st < NE / 2; st *= 2) {
    unsigned n = NE / (2 * st);
    if (t < n) {
      unsigned i = 2 * st * t + 2 * st - 1;
      unsigned lo = i - st;
      unsigned hi = i + st < NE ? i + st : NE - 1;
      float k1 = a[i] / b[lo];
      float k2 = c[i] / b[hi];
      b[i] = b[i] - c[lo] * k1 - a[hi] * k2;
      d[i] = d[i] - d[lo] * k1 - d[hi] * k2;
      a[i] = -a[lo] * k1;
      c[i] = -c[hi] * k2;
    }
    __syncthreads();
  }
  out[blockIdx.x * NE + t] = d[t];
}

// R09 Harris's padded Blelloch up-sweep (one word of padding per 32):
// shared: the padding removes most conflicts; the measurement decides.
#define LOG_BANKS 5
#define PADDED(i) ((i) + ((i) >> LOG_BANKS))
__global__ void scanUpsweepPadded(const float *in, float *out) {
  __shared__ float s[2 * B + 2 * B / 32];
  unsigned tid = threadIdx.x;
  s[PADDED(tid)] = in[blockIdx.x * 2 * B + tid];
  s[PADDED(tid + B)] = in[blockIdx.x * 2 * B + tid + B];
  unsigned off = 1;
  for (unsigned d = B; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      unsigned ai = off * (2 * tid + 1) - 1;
      unsigned bi = off * (2 * tid + 2) - 1;
      float a = s[PADDED(ai)];
      s[PADDED(bi)] += a;
    }
    off *= 2;
  }
  __syncthreads();
  out[blockIdx.x * 2 * B + tid] = s[PADDED(tid)];
}

// R10 column sums of a 32-wide block of rows in shared memory, thread per
// column then per row: rows read NEG, columns read POS (32-way).
__global__ void rowColSums(const float *in, float *out) {
  __shared__ float m[32][32];
  unsigned tid = threadIdx.x; // 32 threads
  for (int r = 0; r < 32; ++r)
    m[r][tid] = in[blockIdx.x * 1024 + r * 32 + tid];
  __syncwarp();
  float colsum = 0.f, rowsum = 0.f;
  for (int k = 0; k < 32; ++k) {
    colsum += m[k][tid];
    rowsum += m[tid][k];
  }
  out[blockIdx.x * 32 + tid] = colsum - rowsum;
}

int main() {
  const int blocks = 64;
  float *fi = (float *)devbuf(4 << 20, 1);
  float *fo = (float *)devbuf(4 << 20, 2);
  float *f3 = (float *)devbuf(4 << 20, 3);
  float *f4 = (float *)devbuf(4 << 20, 4);
  float *f5 = (float *)devbuf(4 << 20, 5);
  RUN("reduceInterleaved", (reduceInterleaved<<<blocks, B>>>(fi, fo)));
  RUN("reduceModulo", (reduceModulo<<<blocks, B>>>(fi, fo)));
  RUN("reduceSequential", (reduceSequential<<<blocks, B>>>(fi, fo)));
  RUN("reduceInterleavedF64", (reduceInterleavedF64<<<blocks, B>>>(
                                  (const double *)fi, (double *)fo)));
  RUN("reduceShuffle", (reduceShuffle<<<blocks, B>>>(fi, fo)));
  RUN("scanHillisSteele", (scanHillisSteele<<<blocks, B>>>(fi, fo)));
  RUN("scanUpsweep", (scanUpsweep<<<blocks, B>>>(fi, fo)));
  RUN("cyclicForward", (cyclicForward<<<blocks, 256>>>(fi, f3, f4, f5, fo)));
  RUN("scanUpsweepPadded", (scanUpsweepPadded<<<blocks, B>>>(fi, fo)));
  RUN("rowColSums", (rowColSums<<<blocks, 32>>>(fi, fo)));
  CK(cudaFree(fi));
  CK(cudaFree(fo));
  CK(cudaFree(f3));
  CK(cudaFree(f4));
  CK(cudaFree(f5));
  printf("reduce: done\n");
  return 0;
}

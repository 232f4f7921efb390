// RUN: %not %warplint check %s --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning: --implicit-check-not=error:

// Precision tests: stencils with halos, vector / narrow / wide element types,
// structs (AoS and SoA) and per-thread row walks (n = 1024).

#define BX 16
#define BY 16

// Block (16,16), 18x18 tile: each warp covers two tile rows 18 words apart, so
// offsets 0..15 and 18..33 from its base: 32 and 33 wrap onto banks of 0 and
// 1: every interior access is 2-way.
__global__ void stencil5pt16(const float *in, float *out, int n) {
  __shared__ float tile[BY + 2][BX + 2];
  int tx = threadIdx.x, ty = threadIdx.y;
  int gx = blockIdx.x * BX + tx;
  int gy = blockIdx.y * BY + ty;
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: 2-way bank conflict on write of shared 'tile'
  tile[ty + 1][tx + 1] = in[gy * n + gx]; // GT: 4 sectors
  // The left/right halo columns (if (tx == 0) tile[ty + 1][0] = in[gy * n + gx - 1])
  // are in known-issues.cu.txt: warplint reports 2 sectors where 1 suffices
  // for the two active lanes, which sit in different rows.
  if (tx < 2)
    tile[ty + 1][tx * (BX + 1)] = 0.f; // GT: lanes 0, 1, 16, 17: 4 distinct banks: free
  if (ty == 0)
    tile[0][tx + 1] = in[(gy - 1) * n + gx]; // GT: 16 consecutive words: free
  if (ty == BY - 1)
    tile[BY + 1][tx + 1] = in[(gy + 1) * n + gx]; // GT: free
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE+1]]:13: warning: 2-way bank conflict on read of shared 'tile'
  float c = tile[ty + 1][tx + 1];
  // CHECK-MESSAGES: :[[@LINE+1]]:13: warning: 2-way bank conflict on read of shared 'tile'
  float u = tile[ty][tx + 1];
  // CHECK-MESSAGES: :[[@LINE+1]]:13: warning: 2-way bank conflict on read of shared 'tile'
  float d = tile[ty + 2][tx + 1];
  // CHECK-MESSAGES: :[[@LINE+1]]:13: warning: 2-way bank conflict on read of shared 'tile'
  float l = tile[ty + 1][tx];
  // CHECK-MESSAGES: :[[@LINE+1]]:13: warning: 2-way bank conflict on read of shared 'tile'
  float r = tile[ty + 1][tx + 2];
  out[gy * n + gx] = 0.25f * (u + d + l + r) - c; // GT: 4 sectors
}

// Block (32,8), 10x34 tile: a warp is one tile row: all free. Halo reads are
// misaligned by one element: one extra sector, not reported.
__global__ void stencil5pt32x8(const float *in, float *out, int n) {
  __shared__ float tile[8 + 2][32 + 2];
  int tx = threadIdx.x, ty = threadIdx.y;
  int gx = blockIdx.x * 32 + tx;
  int gy = blockIdx.y * 8 + ty;
  tile[ty + 1][tx + 1] = in[gy * n + gx];
  if (tx == 0)
    tile[ty + 1][0] = in[gy * n + gx - 1];
  if (tx == 31)
    tile[ty + 1][33] = in[gy * n + gx + 1];
  if (ty == 0)
    tile[0][tx + 1] = in[(gy - 1) * n + gx];
  if (ty == 7)
    tile[9][tx + 1] = in[(gy + 1) * n + gx];
  __syncthreads();
  out[gy * n + gx] = tile[ty][tx + 1] + tile[ty + 2][tx + 1] + tile[ty + 1][tx] + tile[ty + 1][tx + 2] -
                     4.f * tile[ty + 1][tx + 1];
}

// Block 256, 1-D stencil of radius 3: all free; in[gi - 3 + k] misaligned only.
constexpr int R = 3;
__global__ void stencil1D(const float *in, float *out, int n) {
  __shared__ float s[256 + 2 * R];
  int gi = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x + R] = in[gi];
  if (threadIdx.x < R) {
    s[threadIdx.x] = in[gi - R];
    s[threadIdx.x + 256 + R] = in[gi + 256];
  }
  __syncthreads();
  if (gi >= n)
    return;
  float acc = 0.f;
  for (int k = -R; k <= R; ++k)
    acc += s[threadIdx.x + R + k];
  out[gi] = acc;
}

// Block 256: float2 and float4 in shared and global memory.
__global__ void vectorTypes(const float2 *in2, const float4 *in4, float2 *out2, float4 *out4) {
  __shared__ float2 b2[512];
  __shared__ float4 b4[512];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  b2[tid] = in2[i]; // GT: 8-byte consecutive: 2 wavefronts, free; 8 sectors = ideal
  // GT: 16-byte stride 32: quarter-warp lanes l, l+4 share banks: 8 wavefronts vs 4: 2-way.
  // GT: in4[2*i]: 32 sectors vs 16: 2x.
  // CHECK-MESSAGES: :[[@LINE+2]]:3: warning: 2-way bank conflict on write of shared 'b4'
  // CHECK-MESSAGES: :[[@LINE+1]]:17: warning: uncoalesced global read of 'in4': 32 sectors per request where 16 suffice: 2x the traffic
  b4[2 * tid] = in4[2 * i];
  __syncthreads();
  // GT: 8-byte stride 16: half-warp lanes l, l+8 share banks: 4 wavefronts vs 2: 2-way.
  // CHECK-MESSAGES: :[[@LINE+1]]:13: warning: 2-way bank conflict on read of shared 'b2'
  out2[i] = b2[2 * tid];
  out4[i] = b4[tid]; // GT: free; 16 sectors = ideal
}

// Block 256: narrow types.
__global__ void narrowTypes(const unsigned char *rgba, const uchar4 *rgba4, const short *pcm, unsigned char *gray,
                            short *left) {
  __shared__ short scratch[256 * 16];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // GT: 1-byte loads 4 bytes apart: 4 sectors where 1 suffices: 4x.
  // CHECK-MESSAGES: :[[@LINE+1]]:21: warning: uncoalesced global read of 'rgba': 4 sectors per request where 1 suffices: 4x the traffic
  unsigned char r = rgba[4 * i];
  uchar4 p = rgba4[i];       // GT: 4 sectors = ideal
  gray[i] = (r + p.y + p.z) / 3; // GT: 1 sector = ideal
  // GT: 2-byte loads 4 bytes apart: 4 sectors where 2 suffice: 2x.
  // CHECK-MESSAGES: :[[@LINE+1]]:13: warning: uncoalesced global read of 'pcm': 4 sectors per request where 2 suffice: 2x the traffic
  short s = pcm[2 * i];
  left[i] = s; // GT: 2 sectors = ideal
  // Per-thread scratch row of 16 shorts (32 bytes = 8 words): banks 0, 8, 16, 24.
  short *mine = &scratch[threadIdx.x * 16];
  for (int k = 0; k < 16; ++k)
    // CHECK-MESSAGES: :[[@LINE+1]]:5: warning: 8-way bank conflict on write of shared 'scratch'
    mine[k] = s + k;
}

struct P3 {
  float x, y, z;
};
struct Q4 {
  float x, y, z, w;
};
struct D3 {
  double x, y, z;
};
struct SoA3 {
  float *x, *y, *z;
};

// Block 256: structs.
__global__ void structs(const P3 *p, const D3 *d, SoA3 soa, float *out) {
  // CHECK-MESSAGES: :[[@LINE+1]]:17: warning: shared 'ps' carries no data between threads: every element is read only by the thread that wrote it{{.*}}[shared-staging-no-reuse]
  __shared__ P3 ps[256];
  // CHECK-MESSAGES: :[[@LINE+1]]:17: warning: shared 'qs' carries no data between threads: every element is read only by the thread that wrote it{{.*}}[shared-staging-no-reuse]
  __shared__ Q4 qs[256];
  // CHECK-MESSAGES: :[[@LINE+1]]:17: warning: shared 'ds' carries no data between threads: every element is read only by the thread that wrote it{{.*}}[shared-staging-no-reuse]
  __shared__ D3 ds[256];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  // GT: 12-byte stride: 12 sectors vs 4: 3x. Shared stride 3 words (odd): free.
  // CHECK-MESSAGES: :[[@LINE+1]]:15: warning: uncoalesced global read of 'p': 12 sectors per request where 4 suffice: 3x the traffic
  ps[tid].x = p[i].x;
  // GT: 16-byte stride, 4-byte access: words 4*tid + 1: 4-way.
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: 4-way bank conflict on write of shared 'qs'
  qs[tid].y = ps[tid].x;
  // GT: 24-byte stride doubles: 24 sectors vs 8: 3x. Shared: half-warp
  // lanes at words 6l, 6l+1 cover 32 distinct banks: free.
  // CHECK-MESSAGES: :[[@LINE+1]]:15: warning: uncoalesced global read of 'd': 24 sectors per request where 8 suffice: 3x the traffic
  ds[tid].x = d[i].x;
  __syncthreads();
  // GT: SoA: 4 sectors each.
  // GT: qs[tid].y read: 4-way; ds[tid].x read: free.
  // CHECK-MESSAGES: :[[@LINE+1]]:45: warning: 4-way bank conflict on read of shared 'qs'
  out[i] = soa.x[i] + soa.y[i] + soa.z[i] + qs[tid].y + (float)ds[tid].x;
}

// Block 128, each thread walks one row of a 64-column matrix (256 bytes per
// row): 32 sectors vs 4 per request: 8x. The column-major (SoA) walk is fine.
constexpr int COLS = 64;
__global__ void rowWalks(const float *m, const float *mT, float *rowSum, float *rowSumT, int rows) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows)
    return;
  float a = 0.f, b = 0.f;
  for (int k = 0; k < COLS; ++k) {
    // CHECK-MESSAGES: :[[@LINE+1]]:10: warning: uncoalesced global read of 'm': 32 sectors per request where 4 suffice: 8x the traffic
    a += m[row * COLS + k];
    b += mT[k * rows + row]; // GT: 4 sectors
  }
  rowSum[row] = a;
  rowSumT[row] = b;
}

// Block 256: doubles through const __restrict__ (the same reads through __ldg
// are not analyzed at all: see known-issues.cu.txt).
__global__ void doubles(const double *__restrict__ x, const double *__restrict__ y, double *z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  // GT: x[i]: 8 sectors = ideal. y[3*i]: 24 bytes apart: 24 sectors vs 8: 3x.
  // CHECK-MESSAGES: :[[@LINE+1]]:17: warning: uncoalesced global read of 'y': 24 sectors per request where 8 suffice: 3x the traffic
  z[i] = x[i] + y[3 * i];
}

void launchStencils(float *f, float2 *f2, float4 *f4, unsigned char *b, uchar4 *b4, short *s, P3 *p, D3 *d,
                    SoA3 soa, double *x, int n) {
  stencil5pt16<<<dim3(n / BX, n / BY), dim3(BX, BY)>>>(f, f, n);
  stencil5pt32x8<<<dim3(n / 32, n / 8), dim3(32, 8)>>>(f, f, n);
  stencil1D<<<n / 256, 256>>>(f, f, n);
  vectorTypes<<<n / 256, 256>>>(f2, f4, f2, f4);
  narrowTypes<<<n / 256, 256>>>(b, b4, s, b, s);
  structs<<<n / 256, 256>>>(p, d, soa, f);
  rowWalks<<<n / 128, 128>>>(f, f, f, f, n);
  doubles<<<n / 256, 256>>>(x, x, x, n);
}

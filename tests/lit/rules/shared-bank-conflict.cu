// RUN: %not %warplint check %s --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning: --implicit-check-not=error:
// RUN: %not %warplint check %s --no-cuda-toolkit --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning: --implicit-check-not=error:

#define TILE_DIM 32
#define BLOCK_ROWS 8

// ---- positives ---------------------------------------------------------

__global__ void transposeNaive(float *out, const float *in, int n) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    // CHECK-MESSAGES: :[[@LINE+3]]:24: warning: 32-way bank conflict on read of shared 'tile': the warp's access is replayed 32 times; about {{[0-9]+}} cycles a load against {{[0-9]+}} conflict-free on NVIDIA H100 80GB HBM3, a 32x throughput loss [shared-bank-conflict]
    // CHECK-MESSAGES: note: lanes 0-31 reach bank {{[0-9]+}} at distinct words; consecutive lanes are 128 bytes apart (32 words)
    // CHECK-MESSAGES: note: block (32, 8, 1) from the launch at line {{[0-9]+}}{{$}}
    out[(y + j) * n] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void halfTileColumns(float *out) {
  __shared__ float t[16][16];
  t[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE+1]]:41: warning: 8-way bank conflict on read of shared 't'
  out[threadIdx.y * 16 + threadIdx.x] = t[threadIdx.x][threadIdx.y];
}

__global__ void doubleColumns(double *out) {
  __shared__ double d[32][32];
  d[threadIdx.y][threadIdx.x] = 1.0;
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE+1]]:17: warning: 16-way bank conflict on read of shared 'd': the warp's 8-byte access takes 32 wavefronts where 2 suffice
  out[0] += 1 + d[threadIdx.x][threadIdx.y];
}

__global__ void evenStride(int *out) {
  __shared__ int s[512];
  int tid = threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: 2-way bank conflict on write of shared 's'
  s[2 * tid] = tid;
  __syncthreads();
  out[tid] = s[tid];
}

__global__ void reduceInterleaved(const int *in, int *out) {
  extern __shared__ int sdata[];
  unsigned int tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    int index = 2 * s * tid;
    if (index < blockDim.x)
      // CHECK-MESSAGES: :[[@LINE+4]]:7: warning: 8-way bank conflict on read-modify-write of shared 'sdata'
      // CHECK-MESSAGES: note: block (256, 1, 1) from the launch at {{.*}}; worst at s = 4
      // CHECK-MESSAGES: :[[@LINE+2]]:23: warning: 8-way bank conflict on read of shared 'sdata'
      // CHECK-MESSAGES: note: block (256, 1, 1) from the launch at {{.*}}; worst at s = 4
      sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

template <int TILE>
__global__ void templatedTile(float *out) {
  __shared__ float tile[TILE][TILE];
  tile[threadIdx.y][threadIdx.x] = 0.f;
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE+1]]:13: warning: 32-way bank conflict on read of shared 'tile'
  out[0] += tile[threadIdx.x][threadIdx.y];
}

// Padding a 16-wide tile by one word fixes its columns but puts the second
// row of a 16x16 block's warp one bank over: word 32 shares bank 0 with word 0.
__global__ void paddedHalfTile(float *out) {
  __shared__ float t[16][17];
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: 2-way bank conflict on write of shared 't'
  t[threadIdx.y][threadIdx.x] = 1.f;
  __syncthreads();
  // Columns too: lane 31 (x 15, y 1) reads word 15*17 + 1 = 256, bank 0 again.
  // CHECK-MESSAGES: :[[@LINE+2]]:41: warning: 2-way bank conflict on read of shared 't'
  // CHECK-MESSAGES: note: lanes 0, 31 reach bank 0 at distinct words
  out[threadIdx.y * 16 + threadIdx.x] = t[threadIdx.x][threadIdx.y];
}

// ---- negatives: code that is already right ---------------------------

__global__ void transposePadded(float *out, const float *in, int n) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    out[(blockIdx.x * TILE_DIM + threadIdx.y + j) * n + blockIdx.y * TILE_DIM + threadIdx.x] =
        tile[threadIdx.x][threadIdx.y + j];
}

__global__ void skewedAndSwizzled(float *out) {
  __shared__ float a[32][32];
  __shared__ float b[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  a[ty][(tx + ty) % 32] = tx;
  b[ty][tx ^ ty] = tx;
  __syncthreads();
  out[ty * 32 + tx] = a[tx][(ty + tx) % 32] + b[tx][ty ^ tx];
}

__global__ void broadcastAndRows(float *out) {
  __shared__ float row[32][32];
  __shared__ float coef[8];
  if (threadIdx.x < 8)
    coef[threadIdx.x] = 1.f;
  row[threadIdx.y][threadIdx.x] = 2.f;
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = row[threadIdx.y][threadIdx.x] * coef[threadIdx.y] + row[0][0];
}

__global__ void warpOffsets(float *out) {
  __shared__ float buf[256];
  int warp = threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  buf[warp * 32 + lane] = lane;
  __syncthreads();
  out[threadIdx.x] = buf[(threadIdx.x & ~31) + (lane ^ 1)];
}

__global__ void twoRowWarps(float *out) {
  // CHECK-MESSAGES: :[[@LINE+1]]:20: warning: shared 't' carries no data between threads: every element is read only by the thread that wrote it{{.*}}[shared-staging-no-reuse]
  __shared__ float t[16][16];
  t[threadIdx.y][threadIdx.x] = 1.f;
  __syncthreads();
  out[threadIdx.y * 16 + threadIdx.x] = t[threadIdx.y][threadIdx.x];
}

__global__ void reduceSequential(const int *in, int *out) {
  extern __shared__ int sdata[];
  unsigned int tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

__global__ void vectorRows(float4 *out) {
  // CHECK-MESSAGES: :[[@LINE+1]]:21: warning: shared 'v' carries no data between threads: every element is read only by the thread that wrote it{{.*}}[shared-staging-no-reuse]
  __shared__ float4 v[256];
  v[threadIdx.x] = make_float4(1.f, 2.f, 3.f, 4.f);
  __syncthreads();
  out[threadIdx.x] = v[threadIdx.x];
}

__global__ void dataDependent(const int *perm, float *out) {
  __shared__ float s[1024];
  s[threadIdx.x] = 1.f;
  __syncthreads();
  out[threadIdx.x] = s[perm[threadIdx.x]]; // unknown index: no guess
}

// Even lanes store doubles 16 bytes apart, odd lanes too: each half-warp's
// eight 8-byte stores fall in distinct banks. Stores keep fixed half-warp
// phases; only loads whose quads read at most two addresses are served as
// one warp-wide phase (tests/gpu/shared_wide), where this would be 2-way.
__global__ void evenLaneDoubleStores(double *out) {
  __shared__ double s[512];
  if (threadIdx.x % 2 == 0)
    s[threadIdx.x] = threadIdx.x;
  else
    s[threadIdx.x] = 0.0;
  __syncthreads();
  out[threadIdx.x] = s[(threadIdx.x + 32) % 256]; // the next warp's values
}

void launchAll(float *f, int *i, double *d, float4 *v, int n) {
  dim3 block(TILE_DIM, BLOCK_ROWS);
  dim3 grid(n / TILE_DIM, n / TILE_DIM);
  transposeNaive<<<grid, block>>>(f, f, n);
  transposePadded<<<grid, block>>>(f, f, n);
  halfTileColumns<<<1, dim3(16, 16)>>>(f);
  doubleColumns<<<1, dim3(32, 32)>>>(d);
  evenStride<<<1, 256>>>(i);
  const int threads = 256;
  reduceInterleaved<<<n / threads, threads, threads * sizeof(int)>>>(i, i);
  reduceSequential<<<n / threads, threads, threads * sizeof(int)>>>(i, i);
  templatedTile<32><<<1, dim3(32, 32)>>>(f);
  skewedAndSwizzled<<<1, dim3(32, 32)>>>(f);
  broadcastAndRows<<<1, dim3(32, 32)>>>(f);
  warpOffsets<<<1, 256>>>(f);
  twoRowWarps<<<1, dim3(16, 16)>>>(f);
  paddedHalfTile<<<1, dim3(16, 16)>>>(f);
  vectorRows<<<1, 256>>>(v);
  dataDependent<<<1, 1024>>>(i, f);
  evenLaneDoubleStores<<<1, 256>>>(d);
}

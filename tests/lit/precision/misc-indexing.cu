// RUN: %not %warplint check %s --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning: --implicit-check-not=error:

// Precision tests: templates, dynamic shared memory carved by pointers, XOR
// swizzles, half-warp splits, 3-D blocks, odd block shapes, guards and early
// returns, grid-stride loops, and indices the analyzer cannot know.

// Instantiated with PITCH = 32 (column read: 32-way) and PITCH = 33 (free).
template <int PITCH>
__global__ void columnRead(const float *in, float *out) {
  __shared__ float t[32 * PITCH];
  t[threadIdx.y * PITCH + threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE+1]]:41: warning: 32-way bank conflict on read of shared 't'
  out[threadIdx.y * 32 + threadIdx.x] = t[threadIdx.x * PITCH + threadIdx.y];
}

// Block 256, dynamic shared memory split into two arrays by pointers.
__global__ void carveDynamic(const float *in, float *out) {
  extern __shared__ float smem[];
  float *a = smem;
  float *b = smem + blockDim.x;
  a[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x]; // GT: free
  // GT: words 256 + 2*tid: 2-way.
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: 2-way bank conflict on write of shared 'smem'
  b[2 * threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = b[threadIdx.x]; // GT: free
}

// Block 256: each lane reads a 128-byte row of float4s. Unswizzled: all 8
// lanes of a quarter-warp in the same 4 banks: 32 wavefronts vs 4: 8-way.
// Swizzled chunk c ^ (lane & 7): 8 distinct 16-byte chunks per phase: free.
__global__ void swizzledFloat4(const float4 *in, float4 *out) {
  __shared__ float4 plain[32][8];
  __shared__ float4 swz[32][8];
  int lane = threadIdx.x & 31;
  int wid = threadIdx.x >> 5;
  if (wid == 0) {
    for (int c = 0; c < 8; ++c) {
      plain[c * 4 + lane / 8][lane % 8] = in[c * 32 + lane]; // GT: 32 consecutive float4: free
      swz[c * 4 + lane / 8][(lane % 8) ^ ((c * 4 + lane / 8) & 7)] = in[c * 32 + lane]; // GT: free
    }
  }
  __syncthreads();
  float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
  for (int c = 0; c < 8; ++c) {
    // CHECK-MESSAGES: :[[@LINE+1]]:16: warning: 8-way bank conflict on read of shared 'plain'
    float4 p = plain[lane][c];
    float4 q = swz[lane][c ^ (lane & 7)]; // GT: free
    acc.x += p.x + q.x;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// Block 128: half-warp splits with % 16 and / 16.
__global__ void halfWarpSplits(float *out) {
  __shared__ float s[1024];
  int j = threadIdx.x % 16;
  int h = threadIdx.x / 16;
  s[j * 2 + (h & 1) + (h >> 1) * 32] = 1.f; // GT: lanes cover words 0..31 of the warp's block: free
  __syncthreads();
  // GT: lanes 0-15 words 32j (bank 0), lanes 16-31 words 32j + 1 (bank 1): 16-way.
  // CHECK-MESSAGES: :[[@LINE+1]]:22: warning: 16-way bank conflict on read of shared 's'
  out[threadIdx.x] = s[j * 32 + (h & 1)];
}

// Block (8,4,4), 3-D, __launch_bounds__: a warp is one z-slice of 8x4.
__global__ void __launch_bounds__(128) volume3D(const float *in, float *out, int nx, int ny) {
  // CHECK-MESSAGES: :[[@LINE+1]]:20: warning: shared 'v' carries no data between threads: every element is read only by the thread that wrote it{{.*}}[shared-staging-no-reuse]
  __shared__ float v[4][4][8];
  // CHECK-MESSAGES: :[[@LINE+1]]:20: warning: shared 'w' carries no data between threads: every element is read only by the thread that wrote it{{.*}}[shared-staging-no-reuse]
  __shared__ float w[8][4][4];
  int x = blockIdx.x * 8 + threadIdx.x;
  int y = blockIdx.y * 4 + threadIdx.y;
  int z = blockIdx.z * 4 + threadIdx.z;
  // GT: 4 rows of 32 bytes, 32-byte aligned: 4 sectors = ideal. v: 32 consecutive words: free.
  v[threadIdx.z][threadIdx.y][threadIdx.x] = in[(z * ny + y) * nx + x];
  // GT: words 16x + 4y + z: banks 4k, 4 words each: 4-way.
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: 4-way bank conflict on write of shared 'w'
  w[threadIdx.x][threadIdx.y][threadIdx.z] = v[threadIdx.z][threadIdx.y][threadIdx.x];
  __syncthreads();
  // GT: x-major global layout walked with x fastest in lanes but x as the slowest
  // index: every lane in its own sector: 32 vs 4: 8x.
  // GT: the read of w is the same 4-way pattern.
  // CHECK-MESSAGES: :[[@LINE+2]]:3: warning: uncoalesced global write of 'out': 32 sectors per request where 4 suffice: 8x the traffic
  // CHECK-MESSAGES: :[[@LINE+1]]:32: warning: 4-way bank conflict on read of shared 'w'
  out[(x * ny + y) * nx + z] = w[threadIdx.x][threadIdx.y][threadIdx.z];
}

// Block (8,32): the warp spans 4 rows of 8 of a 32-wide tile: 4-way.
__global__ void narrowBlock(const float *in, float *out, int n) {
  __shared__ float tile[32][32];
  int x = blockIdx.x * 8 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  // GT: global 4 rows x 32 bytes: 4 sectors = ideal.
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: 4-way bank conflict on write of shared 'tile'
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  // GT: words 32*tx + ty: banks y0..y0+3 with 8 words each: 8-way.
  // CHECK-MESSAGES: :[[@LINE+1]]:20: warning: 8-way bank conflict on read of shared 'tile'
  out[y * n + x] = tile[threadIdx.x][threadIdx.y] * 2.f;
}

// Block (48,4): warp 1 holds x 32-47 of row 0 and x 0-15 of row 1; with a
// 64-word pitch those land on banks 0-15 twice: 2-way (warps 0, 2, 3, 5 free).
__global__ void oddWidthBlock(const float *in, float *out, int n) {
  // CHECK-MESSAGES: :[[@LINE+1]]:20: warning: shared 'tile' carries no data between threads: every element is read only by the thread that wrote it{{.*}}[shared-staging-no-reuse]
  __shared__ float tile[4][64];
  int x = blockIdx.x * 48 + threadIdx.x;
  int y = blockIdx.y * 4 + threadIdx.y;
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: 2-way bank conflict on write of shared 'tile'
  tile[threadIdx.y][threadIdx.x] = in[y * n + x]; // GT: global: 4 sectors = ideal
  __syncthreads();
  // GT: the same 2-way pattern as the write.
  // CHECK-MESSAGES: :[[@LINE+1]]:20: warning: 2-way bank conflict on read of shared 'tile'
  out[y * n + x] = tile[threadIdx.y][threadIdx.x];
}

// Guards and early returns: only the active lanes count.
__global__ void guardedLanes(const float *in, float *out) {
  __shared__ float s[64];
  if (threadIdx.x >= 16)
    return;
  s[2 * threadIdx.x] = in[threadIdx.x]; // GT: 16 lanes, even words 0..30: free
  __syncwarp(0xffffu);
  out[threadIdx.x] = s[2 * threadIdx.x + 1] + s[2 * threadIdx.x]; // GT: free
}

// Grid-stride flattening with / and % by a parameter (n taken as 1024): the
// column index is consecutive across lanes, the row uniform. The transposed
// write is a column walk: 32 sectors vs 4: 8x.
__global__ void flattenTranspose(const float *in, float *out, int rows, int cols) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rows * cols; i += blockDim.x * gridDim.x) {
    int r = i / cols;
    int c = i % cols;
    // CHECK-MESSAGES: :[[@LINE+1]]:5: warning: uncoalesced global write of 'out': 32 sectors per request where 4 suffice: 8x the traffic
    out[c * rows + r] = in[i];
  }
}

// warpSize and manual linearisation of a 2-D block (16,16).
__global__ void linearised(float *out) {
  __shared__ float s[512];
  int tid = threadIdx.y * blockDim.x + threadIdx.x;
  int lane = tid % warpSize;
  int wid = tid / warpSize;
  s[wid * 32 + lane] = 1.f; // GT: free
  __syncthreads();
  // GT: words 2*tid: 2-way.
  // CHECK-MESSAGES: :[[@LINE+1]]:14: warning: 2-way bank conflict on read of shared 's'
  out[tid] = s[2 * tid] + s[wid * 32 + (lane ^ 16)];
}

// Indices the analyzer cannot know: data-dependent, opaque functions, locals
// assigned twice, values loaded from memory. No warnings.
__device__ int opaqueHash(int x);
__global__ void unknowable(const int *perm, const int *cfg, float *out, bool flip) {
  __shared__ float s[1024];
  s[threadIdx.x] = 0.f;
  __syncthreads();
  int j = threadIdx.x;
  if (flip)
    j = threadIdx.x * 32;
  int stride = cfg[0];
  float a = s[perm[threadIdx.x]];
  float b = s[opaqueHash(threadIdx.x) & 1023];
  float c = s[j & 1023];
  float d = s[(threadIdx.x * stride) & 1023];
  out[perm[threadIdx.x]] = a + b + c + d;
  out[opaqueHash(threadIdx.x)] = a;
}

void launchMisc(float *f, float4 *f4, int *ip, int n) {
  columnRead<32><<<1, dim3(32, 32)>>>(f, f);
  columnRead<33><<<1, dim3(32, 32)>>>(f, f);
  carveDynamic<<<n / 256, 256, 2 * 256 * 4 * sizeof(float)>>>(f, f);
  swizzledFloat4<<<n / 256, 256>>>(f4, f4);
  halfWarpSplits<<<1, 128>>>(f);
  volume3D<<<dim3(n / 8, n / 4, n / 4), dim3(8, 4, 4)>>>(f, f, n, n);
  narrowBlock<<<dim3(n / 8, n / 32), dim3(8, 32)>>>(f, f, n);
  oddWidthBlock<<<dim3(n / 48, n / 4), dim3(48, 4)>>>(f, f, n);
  guardedLanes<<<1, 32>>>(f, f);
  flattenTranspose<<<132, 256>>>(f, f, n, n);
  linearised<<<1, dim3(16, 16)>>>(f);
  unknowable<<<1, 1024>>>(ip, ip, f, n > 0);
}

// RUN: %not %warplint check %s --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning: --implicit-check-not=error:

// Precision tests: reductions, scans and histograms (n = 1024).

// Block 256: sequential addressing + warp-synchronous tail through a volatile
// alias. Every shared access is a run of consecutive words: all free.
__global__ void reduceWarpSync(const float *in, float *out, int n) {
  __shared__ float sdata[256];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + tid;
  float v = 0.f;
  if (i < n)
    v = in[i]; // GT: 4 sectors
  if (i + blockDim.x < n)
    v += in[i + blockDim.x]; // GT: 4 sectors
  sdata[tid] = v;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    volatile float *vs = sdata;
    vs[tid] += vs[tid + 32];
    // CHECK-MESSAGES: :[[@LINE+1]]:16: warning: shared 'sdata' passes values between lanes of one warp: lanes 0-15 read what lanes 16-31 stored, in 5 loads{{.*}}[warp-shuffle-candidate]
    vs[tid] += vs[tid + 16];
    vs[tid] += vs[tid + 8];
    vs[tid] += vs[tid + 4];
    vs[tid] += vs[tid + 2];
    vs[tid] += vs[tid + 1];
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// Block 256: interleaved addressing with a divergent modulo test. Active lanes
// are tid = 0, 2s, 4s, ...: distinct banks for every s: free (slow, but from
// divergence, not from bank conflicts).
__global__ void reduceInterleavedModulo(const int *in, int *out) {
  __shared__ int sdata[256];
  unsigned int tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// Block 128: interleaved addressing with a strided index. Warp 0, lanes with
// 2*s*tid < 128 active: s=1 2-way, s=2 (32 lanes, stride 4) 4-way, s=4 (16
// lanes, stride 8) 4-way, s=8 4-way, s=16 4-way, s=32 2-way. Worst: 4-way.
__global__ void reduceInterleaved128(const float *in, float *out) {
  __shared__ float sdata[128];
  unsigned int tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    unsigned int index = 2 * s * tid;
    if (index < blockDim.x)
      // CHECK-MESSAGES: :[[@LINE+4]]:7: warning: 4-way bank conflict on read-modify-write of shared 'sdata'
      // CHECK-MESSAGES: note: block (128, 1, 1) from the launch at {{.*}}; worst at s = {{2|4|8|16}}
      // CHECK-MESSAGES: :[[@LINE+2]]:23: warning: 4-way bank conflict on read of shared 'sdata'
      // CHECK-MESSAGES: note: block (128, 1, 1) from the launch at {{.*}}; worst at s = {{2|4|8|16}}
      sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// Block 128, dynamic shared memory of doubles, sequential addressing: 8-byte
// accesses to consecutive elements: 2 wavefronts = ideal: free.
__global__ void reduceDouble(const double *in, double *out) {
  extern __shared__ double sd[];
  unsigned int tid = threadIdx.x;
  sd[tid] = in[blockIdx.x * blockDim.x + tid]; // GT: free; 8 sectors = ideal
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sd[tid] += sd[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sd[0];
}

// Block 256, warp shuffles, one partial per warp: all free.
__global__ void reduceShuffle(const float *in, float *out, int n) {
  __shared__ float warpSums[32];
  int lane = threadIdx.x & 31;
  int wid = threadIdx.x >> 5;
  float v = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    v += in[i]; // GT: 4 sectors
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  if (lane == 0)
    warpSums[wid] = v;
  __syncthreads();
  if (wid == 0) {
    v = (lane < blockDim.x / 32) ? warpSums[lane] : 0.f; // GT: free
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

// Block 256: per-lane partials stored transposed, partial[lane][warp]:
// words 8*lane + wid: banks 0, 8, 16, 24, 8 words each: 8-way write; the
// read loop over w is unrolled into two LDS.128 (analyzer/warp/FusedWords.h),
// quarter-warps 32 bytes apart: 2-way.
__global__ void reduceColumns(const float *in, float *out) {
  __shared__ float partial[32][8];
  int lane = threadIdx.x & 31;
  int wid = threadIdx.x >> 5;
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: 8-way bank conflict on write of shared 'partial'
  partial[lane][wid] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  if (threadIdx.x < 32) {
    float s = 0.f;
    for (int w = 0; w < 8; ++w)
      // CHECK-MESSAGES: :[[@LINE+1]]:12: warning: 2-way bank conflict on read of shared 'partial'
      s += partial[threadIdx.x][w];
    out[blockIdx.x * 32 + threadIdx.x] = s;
  }
}

// Block 128, N = 256 elements per block: work-efficient up-sweep without the
// conflict-avoiding offsets.
constexpr int N = 256;
__global__ void scanUpSweep(const float *in, float *out) {
  __shared__ float temp[N];
  int thid = threadIdx.x;
  // GT: temp[2*thid]: 2-way; in[...+2*thid]: 8 sectors vs 4: 2x. Same for +1.
  // CHECK-MESSAGES: :[[@LINE+2]]:3: warning: 2-way bank conflict on write of shared 'temp'
  // CHECK-MESSAGES: :[[@LINE+1]]:20: warning: uncoalesced global read of 'in': 8 sectors per request where 4 suffice: 2x the traffic
  temp[2 * thid] = in[blockIdx.x * N + 2 * thid];
  // CHECK-MESSAGES: :[[@LINE+2]]:3: warning: 2-way bank conflict on write of shared 'temp'
  // CHECK-MESSAGES: :[[@LINE+1]]:24: warning: uncoalesced global read of 'in': 8 sectors per request where 4 suffice: 2x the traffic
  temp[2 * thid + 1] = in[blockIdx.x * N + 2 * thid + 1];
  for (int offset = 1; offset < N; offset <<= 1) {
    int d = N / (2 * offset);
    __syncthreads();
    if (thid < d) {
      int ai = offset * (2 * thid + 1) - 1;
      int bi = offset * (2 * thid + 2) - 1;
      // GT (warp 0, thid < d active): offset 1: 2-way, 2: 4-way, 4, 8, 16:
      // 8-way, 32: 4-way, 64: 2-way. Worst 8-way, both accesses.
      // CHECK-MESSAGES: :[[@LINE+4]]:7: warning: 8-way bank conflict on read-modify-write of shared 'temp'
      // CHECK-MESSAGES: note: {{.*}}worst at offset = {{4|8|16}}
      // CHECK-MESSAGES: :[[@LINE+2]]:19: warning: 8-way bank conflict on read of shared 'temp'
      // CHECK-MESSAGES: note: {{.*}}worst at offset = {{4|8|16}}
      temp[bi] += temp[ai];
    }
  }
  __syncthreads();
  out[blockIdx.x * N + thid] = temp[thid];           // GT: free; 4 sectors
  out[blockIdx.x * N + thid + N / 2] = temp[thid + N / 2]; // GT: free; 4 sectors
}

// Block 256: Kogge-Stone inclusive scan inside each warp's 32-word segment.
__global__ void scanWarps(const int *in, int *out) {
  __shared__ int s[256];
  int tid = threadIdx.x;
  int lane = tid & 31;
  s[tid] = in[blockIdx.x * 256 + tid];
  for (int offset = 1; offset < 32; offset *= 2) {
    __syncwarp();
    int t = lane >= offset ? s[tid - offset] : 0; // GT: consecutive words: free
    __syncwarp();
    s[tid] += t;
  }
  out[blockIdx.x * 256 + tid] = s[tid];
}

// Block 256, grid-stride byte histogram: bins indexed by data (unknown: no
// guess); initialisation and flush are row accesses.
__global__ void histogram256(const unsigned char *data, unsigned int *bins, int n) {
  __shared__ unsigned int h[256];
  h[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&h[data[i]], 1u); // GT: data[i]: 1 sector = ideal; h: unknown
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}

// Block 256: one private histogram per warp, rows padded to 257 words.
__global__ void histogramPerWarp(const unsigned char *data, unsigned int *bins, int n) {
  __shared__ unsigned int h[8][257];
  int lane = threadIdx.x % 32;
  int wid = threadIdx.x / 32;
  for (int b = lane; b < 256; b += 32)
    h[wid][b] = 0; // GT: row: free
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&h[wid][data[i]], 1u); // GT: unknown bin
  __syncthreads();
  unsigned int sum = 0;
  for (int w = 0; w < 8; ++w)
    sum += h[w][threadIdx.x]; // GT: row: free
  atomicAdd(&bins[threadIdx.x], sum);
}

void launchReductions(float *f, int *i, double *d, unsigned char *b, unsigned int *u, int n) {
  reduceWarpSync<<<n / 512, 256>>>(f, f, n);
  reduceInterleavedModulo<<<n / 256, 256>>>(i, i);
  reduceInterleaved128<<<n / 128, 128>>>(f, f);
  reduceDouble<<<n / 128, 128, 128 * sizeof(double)>>>(d, d);
  reduceShuffle<<<132, 256>>>(f, f, n);
  reduceColumns<<<n / 256, 256>>>(f, f);
  scanUpSweep<<<n / N, N / 2>>>(f, f);
  scanWarps<<<n / 256, 256>>>(i, i);
  histogram256<<<132, 256>>>(b, u, n);
  histogramPerWarp<<<132, 256>>>(b, u, n);
}

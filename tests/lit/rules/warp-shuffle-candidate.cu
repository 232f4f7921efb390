// RUN: %not %warplint check --fail-min-gain 0 %s --rules warp-shuffle-candidate --color=never 2>&1 | %FileCheck %s --implicit-check-not=[warp-shuffle-candidate] --implicit-check-not=warning: --implicit-check-not=error:
// RUN: %not %warplint check --fail-min-gain 0 %s --rules warp-shuffle-candidate --no-cuda-toolkit --color=never 2>&1 | %FileCheck %s --implicit-check-not=[warp-shuffle-candidate] --implicit-check-not=warning: --implicit-check-not=error:
// RUN: %not %warplint check --fail-min-gain 0 %s --rules warp-shuffle-candidate --format json | %FileCheck %s --check-prefix=JSON
// RUN: %warplint check --dump-model %s | %FileCheck %s --check-prefix=GAP
// JSON: "rule": "warp-shuffle-candidate"
// JSON: "array": "sdata"
// JSON: "mask": "0xffffffff"
// JSON: "pattern": "down"
// JSON: "sync": "volatile"
// JSON: "warp_loads": 12
// JSON: "warp_stores": 6
// JSON: "warp_syncs": 0
// GAP: "'bins': an atomic at line {{[0-9]+}}
// GAP: "'s': an index the model cannot evaluate at line {{[0-9]+}}
// GAP: "'t': the loop at line {{[0-9]+}} runs more than 64 iterations

// Positives and negatives of warp-shuffle-candidate: the exchange is
// decided from the warp model (who stored each element a lane loads), not
// from spelling.
#define N 256

// ---- positives ---------------------------------------------------------

// The classic warp tail: a tree with __syncthreads down to 64 elements,
// then one warp finishes through volatile shared memory.
__device__ void warpReduce(volatile float *s, int tid) {
  s[tid] += s[tid + 32];
  // CHECK: :[[@LINE+1]]:13: warning: shared 'sdata' passes values between lanes of one warp: lanes 0-15 read what lanes 16-31 stored, in 5 loads (no __syncthreads between; ordered by volatile); a warp runs 6 shared stores, 12 shared loads and no __syncwarp in it where __shfl_down_sync moves the values in registers{{.*}}[warp-shuffle-candidate]
  s[tid] += s[tid + 16];
  // CHECK: note: 's[tid + 16]': lanes 0-15 read lane + 16, stored at line [[@LINE-3]]; lanes 16-31 read values stored before the last barrier (or never stored here): with a shuffle they read the source lane's register instead
  // CHECK: note: fix (--fix): move the warp tail in the __device__ helper 'warpReduce' (lines {{[0-9]+}}-{{[0-9]+}}) into a register: 6 steps{{.*}}every one of the 1 call(s) of 'warpReduce' in this file is proven exact
  s[tid] += s[tid + 8];
  s[tid] += s[tid + 4];
  s[tid] += s[tid + 2];
  s[tid] += s[tid + 1];
}

__global__ void volatileTail(const float *in, float *out) {
  __shared__ float sdata[N];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * N + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32)
    warpReduce(sdata, tid);
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// The same tail ordered by __syncwarp (what CUDA 9+ asks of it).
__global__ void syncwarpTail(const float *in, float *out) {
  __shared__ float sdata[N];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * N + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    float v = sdata[tid] + sdata[tid + 32];
    sdata[tid] = v;
    __syncwarp();
    for (int o = 16; o > 0; o >>= 1) {
      if (tid < o)
        // CHECK: :[[@LINE+4]]:30: warning: shared 'sdata' passes values between lanes of one warp: lanes 0-15 read what lanes 1-31 stored (no __syncthreads between; ordered by __syncwarp); a warp runs 6 shared stores, 5 shared loads and 6 __syncwarps in it where __shfl_down_sync moves the values in registers{{.*}}[warp-shuffle-candidate]
        // CHECK: note: instead: keep the value in a register and move it with a shuffle (mask 0xffffffff: lanes 0-31 take part, and every lane it names must reach the call): `for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);`
        // CHECK: note: no shuffle fix: the exchange is not an unrolled warp tail written out here
        // CHECK: note: run by warp 0 only
        sdata[tid] = v = v + sdata[tid + o];
      __syncwarp();
    }
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// A scan within each warp (warp * 32 + lane): every warp exchanges inside itself.
__global__ void warpScan(const int *in, int *out) {
  __shared__ int s[N];
  int tid = threadIdx.x, lane = tid & 31;
  s[tid] = in[blockIdx.x * N + tid];
  __syncwarp();
  for (int d = 1; d < 32; d <<= 1) {
    int n = 0;
    if (lane >= d)
      // CHECK: :[[@LINE+3]]:11: warning: shared 's' passes values between lanes of one warp: lanes 1-31 read what lanes 0-30 stored (no __syncthreads between; ordered by __syncwarp); a warp runs 6 shared stores, 10 shared loads and 11 __syncwarps in it where __shfl_up_sync moves the values in registers{{.*}}[warp-shuffle-candidate]
      // CHECK: note: instead: {{.*}}`for (int o = 1; o < 32; o <<= 1) { int n = __shfl_up_sync(0xffffffff, v, o); if (lane >= o) v += n; }`
      // CHECK: note: run by 8 of the block's 8 warps, each within itself
      n = s[tid - d];
    __syncwarp();
    s[tid] += n;
    __syncwarp();
  }
  out[blockIdx.x * N + tid] = s[tid];
}

// A lane reads its right neighbour's value (rotating within the warp).
__global__ void neighbour(const float *in, float *out) {
  __shared__ float s[N];
  int tid = threadIdx.x;
  s[tid] = in[blockIdx.x * N + tid];
  __syncwarp();
  // CHECK: :[[@LINE+2]]:31: warning: shared 's' passes values between lanes of one warp: lanes 0-31 read what lanes 0-31 stored (no __syncthreads between; ordered by __syncwarp); a warp runs 1 shared store, 1 shared load and 1 __syncwarp in it where __shfl_sync moves the values in registers{{.*}}[warp-shuffle-candidate]
  // CHECK: note: instead: {{.*}}`v = __shfl_sync(0xffffffff, mine, src);`
  out[blockIdx.x * N + tid] = s[(tid & ~31) + ((tid + 1) & 31)] - s[tid];
}

// Lane 0 of each warp publishes a value to its warp.
__global__ void warpBroadcast(const float *in, float *out) {
  __shared__ float s[N / 32];
  int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  if (lane == 0)
    s[warp] = in[blockIdx.x * (N / 32) + warp];
  __syncwarp();
  // CHECK: :[[@LINE+2]]:31: warning: shared 's' passes values between lanes of one warp: lanes 1-31 read what lane 0 stored (no __syncthreads between; ordered by __syncwarp){{.*}}__shfl_sync moves the values in registers{{.*}}[warp-shuffle-candidate]
  // CHECK: note: instead: {{.*}}`v = __shfl_sync(0xffffffff, v, 0);` (every lane reads lane 0's value)
  out[blockIdx.x * N + tid] = s[warp] * tid;
}

// ---- negatives --------------------------------------------------------

// Every step behind __syncthreads, down to one element: a block-wide tree.
__global__ void blockTree(const float *in, float *out) {
  __shared__ float sdata[N];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * N + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// A block-wide Hillis-Steele scan: reads cross warps, steps behind barriers.
__global__ void blockScan(const int *in, int *out) {
  __shared__ int s[N];
  int tid = threadIdx.x;
  s[tid] = in[blockIdx.x * N + tid];
  __syncthreads();
  for (int d = 1; d < N; d <<= 1) {
    int n = tid >= d ? s[tid - d] : 0;
    __syncthreads();
    s[tid] += n;
    __syncthreads();
  }
  out[blockIdx.x * N + tid] = s[tid];
}

// Written once, read back reversed by other warps after a barrier.
__global__ void reversed(const float *in, float *out) {
  __shared__ float s[N];
  int tid = threadIdx.x;
  s[tid] = in[blockIdx.x * N + tid];
  __syncthreads();
  out[blockIdx.x * N + tid] = s[N - 1 - tid];
}

// Already shuffles within the warp; shared memory only carries one value a
// warp across the barrier.
__global__ void alreadyShuffled(const float *in, float *out) {
  __shared__ float warpSums[N / 32];
  int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  float v = in[blockIdx.x * N + tid];
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffff, v, o);
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < N / 32 ? warpSums[lane] : 0.f;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffff, v, o);
    if (lane == 0)
      out[blockIdx.x] = v;
  }
}

// Each lane reads back only its own element.
__global__ void ownElement(const float *in, float *out) {
  __shared__ float s[N];
  int tid = threadIdx.x;
  s[tid] = in[blockIdx.x * N + tid] * 2.f;
  __syncwarp();
  out[blockIdx.x * N + tid] = s[tid] + 1.f;
}

// Thread 0 (warp 0) publishes to the whole block: other warps read it.
__global__ void blockBroadcast(const float *in, float *out) {
  __shared__ float s[1];
  int tid = threadIdx.x;
  if (tid == 0)
    s[0] = in[blockIdx.x];
  __syncthreads();
  out[blockIdx.x * N + tid] = s[0] * tid;
}

// Lanes of warp 1 read what warp 0 stored with no barrier: across warps
// (a race, but no shuffle can carry it).
__global__ void crossWarpNoBarrier(const float *in, float *out) {
  __shared__ float s[N];
  int tid = threadIdx.x;
  s[tid] = in[blockIdx.x * N + tid];
  __syncwarp();
  out[blockIdx.x * N + tid] = s[(tid + 32) % N];
}

// A shared histogram: atomics, not an exchange.
__global__ void histogram(const int *in, int *out) {
  __shared__ int bins[32];
  int tid = threadIdx.x;
  if (tid < 32)
    bins[tid] = 0;
  __syncthreads();
  atomicAdd(&bins[in[blockIdx.x * N + tid] & 31], 1);
  __syncthreads();
  if (tid < 32)
    out[blockIdx.x * 32 + tid] = bins[tid];
}

// A store the model cannot place: the array is a gap, not a finding.
__global__ void unknownStore(const int *idx, const float *in, float *out) {
  __shared__ float s[N];
  int tid = threadIdx.x;
  s[idx[tid] & (N - 1)] = in[tid];
  __syncwarp();
  out[tid] = s[tid ^ 1];
}

// Registers only: a per-thread cache, no shared memory.
__global__ void registerCache(const float *in, float *out) {
  float r[4];
  int tid = threadIdx.x;
  for (int j = 0; j < 4; ++j)
    r[j] = in[(blockIdx.x * N + tid) * 4 + j];
  out[blockIdx.x * N + tid] = r[0] + r[1] + r[2] + r[3];
}

// A long loop on one array (past the runner's iteration limit, and past
// its thread-step budget had it been run) leaves that array a gap of its
// own; the other array's exchange after it is still found.
__global__ void longLoopBeside(const float *in, float *out, int n) {
  __shared__ float t[1024];
  __shared__ float s[1024];
  int tid = threadIdx.x;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      t[tid] += in[i * n + j];
  s[tid] = t[tid];
  __syncwarp();
  // CHECK: :[[@LINE+2]]:14: warning: shared 's' passes values between lanes of one warp: lanes 0-31 read what lanes 0-31 stored (no __syncthreads between; ordered by __syncwarp){{.*}}__shfl_xor_sync moves the values in registers{{.*}}[warp-shuffle-candidate]
  // CHECK: note: run by 32 of the block's 32 warps, each within itself
  out[tid] = s[tid ^ 1];
}

void launch(const float *fi, float *fo, const int *ii, int *io) {
  volatileTail<<<64, N>>>(fi, fo);
  syncwarpTail<<<64, N>>>(fi, fo);
  warpScan<<<64, N>>>(ii, io);
  neighbour<<<64, N>>>(fi, fo);
  warpBroadcast<<<64, N>>>(fi, fo);
  blockTree<<<64, N>>>(fi, fo);
  blockScan<<<64, N>>>(ii, io);
  reversed<<<64, N>>>(fi, fo);
  alreadyShuffled<<<64, N>>>(fi, fo);
  ownElement<<<64, N>>>(fi, fo);
  blockBroadcast<<<64, N>>>(fi, fo);
  crossWarpNoBarrier<<<64, N>>>(fi, fo);
  histogram<<<64, N>>>(ii, io);
  unknownStore<<<64, N>>>(ii, fi, fo);
  registerCache<<<64, N>>>(fi, fo);
  longLoopBeside<<<64, 1024>>>(fi, fo, ii[0]);
}

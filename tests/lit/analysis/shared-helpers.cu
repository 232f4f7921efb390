// Shared memory reached indirectly: through helper structs that return the
// dynamic shared array, one raw buffer carved into typed pointers, pointers
// and references handed to __device__ functions, integer helpers, and
// cooperative groups as lane sources. Conflicts are found through each route;
// the same routes used conflict-free stay silent.
// RUN: %not %warplint check %s --rules shared-bank-conflict,global-uncoalesced --no-cuda-toolkit --color=never 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// The toolkit's cooperative_groups headers (where installed) give the same.
// RUN: %not %warplint check %s --rules shared-bank-conflict,global-uncoalesced --color=never 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: %warplint check %s --no-cuda-toolkit --dump-model | %FileCheck %s --check-prefix=MODEL

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// ---- helper structs returning the dynamic shared array -----------------

template <class T> struct DynamicShared {
  __device__ operator T *() {
    extern __shared__ int dynWords[];
    return (T *)dynWords;
  }
};

template <> struct DynamicShared<double> {
  __device__ operator double *() {
    extern __shared__ double dynDoubles[];
    return dynDoubles;
  }
};

struct ScratchSpace {
  __device__ float *floats() {
    extern __shared__ float scratchFloats[];
    return scratchFloats;
  }
};

template <class T> __global__ void blockSum(const T *in, T *out) {
  T *partial = DynamicShared<T>();
  unsigned tid = threadIdx.x;
  partial[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = partial[0];
}
template __global__ void blockSum<float>(const float *, float *);
template __global__ void blockSum<double>(const double *, double *);

// Interleaved addressing: lane i touches word 2*s*i.
template <class T> __global__ void interleavedSum(T *out) {
  T *partial = DynamicShared<T>();
  unsigned tid = threadIdx.x;
  partial[tid] = tid;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned i = 2 * s * tid;
    if (i < blockDim.x)
      // CHECK: :[[@LINE+4]]:7: warning: 8-way bank conflict on read-modify-write of shared 'dynWords'
      // CHECK: note: block (256, 1, 1) from the launch at line {{[0-9]+}}; worst at s = 4
      // CHECK: note: address of 'partial[i]' = dynWords + 2*s*threadIdx.x*4 bytes
      // CHECK: :[[@LINE+1]]:21: warning: 8-way bank conflict on read of shared 'dynWords'
      partial[i] += partial[i + s];
    __syncthreads();
  }
  out[tid] = partial[tid];
}
template __global__ void interleavedSum<float>(float *);

__global__ void scratchColumns(float *out) {
  ScratchSpace space;
  float *rows = space.floats();
  // CHECK: :[[@LINE+1]]:3: warning: 32-way bank conflict on write of shared 'scratchFloats'
  rows[threadIdx.x * 32] = 1.f;
  __syncthreads();
  out[threadIdx.x] = rows[threadIdx.x];
}

// ---- one buffer carved into typed pointers ------------------------------

__global__ void carvedBuffer(float *out) {
  extern __shared__ __align__(16) unsigned char arena[];
  float *weights = reinterpret_cast<float *>(arena);
  int *counts = (int *)&weights[64];
  float *columns = (float *)(arena + 256 * sizeof(float));
  weights[threadIdx.x] = 1.f;
  counts[threadIdx.x] = 2;
  // CHECK: :[[@LINE+2]]:3: warning: 32-way bank conflict on write of shared 'arena'
  // CHECK: note: address of 'columns[threadIdx.x * 32]' = arena + 1024 + threadIdx.x*32*4 bytes
  columns[threadIdx.x * 32] = 3.f;
  __syncthreads();
  out[threadIdx.x] = weights[threadIdx.x] + counts[threadIdx.x] + columns[threadIdx.x];
}
// The int pointer carved 64 floats in: element 4 bytes (not the buffer's 1), offset 256.
// MODEL: "byte_offset": "256 + threadIdx.x*4",
// MODEL-NEXT: "element_size": 4,

// A 32x32 tile padded to 33 a row inside a carved buffer: conflict-free both ways.
__global__ void carvedPaddedTile(const float *in, float *out) {
  extern __shared__ char bytes[];
  float *tile = (float *)(bytes + 128);
  tile[threadIdx.y * 33 + threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x * 33 + threadIdx.y];
}

// ---- pointers and references handed to __device__ functions -------------

__device__ void storeStrided(float *base, int lane) { base[lane * 32] = 0.f; }
__device__ void storeRow(float *base, int lane) { base[lane] = 0.f; }
__device__ float &cell(float (&t)[32][33], int r, int c) { return t[r][c]; }
__device__ float readColumn(const float (&t)[32][32], int r, int c) { return t[c][r]; }
__device__ int laneOf() { return threadIdx.x & 31; }
__device__ int warpOf() { return threadIdx.x >> 5; }

__global__ void handedOn(float *out) {
  __shared__ float perWarp[8 * 32 * 32];
  __shared__ float square[32][32];
  __shared__ float padded[32][33];
  int lane = laneOf(), warp = warpOf();
  // CHECK: :[[@LINE-12]]:55: warning: 32-way bank conflict on write of shared 'perWarp'
  // CHECK: :[[@LINE+1]]:3: note: in the call from 'handedOn' here
  storeStrided(&perWarp[warp * 32 * 32], lane);
  storeRow(&perWarp[warp * 32 * 32], lane);
  square[warp][lane] = 1.f;
  cell(padded, lane, warp) = 2.f;
  __syncthreads();
  // CHECK: :[[@LINE-16]]:78: warning: 32-way bank conflict on read of shared 'square'
  // CHECK: :[[@LINE+1]]:22: note: in the call from 'handedOn' here
  out[threadIdx.x] = readColumn(square, warp, lane) + cell(padded, warp, lane);
}

// ---- cooperative groups --------------------------------------------------

__global__ void groupRanks(float *out) {
  __shared__ float s[256 * 32];
  __shared__ float t[8][33];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  // CHECK: :[[@LINE+1]]:3: warning: 32-way bank conflict on write of shared 's'
  s[block.thread_rank() * 32] = 1.f;
  block.sync();
  t[warp.meta_group_rank()][warp.thread_rank()] = 2.f;
  cg::sync(block);
  // CHECK: :[[@LINE+1]]:30: warning: 32-way bank conflict on read of shared 's'
  out[block.thread_rank()] = s[warp.thread_rank() * 32 + warp.meta_group_rank()] + t[warp.meta_group_rank()][warp.thread_rank()] + s[block.thread_index().x];
}

__global__ void dynamicTiles(float *out) {
  __shared__ float s[16 * 16];
  cg::thread_group block = cg::this_thread_block();
  cg::thread_group half = cg::tiled_partition(block, 16);
  unsigned row = block.thread_rank() / half.size();
  s[row * 16 + half.thread_rank()] = 1.f;
  __syncthreads();
  // CHECK: :[[@LINE+1]]:22: warning: 8-way bank conflict on read of shared 's'
  out[threadIdx.x] = s[half.thread_rank() * 16 + row];
}

// A kernel that reads the rank only is not taken for a 3-D one: the default
// block stays (256, 1, 1).
__global__ void rankOnly(float *out) {
  __shared__ float s[256 * 2];
  // CHECK: :[[@LINE+2]]:3: warning: 2-way bank conflict on write of shared 's'
  // CHECK: note: block ({{[0-9]+}}, 1, 1) assumed
  s[cg::this_thread_block().thread_rank() * 2] = 1.f;
  out[threadIdx.x] = s[threadIdx.x];
}

// Threads chosen at run time: not modeled, so silent.
__global__ void activeThreads(float *out) {
  __shared__ float s[256 * 32];
  cg::coalesced_group active = cg::coalesced_threads();
  s[active.thread_rank() * 32] = 1.f;
  out[threadIdx.x] = s[threadIdx.x];
}

void launchAll(float *f, double *d) {
  blockSum<float><<<64, 256, 256 * sizeof(float)>>>(f, f);
  blockSum<double><<<64, 256, 256 * sizeof(double)>>>(d, d);
  interleavedSum<float><<<64, 256, 256 * sizeof(float)>>>(f);
  scratchColumns<<<1, 256, 256 * 32 * sizeof(float)>>>(f);
  carvedBuffer<<<1, 256, 256 * 40>>>(f);
  carvedPaddedTile<<<1, dim3(32, 32), 128 + 32 * 33 * 4>>>(f, f);
  handedOn<<<1, 256>>>(f);
  groupRanks<<<1, 256>>>(f);
  dynamicTiles<<<1, 256>>>(f);
  activeThreads<<<1, 256>>>(f);
}

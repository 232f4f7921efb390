// warp-shuffle-candidate's fix for a per-warp tree written as a loop over a
// 32-lane tile (`for (int i = 16; i > 0; i >>= 1) { if (rank < i) ...; sync; }`),
// the form every warp of the block runs before one thread adds the warps'
// results. The loop becomes __shfl_down_sync steps and one store by the lanes
// under 16 of what they last stored, so every lane's registers and every
// element of the array end bit for bit as the loop leaves them and no later
// read needs proving. Refused, with the reason, for a tile that is not 32
// wide, a sync with a partial mask, a block that is not whole warps and a
// running value narrower than the array. A loop in a __device__ helper is
// rewritten when its calls are proven (warp-tail-loop-helper.cu has more).
// RUN: grep -v CHECK- %s > %t.cu
// RUN: %not %warplint check --fail-min-gain 0 %t.cu --rules warp-shuffle-candidate --fix --color=never > %t.log 2>&1
// RUN: %FileCheck --input-file=%t.cu %s --check-prefix=CHECK-FIXES
// RUN: %FileCheck --input-file=%t.log %s --check-prefix=CHECK-LOG
// RUN: %FileCheck --input-file=%t.log %s --check-prefix=CHECK-APPLIED --implicit-check-not="warplint: fix"
// Idempotent: a second --fix changes nothing.
// RUN: cp %t.cu %t.again.cu
// RUN: %not %warplint check --fail-min-gain 0 %t.again.cu --rules warp-shuffle-candidate --fix --color=never > %t.again.log 2>&1
// RUN: diff %t.cu %t.again.cu
// RUN: %FileCheck --input-file=%t.again.log %s --check-prefix=CHECK-AGAIN
// The bundled declarations (no toolkit) give the same verdicts.
// RUN: %not %warplint check --fail-min-gain 0 %s --rules warp-shuffle-candidate --no-cuda-toolkit --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-LOG
// RUN: %not %warplint check --fail-min-gain 0 %s --rules warp-shuffle-candidate --format json | %FileCheck %s --check-prefix=JSON

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define THREADS 128

// ---- rewritten ----------------------------------------------------------

// CHECK-FIXES-LABEL: __global__ void tileRegisterDouble(
// CHECK-FIXES:      {{^}}  double got;{{$}}
// CHECK-FIXES-NEXT: {{^}}  {{{$}}
// CHECK-FIXES-NEXT: {{^}}    // per-warp tree over shuffles (warplint --fix): each lane adds the same values in the same order as the loop did, and part ends with the same elements{{$}}
// CHECK-FIXES-NEXT: {{^}}    double wl_other = __shfl_down_sync(0xffffffff, part[block.thread_rank()], 16);{{$}}
// CHECK-FIXES-NEXT: {{^}}    if (warp.thread_rank() < 16) {{{$}}
// CHECK-FIXES-NEXT: {{^}}      got = wl_other;{{$}}
// CHECK-FIXES-NEXT: {{^}}      running += got;{{$}}
// CHECK-FIXES-NEXT: {{^}}    }{{$}}
// CHECK-FIXES-NEXT: {{^}}    for (int step = 8; step > 0; step >>= 1) {{{$}}
// CHECK-FIXES-NEXT: {{^}}      wl_other = __shfl_down_sync(0xffffffff, running, step);{{$}}
// CHECK-FIXES-NEXT: {{^}}      if (warp.thread_rank() < step) {{{$}}
// CHECK-FIXES-NEXT: {{^}}        got = wl_other;{{$}}
// CHECK-FIXES-NEXT: {{^}}        running += got;{{$}}
// CHECK-FIXES-NEXT: {{^}}      }{{$}}
// CHECK-FIXES-NEXT: {{^}}    }{{$}}
// CHECK-FIXES-NEXT: {{^}}    if (warp.thread_rank() < 16){{$}}
// CHECK-FIXES-NEXT: {{^}}      part[block.thread_rank()] = running;{{$}}
// CHECK-FIXES-NEXT: {{^}}    cg::sync(warp);{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  cg::sync(block);{{$}}
// CHECK-LOG: note: fix (--fix): move the per-warp tree loop over 'part' (lines {{[0-9]+}}-{{[0-9]+}}) into registers: __shfl_down_sync(0xffffffff, ..., 16 ... 1), lanes under 16 storing their last value to part[block.thread_rank()] once; every lane's 'running' and every element of part end bit for bit as the loop leaves them
// CHECK-APPLIED: warplint: fixed {{.*}}: move the per-warp tree loop over 'part'
// Register form over a cooperative-groups tile: each warp sums its 32 partial
// sums, thread 0 then adds the warps' results. double, a temporary.
__global__ void tileRegisterDouble(const double *in, double *out) {
  __shared__ double part[THREADS];
  cg::thread_block block = cg::this_thread_block();
  double mine = in[blockIdx.x * THREADS + block.thread_rank()];
  part[block.thread_rank()] = mine;
  cg::sync(block);
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  double running = mine;
  double got;
  for (int step = warp.size() / 2; step > 0; step >>= 1) {
    if (warp.thread_rank() < step) {
      got = part[block.thread_rank() + step];
      running += got;
      part[block.thread_rank()] = running;
    }
    cg::sync(warp);
  }
  cg::sync(block);
  if (block.thread_rank() == 0) {
    double total = 0.0;
    for (int w = 0; w < THREADS; w += 32)
      total += part[w];
    out[blockIdx.x] = total;
  }
}

// CHECK-FIXES-LABEL: __global__ void directIntSyncwarp(
// CHECK-FIXES:      {{^}}  __syncthreads();{{$}}
// CHECK-FIXES-NEXT: {{^}}  {{{$}}
// CHECK-FIXES-NEXT: {{^}}    // per-warp tree over shuffles (warplint --fix): each lane adds the same values in the same order as the loop did, and cnt ends with the same elements{{$}}
// CHECK-FIXES-NEXT: {{^}}    int wl_sum = cnt[t];{{$}}
// CHECK-FIXES-NEXT: {{^}}    for (int d = 16; d > 0; d >>= 1) {{{$}}
// CHECK-FIXES-NEXT: {{^}}      int wl_other = __shfl_down_sync(0xffffffff, wl_sum, d);{{$}}
// CHECK-FIXES-NEXT: {{^}}      if (lane < d){{$}}
// CHECK-FIXES-NEXT: {{^}}        wl_sum += wl_other;{{$}}
// CHECK-FIXES-NEXT: {{^}}    }{{$}}
// CHECK-FIXES-NEXT: {{^}}    if (lane < 16){{$}}
// CHECK-FIXES-NEXT: {{^}}      cnt[t] = wl_sum;{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-LOG: note: fix (--fix): move the per-warp tree loop over 'cnt' (lines {{[0-9]+}}-{{[0-9]+}}) into registers: {{.*}} to cnt[t] once; every lane's running value and every element of cnt end bit for bit
// CHECK-APPLIED: warplint: fixed {{.*}}: move the per-warp tree loop over 'cnt'
// Direct form: the lane from threadIdx.x & 31, a constant start, __syncwarp().
// The element of lane 3 is read afterwards too: the rewrite keeps it.
__global__ void directIntSyncwarp(const int *in, int *out) {
  __shared__ int cnt[THREADS];
  const unsigned t = threadIdx.x;
  const unsigned lane = t & 31;
  cnt[t] = in[blockIdx.x * THREADS + t];
  __syncthreads();
  for (int d = 16; d > 0; d >>= 1) {
    if (lane < d)
      cnt[t] += cnt[t + d];
    __syncwarp();
  }
  __syncthreads();
  if (t == 0)
    out[blockIdx.x] = cnt[0] + cnt[32] + cnt[64] + cnt[96] + cnt[3];
}

// CHECK-FIXES-LABEL: __global__ void registerFloatNoTemp(
// CHECK-FIXES:      {{^}}    float wl_other = __shfl_down_sync(0xffffffff, acc[t], 16);{{$}}
// CHECK-FIXES-NEXT: {{^}}    if (t % 32 < 16) {{{$}}
// CHECK-FIXES-NEXT: {{^}}      sum += wl_other;{{$}}
// CHECK-FIXES-NEXT: {{^}}    }{{$}}
// CHECK-FIXES-NEXT: {{^}}    for (int k = 8; k > 0; k >>= 1) {{{$}}
// CHECK-FIXES-NEXT: {{^}}      wl_other = __shfl_down_sync(0xffffffff, sum, k);{{$}}
// CHECK-FIXES-NEXT: {{^}}      if (t % 32 < k) {{{$}}
// CHECK-FIXES-NEXT: {{^}}        sum += wl_other;{{$}}
// CHECK-FIXES-NEXT: {{^}}      }{{$}}
// CHECK-FIXES-NEXT: {{^}}    }{{$}}
// CHECK-FIXES-NEXT: {{^}}    if (t % 32 < 16){{$}}
// CHECK-FIXES-NEXT: {{^}}      acc[t] = sum;{{$}}
// CHECK-FIXES-NEXT: {{^}}    tile.sync();{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-APPLIED: warplint: fixed {{.*}}: move the per-warp tree loop over 'acc'
// Register form with no temporary, float, the lane as t % 32, a tile's sync().
__global__ void registerFloatNoTemp(const float *in, float *out) {
  __shared__ float acc[THREADS];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const int t = threadIdx.x;
  float sum = in[blockIdx.x * THREADS + t];
  acc[t] = sum;
  cg::sync(block);
  for (int k = 16; k > 0; k /= 2) {
    if (t % 32 < k) {
      sum += acc[t + k];
      acc[t] = sum;
    }
    tile.sync();
  }
  cg::sync(block);
  if (t == 0)
    out[blockIdx.x] = acc[0] + acc[32] + acc[64] + acc[96];
}

// ---- refused ------------------------------------------------------------

// CHECK-FIXES-LABEL: __global__ void tileOfSixteen(
// CHECK-FIXES: {{^}}  for (int i = half.size() / 2; i > 0; i >>= 1) {{{$}}
// CHECK-LOG: note: no shuffle fix: a per-warp tree written as a loop: the loop's `cg::sync(half)` syncs a tile of 16 threads, not a full warp: a shuffle with mask 0xffffffff needs all 32 lanes
// A 16-lane tile: the tree starts at 8 and covers half a warp.
__global__ void tileOfSixteen(const float *in, float *out) {
  __shared__ float part[THREADS];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> half = cg::tiled_partition<16>(block);
  float running = in[blockIdx.x * THREADS + block.thread_rank()];
  part[block.thread_rank()] = running;
  cg::sync(block);
  for (int i = half.size() / 2; i > 0; i >>= 1) {
    if (half.thread_rank() < i) {
      running += part[block.thread_rank() + i];
      part[block.thread_rank()] = running;
    }
    cg::sync(half);
  }
  cg::sync(block);
  if (block.thread_rank() == 0)
    out[blockIdx.x] = part[0] + part[16];
}

// CHECK-LOG: note: no shuffle fix: a per-warp tree written as a loop: the loop's `__syncwarp(0x0000ffff)` has a mask that is not 0xffffffff
// __syncwarp with half the lanes: not a full-warp shuffle.
__global__ void partialMask(const int *in, int *out) {
  __shared__ int cnt[THREADS];
  const unsigned t = threadIdx.x;
  cnt[t] = in[blockIdx.x * THREADS + t];
  __syncthreads();
  for (int d = 16; d > 0; d >>= 1) {
    if ((t & 31) < d)
      cnt[t] += cnt[t + d];
    __syncwarp(0x0000ffff);
  }
  __syncthreads();
  if (t == 0)
    out[blockIdx.x] = cnt[0];
}

// CHECK-LOG: note: no shuffle fix: a per-warp tree written as a loop: the block (48, 1, 1) is not one-dimensional with a multiple of 32 threads: a tile would not be one whole warp
// A block of 48 threads: the second warp is half empty.
__global__ void block48(const int *in, int *out) {
  __shared__ int cnt[64];
  const unsigned t = threadIdx.x;
  cnt[t] = in[blockIdx.x * 48 + t];
  __syncthreads();
  for (int d = 16; d > 0; d >>= 1) {
    if ((t & 31) < d)
      cnt[t] += cnt[t + d];
    __syncwarp();
  }
  __syncthreads();
  if (t == 0)
    out[blockIdx.x] = cnt[0] + cnt[32];
}

// CHECK-LOG: note: no shuffle fix: a per-warp tree written as a loop: 'running' is 'float' where the array holds 'double': the array's copy of it is rounded, the register's is not
// The running value is float, the array double: the array's copy differs.
__global__ void registerNarrowerThanArray(const double *in, double *out) {
  __shared__ double part[THREADS];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  float running = (float)in[blockIdx.x * THREADS + threadIdx.x];
  part[threadIdx.x] = running;
  cg::sync(block);
  for (int i = 16; i > 0; i >>= 1) {
    if (warp.thread_rank() < i) {
      running += part[threadIdx.x + i];
      part[threadIdx.x] = running;
    }
    cg::sync(warp);
  }
  cg::sync(block);
  if (threadIdx.x == 0)
    out[blockIdx.x] = part[0] + part[32] + part[64] + part[96];
}

// ---- in a helper ---------------------------------------------------------

// CHECK-FIXES-LABEL: __device__ void warpTreeHelper(
// CHECK-FIXES:      {{^}}  float running = buf[t];{{$}}
// CHECK-FIXES-NEXT: {{^}}  {{{$}}
// CHECK-FIXES-NEXT: {{^}}    // per-warp tree over shuffles (warplint --fix): {{.*}}{{$}}
// CHECK-FIXES-NEXT: {{^}}    float wl_other = __shfl_down_sync(0xffffffff, buf[t], 16);{{$}}
// CHECK-LOG: note: fix (--fix): move the per-warp tree loop over 'buf' {{.*}} (in the __device__ function 'warpTreeHelper'); {{.*}}; every one of the 1 call(s) of 'warpTreeHelper' in this file is proven
// CHECK-APPLIED: warplint: fixed {{.*}}: move the per-warp tree loop over 'buf'
// The loop in a __device__ function, its one call passing threadIdx.x under
// blocks of 128: rewritten in the function.
__device__ void warpTreeHelper(float *buf, cg::thread_block_tile<32> &warp, unsigned t) {
  float running = buf[t];
  for (int i = 16; i > 0; i >>= 1) {
    if (warp.thread_rank() < i) {
      running += buf[t + i];
      buf[t] = running;
    }
    cg::sync(warp);
  }
}
__global__ void callsHelper(const float *in, float *out) {
  __shared__ float part[THREADS];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  part[threadIdx.x] = in[blockIdx.x * THREADS + threadIdx.x];
  cg::sync(block);
  warpTreeHelper(part, warp, threadIdx.x);
  cg::sync(block);
  if (threadIdx.x == 0)
    out[blockIdx.x] = part[0] + part[32] + part[64] + part[96];
}

void launch(const double *di, double *dout, const int *ii, int *io, const float *fi, float *fo) {
  tileRegisterDouble<<<64, THREADS>>>(di, dout);
  directIntSyncwarp<<<64, THREADS>>>(ii, io);
  registerFloatNoTemp<<<64, THREADS>>>(fi, fo);
  tileOfSixteen<<<64, THREADS>>>(fi, fo);
  partialMask<<<64, THREADS>>>(ii, io);
  block48<<<64, 48>>>(ii, io);
  registerNarrowerThanArray<<<64, THREADS>>>(di, dout);
  callsHelper<<<64, THREADS>>>(fi, fo);
}

// CHECK-AGAIN-NOT: warplint: fixed
// CHECK-AGAIN-NOT: move the per-warp tree loop

// JSON: "fix": {
// JSON-NEXT: "form": "loop-register",
// JSON-NEXT: "kind": "warp-tail-shuffle",
// JSON-NEXT: "safety": "safe"
// JSON: "fix": {
// JSON-NEXT: "form": "loop",
// JSON-NEXT: "kind": "warp-tail-shuffle",
// JSON-NEXT: "safety": "safe"
// JSON: "fix": {
// JSON-NEXT: "form": "loop-register",
// JSON-NEXT: "kind": "warp-tail-shuffle",
// JSON-NEXT: "safety": "safe"
// JSON: "fix": {
// JSON-NEXT: "form": "loop",
// JSON-NEXT: "kind": "warp-tail-shuffle",
// JSON-NEXT: "reason": "a per-warp tree written as a loop: the loop's `cg::sync(half)`
// JSON-NEXT: "safety": "refused"

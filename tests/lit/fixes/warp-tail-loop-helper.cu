// warp-shuffle-candidate's fix for a per-warp tree written as a loop inside a
// __device__ helper, and for several arrays reduced in one loop. The helper's
// loop is rewritten once, and only when every call of it in the file is
// proven: each call passes threadIdx.x (or a local set once from it) for the
// index and distinct __shared__ arrays, and every kernel that runs it shows,
// under the block shapes of its launches, an exchange on each array that
// stays in its warp. Kernels whose blocks are never whole warps keep the loop
// as written behind `if (blockDim.x % 32 == 0)`. Refused, naming the call or
// the kernel, otherwise.
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
// RUN: %not %warplint check --fail-min-gain 0 %s --rules warp-shuffle-candidate --format json | %FileCheck %s --check-prefix=JSON

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// ---- rewritten ----------------------------------------------------------

// CHECK-FIXES-LABEL: __device__ void tileSums(
// CHECK-FIXES:      {{^}}  float got;{{$}}
// CHECK-FIXES-NEXT: {{^}}  {{{$}}
// CHECK-FIXES-NEXT: {{^}}    // per-warp tree over shuffles (warplint --fix): each lane adds the same values in the same order as the loop did, and buf ends with the same elements{{$}}
// CHECK-FIXES-NEXT: {{^}}    float wl_other = __shfl_down_sync(0xffffffff, buf[t], 16);{{$}}
// CHECK-FIXES-NEXT: {{^}}    if (lane < 16) {{{$}}
// CHECK-FIXES-NEXT: {{^}}      got = wl_other;{{$}}
// CHECK-FIXES-NEXT: {{^}}      run += got;{{$}}
// CHECK-FIXES-NEXT: {{^}}    }{{$}}
// CHECK-FIXES-NEXT: {{^}}    for (int i = 8; i > 0; i >>= 1) {{{$}}
// CHECK-FIXES-NEXT: {{^}}      wl_other = __shfl_down_sync(0xffffffff, run, i);{{$}}
// CHECK-FIXES-NEXT: {{^}}      if (lane < i) {{{$}}
// CHECK-FIXES-NEXT: {{^}}        got = wl_other;{{$}}
// CHECK-FIXES-NEXT: {{^}}        run += got;{{$}}
// CHECK-FIXES-NEXT: {{^}}      }{{$}}
// CHECK-FIXES-NEXT: {{^}}    }{{$}}
// CHECK-FIXES-NEXT: {{^}}    if (lane < 16){{$}}
// CHECK-FIXES-NEXT: {{^}}      buf[t] = run;{{$}}
// CHECK-FIXES-NEXT: {{^}}    cg::sync(tile);{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  cg::sync(blk);{{$}}
// CHECK-LOG: note: fix (--fix): move the per-warp tree loop over 'buf' (lines {{[0-9]+}}-{{[0-9]+}}) into registers: {{.*}} (in the __device__ function 'tileSums'); every lane's 'run' and every element of buf end bit for bit as the loop leaves them (same additions, same order), so later reads need no proof; every one of the 2 call(s) of 'tileSums' in this file is proven
// CHECK-APPLIED: warplint: fixed {{.*}}: move the per-warp tree loop over 'buf' {{.*}} (in the __device__ function 'tileSums')
// A template helper (the block size a template argument, as cuda-samples
// write it), register form with a temporary, the lane a local made from the
// index parameter. Two calls: one in a kernel, one in a __device__ function
// that two instances of a kernel reach, under blocks of 128, 256 and 64.
template <unsigned Threads>
__device__ void tileSums(volatile float *buf, float mine, unsigned t, cg::thread_block blk) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(blk);
  buf[t] = mine;
  cg::sync(tile);
  const int lane = t & 31;
  float run = mine;
  float got;
  for (int i = 16; i > 0; i >>= 1) {
    if (lane < i) {
      got = buf[t + i];
      run += got;
      buf[t] = run;
    }
    cg::sync(tile);
  }
  cg::sync(blk);
  if (t == 0) {
    float total = 0.0f;
    for (unsigned w = 0; w < Threads; w += 32)
      total += buf[w];
    buf[0] = total;
  }
  cg::sync(blk);
}

template <unsigned Threads>
__device__ void stage(const float *in, float *out, cg::thread_block blk) {
  __shared__ float part[Threads];
  unsigned tid = threadIdx.x;
  tileSums<Threads>(part, in[blockIdx.x * Threads + tid], tid, blk);
  if (tid == 0)
    out[blockIdx.x] = part[0];
}

template <unsigned Threads>
__global__ void sumsThroughStage(const float *in, float *out) {
  stage<Threads>(in, out, cg::this_thread_block());
}

__global__ void sumsDirect(const float *in, float *out) {
  __shared__ float part[128];
  const unsigned t = threadIdx.x;
  tileSums<128>(part, in[blockIdx.x * 128 + t], t, cg::this_thread_block());
  if (t == 0)
    out[blockIdx.x] = part[0];
}

// CHECK-FIXES-LABEL: __device__ void paddedTree(
// CHECK-FIXES:      {{^}}  float run = mine;{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (blockDim.x % 32 == 0) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    // per-warp tree over shuffles (warplint --fix): each lane adds the same values in the same order as the loop did, and buf ends with the same elements; blocks that are not whole warps run the loop as written{{$}}
// CHECK-FIXES-NEXT: {{^}}    float wl_other = __shfl_down_sync(0xffffffff, buf[t], 16);{{$}}
// CHECK-FIXES-NEXT: {{^}}    if (tile.thread_rank() < 16) {{{$}}
// CHECK-FIXES-NEXT: {{^}}      run += wl_other;{{$}}
// CHECK-FIXES-NEXT: {{^}}    }{{$}}
// CHECK-FIXES-NEXT: {{^}}    for (int i = 8; i > 0; i >>= 1) {{{$}}
// CHECK-FIXES-NEXT: {{^}}      wl_other = __shfl_down_sync(0xffffffff, run, i);{{$}}
// CHECK-FIXES-NEXT: {{^}}      if (tile.thread_rank() < i) {{{$}}
// CHECK-FIXES-NEXT: {{^}}        run += wl_other;{{$}}
// CHECK-FIXES-NEXT: {{^}}      }{{$}}
// CHECK-FIXES-NEXT: {{^}}    }{{$}}
// CHECK-FIXES-NEXT: {{^}}    if (tile.thread_rank() < 16){{$}}
// CHECK-FIXES-NEXT: {{^}}      buf[t] = run;{{$}}
// CHECK-FIXES-NEXT: {{^}}    cg::sync(tile);{{$}}
// CHECK-FIXES-NEXT: {{^}}  } else {{{$}}
// CHECK-FIXES-NEXT: {{^}}    for (int i = tile.size() / 2; i > 0; i >>= 1) {{{$}}
// CHECK-FIXES-NEXT: {{^}}      if (tile.thread_rank() < i) {{{$}}
// CHECK-FIXES-NEXT: {{^}}        run += buf[t + i];{{$}}
// CHECK-FIXES-NEXT: {{^}}        buf[t] = run;{{$}}
// CHECK-FIXES-NEXT: {{^}}      }{{$}}
// CHECK-FIXES-NEXT: {{^}}      cg::sync(tile);{{$}}
// CHECK-FIXES-NEXT: {{^}}    }{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  cg::sync(blk);{{$}}
// CHECK-LOG: note: fix (--fix): move the per-warp tree loop over 'buf' {{.*}} (in the __device__ function 'paddedTree'); {{.*}}; kernels launched with blocks that are not whole warps keep the loop as written (`if (blockDim.x % 32 == 0)`)
// CHECK-APPLIED: warplint: fixed {{.*}}: move the per-warp tree loop over 'buf' {{.*}} (in the __device__ function 'paddedTree')
// Instances for 256 and 16 threads: the block of 16 is half a warp, where a
// shuffle over 32 lanes is not the loop; its kernel keeps the loop (the pad
// of Threads zeros is what its lanes read at step 16).
template <unsigned Threads>
__device__ void paddedTree(float *buf, float mine, cg::thread_block blk) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(blk);
  const unsigned t = blk.thread_rank();
  buf[t] = mine;
  buf[t + Threads] = 0.0f;
  cg::sync(blk);
  float run = mine;
  for (int i = tile.size() / 2; i > 0; i >>= 1) {
    if (tile.thread_rank() < i) {
      run += buf[t + i];
      buf[t] = run;
    }
    cg::sync(tile);
  }
  cg::sync(blk);
}

template <unsigned Threads>
__global__ void paddedSums(const float *in, float *out) {
  __shared__ float part[2 * Threads];
  paddedTree<Threads>(part, in[blockIdx.x * Threads + threadIdx.x], cg::this_thread_block());
  if (threadIdx.x == 0) {
    float total = 0.0f;
    for (unsigned w = 0; w < Threads; w += 32)
      total += part[w];
    out[blockIdx.x] = total;
  }
}

// CHECK-FIXES-LABEL: __device__ void pairSums(
// CHECK-FIXES:      {{^}}  T dx, dy;{{$}}
// CHECK-FIXES-NEXT: {{^}}  {{{$}}
// CHECK-FIXES-NEXT: {{^}}    // per-warp tree over shuffles (warplint --fix): each lane adds the same values in the same order as the loop did, and a, b end with the same elements{{$}}
// CHECK-FIXES-NEXT: {{^}}    T wl_other = __shfl_down_sync(0xffffffff, a[t], 16);{{$}}
// CHECK-FIXES-NEXT: {{^}}    T wl_other2 = __shfl_down_sync(0xffffffff, b[t], 16);{{$}}
// CHECK-FIXES-NEXT: {{^}}    if (tile.thread_rank() < 16) {{{$}}
// CHECK-FIXES-NEXT: {{^}}      dx = wl_other;{{$}}
// CHECK-FIXES-NEXT: {{^}}      dy = wl_other2;{{$}}
// CHECK-FIXES-NEXT: {{^}}      x += dx;{{$}}
// CHECK-FIXES-NEXT: {{^}}      y += dy;{{$}}
// CHECK-FIXES-NEXT: {{^}}    }{{$}}
// CHECK-FIXES-NEXT: {{^}}    for (int i = 8; i > 0; i >>= 1) {{{$}}
// CHECK-FIXES-NEXT: {{^}}      wl_other = __shfl_down_sync(0xffffffff, x, i);{{$}}
// CHECK-FIXES-NEXT: {{^}}      wl_other2 = __shfl_down_sync(0xffffffff, y, i);{{$}}
// CHECK-FIXES-NEXT: {{^}}      if (tile.thread_rank() < i) {{{$}}
// CHECK-FIXES-NEXT: {{^}}        dx = wl_other;{{$}}
// CHECK-FIXES-NEXT: {{^}}        dy = wl_other2;{{$}}
// CHECK-FIXES-NEXT: {{^}}        x += dx;{{$}}
// CHECK-FIXES-NEXT: {{^}}        y += dy;{{$}}
// CHECK-FIXES-NEXT: {{^}}      }{{$}}
// CHECK-FIXES-NEXT: {{^}}    }{{$}}
// CHECK-FIXES-NEXT: {{^}}    if (tile.thread_rank() < 16) {{{$}}
// CHECK-FIXES-NEXT: {{^}}      a[t] = x;{{$}}
// CHECK-FIXES-NEXT: {{^}}      b[t] = y;{{$}}
// CHECK-FIXES-NEXT: {{^}}    }{{$}}
// CHECK-FIXES-NEXT: {{^}}    cg::sync(tile);{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-LOG: note: fix (--fix): move the per-warp tree loop over 'a, b' (lines {{[0-9]+}}-{{[0-9]+}}, 2 arrays in one loop) into registers: {{.*}} (in the __device__ function 'pairSums'); every lane's running values and every element of a, b end bit for bit
// CHECK-APPLIED: warplint: fixed {{.*}}: move the per-warp tree loop over 'a, b' {{.*}} (in the __device__ function 'pairSums')
// Two arrays reduced in one loop (a sum and a sum of squares), the element
// type a template parameter (float and double instances), six statements
// under the guard: two interleaved trees, independent since the arrays are
// distinct __shared__ arrays at the call and the locals are distinct.
template <class T>
__device__ void pairSums(T *a, T *b, cg::thread_block_tile<32> &tile, unsigned t) {
  T x = a[t];
  T y = b[t];
  T dx, dy;
  for (int i = 16; i > 0; i >>= 1) {
    if (tile.thread_rank() < i) {
      dx = a[t + i];
      dy = b[t + i];
      x += dx;
      y += dy;
      a[t] = x;
      b[t] = y;
    }
    cg::sync(tile);
  }
}

template <class T>
__global__ void meanAndSquares(const T *in, T *out) {
  __shared__ T s[128];
  __shared__ T s2[128];
  cg::thread_block blk = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(blk);
  T v = in[blockIdx.x * 128 + threadIdx.x];
  s[threadIdx.x] = v;
  s2[threadIdx.x] = v * v;
  cg::sync(blk);
  pairSums<T>(s, s2, tile, threadIdx.x);
  cg::sync(blk);
  if (threadIdx.x == 0) {
    T m = 0, q = 0;
    for (int w = 0; w < 128; w += 32) {
      m += s[w];
      q += s2[w];
    }
    out[2 * blockIdx.x] = m;
    out[2 * blockIdx.x + 1] = q;
  }
}

// CHECK-FIXES-LABEL: __global__ void hitsAndMisses(
// CHECK-FIXES:      {{^}}  __syncthreads();{{$}}
// CHECK-FIXES-NEXT: {{^}}  {{{$}}
// CHECK-FIXES-NEXT: {{^}}    // per-warp tree over shuffles (warplint --fix): each lane adds the same values in the same order as the loop did, and hits, misses end with the same elements{{$}}
// CHECK-FIXES-NEXT: {{^}}    int wl_sum = hits[t];{{$}}
// CHECK-FIXES-NEXT: {{^}}    int wl_sum2 = misses[t];{{$}}
// CHECK-FIXES-NEXT: {{^}}    for (int d = 16; d > 0; d >>= 1) {{{$}}
// CHECK-FIXES-NEXT: {{^}}      int wl_other = __shfl_down_sync(0xffffffff, wl_sum, d);{{$}}
// CHECK-FIXES-NEXT: {{^}}      int wl_other2 = __shfl_down_sync(0xffffffff, wl_sum2, d);{{$}}
// CHECK-FIXES-NEXT: {{^}}      if ((t & 31) < d) {{{$}}
// CHECK-FIXES-NEXT: {{^}}        wl_sum += wl_other;{{$}}
// CHECK-FIXES-NEXT: {{^}}        wl_sum2 += wl_other2;{{$}}
// CHECK-FIXES-NEXT: {{^}}      }{{$}}
// CHECK-FIXES-NEXT: {{^}}    }{{$}}
// CHECK-FIXES-NEXT: {{^}}    if ((t & 31) < 16) {{{$}}
// CHECK-FIXES-NEXT: {{^}}      hits[t] = wl_sum;{{$}}
// CHECK-FIXES-NEXT: {{^}}      misses[t] = wl_sum2;{{$}}
// CHECK-FIXES-NEXT: {{^}}    }{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-APPLIED: warplint: fixed {{.*}}: move the per-warp tree loop over 'hits, misses'
// Two arrays in the direct form in a kernel.
__global__ void hitsAndMisses(const int *in, int *out) {
  __shared__ int hits[128];
  __shared__ int misses[128];
  const unsigned t = threadIdx.x;
  int v = in[blockIdx.x * 128 + t];
  hits[t] = v > 0;
  misses[t] = v <= 0;
  __syncthreads();
  for (int d = 16; d > 0; d >>= 1) {
    if ((t & 31) < d) {
      hits[t] += hits[t + d];
      misses[t] = misses[t] + misses[t + d];
    }
    __syncwarp();
  }
  __syncthreads();
  if (t == 0)
    out[blockIdx.x] = hits[0] + hits[32] + hits[64] + hits[96] - misses[0] - misses[32] - misses[64] - misses[96];
}

// ---- refused ------------------------------------------------------------

// CHECK-FIXES-LABEL: __device__ void relayedTree(
// CHECK-FIXES: {{^}}  for (int i = 16; i > 0; i >>= 1) {{{$}}
// CHECK-LOG: note: no shuffle fix: a per-warp tree written as a loop: the loop in the __device__ function 'relayedTree' is rewritten only when every call of it is proven exact; the call at line {{[0-9]+}} in 'relay': it passes `idx` as the helper's parameter 2, which the loop uses as the thread index, not threadIdx.x (or a local set once from it)
// The index reaches the helper through another function's parameter: each
// call is checked one level up only, so this one is not proven (and the
// helper is left as written, though the kernel passes threadIdx.x).
__device__ void relayedTree(int *buf, unsigned t) {
  for (int i = 16; i > 0; i >>= 1) {
    if ((t & 31) < i)
      buf[t] += buf[t + i];
    __syncwarp();
  }
}
__device__ void relay(int *buf, unsigned idx) { relayedTree(buf, idx); }
__global__ void relayCaller(const int *in, int *out) {
  __shared__ int part[128];
  part[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
  __syncthreads();
  relay(part, threadIdx.x);
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = part[0] + part[32] + part[64] + part[96];
}

// CHECK-LOG: note: no shuffle fix: a per-warp tree written as a loop: the loop in the __device__ function 'pairSumsOnce' is rewritten only when every call of it is proven exact; the call at line {{[0-9]+}} in 'sameArrayTwice': it passes 's' for two of the arrays the loop reduces
// The same array for both: the two trees are not independent.
__device__ void pairSumsOnce(float *a, float *b, cg::thread_block_tile<32> &tile, unsigned t) {
  float x = a[t];
  float y = b[t];
  for (int i = 16; i > 0; i >>= 1) {
    if (tile.thread_rank() < i) {
      x += a[t + i];
      y += b[t + i];
      a[t] = x;
      b[t] = y;
    }
    cg::sync(tile);
  }
}
__global__ void sameArrayTwice(const float *in, float *out) {
  __shared__ float s[128];
  cg::thread_block blk = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(blk);
  s[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
  cg::sync(blk);
  pairSumsOnce(s, s, tile, threadIdx.x);
  cg::sync(blk);
  if (threadIdx.x == 0)
    out[blockIdx.x] = s[0] + s[32] + s[64] + s[96];
}

// CHECK-LOG: note: no shuffle fix: a per-warp tree written as a loop: the loop in the __device__ function 'rowTree' is rewritten only when every call of it is proven exact; the call at line {{[0-9]+}} in kernel 'rowsOfWarps': the block (32, 4, 1) is not one-dimensional with a multiple of 32 threads (its x is, so `blockDim.x % 32 == 0` cannot set it apart)
// Blocks of (32, 4): whole warps, but two-dimensional, which the proof does
// not cover (and the guard could not tell apart).
__device__ void rowTree(float *buf, cg::thread_block blk) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(blk);
  const unsigned t = blk.thread_rank();
  float run = buf[t];
  for (int i = 16; i > 0; i >>= 1) {
    if (tile.thread_rank() < i) {
      run += buf[t + i];
      buf[t] = run;
    }
    cg::sync(tile);
  }
}
__global__ void rowsOfWarps(const float *in, float *out) {
  __shared__ float s[128];
  cg::thread_block blk = cg::this_thread_block();
  s[blk.thread_rank()] = in[blockIdx.x * 128 + blk.thread_rank()];
  cg::sync(blk);
  rowTree(s, blk);
  cg::sync(blk);
  if (blk.thread_rank() == 0)
    out[blockIdx.x] = s[0] + s[32] + s[64] + s[96];
}

// CHECK-LOG: note: no shuffle fix: a per-warp tree written as a loop: in the instance charTree<char> the element type 'char' is not one __shfl_down_sync moves as it is
// One instance holds char: __shfl_down_sync has no char overload.
template <class T>
__device__ void charTree(T *buf, cg::thread_block_tile<32> &tile, unsigned t) {
  T run = buf[t];
  for (int i = 16; i > 0; i >>= 1) {
    if (tile.thread_rank() < i) {
      run += buf[t + i];
      buf[t] = run;
    }
    cg::sync(tile);
  }
}
template <class T>
__global__ void smallSums(const T *in, T *out) {
  __shared__ T s[128];
  cg::thread_block blk = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(blk);
  s[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
  cg::sync(blk);
  charTree<T>(s, tile, threadIdx.x);
  cg::sync(blk);
  if (threadIdx.x == 0)
    out[blockIdx.x] = s[0] + s[32] + s[64] + s[96];
}

void launch(const float *fi, float *fo, const double *di, double *dout, const int *ii, int *io, const char *ci,
            char *co) {
  sumsThroughStage<256><<<64, 256>>>(fi, fo);
  sumsThroughStage<64><<<64, 64>>>(fi, fo);
  sumsDirect<<<64, 128>>>(fi, fo);
  paddedSums<256><<<64, 256>>>(fi, fo);
  paddedSums<16><<<64, 16>>>(fi, fo);
  meanAndSquares<float><<<64, 128>>>(fi, fo);
  meanAndSquares<double><<<64, 128>>>(di, dout);
  hitsAndMisses<<<64, 128>>>(ii, io);
  relayCaller<<<64, 128>>>(ii, io);
  sameArrayTwice<<<64, 128>>>(fi, fo);
  rowsOfWarps<<<64, dim3(32, 4)>>>(fi, fo);
  smallSums<float><<<64, 128>>>(fi, fo);
  smallSums<char><<<64, 128>>>(ci, co);
}

// CHECK-AGAIN-NOT: warplint: fixed
// CHECK-AGAIN-NOT: move the per-warp tree loop

// JSON: "fix": {
// JSON-NEXT: "calls": 2,
// JSON-NEXT: "form": "loop-register",
// JSON-NEXT: "helper": "tileSums",
// JSON-NEXT: "kind": "warp-tail-shuffle",
// JSON-NEXT: "safety": "safe"

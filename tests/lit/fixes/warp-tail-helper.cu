// warp-shuffle-candidate's fix for a warp tail written in a __device__
// helper: the helper's body becomes a register with __shfl_down_sync, only
// when every call of the helper in the file is proven exact (warp 0 alone
// with all 32 lanes, a 1-D block of a multiple of 32 threads from the
// launches, volatile or __syncwarp, no later read of another lane's partial
// result, threadIdx.x passed as tid, compile-time guards, every template
// instance the same tail). Template helpers with `if (blockSize >= N)` on each
// step keep each guard on its step; the register form (a local stored back
// after each step) and a helper reached through another __device__ function
// are rewritten too. Refused, naming the call that fails, otherwise.
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

// ---- rewritten ----------------------------------------------------------

// A template helper over the block size with a guard on every step, float,
// called from two instances of one kernel.
template <unsigned blockSize, typename T>
__device__ void sumTail(volatile T *part, unsigned tid) {
  if (blockSize >= 64) part[tid] += part[tid + 32];
  if (blockSize >= 32) part[tid] += part[tid + 16];
  if (blockSize >= 16) part[tid] += part[tid + 8];
  if (blockSize >= 8) part[tid] += part[tid + 4];
  if (blockSize >= 4) part[tid] += part[tid + 2];
  if (blockSize >= 2) part[tid] += part[tid + 1];
}

template <unsigned blockSize>
__global__ void blockSums(const float *in, float *out) {
  __shared__ float part[blockSize];
  unsigned tid = threadIdx.x;
  part[tid] = in[blockIdx.x * blockSize + tid];
  __syncthreads();
  for (unsigned s = blockSize / 2; s > 32; s >>= 1) {
    if (tid < s)
      part[tid] += part[tid + s];
    __syncthreads();
  }
  if (tid < 32)
    sumTail<blockSize>(part, tid);
  if (tid == 0)
    out[blockIdx.x] = part[0];
}
// CHECK-FIXES-LABEL: __device__ void sumTail(
// CHECK-FIXES-NEXT: {{^}}  // warp tail in a register (warplint --fix): lane 0 combines the same values in the same order{{$}}
// CHECK-FIXES-NEXT: {{^}}  T v = part[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (blockSize >= 64) v += part[tid + 32];{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (blockSize >= 32) v += __shfl_down_sync(0xffffffff, v, 16);{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (blockSize >= 16) v += __shfl_down_sync(0xffffffff, v, 8);{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (blockSize >= 8) v += __shfl_down_sync(0xffffffff, v, 4);{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (blockSize >= 4) v += __shfl_down_sync(0xffffffff, v, 2);{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (blockSize >= 2) v += __shfl_down_sync(0xffffffff, v, 1);{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (tid == 0){{$}}
// CHECK-FIXES-NEXT: {{^}}    part[0] = v;{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}
// CHECK-FIXES: {{^}}    sumTail<blockSize>(part, tid);{{$}}
// CHECK-APPLIED: warplint: fixed {{.*}}: move the warp tail in the __device__ helper 'sumTail' (lines {{[0-9]+}}-{{[0-9]+}}) into a register: 6 steps, those under 32 as __shfl_down_sync(0xffffffff, v, 16 ... 1), lane 0 storing the result to part[0] [warp-shuffle-candidate]

// The register form: the running value stays in a local and goes back to
// shared memory after each step, __syncwarp between; double; one helper
// called for two arrays in each of two kernels.
__device__ void registerTail(volatile double *acc, int lane) {
  double r = acc[lane];
  r += acc[lane + 32]; __syncwarp();
  acc[lane] = r;       __syncwarp();
  r += acc[lane + 16]; __syncwarp();
  acc[lane] = r;       __syncwarp();
  r += acc[lane + 8];  __syncwarp();
  acc[lane] = r;       __syncwarp();
  r += acc[lane + 4];  __syncwarp();
  acc[lane] = r;       __syncwarp();
  r += acc[lane + 2];  __syncwarp();
  acc[lane] = r;       __syncwarp();
  r += acc[lane + 1];  __syncwarp();
  acc[lane] = r;
}

__global__ void dotParts(const double *a, const double *b, double *re, double *im) {
  __shared__ double sre[128], sim[128];
  int t = threadIdx.x;
  sre[t] = a[blockIdx.x * 128 + t] * b[blockIdx.x * 128 + t];
  sim[t] = a[blockIdx.x * 128 + t] - b[blockIdx.x * 128 + t];
  __syncthreads();
  if (t < 64) {
    sre[t] += sre[t + 64];
    sim[t] += sim[t + 64];
  }
  __syncthreads();
  if (t < 32) {
    registerTail(sre, t);
    registerTail(sim, t);
  }
  if (t == 0) {
    re[blockIdx.x] = sre[0];
    im[blockIdx.x] = sim[0];
  }
}

__global__ void dotPartsAgain(const double *a, double *re, double *im) {
  __shared__ double sre[64], sim[64];
  unsigned t = threadIdx.x;
  sre[t] = a[blockIdx.x * 64 + t];
  sim[t] = -a[blockIdx.x * 64 + t];
  __syncthreads();
  if (t < 32) {
    registerTail(sre, t);
    registerTail(sim, t);
  }
  __syncthreads();
  if (t == 1) {
    re[blockIdx.x] = sre[0];
    im[blockIdx.x] = sim[0];
  }
}
// One fix for the four calls: the helper's body once.
// CHECK-FIXES-LABEL: __device__ void registerTail(
// CHECK-FIXES-NEXT: {{^}}  // warp tail in a register (warplint --fix): lane 0 combines the same values in the same order{{$}}
// CHECK-FIXES-NEXT: {{^}}  double v = acc[lane];{{$}}
// CHECK-FIXES-NEXT: {{^}}  v += acc[lane + 32];{{$}}
// CHECK-FIXES-NEXT: {{^}}  v += __shfl_down_sync(0xffffffff, v, 16);{{$}}
// CHECK-FIXES-NEXT: {{^}}  v += __shfl_down_sync(0xffffffff, v, 8);{{$}}
// CHECK-FIXES-NEXT: {{^}}  v += __shfl_down_sync(0xffffffff, v, 4);{{$}}
// CHECK-FIXES-NEXT: {{^}}  v += __shfl_down_sync(0xffffffff, v, 2);{{$}}
// CHECK-FIXES-NEXT: {{^}}  v += __shfl_down_sync(0xffffffff, v, 1);{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (lane == 0){{$}}
// CHECK-FIXES-NEXT: {{^}}    acc[0] = v;{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}
// CHECK-APPLIED: warplint: fixed {{.*}}: move the warp tail in the __device__ helper 'registerTail' {{.*}} lane 0 storing the result to acc[0] [warp-shuffle-candidate]

// min through a typedef, the helper called from a __device__ function that
// the kernel calls, steps from 16.
typedef int cost_t;
__device__ void minTail(volatile cost_t *m, int tid) {
  m[tid] = min(m[tid], m[tid + 16]);
  m[tid] = min(m[tid], m[tid + 8]);
  m[tid] = min(m[tid], m[tid + 4]);
  m[tid] = min(m[tid], m[tid + 2]);
  m[tid] = min(m[tid], m[tid + 1]);
}

__device__ void blockMin(const cost_t *in, cost_t *out, volatile cost_t *m) {
  unsigned tid = threadIdx.x;
  m[tid] = in[blockIdx.x * 64 + tid];
  m[tid + 32] = in[blockIdx.x * 64 + tid + 32];
  __syncthreads();
  if (tid < 32)
    minTail(m, tid);
  if (tid == 0)
    out[blockIdx.x] = m[0];
}

__global__ void rowMins(const cost_t *in, cost_t *out) {
  __shared__ cost_t m[64];
  blockMin(in, out, m);
}
// CHECK-FIXES-LABEL: __device__ void minTail(
// CHECK-FIXES-NEXT: {{^}}  // warp tail in a register (warplint --fix): lane 0 combines the same values in the same order{{$}}
// CHECK-FIXES-NEXT: {{^}}  cost_t v = m[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}  v = min(v, __shfl_down_sync(0xffffffff, v, 16));{{$}}
// CHECK-FIXES-NEXT: {{^}}  v = min(v, __shfl_down_sync(0xffffffff, v, 8));{{$}}
// CHECK-FIXES-NEXT: {{^}}  v = min(v, __shfl_down_sync(0xffffffff, v, 4));{{$}}
// CHECK-FIXES-NEXT: {{^}}  v = min(v, __shfl_down_sync(0xffffffff, v, 2));{{$}}
// CHECK-FIXES-NEXT: {{^}}  v = min(v, __shfl_down_sync(0xffffffff, v, 1));{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (tid == 0){{$}}
// CHECK-FIXES-NEXT: {{^}}    m[0] = v;{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}
// CHECK-APPLIED: warplint: fixed {{.*}}: move the warp tail in the __device__ helper 'minTail' {{.*}}: 5 steps, {{.*}} [warp-shuffle-candidate]

// ---- refused ------------------------------------------------------------

// One call is safe, the other kernel reads the partial results of lanes
// 1-3 after the tail: the helper is left alone, and the reason names that call.
__device__ void sharedTail(volatile float *s, unsigned tid) {
  s[tid] += s[tid + 32];
  s[tid] += s[tid + 16];
  s[tid] += s[tid + 8];
  s[tid] += s[tid + 4];
  s[tid] += s[tid + 2];
  s[tid] += s[tid + 1];
}

__global__ void wholeSum(const float *in, float *out) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 64 + tid];
  __syncthreads();
  if (tid < 32)
    sharedTail(s, tid);
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

__global__ void partialSums(const float *in, float *out) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 64 + tid];
  __syncthreads();
  if (tid < 32)
    sharedTail(s, tid);
  __syncthreads();
  if (tid < 4)
    out[blockIdx.x * 4 + tid] = s[tid];
}
// CHECK-FIXES-LABEL: __device__ void sharedTail(
// CHECK-FIXES-NEXT: {{^}}  s[tid] += s[tid + 32];{{$}}
// CHECK-LOG: note: no shuffle fix: the helper 'sharedTail' is rewritten only when every call of it is proven exact; the call at line {{[0-9]+}} in kernel 'partialSums': after the call at line {{[0-9]+}}, the load 's[tid]' at line {{[0-9]+}} reads partial results other lanes of the tail stored; the rewrite keeps only lane 0's result (element 0)

// The lane index passed is not threadIdx.x: `lane == 0` would hold in every
// warp.
__device__ void laneTail(volatile int *s, int lane) {
  s[lane] += s[lane + 16];
  s[lane] += s[lane + 8];
  s[lane] += s[lane + 4];
  s[lane] += s[lane + 2];
  s[lane] += s[lane + 1];
}

__global__ void laneSums(const int *in, int *out) {
  __shared__ int s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 64 + tid];
  __syncthreads();
  if (tid < 32)
    laneTail(s, tid % 32);
  if (tid == 0)
    out[blockIdx.x] = s[0];
}
// CHECK-FIXES-LABEL: __device__ void laneTail(
// CHECK-FIXES-NEXT: {{^}}  s[lane] += s[lane + 16];{{$}}
// CHECK-LOG: note: no shuffle fix: the helper 'laneTail' is rewritten only when every call of it is proven exact; the call at line {{[0-9]+}} in kernel 'laneSums': it passes `tid % 32` as 'lane', not threadIdx.x (or a local set once from it): `lane == 0` would not single out lane 0

// A guard that is not a compile-time constant.
__device__ void runtimeGuardTail(volatile float *s, unsigned tid, int n) {
  if (n >= 64) s[tid] += s[tid + 32];
  s[tid] += s[tid + 16];
  s[tid] += s[tid + 8];
  s[tid] += s[tid + 4];
  s[tid] += s[tid + 2];
  s[tid] += s[tid + 1];
}

__global__ void runtimeGuardSum(const float *in, float *out, int n) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 64 + tid];
  __syncthreads();
  if (tid < 32)
    runtimeGuardTail(s, tid, n);
  if (tid == 0)
    out[blockIdx.x] = s[0];
}
// CHECK-FIXES-LABEL: __device__ void runtimeGuardTail(
// CHECK-FIXES-NEXT: {{^}}  if (n >= 64) s[tid] += s[tid + 32];{{$}}
// CHECK-LOG: note: no shuffle fix: the helper 'runtimeGuardTail' is rewritten only when every call of it is proven exact; the call at line {{[0-9]+}} in kernel 'runtimeGuardSum': the helper 'runtimeGuardTail': the condition `n >= 64` at line {{[0-9]+}} is not a compile-time constant

// An instance the shuffle cannot move as it is (char elements).
template <typename T>
__device__ void anyTail(volatile T *s, unsigned tid) {
  s[tid] += s[tid + 16];
  s[tid] += s[tid + 8];
  s[tid] += s[tid + 4];
  s[tid] += s[tid + 2];
  s[tid] += s[tid + 1];
}

template <typename T>
__global__ void anySum(const T *in, T *out) {
  __shared__ T s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 64 + tid];
  __syncthreads();
  if (tid < 32)
    anyTail<T>(s, tid);
  if (tid == 0)
    out[blockIdx.x] = s[0];
}
// CHECK-FIXES-LABEL: __device__ void anyTail(
// CHECK-FIXES-NEXT: {{^}}  s[tid] += s[tid + 16];{{$}}
// CHECK-LOG: note: no shuffle fix: the helper 'anyTail' is rewritten only when every call of it is proven exact; the call at line {{[0-9]+}} in kernel 'anySum<float>': the helper 'anyTail': the instance anyTail<char> (the step at line {{[0-9]+}} computes in another type) is not a tail the rewrite serves exactly

// A block of 48 threads: warp 1 is half full (the helper runs in warp 0
// only, but the launch is not a multiple of 32).
__device__ void oddTail(volatile unsigned *s, unsigned tid) {
  s[tid] += s[tid + 16];
  s[tid] += s[tid + 8];
  s[tid] += s[tid + 4];
  s[tid] += s[tid + 2];
  s[tid] += s[tid + 1];
}

__global__ void oddSum(const unsigned *in, unsigned *out) {
  __shared__ unsigned s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 48 + tid];
  __syncthreads();
  if (tid < 32)
    oddTail(s, tid);
  if (tid == 0)
    out[blockIdx.x] = s[0];
}
// CHECK-FIXES-LABEL: __device__ void oddTail(
// CHECK-FIXES-NEXT: {{^}}  s[tid] += s[tid + 16];{{$}}
// CHECK-LOG: note: no shuffle fix: the helper 'oddTail' is rewritten only when every call of it is proven exact; the call at line {{[0-9]+}} in kernel 'oddSum': the block (48, 1, 1) is not one-dimensional with a multiple of 32 threads

// The loop form over a 32-lane tile, every warp reducing its own 32 values:
// rewritten by the loop form of the fix (tests/lit/fixes/warp-tail-loop.cu),
// every element kept as the loop leaves it.
__global__ void tileSums(const float *in, float *out) {
  __shared__ float s[128];
  unsigned tid = threadIdx.x, lane = tid % 32;
  s[tid] = in[blockIdx.x * 128 + tid];
  __syncwarp();
  for (int i = 16; i > 0; i >>= 1) {
    if (lane < i)
      s[tid] += s[tid + i];
    __syncwarp();
  }
  __syncthreads();
  if (tid == 0)
    out[blockIdx.x] = s[0] + s[32] + s[64] + s[96];
}
// CHECK-FIXES-LABEL: __global__ void tileSums(
// CHECK-FIXES: {{^}}      float wl_other = __shfl_down_sync(0xffffffff, wl_sum, i);{{$}}
// CHECK-APPLIED: warplint: fixed {{.*}}: move the per-warp tree loop over 's'


// One kernel that calls the helper is never launched here: its block shape
// is assumed, so the helper stays as it is for the launched kernel too.
__device__ void assumedTail(volatile float *s, unsigned tid) {
  s[tid] += s[tid + 16];
  s[tid] += s[tid + 8];
  s[tid] += s[tid + 4];
  s[tid] += s[tid + 2];
  s[tid] += s[tid + 1];
}

__global__ void launchedSum(const float *in, float *out) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 64 + tid];
  __syncthreads();
  if (tid < 32)
    assumedTail(s, tid);
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

__global__ void unlaunchedSum(const float *in, float *out) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 64 + tid];
  __syncthreads();
  if (tid < 32)
    assumedTail(s, tid);
  if (tid == 0)
    out[blockIdx.x] = s[0];
}
// CHECK-FIXES-LABEL: __device__ void assumedTail(
// CHECK-FIXES-NEXT: {{^}}  s[tid] += s[tid + 16];{{$}}
// CHECK-LOG: note: no shuffle fix: the helper 'assumedTail' is rewritten only when every call of it is proven exact; the call at line {{[0-9]+}} in kernel 'unlaunchedSum': the block shape is assumed

void launchAll(const float *f, float *fo, const double *d, double *d1, double *d2, const int *i, int *io,
               const char *c, char *co, const unsigned *u, unsigned *uo, int n) {
  blockSums<256><<<n / 256, 256>>>(f, fo);
  blockSums<64><<<n / 64, 64>>>(f, fo);
  dotParts<<<n / 128, 128>>>(d, d, d1, d2);
  dotPartsAgain<<<n / 64, 64>>>(d, d1, d2);
  rowMins<<<n / 32, 32>>>(i, io);
  wholeSum<<<n / 64, 64>>>(f, fo);
  partialSums<<<n / 64, 64>>>(f, fo);
  laneSums<<<n / 64, 64>>>(i, io);
  runtimeGuardSum<<<n / 64, 64>>>(f, fo, n);
  anySum<float><<<n / 64, 64>>>(f, fo);
  anySum<char><<<n / 64, 64>>>(c, co);
  oddSum<<<n / 48, 48>>>(u, uo);
  tileSums<<<n / 128, 128>>>(f, fo);
  launchedSum<<<n / 64, 64>>>(f, fo);
}

// CHECK-AGAIN-NOT: warplint: fixed
// CHECK-AGAIN-NOT: move the warp tail

// JSON: "fix": {
// JSON-NEXT: "call_line": {{[0-9]+}},
// JSON-NEXT: "calls": 1,
// JSON-NEXT: "form": "helper",
// JSON-NEXT: "helper": "sumTail",
// JSON-NEXT: "kind": "warp-tail-shuffle",
// JSON-NEXT: "safety": "safe",
// JSON-NEXT: "steps": 6
// JSON: "fix": {
// JSON-NEXT: "call_line": {{[0-9]+}},
// JSON-NEXT: "calls": 4,
// JSON-NEXT: "form": "helper",
// JSON-NEXT: "helper": "registerTail",
// JSON: "helper": "sharedTail",
// JSON-NEXT: "kind": "warp-tail-shuffle",
// JSON-NEXT: "reason": "the helper 'sharedTail' is rewritten only when every call of it is proven exact; the call at line {{[0-9]+}} in kernel 'partialSums'
// JSON-NEXT: "safety": "refused"

// warp-shuffle-candidate's fix: an unrolled warp tail of a tree reduction
// moved into a register with __shfl_down_sync where lane 0 provably combines
// the same values in the same order (volatile and __syncwarp tails, float,
// int and double, +, max and fmaxf, from 32 or from 16), and refused with the
// reason where it would not be exact (later code reads other lanes' partial
// results, a block that is not a multiple of 32 threads or is assumed, a tail
// that stops before lane + 1, a different operator in one step, a race).
// RUN: grep -v CHECK- %s > %t.cu
// RUN: %not %warplint check --fail-min-gain 0 %t.cu --rules warp-shuffle-candidate --fix --color=never > %t.log 2>&1
// RUN: %FileCheck --input-file=%t.cu %s --check-prefix=CHECK-FIXES
// RUN: %FileCheck --input-file=%t.log %s --check-prefix=CHECK-LOG
// RUN: %FileCheck --input-file=%t.log %s --check-prefix=CHECK-APPLIED --implicit-check-not="warplint: fix"
// Idempotent: a second --fix changes nothing, and the rewritten tails are no longer findings.
// RUN: cp %t.cu %t.again.cu
// RUN: %not %warplint check --fail-min-gain 0 %t.again.cu --rules warp-shuffle-candidate --fix --color=never > %t.again.log 2>&1
// RUN: diff %t.cu %t.again.cu
// RUN: %FileCheck --input-file=%t.again.log %s --check-prefix=CHECK-AGAIN
// RUN: %not %warplint check --fail-min-gain 0 %s --rules warp-shuffle-candidate --format json | %FileCheck %s --check-prefix=JSON

#define N 256

// ---- rewritten ----------------------------------------------------------

// The classic volatile tail (Harris's reduction), float.
__global__ void volatileFloat(const float *in, float *out) {
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
    volatile float *s = sdata;
    s[tid] += s[tid + 32];
    s[tid] += s[tid + 16];
    s[tid] += s[tid + 8];
    s[tid] += s[tid + 4];
    s[tid] += s[tid + 2];
    s[tid] += s[tid + 1];
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
// CHECK-FIXES-LABEL: __global__ void volatileFloat(
// CHECK-FIXES:      {{^}}  if (tid < 32) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    // warp tail in a register (warplint --fix): lane 0 combines the same values in the same order{{$}}
// CHECK-FIXES-NEXT: {{^}}    float v = sdata[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}    v += sdata[tid + 32];{{$}}
// CHECK-FIXES-NEXT: {{^}}    v += __shfl_down_sync(0xffffffff, v, 16);{{$}}
// CHECK-FIXES-NEXT: {{^}}    v += __shfl_down_sync(0xffffffff, v, 8);{{$}}
// CHECK-FIXES-NEXT: {{^}}    v += __shfl_down_sync(0xffffffff, v, 4);{{$}}
// CHECK-FIXES-NEXT: {{^}}    v += __shfl_down_sync(0xffffffff, v, 2);{{$}}
// CHECK-FIXES-NEXT: {{^}}    v += __shfl_down_sync(0xffffffff, v, 1);{{$}}
// CHECK-FIXES-NEXT: {{^}}    if (tid == 0){{$}}
// CHECK-FIXES-NEXT: {{^}}      sdata[0] = v;{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (tid == 0){{$}}
// CHECK-APPLIED: warplint: fixed {{.*}}: move the warp tail of 'sdata' (lines {{[0-9]+}}-{{[0-9]+}}) into a register: 6 steps, the last 5 as __shfl_down_sync(0xffffffff, v, 16 ... 1), lane 0 storing the result to sdata[0] [warp-shuffle-candidate]

// __syncwarp between the steps, int, threadIdx.x spelled in the guard, and
// a name `v` already taken in the kernel.
__global__ void syncwarpInt(const int *in, int *out) {
  __shared__ int acc[N];
  int v = in[blockIdx.x * N + threadIdx.x];
  acc[threadIdx.x] = v;
  __syncthreads();
  for (unsigned s = N / 2; s > 32; s >>= 1) {
    if (threadIdx.x < s)
      acc[threadIdx.x] += acc[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x < 32) {
    acc[threadIdx.x] += acc[threadIdx.x + 32];
    __syncwarp();
    acc[threadIdx.x] += acc[threadIdx.x + 16];
    __syncwarp();
    acc[threadIdx.x] += acc[threadIdx.x + 8];
    __syncwarp();
    acc[threadIdx.x] += acc[threadIdx.x + 4];
    __syncwarp();
    acc[threadIdx.x] += acc[threadIdx.x + 2];
    __syncwarp();
    acc[threadIdx.x] += acc[threadIdx.x + 1];
  }
  __syncthreads();
  out[blockIdx.x * N + threadIdx.x] = acc[0];
}
// CHECK-FIXES-LABEL: __global__ void syncwarpInt(
// CHECK-FIXES:      {{^}}  if (threadIdx.x < 32) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    // warp tail in a register (warplint --fix): lane 0 combines the same values in the same order{{$}}
// CHECK-FIXES-NEXT: {{^}}    int v0 = acc[threadIdx.x];{{$}}
// CHECK-FIXES-NEXT: {{^}}    v0 += acc[threadIdx.x + 32];{{$}}
// CHECK-FIXES-NEXT: {{^}}    v0 += __shfl_down_sync(0xffffffff, v0, 16);{{$}}
// CHECK-FIXES:      {{^}}    v0 += __shfl_down_sync(0xffffffff, v0, 1);{{$}}
// CHECK-FIXES-NEXT: {{^}}    if (threadIdx.x == 0){{$}}
// CHECK-FIXES-NEXT: {{^}}      acc[0] = v0;{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
// CHECK-APPLIED: warplint: fixed {{.*}}: move the warp tail of 'acc' {{.*}} [warp-shuffle-candidate]

// A max tail: max(a, b) with the other lane's value first in one step,
// and the binary form of + is not mixed in.
__global__ void volatileMax(const int *in, int *out) {
  __shared__ int m[N];
  unsigned tid = threadIdx.x;
  m[tid] = in[blockIdx.x * N + tid];
  __syncthreads();
  for (unsigned s = N / 2; s > 32; s >>= 1) {
    if (tid < s)
      m[tid] = max(m[tid], m[tid + s]);
    __syncthreads();
  }
  if (tid < 32) {
    volatile int *p = m;
    p[tid] = max(p[tid], p[tid + 32]);
    p[tid] = max(p[tid + 16], p[tid]);
    p[tid] = max(p[tid], p[tid + 8]);
    p[tid] = max(p[tid], p[tid + 4]);
    p[tid] = max(p[tid], p[tid + 2]);
    p[tid] = max(p[tid], p[tid + 1]);
  }
  if (tid == 0)
    out[blockIdx.x] = m[0];
}
// CHECK-FIXES-LABEL: __global__ void volatileMax(
// CHECK-FIXES:      {{^}}    int v = m[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}    v = max(v, m[tid + 32]);{{$}}
// CHECK-FIXES-NEXT: {{^}}    v = max(__shfl_down_sync(0xffffffff, v, 16), v);{{$}}
// CHECK-FIXES-NEXT: {{^}}    v = max(v, __shfl_down_sync(0xffffffff, v, 8));{{$}}
// CHECK-FIXES:      {{^}}      m[0] = v;{{$}}
// CHECK-APPLIED: warplint: fixed {{.*}}: move the warp tail of 'm' {{.*}} [warp-shuffle-candidate]

// One warp a block: the tail starts at lane + 16; double, written as
// s[tid] = s[tid] + s[tid + k]. The array has room for the upper lanes'
// reads past the warp's 32 values (their results feed no lane 0 sum).
__global__ void oneWarpDouble(const double *in, double *out) {
  __shared__ double d[64];
  unsigned tid = threadIdx.x;
  d[tid] = in[blockIdx.x * 32 + tid];
  __syncthreads();
  if (tid < 32) {
    volatile double *s = d;
    s[tid] = s[tid] + s[tid + 16];
    s[tid] = s[tid] + s[tid + 8];
    s[tid] = s[tid] + s[tid + 4];
    s[tid] = s[tid] + s[tid + 2];
    s[tid] = s[tid] + s[tid + 1];
  }
  if (tid == 0)
    out[blockIdx.x] = d[0];
}
// CHECK-FIXES-LABEL: __global__ void oneWarpDouble(
// CHECK-FIXES:      {{^}}    double v = d[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}    v = v + __shfl_down_sync(0xffffffff, v, 16);{{$}}
// CHECK-FIXES:      {{^}}    v = v + __shfl_down_sync(0xffffffff, v, 1);{{$}}
// CHECK-FIXES-NEXT: {{^}}    if (tid == 0){{$}}
// CHECK-FIXES-NEXT: {{^}}      d[0] = v;{{$}}
// CHECK-APPLIED: warplint: fixed {{.*}}: move the warp tail of 'd' {{.*}} [warp-shuffle-candidate]

// fmaxf over floats.
__global__ void volatileFmaxf(const float *in, float *out) {
  __shared__ float f[64];
  unsigned tid = threadIdx.x;
  f[tid] = in[blockIdx.x * 64 + tid];
  __syncthreads();
  if (tid < 32) {
    volatile float *s = f;
    s[tid] = fmaxf(s[tid], s[tid + 32]);
    s[tid] = fmaxf(s[tid], s[tid + 16]);
    s[tid] = fmaxf(s[tid], s[tid + 8]);
    s[tid] = fmaxf(s[tid], s[tid + 4]);
    s[tid] = fmaxf(s[tid], s[tid + 2]);
    s[tid] = fmaxf(s[tid], s[tid + 1]);
  }
  if (tid == 0)
    out[blockIdx.x] = f[0];
}
// CHECK-FIXES-LABEL: __global__ void volatileFmaxf(
// CHECK-FIXES:      {{^}}    v = fmaxf(v, __shfl_down_sync(0xffffffff, v, 1));{{$}}
// CHECK-APPLIED: warplint: fixed {{.*}}: move the warp tail of 'f' {{.*}} [warp-shuffle-candidate]

// ---- refused (the tail is left as written) -------------------------------

// Later code reads every lane's partial result, not only element 0.
__global__ void readsPartials(const float *in, float *out) {
  __shared__ float sdata[64];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * 64 + tid];
  __syncthreads();
  if (tid < 32) {
    volatile float *s = sdata;
    s[tid] += s[tid + 32];
    s[tid] += s[tid + 16];
    s[tid] += s[tid + 8];
    s[tid] += s[tid + 4];
    s[tid] += s[tid + 2];
    s[tid] += s[tid + 1];
  }
  __syncthreads();
  if (tid < 32)
    out[blockIdx.x * 32 + tid] = sdata[tid];
}
// CHECK-FIXES-LABEL: __global__ void readsPartials(
// CHECK-FIXES:      {{^}}    volatile float *s = sdata;{{$}}
// CHECK-LOG: note: no shuffle fix: the load 'sdata[tid]' at line {{[0-9]+}} reads partial results other lanes of the tail stored; the rewrite keeps only lane 0's result (element 0)

// 48 threads a block: not a multiple of 32.
__global__ void block48(const float *in, float *out) {
  __shared__ float sdata[64];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * 48 + tid];
  __syncthreads();
  if (tid < 32) {
    volatile float *s = sdata;
    s[tid] += s[tid + 16];
    s[tid] += s[tid + 8];
    s[tid] += s[tid + 4];
    s[tid] += s[tid + 2];
    s[tid] += s[tid + 1];
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
// CHECK-FIXES-LABEL: __global__ void block48(
// CHECK-FIXES:      {{^}}    volatile float *s = sdata;{{$}}
// CHECK-LOG: note: no shuffle fix: the block (48, 1, 1) is not one-dimensional with a multiple of 32 threads

// No launch in the file: the block shape is assumed.
__global__ void unlaunched(const float *in, float *out) {
  __shared__ float sdata[64];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * 64 + tid];
  __syncthreads();
  if (tid < 32) {
    volatile float *s = sdata;
    s[tid] += s[tid + 32];
    s[tid] += s[tid + 16];
    s[tid] += s[tid + 8];
    s[tid] += s[tid + 4];
    s[tid] += s[tid + 2];
    s[tid] += s[tid + 1];
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
// CHECK-FIXES-LABEL: __global__ void unlaunched(
// CHECK-FIXES:      {{^}}    volatile float *s = sdata;{{$}}
// CHECK-LOG: note: no shuffle fix: the block shape is assumed

// The tail stops at lane + 2 and thread 0 adds the last pair itself.
__global__ void stopsAtTwo(const float *in, float *out) {
  __shared__ float sdata[64];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * 64 + tid];
  __syncthreads();
  if (tid < 32) {
    volatile float *s = sdata;
    s[tid] += s[tid + 32];
    s[tid] += s[tid + 16];
    s[tid] += s[tid + 8];
    s[tid] += s[tid + 4];
    s[tid] += s[tid + 2];
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0] + sdata[1];
}
// CHECK-FIXES-LABEL: __global__ void stopsAtTwo(
// CHECK-FIXES:      {{^}}    volatile float *s = sdata;{{$}}
// CHECK-LOG: note: no shuffle fix: the steps read lane + 32, 16, 8, 4, 2, not 32 (or 16) halving down to 1

// One step takes the max where the others add.
__global__ void mixedOperators(const int *in, int *out) {
  __shared__ int sdata[64];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * 64 + tid];
  __syncthreads();
  if (tid < 32) {
    volatile int *s = sdata;
    s[tid] += s[tid + 32];
    s[tid] += s[tid + 16];
    s[tid] = max(s[tid], s[tid + 8]);
    s[tid] += s[tid + 4];
    s[tid] += s[tid + 2];
    s[tid] += s[tid + 1];
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
// CHECK-FIXES-LABEL: __global__ void mixedOperators(
// CHECK-FIXES:      {{^}}    volatile int *s = sdata;{{$}}
// CHECK-LOG: note: no shuffle fix: the step at line {{[0-9]+}} applies 'max' where the first applies '+'

// Neither volatile nor __syncwarp: a race, so nothing to keep bit for bit.
__global__ void racyTail(const float *in, float *out) {
  __shared__ float sdata[64];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * 64 + tid];
  __syncthreads();
  if (tid < 32) {
    sdata[tid] += sdata[tid + 32];
    sdata[tid] += sdata[tid + 16];
    sdata[tid] += sdata[tid + 8];
    sdata[tid] += sdata[tid + 4];
    sdata[tid] += sdata[tid + 2];
    sdata[tid] += sdata[tid + 1];
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
// CHECK-FIXES-LABEL: __global__ void racyTail(
// CHECK-FIXES:      {{^}}    sdata[tid] += sdata[tid + 32];{{$}}
// CHECK-LOG: note: no shuffle fix: nothing orders the steps (no volatile, no __syncwarp)

// CHECK-AGAIN-NOT: warplint: fixed
// CHECK-AGAIN-NOT: move the warp tail

// JSON: "fix": {
// JSON-NEXT: "kind": "warp-tail-shuffle",
// JSON-NEXT: "safety": "safe",
// JSON-NEXT: "steps": 6

void launch(const float *fi, float *fo, const int *ii, int *io, const double *di, double *dout) {
  volatileFloat<<<64, N>>>(fi, fo);
  syncwarpInt<<<64, N>>>(ii, io);
  volatileMax<<<64, N>>>(ii, io);
  oneWarpDouble<<<64, 32>>>(di, dout);
  volatileFmaxf<<<64, 64>>>(fi, fo);
  readsPartials<<<64, 64>>>(fi, fo);
  block48<<<64, 48>>>(fi, fo);
  stopsAtTwo<<<64, 64>>>(fi, fo);
  mixedOperators<<<64, 64>>>(ii, io);
  racyTail<<<64, 64>>>(fi, fo);
}

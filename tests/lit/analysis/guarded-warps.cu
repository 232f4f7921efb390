// Accesses that only some warps of the block take are evaluated on those
// warps (the first, second and last warps stand for the block otherwise),
// and an access that no thread of the block takes under the kernel's own
// constants is "not executed", not a gap in the model. A guard on a
// parameter or a block index proves nothing: those are evaluated where it holds.
// RUN: %not %warplint check %s --fail-min-gain 0 --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning: --implicit-check-not=error:
// RUN: %warplint check %s --dump-model --color=never | %FileCheck %s --check-prefix=CHECK-MODEL

__global__ void thirdWarpOnly(float *out) {
  __shared__ float s[32 * 33];
  unsigned t = threadIdx.x;
  if (t >= 64 && t < 96) {
    // CHECK-MESSAGES: :[[@LINE+1]]:5: warning: 32-way bank conflict on write of shared 's'
    s[(t - 64) * 32] = 1.f;
    s[(t - 64) * 33] = 2.f; // padded: silent
  }
  __syncthreads();
  out[t] = s[t];
}

template <unsigned blockSize>
__global__ void reduceSteps(const float *in, float *out) {
  __shared__ float s[blockSize];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockSize + t];
  __syncthreads();
  if (blockSize >= 256) {
    if (t < 128)
      s[t] += s[t + 128];
    __syncthreads();
  }
  if (t < 32)
    s[t] += s[t + 32];
  if (t == 0)
    out[blockIdx.x] = s[0];
}

// Each thread reads back only its own element, in the blocks where the guards
// hold: S_6 sees those reads once the guards that select blocks are dropped.
__global__ void paramGuard(float *out, int n) {
  // CHECK-MESSAGES: :[[@LINE+1]]:20: warning: shared 's' carries no data between threads: every element is read only by the thread that wrote it
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t] = 0.f;
  __syncthreads();
  if (n < 4)        // false at the assumed n, true for small n: proves nothing
    out[t] = s[t];
  if (blockIdx.x == 7) // only block 7: block 0 stands for the grid
    out[t] = s[t];
}

// Every parameter takes one default value, so `t < w - r` leaves no lane;
// with r small the lanes run, and a conflict found so is a note that says
// with which value.
__global__ void boundedByTwoParams(float *out, int w, int r) {
  __shared__ float s[32 * 32];
  unsigned t = threadIdx.x;
  if (t < w - r) {
    // CHECK-MESSAGES: :[[@LINE+2]]:5: note: 32-way bank conflict on write of shared 's'{{.*}}(only known with r = 8)
    // CHECK-MESSAGES: note: assumption: no lane passes the guards with every parameter at 1024; evaluated with r = 8
    s[t * 32] = 1.f;
    s[t] = 2.f;      // conflict-free at any r
  }
  __syncthreads();
  out[t] = s[t];
}

// A loop bounded by the block size that never runs at 64 threads: its
// accesses are not executed in that launch.
__global__ void loopSteps(float *out) {
  __shared__ float s[1024];
  unsigned t = threadIdx.x;
  s[t] = out[t];
  __syncthreads();
  for (unsigned h = blockDim.x / 2; h > 32; h >>= 1) {
    if (t < h)
      s[t] += s[t + h];
    __syncthreads();
  }
  out[t] = s[t];
}

// A constant guard no thread passes decides alone, though the loop inside
// reads a parameter.
template <bool pow2>
__global__ void sumRest(const float *in, float *out, int n) {
  float acc = 0.f;
  if (!pow2) {
    for (unsigned i = threadIdx.x; i < n; i += 1024)
      acc += in[i];
  }
  out[threadIdx.x] = acc;
}

void launch(const float *in, float *out, int n) {
  sumRest<true><<<1, 256>>>(in, out, n);
  loopSteps<<<n, 64>>>(out);
  thirdWarpOnly<<<1, 128>>>(out);
  reduceSteps<64><<<n, 64>>>(in, out);
  reduceSteps<256><<<n, 256>>>(in, out);
  paramGuard<<<n, 256>>>(out, n);
  boundedByTwoParams<<<n, 32>>>(out, n, 3);
}

// The padded write is evaluated on warp 2, the only warp that takes it.
// CHECK-MODEL: "warp": 2,
// CHECK-MODEL: "text": "s[(t - 64) * 33]",
// reduceSteps<64>: the blockSize >= 256 step is not executed; the others are evaluated.
// CHECK-MODEL: "text": "in[blockIdx.x * blockSize + t]",
// CHECK-MODEL: "text": "s[t]",
// CHECK-MODEL-NEXT: "unevaluated": {
// CHECK-MODEL-NEXT: "class": "not executed",
// CHECK-MODEL: "text": "s[t + 128]",
// CHECK-MODEL-NEXT: "unevaluated": {
// CHECK-MODEL-NEXT: "class": "not executed",
// paramGuard: a guard on a parameter or a block index proves nothing; each
// selects whole blocks and reads nothing the address reads, so the accesses
// are evaluated in the blocks where it holds, stated.
// CHECK-MODEL: "name": "reduceSteps"
// CHECK-MODEL: evaluated in the blocks where n < 4 holds
// CHECK-MODEL: evaluated in the blocks where n < 4 holds
// CHECK-MODEL: evaluated in the blocks where blockIdx.x == 7 holds
// CHECK-MODEL: evaluated in the blocks where blockIdx.x == 7 holds
// CHECK-MODEL-NOT: "not executed"
// CHECK-MODEL-NOT: "no active lane"
// CHECK-MODEL: "name": "paramGuard"
// loopSteps at 64 threads: the two accesses in the loop are not executed.
// CHECK-MODEL: "name": "boundedByTwoParams"
// CHECK-MODEL: "class": "not executed",
// CHECK-MODEL: "text": "s[t + h]",
// CHECK-MODEL-NEXT: "unevaluated": {
// CHECK-MODEL-NEXT: "class": "not executed",
// CHECK-MODEL: "name": "loopSteps"
// sumRest<true>: the read under !pow2 is not executed.
// CHECK-MODEL: "text": "in[i]",
// CHECK-MODEL-NEXT: "unevaluated": {
// CHECK-MODEL-NEXT: "class": "not executed",
// CHECK-MODEL: "name": "sumRest"

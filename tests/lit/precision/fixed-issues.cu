// Regression tests for the discrepancies the independent precision review
// found (tests/lit/precision/FINDINGS.md, KI-1 to KI-6). Each case states the
// hand-computed ground truth; "ACTUAL" records what warplint printed before
// the fix.
// RUN: %not %warplint check --fail-min-gain 0 %s --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning: --implicit-check-not=error:

// ---- KI-1 (false positive, global-uncoalesced): misalignment alone -------
// A byte stream read one element back. The warp reads 32 contiguous bytes that
// straddle a sector boundary: 2 sectors where 1 is ideal. The whole excess is
// misalignment, which the rule promises not to report.
// EXPECTED: no warning.
// ACTUAL:   warning: uncoalesced global read of 'in': 2 sectors
//           per request where 1 suffices: 2x the traffic [global-uncoalesced]
__global__ void byteDiff(const unsigned char *in, unsigned char *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n)
    out[i] = in[i] - in[i - 1];
}

// ---- KI-2 (false positive, global-uncoalesced): misalignment alone -------
// Block (8,8): each warp reads 4 rows of 8 floats (32 bytes each). Shifted by
// one element each row straddles two sectors: 8 sectors vs 4, again purely
// from misalignment (the aligned read next to it takes 4).
// EXPECTED: no warning.
// ACTUAL:   warning: uncoalesced global read of 'in': 8 sectors per request
//           where 4 suffice: 2x the traffic
__global__ void halo8x8(const float *in, float *out, int n) {
  int x = blockIdx.x * 8 + threadIdx.x;
  int y = blockIdx.y * 8 + threadIdx.y;
  out[y * n + x] = in[y * n + x] - in[y * n + x - 1];
}

// ---- KI-3 (false positive, global-uncoalesced): two active lanes ---------
// Block (16,16) stencil: the left/right halo columns are loaded by tx == 0
// (lanes 0 and 16 of each warp, rows gy and gy+1). Two 4-byte loads in two
// rows need two sectors whatever the layout; "2 sectors where 1 suffices: 2x"
// flags every textbook 16x16 halo load. (The same code with a (32,8) block has
// one active lane and is not reported.)
// EXPECTED: no warning (2 active lanes, 8 useful bytes, nothing to fix).
// ACTUAL:   warning: uncoalesced global read of 'in': 2 sectors per request
//           where 1 suffices: 2x the traffic   (both halo lines)
__global__ void haloColumns16(const float *in, float *out, int n) {
  __shared__ float tile[18][18];
  int tx = threadIdx.x, ty = threadIdx.y;
  int gx = blockIdx.x * 16 + tx, gy = blockIdx.y * 16 + ty;
  // (correct, and reported: the 18-word pitch gives 2-way conflicts)
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: 2-way bank conflict on write of shared 'tile'
  tile[ty + 1][tx + 1] = in[gy * n + gx];
  if (tx == 0)
    tile[ty + 1][0] = in[gy * n + gx - 1];
  if (tx == 15)
    tile[ty + 1][17] = in[gy * n + gx + 1];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE+2]]:22: warning: 2-way bank conflict on read of shared 'tile'
  // CHECK-MESSAGES: :[[@LINE+1]]:41: warning: 2-way bank conflict on read of shared 'tile'
  out[gy * n + gx] = tile[ty + 1][tx] + tile[ty + 1][tx + 2];
}

// ---- KI-4 (false positive, shared-bank-conflict): impossible assumption --
// A runtime stride into a 1024-word shared array. warplint takes 'stride' as
// 1024, so lane 1 would already index past the end of 's'. The only strides
// that keep a (32) block in bounds are 0..33, for which the degree ranges from
// 1 to 32: the analyzer cannot know it, and its only value is out of bounds.
// EXPECTED: no warning (index unknown; or at least an assumption bounded by
//           the array's extent).
// ACTUAL:   warning: 32-way bank conflict on write of shared 's' ... note:
//           assumption: parameter 'stride' taken as 1024
__global__ void sharedParamStride(float *out, int stride) {
  __shared__ float s[1024];
  s[threadIdx.x * stride] = 1.f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

// ---- KI-5 (false negative, global-uncoalesced): __ldg ---------------------
// Reads through __ldg are not modelled at all (no access in --dump-model).
// EXPECTED: 8x on both lines (32 sectors where 4 suffice), and 3x for y below.
// ACTUAL:   no warning.
__global__ void ldgFloat(const float *__restrict__ in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+1]]:19: warning: uncoalesced global read of 'in': 32 sectors per request where 4 suffice: 8x the traffic
  out[i] = __ldg(&in[32 * i]);
  // CHECK-MESSAGES: :[[@LINE+1]]:19: warning: uncoalesced global read of 'in': 32 sectors per request where 4 suffice: 8x the traffic
  out[i] += __ldg(in + 32 * i);
}
__global__ void ldgDoubles(const double *__restrict__ x, const double *__restrict__ y, double *z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  // CHECK-MESSAGES: :[[@LINE+1]]:32: warning: uncoalesced global read of 'y': 24 sectors per request where 8 suffice: 3x the traffic
  z[i] = __ldg(&x[i]) + __ldg(&y[3 * i]);
}

// ---- KI-6 (false negative, global-uncoalesced): atomics ------------------
// atomicAdd(&out[32 * i], v): every lane's atomic hits its own sector.
// EXPECTED: 32 sectors where 4 suffice: 8x (write or read-modify-write).
// ACTUAL:   no warning; the kernel has no accesses in --dump-model.
__global__ void atomicStrided(float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+1]]:14: warning: uncoalesced global {{.*}}of 'out': 32 sectors per request where 4 suffice: 8x the traffic
  atomicAdd(&out[i * 32], 1.f);
}

void launchKnownIssues(float *f, double *d, unsigned char *c, int n) {
  byteDiff<<<n / 256, 256>>>(c, c, n);
  halo8x8<<<dim3(n / 8, n / 8), dim3(8, 8)>>>(f, f, n);
  haloColumns16<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(f, f, n);
  sharedParamStride<<<1, 32>>>(f, n);
  ldgFloat<<<n / 256, 256>>>(f, f);
  ldgDoubles<<<n / 256, 256>>>(d, d, d, n);
  atomicStrided<<<n / 256, 256>>>(f);
}

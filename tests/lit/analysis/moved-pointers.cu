// Pointers moved before (or while) they are read: `p += offset` at a
// kernel's top (the image-filter idiom), `p++` in a loop, `p = p + k`, a
// local pointer moved from its initializer. The accesses are modeled from
// where each pointer started plus the offset the walker followed; a pointer
// set to another pointer is not followed (no finding, as before).
// RUN: %not %warplint check %s --rules global-uncoalesced,shared-bank-conflict --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning: --implicit-check-not=error:

#define BX 16
#define BY 8

// A row filter's load: the thread's pixel reached through a moved pointer.
// The warp reads 16 consecutive floats of two rows: coalesced.
__global__ void rowsMoved(float *dst, const float *src, int pitch) {
  const int x = blockIdx.x * BX + threadIdx.x;
  const int y = blockIdx.y * BY + threadIdx.y;
  src += y * pitch + x;
  dst += y * pitch + x;
  dst[0] = src[0] + src[BX];
}

// The same idiom along columns: lanes 1 pitch apart.
__global__ void columnsMoved(float *dst, const float *src, int pitch) {
  const int x = blockIdx.x * BY + threadIdx.y;
  const int y = blockIdx.y * 32 + threadIdx.x;
  src += y * pitch + x;
  // CHECK-MESSAGES: :[[@LINE+1]]:12: warning: uncoalesced global read of 'src'
  dst[y] = src[0];
}

// Moved in a loop: each lane walks its own row of 32 floats.
__global__ void walkRows(float *out, const float *in) {
  const float *p = in + threadIdx.x * 32;
  float a = 0.f;
  for (int k = 0; k < 32; ++k) {
    // CHECK-MESSAGES: :[[@LINE+1]]:10: warning: uncoalesced global read of 'in'
    a += *p;
    p++;
  }
  out[threadIdx.x] = a;
}

// Moved by `p = p + k` across the warp, then read: still coalesced.
__global__ void stepped(float *out, const float *in) {
  const float *p = in;
  p = p + blockIdx.x * 32;
  out[blockIdx.x * 32 + threadIdx.x] = p[threadIdx.x];
}

// A moved pointer into shared memory: a column read of a 32x32 tile.
__global__ void sharedMoved(float *out) {
  __shared__ float tile[32 * 32];
  float *t = tile;
  tile[threadIdx.y * 32 + threadIdx.x] = 1.f;
  __syncthreads();
  t += threadIdx.x * 32;
  // CHECK-MESSAGES: :[[@LINE+1]]:22: warning: 32-way bank conflict on read of shared 'tile'
  out[threadIdx.x] = t[threadIdx.y];
}

// Set to another pointer: not followed, no finding.
__global__ void reseated(float *out, const float *a, const float *b, int which) {
  const float *p = a;
  if (which)
    p = b;
  out[threadIdx.x] = p[threadIdx.x * 32];
}

void launch(float *d, const float *s, int pitch) {
  rowsMoved<<<dim3(64, 64), dim3(BX, BY)>>>(d, s, pitch);
  columnsMoved<<<dim3(64, 64), dim3(32, BY)>>>(d, s, pitch);
  walkRows<<<64, 32>>>(d, s);
  stepped<<<64, 32>>>(d, s);
  sharedMoved<<<1, dim3(32, 32)>>>(d);
  reseated<<<1, 32>>>(d, s, s, 1);
}

// RUN: %not %warplint check %s --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning: --implicit-check-not=error:

// Precision tests: edge cases of the index model (scoping, reassignment,
// casts, file-scope and struct shared memory, guards, lane-dependent loops,
// odd block shapes, launches with streams or runtime block sizes). Ground
// truth is in the comment on each access ("GT" or a bare verdict).
#include <cuda_fp16.h>
__global__ void shadowed(float *out) {
  __shared__ float s[1024];
  int idx = threadIdx.x;
  s[idx] = 1.f;                           // GT free
  {
    int idx = threadIdx.x * 32;
    // CHECK-MESSAGES: :[[@LINE+1]]:5: warning: 32-way bank conflict on write of shared 's'
    s[idx] = 2.f;                         // GT 32-way
  }
  __syncthreads();
  out[threadIdx.x] = s[idx];              // GT free
}
__global__ void reassigned(float *out) {
  __shared__ float s[1024];
  int c = threadIdx.x * 32;
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: 32-way bank conflict on write of shared 's'
  s[c] = 1.f;                             // GT 32-way (or silent: assigned twice)
  c = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[c];                // GT free
}
__global__ void paramReassigned(const float *in, float *out, int n) {
  n = 1;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * n];                     // GT: n = 1: coalesced
}
__global__ void twoLaunches(float *out) {
  __shared__ float t[32][33];
  // CHECK-MESSAGES: :[[@LINE+2]]:3: warning: 2-way bank conflict on write of shared 't'
  // CHECK-MESSAGES: note: block (16, 16, 1) from the launch at line {{[0-9]+}}{{$}}
  t[threadIdx.y][threadIdx.x] = 1.f;      // (32,8): free; (16,16): 2-way
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE+1]]:41: warning: 2-way bank conflict on read of shared 't'
  out[threadIdx.y * 32 + threadIdx.x] = t[threadIdx.x][threadIdx.y]; // (32,8) free; (16,16) 2-way
}
__global__ void castTo2D(float *out) {
  extern __shared__ float smem[];
  float (*tile)[32] = reinterpret_cast<float (*)[32]>(smem);
  tile[threadIdx.y][threadIdx.x] = 1.f;   // free
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE+1]]:41: warning: 32-way bank conflict on read of shared 'smem'
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y]; // 32-way
}
__global__ void vecCast(float *out) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = 1.f;
  __syncthreads();
  float4 v = reinterpret_cast<float4 *>(&tile[threadIdx.y][0])[threadIdx.x & 7]; // block (32,8): 8 chunks, lanes 8 apart broadcast: free
  // CHECK-MESSAGES: :[[@LINE+1]]:14: warning: 8-way bank conflict on read of shared 'tile'
  float4 w = reinterpret_cast<float4 *>(&tile[threadIdx.x][0])[0]; // rows 128 B apart: 8-way
  out[threadIdx.y * 32 + threadIdx.x] = v.x + w.y;
}
__global__ void byteArith(float *out) {
  __shared__ float s[512];
  char *base = reinterpret_cast<char *>(s);
  float *p = reinterpret_cast<float *>(base + threadIdx.x * 8);
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: 2-way bank conflict on write of shared 's'
  *p = 1.f;                               // 2-way
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
struct Smem { float a[32][33]; float b[64]; };
__global__ void structShared(float *out) {
  __shared__ Smem sm;
  sm.a[threadIdx.x][threadIdx.y] = 1.f;   // free
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: 2-way bank conflict on write of shared 'sm'
  sm.b[threadIdx.x * 2] = 1.f;            // 2-way
  __syncthreads();
  out[threadIdx.x] = sm.a[threadIdx.y][threadIdx.x];
}
__shared__ float fileScope[1024];
__global__ void fileScopeShared(float *out) {
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: 32-way bank conflict on write of shared 'fileScope'
  fileScope[threadIdx.x * 32] = 1.f;      // 32-way
  __syncthreads();
  out[threadIdx.x] = fileScope[threadIdx.x];
}
__global__ void guardedLane8(float *out) {
  __shared__ float s[256];
  int lane = threadIdx.x & 31;
  if (lane < 8)
    s[lane * 4] = 1.f;                     // 8 lanes, banks 0..28: free
  if (threadIdx.x < 8)
    s[threadIdx.x * 4 + 1] = 1.f;          // free
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
__global__ void laneStartLoop(float *out) {
  __shared__ float s[32][32];
  for (int k = threadIdx.x; k < 1024; k += 32)
    s[k / 32][k % 32] = 0.f;              // free
  __syncthreads();
  float a = 0.f;
  for (int k = threadIdx.x; k < 32 * 32; k += 32)
    // CHECK-MESSAGES: :[[@LINE+1]]:10: warning: 32-way bank conflict on read of shared 's'
    a += s[k % 32][k / 32];               // lane l: s[l][c]: 32-way
  out[threadIdx.x] = a;
}
__global__ void divNonPow2(float *out) {
  __shared__ float s[1024];
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: 11-way bank conflict on write of shared 's'
  s[(threadIdx.x / 3) * 32 + threadIdx.x % 3] = 1.f; // lanes: q=l/3 (0..10), r=l%3: word 32q + r: banks 0,1,2: up to 11/11/10 distinct words -> 11-way
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
__global__ void ptrOffsetGlobal(const float *in, float *out, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  const float *rp = in + row * n;
  out[row * n + threadIdx.x] = rp[threadIdx.x];          // coalesced
  const float *cp = in + threadIdx.x * n;
  // CHECK-MESSAGES: :[[@LINE+1]]:33: warning: uncoalesced global read of 'in': 32 sectors per request where 4 suffice: 8x the traffic
  out[row * n + threadIdx.x] += cp[row];                 // 8x (32 sectors vs 4)
}
__global__ void halfType(const __half *h, __half *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+1]]:10: warning: uncoalesced global read of 'h': 4 sectors per request where 2 suffice: 2x the traffic
  o[i] = h[2 * i];                                        // 2-byte stride 4: 4 sectors vs 2: 2x
  // written, never read: no shared-staging-no-reuse (nvcc deletes the stores)
  __shared__ __half sh[256 * 64]; // room for lane 255 at a 64-element stride
  sh[threadIdx.x * 2] = h[i];                            // half, word-stride 1: free
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: 32-way bank conflict on write of shared 'sh'
  sh[threadIdx.x * 64] = h[i];                           // 128 bytes apart: 32-way
}
__global__ void triangular(float *out) {
  __shared__ float s[32][32];
  s[threadIdx.y][threadIdx.x] = 1.f;
  __syncthreads();
  float a = 0.f;
  for (int k = 0; k < threadIdx.x; ++k)
    // CHECK-MESSAGES: :[[@LINE+1]]:10: warning: 31-way bank conflict on read of shared 's'
    a += s[threadIdx.x][k];           // GT: k=0: lanes 1..31: 31-way
  out[threadIdx.x] = a;
}
__global__ void narrow4(const float *in, float *out, int n) {
  int x = blockIdx.x * 4 + threadIdx.x;
  int y = blockIdx.y * 64 + threadIdx.y;
  // CHECK-MESSAGES: :[[@LINE+2]]:3: warning: uncoalesced global write of 'out': 8 sectors per request where 4 suffice: 2x the traffic
  // CHECK-MESSAGES: :[[@LINE+1]]:20: warning: uncoalesced global read of 'in': 8 sectors per request where 4 suffice: 2x the traffic
  out[y * n + x] = in[y * n + x];     // GT: 8 rows x 16 B: 8 sectors vs 4: 2x (both)
}
__global__ void hostVarBlock(float *out) {
  __shared__ float s[1024];
  // CHECK-MESSAGES: :[[@LINE+3]]:3: warning: 2-way bank conflict on write of shared 's'
  // CHECK-MESSAGES: note: block (32, 1, 1) assumed: launch at line {{[0-9]+}} with block (?, 1, 1), each ? tried over plausible sizes
  // CHECK-MESSAGES: the block shape is unknown (partial launch); this holds for every plausible shape tried: (32, 1, 1), (64, 1, 1), (128, 1, 1), (256, 1, 1)
  s[threadIdx.x * 2] = 1.f;           // GT: block unknown (host param): 2-way for any block >= 32 x-dim
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
// No shared-staging-no-reuse: the addresses move with b, which is unknown.
__global__ void uniformUnknownBase(const int *perm, float *out) {
  __shared__ float s[4096];
  int b = perm[blockIdx.x];
  s[b + threadIdx.x] = 1.f;           // free whatever b
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE+2]]:22: warning: 32-way bank conflict on read of shared 's'
  // CHECK-MESSAGES: note: assumption: 'perm[blockIdx.x]' is warp-uniform, value unknown
  out[threadIdx.x] = s[b * 32 + threadIdx.x * 32]; // GT: 32-way whatever b (recall only)
}
__global__ void streamLaunch(float *out) {
  __shared__ float s[1024];
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: 4-way bank conflict on write of shared 's'
  s[threadIdx.x * 4] = 1.f;           // GT: 4-way with block 64
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
__global__ void negOffset(float *out) {
  __shared__ float s[64];
  s[threadIdx.x + 32] = 1.f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x + 31] + s[31 - threadIdx.x + 32];     // free, free
}
__global__ void whileLoop(float *out) {
  __shared__ float s[32][32];
  int k = 0;
  float a = 0.f;
  // The while loop's counter is recognized now.
  // nvcc unrolls it and reads each row as LDS.128 (analyzer/warp/FusedWords.h).
  // CHECK-MESSAGES: :[[@LINE+1]]:25: warning: 8-way bank conflict on read of shared 's'
  while (k < 32) { a += s[threadIdx.x][k]; ++k; } // GT: 8-way (eight LDS.128, quarter-warps 128 bytes apart)
  out[threadIdx.x] = a;
}
__global__ void longLong(const long long *in, long long *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+1]]:12: warning: uncoalesced global read of 'in': 32 sectors per request where 8 suffice: 4x the traffic
  out[i] = in[i * 4];                 // GT: 32 sectors vs 8: 4x
}
__global__ void oddPitch(const float *in, float *out, int n) {
  int x = blockIdx.x * 16 + threadIdx.x;
  int y = blockIdx.y * 16 + threadIdx.y;
  out[y * (n + 1) + x] = in[y * (n + 1) + x]; // GT: 2 rows of 64 B, misaligned: <= 6 sectors vs 4: not reported
}

void launchEdgeCases(float *f, __half *h, unsigned char *c, long long *l, int *p, int n, int threads, cudaStream_t st) {
  shadowed<<<1, 32>>>(f);
  reassigned<<<1, 32>>>(f);
  paramReassigned<<<n / 256, 256>>>(f, f, n);
  twoLaunches<<<1, dim3(32, 8)>>>(f);
  twoLaunches<<<1, dim3(16, 16)>>>(f);
  castTo2D<<<1, dim3(32, 32), 4096>>>(f);
  vecCast<<<1, dim3(32, 8)>>>(f);
  byteArith<<<1, 64>>>(f);
  structShared<<<1, dim3(32, 32)>>>(f);
  fileScopeShared<<<1, 32>>>(f);
  guardedLane8<<<1, 64>>>(f);
  laneStartLoop<<<1, 32>>>(f);
  divNonPow2<<<1, 32>>>(f);
  ptrOffsetGlobal<<<dim3(1, n / 8), dim3(32, 8)>>>(f, f, n);
  halfType<<<n / 256, 256>>>(h, h);
  triangular<<<1, 32>>>(f);
  narrow4<<<dim3(n / 4, n / 64), dim3(4, 64)>>>(f, f, n);
  hostVarBlock<<<n / threads, threads>>>(f);
  uniformUnknownBase<<<1, 32>>>(p, f);
  streamLaunch<<<1, 64, 0, st>>>(f);
  negOffset<<<1, 32>>>(f);
  whileLoop<<<1, 32>>>(f);
  longLong<<<n / 256, 256>>>(l, l);
  oddPitch<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(f, f, n);
}


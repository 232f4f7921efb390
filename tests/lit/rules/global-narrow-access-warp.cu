// global-narrow-access decided from the warp model, whatever the code's shape,
// with global-uncoalesced beside it: a thread's sibling accesses that fill
// each other's gaps are one narrow finding and no uncoalesced one.
// RUN: %not %warplint check %s --fail-min-gain 0 --rules global-narrow-access,global-uncoalesced --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning: --implicit-check-not='each lane' --implicit-check-not=error:
// RUN: %not %warplint check %s --fail-min-gain 0 --rules global-narrow-access --format json -o %t.json
// RUN: %FileCheck --input-file=%t.json %s --check-prefix=JSON

#include <cuda_runtime.h>

// ---- positives: one element a lane over contiguous bytes (notes) ----------

__global__ void gridStrideBytes(unsigned char *out, const unsigned char *in, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    // CHECK-MESSAGES: :[[@LINE+2]]:5: note: each lane writes one byte of 'out': a warp request carries 32 bytes where a 4-byte vector access a lane would carry 128 [global-narrow-access]
    // CHECK-MESSAGES: :[[@LINE+1]]:14: note: each lane reads one byte of 'in'
    out[i] = in[i] + 1;
}

__global__ void boolFlags(bool *next, const bool *frontier, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  // CHECK-MESSAGES: :[[@LINE+2]]:3: note: each lane writes one byte of 'next'
  // CHECK-MESSAGES: :[[@LINE+1]]:14: note: each lane reads one byte of 'frontier'
  next[i] = !frontier[i];
}

// A 1-D stencil: three reads of one pointer, one finding with the others in notes.
__global__ void byteStencil(unsigned char *out, const unsigned char *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
  // CHECK-MESSAGES: :[[@LINE+4]]:3: note: each lane writes one byte of 'out'
  // CHECK-MESSAGES: :[[@LINE+3]]:13: note: each lane reads one byte of 'in'
  // CHECK-MESSAGES: :[[@LINE+2]]:25: note: also one byte a lane: 'in[i]'
  // CHECK-MESSAGES: :[[@LINE+1]]:33: note: also one byte a lane: 'in[i + 1]'
  out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3;
}

// Two-byte elements: half the bytes a request could carry.
__global__ void pcmHalve(short *out, const short *pcm, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    // CHECK-MESSAGES: :[[@LINE+3]]:5: note: each lane writes one 2-byte element of 'out': a warp request carries 64 bytes where a 4-byte vector access a lane would carry 128
    // CHECK-MESSAGES: note: restructure (it changes the launch): give each thread two elements moved as one 4-byte vector (short2, ushort2 or __half2)
    // CHECK-MESSAGES: :[[@LINE+1]]:14: note: each lane reads one 2-byte element of 'pcm'
    out[i] = pcm[i] >> 1;
}

// ---- positives: siblings fill the gaps (one warning each) -----------------

// `i = tid * 4` and then i .. i + 3: no uncoalesced warning for each byte.
__global__ void localIndexFour(int *sum, const unsigned char *in) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int i = t * 4;
  // CHECK-MESSAGES: :[[@LINE+5]]:11: warning: each thread reads 4 bytes of 'in' one byte at a time in 4 accesses: together they cover the warp's 128 bytes contiguously, but each request carries 32 bytes where one 4-byte access a lane carries 128 [global-narrow-access]
  // CHECK-MESSAGES: note: pack them: one char4/uchar4 load a thread moves the 4 bytes instead of 4 loads, when 'in' is 4-byte aligned
  // CHECK-MESSAGES: :[[@LINE+3]]:11: note: 'in[i]' reads byte 0 of the thread's 4
  // CHECK-MESSAGES: :[[@LINE+3]]:8: note: 'in[i + 3]' reads byte 3 of the thread's 4
  // CHECK-MESSAGES: note: consecutive lanes are 4 bytes apart; block ({{[0-9]+}}, 1, 1)
  int s = in[i] + in[i + 1] + in[i + 2];
  s += in[i + 3];
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: uncoalesced global write
  sum[t * 2] = s;
}

// Interleaved RGB triples: three bytes a thread, no 3-byte vector.
__global__ void rgbToGray(unsigned char *gray, const unsigned char *rgb, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    // CHECK-MESSAGES: :[[@LINE+4]]:5: note: each lane writes one byte of 'gray'
    // CHECK-MESSAGES: :[[@LINE+3]]:16: warning: each thread reads 3 bytes of 'rgb' one byte at a time in 3 accesses: together they cover the warp's 96 bytes contiguously
    // CHECK-MESSAGES: note: no 3-byte vector type exists: give each thread 4 times as many bytes (12 bytes, moved as 4-byte or wider words), or stage the warp's 96 bytes through shared memory
    // CHECK-MESSAGES: :[[@LINE+1]]:29: note: 'rgb[3 * i + 1]' reads byte 1 of the thread's 3
    gray[i] = (rgb[3 * i] + rgb[3 * i + 1] + rgb[3 * i + 2]) / 3;
  }
}

// The same triples as a struct of three bytes.
struct Pixel {
  unsigned char r, g, b;
};
__global__ void pixelRed(unsigned char *red, const Pixel *px) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+2]]:3: note: each lane writes one byte of 'red'
  // CHECK-MESSAGES: :[[@LINE+1]]:12: warning: each thread reads 3 bytes of 'px' one byte at a time in 3 accesses
  red[i] = px[i].r / 2 + px[i].g / 4 + px[i].b / 4;
}

// A short constant loop: its iterations are the siblings.
__global__ void loopTriples(int *sum, const unsigned char *rgb) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int s = 0;
  for (int k = 0; k < 3; ++k)
    // CHECK-MESSAGES: :[[@LINE+2]]:10: warning: each thread reads 3 bytes of 'rgb' one byte at a time in 3 accesses
    // CHECK-MESSAGES: :[[@LINE+1]]:10: note: 'rgb[3 * i + k]' reads bytes 0..2 of the thread's 3 (over the iterations of the loop on 'k')
    s += rgb[3 * i + k];
  sum[i] = s;
}

// Pairs of 2-byte elements, in place: one warning for the reads and writes.
__global__ void swapPairs(short *p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+3]]:13: warning: each thread reads and writes 4 bytes of 'p' one 2-byte element at a time in 4 accesses
  // CHECK-MESSAGES: note: pack them: one short2/ushort2/__half2 load and one store a thread move the 4 bytes instead of 2 loads and 2 stores
  // CHECK-MESSAGES: measured: two-byte elements copy at {{[0-9]+}} GB/s on NVIDIA H100 80GB HBM3 against {{[0-9]+}} GB/s as int
  short a = p[2 * i];
  p[2 * i] = p[2 * i + 1];
  p[2 * i + 1] = a;
}

// The proven packing keeps its finding and fix; no uncoalesced warnings.
__global__ void bytesAThread(unsigned char *out, const unsigned char *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+3]]:3: warning: each thread moves bytes 4*i+0..3 of 'out', 'in' one byte at a time
  // CHECK-MESSAGES: note: fix (--fix): pack the bytes of 'out', 'in' into 4-byte vector accesses at index i
  // CHECK-MESSAGES: measured: one-byte elements copy at {{[0-9]+}} GB/s on NVIDIA H100 80GB HBM3 against {{[0-9]+}} GB/s as char4
  out[4 * i + 0] = in[4 * i + 0] ^ 0x80;
  out[4 * i + 1] = in[4 * i + 1] ^ 0x80;
  out[4 * i + 2] = in[4 * i + 2] ^ 0x80;
  out[4 * i + 3] = in[4 * i + 3] ^ 0x80;
}

// Through a local alias of the pointer, one statement each.
__global__ void aliasFour(unsigned char *out) {
  unsigned char *q = out + 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: each thread writes 4 bytes of 'out' one byte at a time in 4 accesses
  q[0] = 1;
  q[1] = 2;
  q[2] = 3;
  q[3] = 4;
}

// Warp-sized slices addressed by warp id and lane: one byte a lane.
__global__ void warpSlices(unsigned char *out) {
  int lane = threadIdx.x % 32, warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  // CHECK-MESSAGES: :[[@LINE+1]]:3: note: each lane writes one byte of 'out'
  out[warp * 32 + lane] = lane;
}

// ---- negatives --------------------------------------------------------------

// A few lanes of the warp: few bytes however they are moved.
__global__ void fewLanes(unsigned char *flags) {
  if (threadIdx.x < 4)
    flags[blockIdx.x * 4 + threadIdx.x] = 0;
}

// Already packed: char4/uchar4 loads and stores, and 4-byte elements.
__global__ void packed(uchar4 *out, const uchar4 *in, const unsigned char *bytes, int *words) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  uchar4 v = in[i];
  uchar4 w = reinterpret_cast<const uchar4 *>(bytes)[i];
  out[i] = make_uchar4(v.x ^ w.x, v.y, v.z, in[i].w);
  words[i] = v.x;
}
// One element a thread of a wide type through const __restrict__.
__global__ void wideRestrict(float *out, const float *__restrict__ in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
// A lane-uniform byte (a broadcast) and bytes in shared memory.
__global__ void broadcastAndShared(int *out, const unsigned char *flag, const int *in) {
  __shared__ unsigned char seen[256];
  seen[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x] > 0;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = flag[0] + seen[255 - threadIdx.x];
}
// One byte of four (the red of RGBA): the warp's bytes have gaps, a traffic
// problem only.
__global__ void redOnly(unsigned char *red, const unsigned char *rgba) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+2]]:3: note: each lane writes one byte of 'red'
  // CHECK-MESSAGES: :[[@LINE+1]]:12: warning: uncoalesced global read of 'rgba': 4 sectors per request where 1 suffices: 4x the traffic
  red[i] = rgba[4 * i];
}
// Three bytes of four: the siblings leave a gap in every lane's word.
__global__ void threeOfFour(int *sum, const unsigned char *rgba) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+3]]:12: warning: uncoalesced global read of 'rgba'
  // CHECK-MESSAGES: :[[@LINE+2]]:26: warning: uncoalesced global read of 'rgba'
  // CHECK-MESSAGES: :[[@LINE+1]]:44: warning: uncoalesced global read of 'rgba'
  sum[i] = rgba[4 * i] + rgba[4 * i + 1] + rgba[4 * i + 2];
}
// Lanes taking part depend on data: which bytes the warp moves is unknown.
__global__ void maskedClear(unsigned char *out, const int *mask) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (mask[i] != 0)
    out[i] = 0;
}
// A block of 16x16: each warp moves two runs of 16 bytes, not one.
__global__ void tile16(unsigned char *out, const unsigned char *in, int n) {
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  out[y * n + x] = in[y * n + x];
}
// A per-thread row of 32 bytes: even packed, the lanes stay 32 bytes apart;
// the traffic is global-uncoalesced's to report.
__global__ void byteRows(int *sum, const unsigned char *rows) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int s = 0;
  for (int k = 0; k < 32; ++k)
    // CHECK-MESSAGES: :[[@LINE+1]]:10: warning: uncoalesced global read of 'rows': 32 sectors per request where 1 suffices
    s += rows[32 * i + k];
  sum[i] = s;
}
// Siblings in different branches never run together.
__global__ void splitBranches(unsigned char *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x % 2 == 0)
    out[2 * i] = 1;
  else
    out[2 * i + 1] = 2;
}

int main() {
  unsigned char *a, *b;
  cudaMalloc(&a, 1 << 20);
  cudaMalloc(&b, 1 << 20);
  bytesAThread<<<256, 256>>>(b, a);
  tile16<<<dim3(64, 64), dim3(16, 16)>>>(b, b, 1024);
  return 0;
}

// JSON: "rule": "global-narrow-access"
// JSON: "narrow_group": {
// JSON: "lane_stride_bytes": 1,

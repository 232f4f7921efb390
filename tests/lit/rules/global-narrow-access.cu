// RUN: %not %warplint check %s --rules global-narrow-access --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not='each thread moves' --implicit-check-not='each lane'

#include <cuda_runtime.h>

// ---- positives ---------------------------------------------------------

__global__ void bytesAThread(unsigned char *out, const unsigned char *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+2]]:3: warning: each thread moves bytes 4*i+0..3 of 'out', 'in' one byte at a time: one 4-byte vector access per pointer moves them in 1/4 of the instructions and requests [global-narrow-access]
  // CHECK-MESSAGES: note: fix (--fix): pack the bytes of 'out', 'in' into 4-byte vector accesses at index i
  out[4 * i + 0] = in[4 * i + 0] ^ 0x80;
  out[4 * i + 1] = in[4 * i + 1] ^ 0x80;
  out[4 * i + 2] = in[4 * i + 2] ^ 0x80;
  out[4 * i + 3] = in[4 * i + 3] ^ 0x80;
}

// Only reads: still packed (no store).
__global__ void checksum(int *sum, const signed char *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+2]]:11: warning: each thread moves bytes 4*i+0..3 of 'in' one byte at a time
  // CHECK-MESSAGES: note: no packing fix: the statements also write other memory
  int s = in[4 * i];
  s += in[4 * i + 1];
  s += in[4 * i + 2];
  sum[i] = s + in[4 * i + 3];
}

// One byte a lane: a note, with the restructured kernel.
__global__ void byteALane(unsigned char *out, const unsigned char *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+4]]:5: note: each lane writes one byte of 'out': a warp request carries 32 bytes where a 4-byte vector access a lane would carry 128 [global-narrow-access]
  // CHECK-MESSAGES: note: restructure (it changes the launch, so --fix applies it only with --fix-launch): give each thread 4 bytes
  // CHECK-MESSAGES: :[[@LINE+2]]:14: note: each lane reads one byte of 'in'
  if (i < n)
    out[i] = in[i] + 1;
}

// Flag arrays: bool has no vector type, but the bytes are as narrow (no rewrite).
__global__ void boolFlags(bool *out, const bool *in) {
  // CHECK-MESSAGES: :[[@LINE+2]]:3: note: each lane writes one byte of 'out'
  // CHECK-MESSAGES: :[[@LINE+1]]:23: note: each lane reads one byte of 'in'
  out[threadIdx.x] = !in[threadIdx.x];
}

// ---- negatives -------------------------------------------------------------

__global__ void alreadyVector(uchar4 *out, const uchar4 *in) { out[threadIdx.x] = in[threadIdx.x]; }
__global__ void wideElements(int *out, const int *in) { out[threadIdx.x] = in[threadIdx.x]; }
__global__ void broadcastByte(unsigned char *out, const unsigned char *flag) { out[4 * threadIdx.x] = flag[0]; }
__global__ void threeBytes(unsigned char *out, const unsigned char *in) {
  int i = threadIdx.x;
  out[4 * i + 0] = in[4 * i + 0];
  out[4 * i + 1] = in[4 * i + 1];
  out[4 * i + 2] = in[4 * i + 2];
}

int main() {
  unsigned char *a, *b;
  signed char *s;
  int *sum;
  cudaMalloc(&a, 1 << 20);
  cudaMalloc(&b, 1 << 20);
  cudaMalloc(&s, 1 << 20);
  cudaMalloc(&sum, 1 << 20);
  bytesAThread<<<256, 256>>>(b, a);
  checksum<<<256, 256>>>(sum, s);
  return 0;
}

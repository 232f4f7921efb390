// char4 packing by global-narrow-access: four one-byte accesses a thread to
// bytes 4*E+0..3 become one uchar4/char4 access, sixteen to bytes 16*E+0..15
// (unrolled or a loop) one uint4 access, when the alignment is shown; refused
// with the reason otherwise.
// RUN: grep -v CHECK- %s > %t.cu
// RUN: %not %warplint check %t.cu --rules global-narrow-access --fix --color=never > %t.log 2>&1
// RUN: %FileCheck --input-file=%t.cu %s --check-prefix=CHECK-FIXES
// RUN: %FileCheck --input-file=%t.log %s --check-prefix=CHECK-LOG
// RUN: cp %t.cu %t.again.cu
// RUN: %not %warplint check %t.again.cu --rules global-narrow-access --fix --color=never
// RUN: diff %t.cu %t.again.cu

#include <cuda_runtime.h>

__device__ unsigned char halve(unsigned char v) { return v / 2; }

__global__ void brighten(unsigned char *out, const unsigned char *in, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    out[4 * i + 0] = halve(in[4 * i + 0]);
    out[4 * i + 1] = halve(in[4 * i + 1]);
    out[4 * i + 2] = halve(in[4 * i + 2]);
    out[4 * i + 3] = halve(in[4 * i + 3]);
  }
}
// CHECK-FIXES:      {{^}}  if (i < n4) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}    uchar4 out4;{{$}}
// CHECK-FIXES-NEXT: {{^}}    uchar4 in4 = reinterpret_cast<const uchar4 *>(in)[i];{{$}}
// CHECK-FIXES-NEXT: {{^}}    out4.x = halve(in4.x);{{$}}
// CHECK-FIXES-NEXT: {{^}}    out4.y = halve(in4.y);{{$}}
// CHECK-FIXES-NEXT: {{^}}    out4.z = halve(in4.z);{{$}}
// CHECK-FIXES-NEXT: {{^}}    out4.w = halve(in4.w);{{$}}
// CHECK-FIXES-NEXT: {{^}}    reinterpret_cast<uchar4 *>(out)[i] = out4;{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-LOG: warning: each thread moves bytes 4*i+0..3 of 'out', 'in' one byte at a time

// In place, signed bytes, the index in the other operand order.
__global__ void negate(signed char *p, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i * 4] = -p[i * 4];
  p[i * 4 + 1] = -p[i * 4 + 1];
  p[i * 4 + 2] = -p[i * 4 + 2];
  p[i * 4 + 3] = -p[i * 4 + 3];
}
// CHECK-FIXES:      {{^}}  char4 p4 = reinterpret_cast<const char4 *>(p)[i];{{$}}
// CHECK-FIXES-NEXT: {{^}}  p4.x = -p4.x;{{$}}
// CHECK-FIXES:      {{^}}  reinterpret_cast<char4 *>(p)[i] = p4;{{$}}

// A short constant loop over 16 bytes: one uint4 per pointer, the loop kept
// over a byte view of it.
__global__ void xorBytes(unsigned char *out, const unsigned char *in, unsigned char key) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 16; ++k)
    out[16 * i + k] = in[16 * i + k] ^ key;
}
// CHECK-FIXES:      {{^}}  uint4 out_v;{{$}}
// CHECK-FIXES-NEXT: {{^}}  unsigned char *out_b = reinterpret_cast<unsigned char *>(&out_v);{{$}}
// CHECK-FIXES-NEXT: {{^}}  uint4 in_v = reinterpret_cast<const uint4 *>(in)[i];{{$}}
// CHECK-FIXES-NEXT: {{^}}  const unsigned char *in_b = reinterpret_cast<const unsigned char *>(&in_v);{{$}}
// CHECK-FIXES-NEXT: {{^}}  for (int k = 0; k < 16; ++k){{$}}
// CHECK-FIXES-NEXT: {{^}}    out_b[k] = in_b[k] ^ key;{{$}}
// CHECK-FIXES-NEXT: {{^}}  reinterpret_cast<uint4 *>(out)[i] = out_v;{{$}}
// CHECK-LOG: warning: each thread moves bytes 16*i+0..15 of 'out', 'in' one byte at a time (a loop over 'k')

// Sixteen unrolled statements over bytes 16*i+0..15: one uint4 per pointer,
// the statements indexing a byte view of it, as the loop above.
__global__ void mask16(unsigned char *out, const unsigned char *in, unsigned char key) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[16 * i + 0] = in[16 * i + 0] ^ key;
  out[16 * i + 1] = in[16 * i + 1] ^ key;
  out[16 * i + 2] = in[16 * i + 2] ^ key;
  out[16 * i + 3] = in[16 * i + 3] ^ key;
  out[16 * i + 4] = in[16 * i + 4] ^ key;
  out[16 * i + 5] = in[16 * i + 5] ^ key;
  out[16 * i + 6] = in[16 * i + 6] ^ key;
  out[16 * i + 7] = in[16 * i + 7] ^ key;
  out[16 * i + 8] = in[16 * i + 8] ^ key;
  out[16 * i + 9] = in[16 * i + 9] ^ key;
  out[16 * i + 10] = in[16 * i + 10] ^ key;
  out[16 * i + 11] = in[16 * i + 11] ^ key;
  out[16 * i + 12] = in[16 * i + 12] ^ key;
  out[16 * i + 13] = in[16 * i + 13] ^ key;
  out[16 * i + 14] = in[16 * i + 14] ^ key;
  out[16 * i + 15] = in[16 * i + 15] ^ key;
}
// CHECK-FIXES:      {{^}}__global__ void mask16(
// CHECK-FIXES-NEXT: {{^}}  int i = blockIdx.x * blockDim.x + threadIdx.x;{{$}}
// CHECK-FIXES-NEXT: {{^}}  uint4 out_v;{{$}}
// CHECK-FIXES-NEXT: {{^}}  unsigned char *out_b = reinterpret_cast<unsigned char *>(&out_v);{{$}}
// CHECK-FIXES-NEXT: {{^}}  uint4 in_v = reinterpret_cast<const uint4 *>(in)[i];{{$}}
// CHECK-FIXES-NEXT: {{^}}  const unsigned char *in_b = reinterpret_cast<const unsigned char *>(&in_v);{{$}}
// CHECK-FIXES-NEXT: {{^}}  out_b[0] = in_b[0] ^ key;{{$}}
// CHECK-FIXES-NEXT: {{^}}  out_b[1] = in_b[1] ^ key;{{$}}
// CHECK-FIXES-NEXT: {{^}}  out_b[2] = in_b[2] ^ key;{{$}}
// CHECK-FIXES-NEXT: {{^}}  out_b[3] = in_b[3] ^ key;{{$}}
// CHECK-FIXES-NEXT: {{^}}  out_b[4] = in_b[4] ^ key;{{$}}
// CHECK-FIXES-NEXT: {{^}}  out_b[5] = in_b[5] ^ key;{{$}}
// CHECK-FIXES-NEXT: {{^}}  out_b[6] = in_b[6] ^ key;{{$}}
// CHECK-FIXES-NEXT: {{^}}  out_b[7] = in_b[7] ^ key;{{$}}
// CHECK-FIXES-NEXT: {{^}}  out_b[8] = in_b[8] ^ key;{{$}}
// CHECK-FIXES-NEXT: {{^}}  out_b[9] = in_b[9] ^ key;{{$}}
// CHECK-FIXES-NEXT: {{^}}  out_b[10] = in_b[10] ^ key;{{$}}
// CHECK-FIXES-NEXT: {{^}}  out_b[11] = in_b[11] ^ key;{{$}}
// CHECK-FIXES-NEXT: {{^}}  out_b[12] = in_b[12] ^ key;{{$}}
// CHECK-FIXES-NEXT: {{^}}  out_b[13] = in_b[13] ^ key;{{$}}
// CHECK-FIXES-NEXT: {{^}}  out_b[14] = in_b[14] ^ key;{{$}}
// CHECK-FIXES-NEXT: {{^}}  out_b[15] = in_b[15] ^ key;{{$}}
// CHECK-FIXES-NEXT: {{^}}  reinterpret_cast<uint4 *>(out)[i] = out_v;{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}
// CHECK-LOG: warning: each thread moves bytes 16*i+0..15 of 'out', 'in' one byte at a time: one 16-byte vector access per pointer
// CHECK-LOG: note: fix (--fix): pack the bytes of 'out', 'in' into 16-byte vector accesses at index i; alignment shown

// A loop that may stop early writes only some bytes: refused.
__global__ void untilZero(unsigned char *out, const unsigned char *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 4; ++k) {
    if (in[4 * i + k] == 0)
      break;
    out[4 * i + k] = in[4 * i + k];
  }
  // CHECK-FIXES: {{^}}    out[4 * i + k] = in[4 * i + k];{{$}}
}
// CHECK-LOG: note: no packing fix: the loop may leave early (break, continue, return or goto)

// ---- refusals and negatives ------------------------------------------------

// No launch visible: alignment not shown.
__global__ void noLaunch(unsigned char *out, const unsigned char *in) {
  int i = threadIdx.x;
  out[4 * i + 0] = in[4 * i + 0];
  // CHECK-FIXES: {{^}}  out[4 * i + 0] = in[4 * i + 0];{{$}}
  out[4 * i + 1] = in[4 * i + 1];
  out[4 * i + 2] = in[4 * i + 2];
  out[4 * i + 3] = in[4 * i + 3];
}
// CHECK-LOG: note: no packing fix: alignment not shown: no launch of 'noLaunch' is visible

// The launch passes an offset pointer: alignment not shown.
__global__ void offsetBase(unsigned char *out, const unsigned char *in) {
  int i = threadIdx.x;
  out[4 * i + 0] = in[4 * i + 0];
  // CHECK-FIXES: {{^}}  out[4 * i + 0] = in[4 * i + 0];{{$}}
  out[4 * i + 1] = in[4 * i + 1];
  out[4 * i + 2] = in[4 * i + 2];
  out[4 * i + 3] = in[4 * i + 3];
}
// CHECK-LOG: note: no packing fix: alignment not shown: the launch at line {{[0-9]+}} passes 'out' something other than a variable holding its own cudaMalloc allocation

// Only three bytes: not a 4-byte pattern.
__global__ void threeBytes(unsigned char *out, const unsigned char *in) {
  int i = threadIdx.x;
  out[4 * i + 0] = in[4 * i + 0];
  // CHECK-FIXES: {{^}}  out[4 * i + 0] = in[4 * i + 0];{{$}}
  out[4 * i + 1] = in[4 * i + 1];
  out[4 * i + 2] = in[4 * i + 2];
}

// Another store in between: refused.
__global__ void otherStore(unsigned char *out, const unsigned char *in, int *count) {
  int i = threadIdx.x;
  out[4 * i + 0] = in[4 * i + 0];
  // CHECK-FIXES: {{^}}  out[4 * i + 0] = in[4 * i + 0];{{$}}
  out[4 * i + 1] = in[4 * i + 1];
  out[4 * i + 2] = (*count = in[4 * i + 2]);
  out[4 * i + 3] = in[4 * i + 3];
}
// CHECK-LOG: note: no packing fix: {{.*}}

// Sixteen statements that read byte 0 of 'in' twice: refused.
__global__ void readTwice16(unsigned char *out, const unsigned char *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[16 * i + 0] = in[16 * i + 0];
  // CHECK-FIXES: {{^}}  out[16 * i + 0] = in[16 * i + 0];{{$}}
  out[16 * i + 1] = in[16 * i + 1] + in[16 * i + 0];
  // CHECK-FIXES: {{^}}  out[16 * i + 1] = in[16 * i + 1] + in[16 * i + 0];{{$}}
  out[16 * i + 2] = in[16 * i + 2];
  out[16 * i + 3] = in[16 * i + 3];
  out[16 * i + 4] = in[16 * i + 4];
  out[16 * i + 5] = in[16 * i + 5];
  out[16 * i + 6] = in[16 * i + 6];
  out[16 * i + 7] = in[16 * i + 7];
  out[16 * i + 8] = in[16 * i + 8];
  out[16 * i + 9] = in[16 * i + 9];
  out[16 * i + 10] = in[16 * i + 10];
  out[16 * i + 11] = in[16 * i + 11];
  out[16 * i + 12] = in[16 * i + 12];
  out[16 * i + 13] = in[16 * i + 13];
  out[16 * i + 14] = in[16 * i + 14];
  out[16 * i + 15] = in[16 * i + 15];
}
// CHECK-LOG: note: no packing fix: byte 0 of 'in' is read twice

// Sixteen statements that leave byte 15 of 'in' unread: refused.
__global__ void missing16(unsigned char *out, const unsigned char *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[16 * i + 0] = in[16 * i + 0];
  out[16 * i + 1] = in[16 * i + 1];
  out[16 * i + 2] = in[16 * i + 2];
  out[16 * i + 3] = in[16 * i + 3];
  out[16 * i + 4] = in[16 * i + 4];
  out[16 * i + 5] = in[16 * i + 5];
  out[16 * i + 6] = in[16 * i + 6];
  out[16 * i + 7] = in[16 * i + 7];
  out[16 * i + 8] = in[16 * i + 8];
  out[16 * i + 9] = in[16 * i + 9];
  out[16 * i + 10] = in[16 * i + 10];
  out[16 * i + 11] = in[16 * i + 11];
  out[16 * i + 12] = in[16 * i + 12];
  out[16 * i + 13] = in[16 * i + 13];
  out[16 * i + 14] = in[16 * i + 14];
  out[16 * i + 15] = 0;
  // CHECK-FIXES: {{^}}  out[16 * i + 15] = 0;{{$}}
}
// CHECK-LOG: note: no packing fix: only 15 of the 16 bytes of 'in' are read

// Already vectorized: nothing to do.
__global__ void alreadyVector(uchar4 *out, const uchar4 *in) { out[threadIdx.x] = in[threadIdx.x]; }

// A 16-iteration loop whose byte read is indexed by another loop's variable
// (a band-interleaved gather, seed 000's MNF transformation): no window to
// pack. This once crashed the rule (a window with no pointer group).
__global__ void bandGather(const unsigned char *X, float *Z, int S) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  for (int c = 0; c < 4; ++c) {
    float z = 0.f;
    for (int b = 0; b < 16; ++b)
      z += X[size_t(b) * S + p];
    Z[size_t(c) * S + p] = z;
  }
}

int main() {
  unsigned char *a, *b, *c;
  signed char *s;
  int *k;
  cudaMalloc(&a, 1 << 20);
  cudaMalloc(&b, 1 << 20);
  cudaMalloc(&c, 1 << 20);
  cudaMalloc(&s, 1 << 20);
  cudaMalloc(&k, 4);
  brighten<<<1024, 256>>>(b, a, 1 << 18);
  negate<<<1024, 256>>>(s, 1 << 18);
  xorBytes<<<256, 256>>>(b, a, 7);
  mask16<<<256, 256>>>(b, a, 7);
  untilZero<<<256, 256>>>(b, a);
  offsetBase<<<1, 256>>>(c + 1, a);
  otherStore<<<1, 256>>>(c, a, k);
  readTwice16<<<256, 256>>>(b, a);
  missing16<<<256, 256>>>(b, a);
  bandGather<<<1, 256>>>(a, (float *)c, 4096);
  return 0;
}

// char4 packing from the kernel model (issue 19, item 4): a thread's bytes
// reached through a local index or a grid-stride loop variable (`out[i]` ..
// `out[i + 3]`) are packed when the model proves, for every thread, that the
// lowest byte's index I is a multiple of 4 moving by 4 from lane to lane and
// the others are I+1..I+3; the vector index is I / 4. Refused, or left to the
// diagnosis, otherwise.
// RUN: grep -v CHECK- %s > %t.cu
// RUN: %not %warplint check %t.cu --rules global-narrow-access --fail-min-gain 0 --fix --color=never > %t.log 2>&1
// RUN: %FileCheck --input-file=%t.cu %s --check-prefix=CHECK-FIXES
// RUN: %FileCheck --input-file=%t.log %s --check-prefix=CHECK-LOG
// RUN: cp %t.cu %t.again.cu
// RUN: %not %warplint check %t.again.cu --rules global-narrow-access --fail-min-gain 0 --fix --color=never
// RUN: diff %t.cu %t.again.cu

#include <cuda_runtime.h>

// The issue's kernel: four bytes a thread through a local index.
__global__ void brightenLocal(unsigned char *out, const unsigned char *in, int n) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i + 3 < n) {
    out[i] = in[i] / 2;
    out[i + 1] = in[i + 1] / 2;
    out[i + 2] = in[i + 2] / 2;
    out[i + 3] = in[i + 3] / 2;
  }
}
// CHECK-FIXES:      {{^}}  if (i + 3 < n) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}    uchar4 out4;{{$}}
// CHECK-FIXES-NEXT: {{^}}    uchar4 in4 = reinterpret_cast<const uchar4 *>(in)[i / 4];{{$}}
// CHECK-FIXES-NEXT: {{^}}    out4.x = in4.x / 2;{{$}}
// CHECK-FIXES-NEXT: {{^}}    out4.y = in4.y / 2;{{$}}
// CHECK-FIXES-NEXT: {{^}}    out4.z = in4.z / 2;{{$}}
// CHECK-FIXES-NEXT: {{^}}    out4.w = in4.w / 2;{{$}}
// CHECK-FIXES-NEXT: {{^}}    reinterpret_cast<uchar4 *>(out)[i / 4] = out4;{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-LOG: warning: each thread moves bytes i+0..3 of 'out', 'in' one byte at a time: one 4-byte vector access per pointer
// CHECK-LOG: note: fix (--fix): pack the bytes of 'out', 'in' into 4-byte vector accesses at index i / 4; alignment shown: every launch passes cudaMalloc allocations (256-byte aligned) and the index is i, which the kernel model proves a multiple of 4 for every thread

// A grid-stride loop over the image, in place: the loop variable is
// 4*(global thread index) + k*4*(threads in the grid).
__global__ void invertStride(unsigned char *img, int n) {
  for (int j = 4 * (blockIdx.x * blockDim.x + threadIdx.x); j < n; j += 4 * blockDim.x * gridDim.x) {
    img[j] = 255 - img[j];
    img[j + 1] = 255 - img[j + 1];
    img[j + 2] = 255 - img[j + 2];
    img[j + 3] = 255 - img[j + 3];
  }
}
// CHECK-FIXES:      {{^}}  for (int j = 4 * (blockIdx.x * blockDim.x + threadIdx.x); j < n; j += 4 * blockDim.x * gridDim.x) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}    uchar4 img4 = reinterpret_cast<const uchar4 *>(img)[j / 4];{{$}}
// CHECK-FIXES-NEXT: {{^}}    img4.x = 255 - img4.x;{{$}}
// CHECK-FIXES-NEXT: {{^}}    img4.y = 255 - img4.y;{{$}}
// CHECK-FIXES-NEXT: {{^}}    img4.z = 255 - img4.z;{{$}}
// CHECK-FIXES-NEXT: {{^}}    img4.w = 255 - img4.w;{{$}}
// CHECK-FIXES-NEXT: {{^}}    reinterpret_cast<uchar4 *>(img)[j / 4] = img4;{{$}}
// CHECK-LOG: warning: each thread moves bytes j+0..3 of 'img' one byte at a time

// Reads only, signed bytes, the index a shift: one char4 load.
__global__ void weighSum(const signed char *in, int *sums) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int p = t << 2;
  signed char a = in[p];
  signed char b = in[p + 1];
  signed char c = in[p + 2];
  signed char d = in[p + 3];
  sums[t] = a + 2 * b + 3 * c + 4 * d;
}
// CHECK-FIXES:      {{^}}  int p = t << 2;{{$}}
// CHECK-FIXES-NEXT: {{^}}  char4 in4 = reinterpret_cast<const char4 *>(in)[p / 4];{{$}}
// CHECK-FIXES-NEXT: {{^}}  signed char a = in4.x;{{$}}
// CHECK-FIXES-NEXT: {{^}}  signed char b = in4.y;{{$}}
// CHECK-FIXES-NEXT: {{^}}  signed char c = in4.z;{{$}}
// CHECK-FIXES-NEXT: {{^}}  signed char d = in4.w;{{$}}
// CHECK-FIXES-NEXT: {{^}}  sums[t] = a + 2 * b + 3 * c + 4 * d;{{$}}

// Writes only, the bytes in another order, the index an expression: the
// vector index is (I) / 4 of the lowest byte's index as written.
__global__ void fillPattern(unsigned char *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[4 * t + 2] = 0x33;
  out[4 * t + 3] = 0x44;
  out[(t << 2) + 1] = 0x22;
  out[t * 4] = 0x11;
}
// CHECK-FIXES:      {{^}}  uchar4 out4;{{$}}
// CHECK-FIXES-NEXT: {{^}}  out4.z = 0x33;{{$}}
// CHECK-FIXES-NEXT: {{^}}  out4.w = 0x44;{{$}}
// CHECK-FIXES-NEXT: {{^}}  out4.y = 0x22;{{$}}
// CHECK-FIXES-NEXT: {{^}}  out4.x = 0x11;{{$}}
// CHECK-FIXES-NEXT: {{^}}  reinterpret_cast<uchar4 *>(out)[(t * 4) / 4] = out4;{{$}}

// Sixteen bytes a thread through a local: one uint4 per pointer.
__global__ void copy16(unsigned char *out, const unsigned char *in) {
  int s = 16 * (blockIdx.x * blockDim.x + threadIdx.x);
  out[s] = in[s];
  out[s + 1] = in[s + 1];
  out[s + 2] = in[s + 2];
  out[s + 3] = in[s + 3];
  out[s + 4] = in[s + 4];
  out[s + 5] = in[s + 5];
  out[s + 6] = in[s + 6];
  out[s + 7] = in[s + 7];
  out[s + 8] = in[s + 8];
  out[s + 9] = in[s + 9];
  out[s + 10] = in[s + 10];
  out[s + 11] = in[s + 11];
  out[s + 12] = in[s + 12];
  out[s + 13] = in[s + 13];
  out[s + 14] = in[s + 14];
  out[s + 15] = in[s + 15];
}
// CHECK-FIXES:      {{^}}  int s = 16 * (blockIdx.x * blockDim.x + threadIdx.x);{{$}}
// CHECK-FIXES-NEXT: {{^}}  uint4 out_v;{{$}}
// CHECK-FIXES-NEXT: {{^}}  unsigned char *out_b = reinterpret_cast<unsigned char *>(&out_v);{{$}}
// CHECK-FIXES-NEXT: {{^}}  uint4 in_v = reinterpret_cast<const uint4 *>(in)[s / 16];{{$}}
// CHECK-FIXES-NEXT: {{^}}  const unsigned char *in_b = reinterpret_cast<const unsigned char *>(&in_v);{{$}}
// CHECK-FIXES-NEXT: {{^}}  out_b[0] = in_b[0];{{$}}
// CHECK-FIXES:      {{^}}  out_b[15] = in_b[15];{{$}}
// CHECK-FIXES-NEXT: {{^}}  reinterpret_cast<uint4 *>(out)[s / 16] = out_v;{{$}}

// A constant loop over the bytes of a local index: the loop is kept, over a
// byte view of one vector per pointer.
__global__ void xorLocal(unsigned char *out, const unsigned char *in, unsigned char key) {
  int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  for (int k = 0; k < 4; ++k)
    out[i + k] = in[i + k] ^ key;
}
// CHECK-FIXES:      {{^}}  int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x);{{$}}
// CHECK-FIXES-NEXT: {{^}}  uchar4 out_v;{{$}}
// CHECK-FIXES-NEXT: {{^}}  unsigned char *out_b = reinterpret_cast<unsigned char *>(&out_v);{{$}}
// CHECK-FIXES-NEXT: {{^}}  uchar4 in_v = reinterpret_cast<const uchar4 *>(in)[i / 4];{{$}}
// CHECK-FIXES-NEXT: {{^}}  const unsigned char *in_b = reinterpret_cast<const unsigned char *>(&in_v);{{$}}
// CHECK-FIXES-NEXT: {{^}}  for (int k = 0; k < 4; ++k){{$}}
// CHECK-FIXES-NEXT: {{^}}    out_b[k] = in_b[k] ^ key;{{$}}
// CHECK-FIXES-NEXT: {{^}}  reinterpret_cast<uchar4 *>(out)[i / 4] = out_v;{{$}}
// CHECK-LOG: warning: each thread moves bytes i+0..3 of 'out', 'in' one byte at a time (a loop over 'k')

// ---- refusals and negatives ------------------------------------------------

// I = 4*t + 1: not a multiple of 4, so (I) / 4 would not be exact and the
// uchar4 access would be misaligned. Diagnosed, not packed.
__global__ void offByOne(unsigned char *out, const unsigned char *in) {
  int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x) + 1;
  out[i] = in[i];
  // CHECK-FIXES: {{^}}  out[i] = in[i];{{$}}
  out[i + 1] = in[i + 1];
  out[i + 2] = in[i + 2];
  out[i + 3] = in[i + 3];
}

// I = 4*t + base with a run-time base: not provably a multiple of 4.
__global__ void runtimeBase(unsigned char *out, const unsigned char *in, int base) {
  int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x) + base;
  out[i] = in[i];
  // CHECK-FIXES: {{^}}  out[i] = in[i];{{$}}
  out[i + 1] = in[i + 1];
  out[i + 2] = in[i + 2];
  out[i + 3] = in[i + 3];
}

// The launch passes an offset pointer: the bytes are proven, the alignment
// of the base is not.
__global__ void unknownBase(unsigned char *out, const unsigned char *in) {
  int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  out[i] = in[i];
  // CHECK-FIXES: {{^}}  out[i] = in[i];{{$}}
  out[i + 1] = in[i + 1];
  out[i + 2] = in[i + 2];
  out[i + 3] = in[i + 3];
}
// CHECK-LOG: note: no packing fix: alignment not shown: the launch at line {{[0-9]+}} passes 'out' something other than a variable holding its own cudaMalloc allocation

// The loop form over I + k with I = 4*t + 2: not packed.
__global__ void loopOffByTwo(unsigned char *out, const unsigned char *in) {
  int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x) + 2;
  for (int k = 0; k < 4; ++k)
    out[i + k] = in[i + k];
  // CHECK-FIXES: {{^}}    out[i + k] = in[i + k];{{$}}
}

// Offsets 0, 1, 2, 5: not the bytes I+0..3.
__global__ void gapBytes(unsigned char *out, const unsigned char *in) {
  int i = 8 * (blockIdx.x * blockDim.x + threadIdx.x);
  out[i] = in[i];
  // CHECK-FIXES: {{^}}  out[i] = in[i];{{$}}
  out[i + 1] = in[i + 1];
  out[i + 2] = in[i + 2];
  out[i + 5] = in[i + 5];
}

// bool flags have no byte vector type: diagnosed only.
__global__ void flags(bool *f) {
  int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  f[i] = true;
  // CHECK-FIXES: {{^}}  f[i] = true;{{$}}
  f[i + 1] = false;
  f[i + 2] = true;
  f[i + 3] = false;
}

// A write through an alias of 'out' between the accesses: refused.
__global__ void aliasWrite(unsigned char *out, const unsigned char *in) {
  unsigned char *alias = out;
  int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  out[i] = in[i];
  // CHECK-FIXES: {{^}}  out[i] = in[i];{{$}}
  out[i + 1] = (alias[i + 1] = in[i + 1]);
  out[i + 2] = in[i + 2];
  out[i + 3] = in[i + 3];
}
// CHECK-LOG: note: no packing fix: the statements also write other memory

// A read of other memory while the stores move after the statements: the
// table could be the output, refused.
__global__ void otherRead(unsigned char *out, const unsigned char *in, const int *table) {
  int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  out[i] = in[i];
  // CHECK-FIXES: {{^}}  out[i] = in[i];{{$}}
  out[i + 1] = in[i + 1] + table[0];
  out[i + 2] = in[i + 2];
  out[i + 3] = in[i + 3];
}
// CHECK-LOG: note: no packing fix: the statements also read memory other than the packed bytes, which the stores moved after them could change

// The index variable changes between the accesses: refused.
__global__ void movingIndex(unsigned char *out, const unsigned char *in) {
  int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  int j = i;
  out[i] = in[j++];
  // CHECK-FIXES: {{^}}  out[i] = in[j++];{{$}}
  out[i + 1] = in[j++];
  out[i + 2] = in[j++];
  out[i + 3] = in[j++];
}

// The pointer itself moves in the kernel: the model's offsets are from its
// value at entry, the index from its value here. Not packed.
__global__ void movedPointer(unsigned char *out, const unsigned char *in) {
  out += 1;
  int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x) + 3;
  out[i] = in[i + 1];
  // CHECK-FIXES: {{^}}  out[i] = in[i + 1];{{$}}
  out[i + 1] = in[i + 2];
  out[i + 2] = in[i + 3];
  out[i + 3] = in[i + 4];
}

int main() {
  unsigned char *a, *b, *c;
  signed char *s;
  int *k;
  bool *f;
  cudaMalloc(&a, 1 << 24);
  cudaMalloc(&b, 1 << 24);
  cudaMalloc(&c, 1 << 24);
  cudaMalloc(&s, 1 << 24);
  cudaMalloc(&k, 1 << 22);
  cudaMalloc(&f, 1 << 24);
  brightenLocal<<<1024, 256>>>(b, a, 1 << 20);
  invertStride<<<128, 256>>>(c, 1 << 20);
  weighSum<<<1024, 256>>>(s, k);
  fillPattern<<<1024, 256>>>(b);
  copy16<<<256, 256>>>(b, a);
  xorLocal<<<256, 256>>>(b, a, 7);
  loopOffByTwo<<<256, 256>>>(b, a);
  offByOne<<<256, 256>>>(b, a);
  runtimeBase<<<256, 256>>>(b, a, 3);
  unknownBase<<<256, 256>>>(c + 1, a);
  gapBytes<<<256, 256>>>(b, a);
  flags<<<256, 256>>>(f);
  aliasWrite<<<256, 256>>>(b, a);
  otherRead<<<256, 256>>>(b, a, k);
  movingIndex<<<256, 256>>>(b, a);
  movedPointer<<<256, 256>>>(b, a);
  return 0;
}

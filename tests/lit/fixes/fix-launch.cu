// --fix-launch: the one-byte-a-lane kernel becomes four bytes a thread (one
// uchar4 access per pointer, a scalar tail) and its launch a quarter of the
// blocks. Without the option the fix is reported, not applied.
// RUN: grep -v CHECK- %s > %t.cu
// RUN: %not %warplint check %t.cu --rules global-narrow-access --fix --color=never > %t.plain.log 2>&1
// RUN: %FileCheck --input-file=%t.plain.log %s --check-prefix=CHECK-PLAIN
// RUN: grep -v CHECK- %s | diff - %t.cu
// RUN: %not %warplint check %t.cu --rules global-narrow-access --fix --fix-launch --color=never > %t.log 2>&1
// RUN: %FileCheck --input-file=%t.cu %s --check-prefix=CHECK-FIXES
// RUN: %FileCheck --input-file=%t.log %s --check-prefix=CHECK-LOG
// RUN: cp %t.cu %t.again.cu
// RUN: %not %warplint check %t.again.cu --rules global-narrow-access --fix --fix-launch --color=never
// RUN: diff %t.cu %t.again.cu

#include <cuda_runtime.h>

__device__ unsigned char curve(unsigned char v) { return v > 200 ? 255 : v + 55; }

__global__ void lighten(unsigned char *out, const unsigned char *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = curve(in[i]) ^ (unsigned char)(i & 1);
}
// CHECK-FIXES:      {{^}}  if (4 * i + 3 < n) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}    uchar4 out4;{{$}}
// CHECK-FIXES-NEXT: {{^}}    uchar4 in4 = reinterpret_cast<const uchar4 *>(in)[i];{{$}}
// CHECK-FIXES-NEXT: {{^}}    out4.x = curve(in4.x) ^ (unsigned char)((4 * i + 0) & 1);{{$}}
// CHECK-FIXES-NEXT: {{^}}    out4.y = curve(in4.y) ^ (unsigned char)((4 * i + 1) & 1);{{$}}
// CHECK-FIXES-NEXT: {{^}}    out4.z = curve(in4.z) ^ (unsigned char)((4 * i + 2) & 1);{{$}}
// CHECK-FIXES-NEXT: {{^}}    out4.w = curve(in4.w) ^ (unsigned char)((4 * i + 3) & 1);{{$}}
// CHECK-FIXES-NEXT: {{^}}    reinterpret_cast<uchar4 *>(out)[i] = out4;{{$}}
// CHECK-FIXES-NEXT: {{^}}  } else {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}    for (int tail = 4 * i; tail < n; ++tail){{$}}
// CHECK-FIXES-NEXT: {{^}}      out[tail] = curve(in[tail]) ^ (unsigned char)(tail & 1);{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}

// In place; the grid is a dim3: refused.
__global__ void invert(unsigned char *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = 255 - p[i];
  // CHECK-FIXES: {{^}}    p[i] = 255 - p[i];{{$}}
}
// CHECK-LOG: note: no --fix-launch rewrite: the launch at line {{[0-9]+}} does not give the grid as one integer written in the file

// A fixed grid that need not cover n: refused.
__global__ void mask(unsigned char *out, const unsigned char *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] & 0xf0;
  // CHECK-FIXES: {{^}}    out[i] = in[i] & 0xf0;{{$}}
}
// CHECK-LOG: note: no --fix-launch rewrite: the launch at line {{[0-9]+}} does not size the grid as (n + B - 1) / B blocks

// CHECK-LOG: warplint: fixed {{.*}}: give each thread 4 bytes of out (uchar4 accesses, a scalar tail) and launch a quarter of the blocks [global-narrow-access]
// CHECK-PLAIN: warplint: fix not applied at {{.*}} [global-narrow-access]: it changes the launch configuration; apply it with --fix-launch

int main() {
  const int n = 1000003, threads = 256;
  unsigned char *a, *b, *c;
  cudaMalloc(&a, n);
  cudaMalloc(&b, n);
  cudaMalloc(&c, n);
  lighten<<<(n + threads - 1) / threads, threads>>>(b, a, n);
  // CHECK-FIXES: {{^}}  lighten<<<(((n + threads - 1) / threads) + 3) / 4, threads>>>(b, a, n);{{$}}
  invert<<<dim3((n + threads - 1) / threads), threads>>>(c, n);
  mask<<<64, threads>>>(b, a, n);
  return 0;
}

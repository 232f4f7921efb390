// A signature edit reaches every declaration of the kernel: a forward
// declaration earlier in the file and one in a header get the same `const`
// as the definition, or the definition becomes a second overload that is
// never defined (clang accepts it; nvcc: "referenced but not defined"). Where
// the signature is spelled somewhere the fix cannot edit, it is refused with
// the reason.
// RUN: rm -rf %t && mkdir -p %t && cp %S/Inputs/redecl/scale_kernels.cuh %t/
// RUN: cp %s %t/main.cu
// RUN: cd %t && %not %warplint check --fail-min-gain 0 main.cu --rules readonly-param --fix --color=never > fix.out 2> fix.log
// RUN: %FileCheck --input-file=%t/main.cu %s --check-prefix=CHECK-FIXES
// RUN: %FileCheck --input-file=%t/scale_kernels.cuh %s --check-prefix=CHECK-HEADER
// RUN: %FileCheck --input-file=%t/fix.log %s --check-prefix=CHECK-LOG
// RUN: %FileCheck --input-file=%t/fix.out %s --check-prefix=CHECK-OUT
// A second --fix finds nothing more to change.
// RUN: cp %t/main.cu %t/main.first.cu && cp %t/scale_kernels.cuh %t/first.cuh
// RUN: cd %t && %not %warplint check --fail-min-gain 0 main.cu --rules readonly-param --fix --color=never
// RUN: diff %t/main.first.cu %t/main.cu && diff %t/first.cuh %t/scale_kernels.cuh

#include <cuda_runtime.h>
#include "scale_kernels.cuh"

// ---- every declaration follows the definition ------------------------------

__global__ void forwardDeclared(float *out, float *in);
// CHECK-FIXES: {{^}}__global__ void forwardDeclared(float *out, const float *in);{{$}}
__global__ void forwardDeclared(float *out, float *in);
// CHECK-FIXES: {{^}}__global__ void forwardDeclared(float *out, const float *in);{{$}}

void launchEarly(float *d) { forwardDeclared<<<1, 32>>>(d, d); }

__global__ void forwardDeclared(float *out, float *in) {
  // CHECK-FIXES: {{^}}__global__ void forwardDeclared(float *out, const float *in) {{[{]}}{{$}}
  out[threadIdx.x] = 2.f * in[threadIdx.x];
}
// CHECK-LOG-DAG: warplint: fixed {{.*}}main.cu:{{[0-9]+}}:{{[0-9]+}}: declare 'in' as 'const float *in' (and in its 2 other declarations) [readonly-param]

// CHECK-HEADER: {{^}}__global__ void scaleFromHeader(float *out, const float *in, int n);{{$}}
__global__ void scaleFromHeader(float *out, float *in, int n) {
  // CHECK-FIXES: {{^}}__global__ void scaleFromHeader(float *out, const float *in, int n) {{[{]}}{{$}}
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 0.5f;
}
// CHECK-LOG-DAG: warplint: fixed {{.*}}main.cu:{{[0-9]+}}:{{[0-9]+}}: declare 'in' as 'const float *in' (and in its 1 other declaration) [readonly-param]

// A template declared before its definition: the instantiation's parameters
// come from the declaration, the edit must still reach both.
template <typename T> __global__ void templateDeclared(T *out, T *in);
// CHECK-FIXES: {{^}}template <typename T> __global__ void templateDeclared(T *out, const T *in);{{$}}
template <typename T> void launchTemplate(T *d) { templateDeclared<<<1, 32>>>(d, d); }
template <typename T> __global__ void templateDeclared(T *out, T *in) { out[threadIdx.x] = in[threadIdx.x]; }
// CHECK-FIXES: {{^}}template <typename T> __global__ void templateDeclared(T *out, const T *in) { out[threadIdx.x] = in[threadIdx.x]; }{{$}}
// CHECK-LOG-DAG: warplint: fixed {{.*}}main.cu:{{[0-9]+}}:{{[0-9]+}}: declare 'in' as 'const float *in' (and in its 1 other declaration) [readonly-param]

// A friend declaration is a declaration too.
struct Launcher {
  friend __global__ void befriended(float *out, float *in);
  // CHECK-FIXES: {{^}}  friend __global__ void befriended(float *out, const float *in);{{$}}
};
__global__ void befriended(float *out, float *in) { out[threadIdx.x] = in[threadIdx.x]; }
// CHECK-FIXES: {{^}}__global__ void befriended(float *out, const float *in) { out[threadIdx.x] = in[threadIdx.x]; }{{$}}
// CHECK-LOG-DAG: warplint: fixed {{.*}}main.cu:{{[0-9]+}}:{{[0-9]+}}: declare 'in' as 'const float *in' (and in its 1 other declaration) [readonly-param]

// Uses that follow the new signature: a call, a cast to void * (as for
// cudaLaunchKernel) and a template that deduces the pointer type.
__global__ void takenAsVoidPointer(float *out, float *in);
__global__ void takenAsVoidPointer(float *out, float *in) { out[threadIdx.x] = in[threadIdx.x]; }
// CHECK-FIXES: {{^}}__global__ void takenAsVoidPointer(float *out, const float *in);{{$}}
// CHECK-FIXES: {{^}}__global__ void takenAsVoidPointer(float *out, const float *in) { out[threadIdx.x] = in[threadIdx.x]; }{{$}}
template <typename F> void setCarveout(F *kernel) { cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, 50); }
void launchByPointer(float *d) {
  void *args[] = {&d, &d};
  cudaLaunchKernel((const void *)takenAsVoidPointer, dim3(1), dim3(32), args, 0, 0);
  setCarveout(takenAsVoidPointer);
}
// CHECK-LOG-DAG: warplint: fixed {{.*}}main.cu:{{[0-9]+}}:{{[0-9]+}}: declare 'in' as 'const float *in' (and in its 1 other declaration) [readonly-param]

// ---- refused: the signature is spelled where the fix cannot follow ---------

// An explicit instantiation writes the parameter types out.
template <typename T> __global__ void copyExplicit(T *dst, T *src) { dst[threadIdx.x] = src[threadIdx.x]; }
// CHECK-FIXES: {{^}}template <typename T> __global__ void copyExplicit(T *dst, T *src) { dst[threadIdx.x] = src[threadIdx.x]; }{{$}}
template __global__ void copyExplicit<int>(int *, int *);
// CHECK-OUT: main.cu:[[#@LINE-3]]:{{[0-9]+}}: note: no fix: the signature is spelled where the fix cannot follow: 'copyExplicit' is explicitly instantiated at main.cu:[[#@LINE-1]] with the old parameter types

// A function-pointer variable typed with the old signature.
__global__ void pointedTo(float *out, float *in) { out[threadIdx.x] = in[threadIdx.x]; }
// CHECK-FIXES: {{^}}__global__ void pointedTo(float *out, float *in) { out[threadIdx.x] = in[threadIdx.x]; }{{$}}
void (*pointedToKernel)(float *, float *) = pointedTo;
// CHECK-OUT: main.cu:[[#@LINE-3]]:{{[0-9]+}}: note: no fix: the signature is spelled where the fix cannot follow: its address is taken as 'void (*)(float *, float *)' at main.cu:[[#@LINE-1]], a function-pointer type that keeps the old signature

// The same through a typedef'd table.
typedef void (*Kernel2)(float *, float *);
__global__ void inTable(float *out, float *in) { out[threadIdx.x] = in[threadIdx.x] + 1.f; }
// CHECK-FIXES: {{^}}__global__ void inTable(float *out, float *in) { out[threadIdx.x] = in[threadIdx.x] + 1.f; }{{$}}
Kernel2 table[] = {&inTable};
// CHECK-OUT: main.cu:[[#@LINE-3]]:{{[0-9]+}}: note: no fix: the signature is spelled where the fix cannot follow: its address is taken as 'void (*)(float *, float *)' at main.cu:[[#@LINE-1]]

// A forward declaration that spells the parameter through a typedef.
typedef float *FloatPtr;
__global__ void typedefDeclared(float *out, FloatPtr in);
// CHECK-FIXES: {{^}}__global__ void typedefDeclared(float *out, FloatPtr in);{{$}}
__global__ void typedefDeclared(float *out, float *in) { out[threadIdx.x] = in[threadIdx.x]; }
// CHECK-OUT: main.cu:[[#@LINE-1]]:{{[0-9]+}}: note: no fix: the signature is spelled where the fix cannot follow: the declaration at main.cu:[[#@LINE-3]] does not write the pointee type of parameter 2 (a macro or a typedef)

int main() {
  float *d;
  cudaMalloc(&d, 4096);
  launchEarly(d);
  scaleFromHeader<<<4, 256>>>(d, d, 1024);
  launchByPointer(d);
  launchTemplate(d);
  befriended<<<1, 32>>>(d, d);
  copyExplicit<<<1, 32>>>((int *)d, (int *)d);
  inTable<<<1, 32>>>(d, d);
  typedefDeclared<<<1, 32>>>(d, d);
  return 0;
}

// --fix-verify-nvcc compiles each fixed file with nvcc before writing it; a
// fix nvcc rejects is rolled back and reported, and the file is left as it was.
// RUN: grep -v CHECK- %s > %t.cu
// RUN: env CUDA_PATH=%S/Inputs/fake-cuda %not %warplint check %t.cu --fix --fix-verify-nvcc --color=never > %t.log 2>&1
// RUN: %FileCheck --input-file=%t.log %s
// RUN: grep -v CHECK- %s | diff - %t.cu
// With the real toolkit (when there is one) the fix is kept.
// RUN: %not %warplint check %t.cu --fix --fix-verify-nvcc --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-REAL
// RUN: grep -q "tile\[32\]\[33\]" %t.cu

// CHECK: warplint: fix not applied at {{.*}} [shared-bank-conflict]: rolled back: nvcc rejects the fixed file: fixed.cu(1): error: this nvcc rejects every file
// CHECK-REAL: warplint: fixed {{.*}} [shared-bank-conflict]
// REQUIRES: nvcc

__global__ void transpose(float *out) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
int main() { transpose<<<1, dim3(32, 32)>>>(0); }

// RUN: %python %S/Inputs/host_profile_fixture.py %S/../../../probes/profiles/h100.json %t.json
// RUN: %not %warplint check %s --rules managed-memory-no-prefetch --profile %t.json --color=never 2>&1 | %FileCheck %s --implicit-check-not='warning:'
// Without the probe in the profile the message stands without a number.
// RUN: %python %S/Inputs/host_profile_fixture.py --without-host-probes %S/../../../probes/profiles/h100.json %t.noprobe.json
// RUN: %not %warplint check %s --rules managed-memory-no-prefetch --profile %t.noprobe.json --color=never 2>&1 | %FileCheck %s --check-prefix=NOPROBE
// The bundled H100 profile quotes its own measurement.
// RUN: %not %warplint check %s --rules managed-memory-no-prefetch --color=never 2>&1 | %FileCheck %s --check-prefix=BUNDLED

#include <cuda_runtime.h>

__global__ void scale(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= 2.0f;
}

constexpr int N = 1 << 22;

void init(float *p, int n) {
  for (int i = 0; i < n; ++i)
    p[i] = 1.0f;
}

// ---- positives ---------------------------------------------------------

float hostThenKernel() {
  float *x;
  cudaMallocManaged(&x, N * sizeof(float));
  for (int i = 0; i < N; ++i)
    x[i] = 1.0f;
  // CHECK: :[[@LINE+8]]:3: warning: kernel 'scale' uses managed memory 'x' that the host touched at line [[@LINE-1]] with no cudaMemPrefetchAsync or cudaMemAdvise in between: its pages migrate by GPU page faults while the kernel runs [managed-memory-no-prefetch]
  // CHECK: note: measured on FIXTURE-GPU (managed_first_touch): a kernel over host-touched managed memory took 12.000 ms with no prefetch, 2.000 ms after cudaMemPrefetchAsync (6.00x); 20.0 vs 120.0 GB/s
  // CHECK: note: the host touches 'x' here: x[i]
  // CHECK: note: rewrite: before the launch, cudaMemPrefetchAsync(x, <its bytes>, <device>, <the launch's stream>)
  // NOPROBE: warning: kernel 'scale' uses managed memory 'x'
  // NOPROBE-NOT: measured on
  // BUNDLED: warning: kernel 'scale' uses managed memory 'x'
  // BUNDLED: note: measured on NVIDIA H100 80GB HBM3 (managed_first_touch): a kernel over host-touched managed memory took
  scale<<<N / 256, 256>>>(x, N);
  cudaDeviceSynchronize();
  // One element read back (one page fault, where a prefetch would move the whole buffer): not
  // reported; host-managed-host-touch.cu has the reverse direction's positives.
  float r = x[0];
  cudaFree(x);
  return r;
}

// Initialized by a visible helper.
void helperInit() {
  float *y;
  cudaMallocManaged(&y, N * sizeof(float));
  init(y, N);
  // CHECK: :[[@LINE+1]]:3: warning: kernel 'scale' uses managed memory 'y' that the host touched at line [[@LINE-1]]
  scale<<<N / 256, 256>>>(y, N);
  cudaDeviceSynchronize();
  cudaFree(y);
}

// A CUDA library call runs kernels over the managed buffers it is handed.
// (Stand-in declarations with cuBLAS's names, so that the test needs no cuBLAS header.)
extern "C" int cublasSaxpy_v2(void *handle, int n, const float *alpha, const float *x, int incx, float *y, int incy);
extern "C" int cusparseCreateDnVec(void **descr, long size, void *values, int valueType);
extern "C" int cusparseSpMV(void *handle, int op, const void *alpha, const void *matA, const void *vecX,
                            const void *beta, void *vecY, int computeType, int alg, void *buffer);
void libraryKernel(void *blas) {
  float *u, *v, one = 1.0f;
  cudaMallocManaged(&u, N * sizeof(float));
  cudaMallocManaged(&v, N * sizeof(float));
  for (int i = 0; i < N; ++i)
    u[i] = v[i] = 1.0f;
  // CHECK: :[[@LINE+2]]:3: warning: kernel 'cublasSaxpy_v2()' uses managed memory 'u' that the host touched at line [[@LINE-1]]
  // CHECK: :[[@LINE+1]]:3: warning: kernel 'cublasSaxpy_v2()' uses managed memory 'v' that the host touched at line [[@LINE-2]]
  cublasSaxpy_v2(blas, N, &one, u, 1, v, 1);
  cudaDeviceSynchronize();
  cudaFree(u);
  cudaFree(v);
}

// ---- negatives -------------------------------------------------------------

void prefetched() {
  float *x;
  cudaMallocManaged(&x, N * sizeof(float));
  init(x, N);
  int dev = 0;
  cudaGetDevice(&dev);
  cudaMemLocation loc = {cudaMemLocationTypeDevice, dev};
  cudaMemPrefetchAsync(x, N * sizeof(float), loc, 0, 0);
  scale<<<N / 256, 256>>>(x, N);
  cudaMemLocation host = {cudaMemLocationTypeHost, 0};
  cudaMemPrefetchAsync(x, N * sizeof(float), host, 0, 0);
  cudaDeviceSynchronize();
  float r = x[0];
  (void)r;
  cudaFree(x);
}

void advised() {
  float *x;
  cudaMallocManaged(&x, N * sizeof(float));
  int dev = 0;
  cudaMemLocation loc = {cudaMemLocationTypeDevice, dev};
  cudaMemAdvise(x, N * sizeof(float), cudaMemAdviseSetReadMostly, loc);
  init(x, N);
  scale<<<N / 256, 256>>>(x, N);
  cudaDeviceSynchronize();
  cudaFree(x);
}

// Only the device touches it.
void deviceOnly() {
  float *x;
  cudaMallocManaged(&x, N * sizeof(float));
  scale<<<N / 256, 256>>>(x, N);
  scale<<<N / 256, 256>>>(x, N);
  cudaDeviceSynchronize();
  cudaFree(x);
}

// Not managed: explicit copies (another rule's business).
void explicitCopies(float *h) {
  float *d;
  cudaMalloc(&d, N * sizeof(float));
  h[0] = 1.0f;
  scale<<<N / 256, 256>>>(d, N);
  cudaFree(d);
}

// Handed to a library descriptor: later library calls reach the pages
// through it, out of sight, so the next direct use is not reported.
void descriptorHeld(void *sparse, void *blas, const void *matA) {
  float *w, *out, one = 1.0f;
  void *vecW;
  cudaMallocManaged(&w, N * sizeof(float));
  cudaMallocManaged(&out, N * sizeof(float));
  for (int i = 0; i < N; ++i)
    w[i] = 1.0f;
  cusparseCreateDnVec(&vecW, N, w, 0);
  cusparseSpMV(sparse, 0, &one, matA, vecW, &one, out, 0, 0, nullptr);
  cublasSaxpy_v2(blas, N, &one, w, 1, w, 1);
  cudaDeviceSynchronize();
  cudaFree(w);
  cudaFree(out);
}

// Handed to a function whose body is in another file: it may prefetch,
// copy or launch; what the pages do there is unknown.
void fillElsewhere(float *p, int n);
void opaqueHelper() {
  float *z;
  cudaMallocManaged(&z, N * sizeof(float));
  z[0] = 1.0f;
  fillElsewhere(z, N);
  scale<<<N / 256, 256>>>(z, N);
  cudaDeviceSynchronize();
  cudaFree(z);
}

int main() {
  hostThenKernel();
  helperInit();
  prefetched();
  advised();
  deviceOnly();
  return 0;
}

// RUN: %python %S/Inputs/host_profile_fixture.py %S/../../../probes/profiles/h100.json %t.json
// RUN: %not %warplint check %s --rules host-pageable-transfer --profile %t.json --color=never 2>&1 | %FileCheck %s --implicit-check-not='warning:'
// RUN: %not %warplint check %s --rules host-pageable-transfer --profile %t.json --format json | %FileCheck %s --check-prefix=JSON

#include <cuda_runtime.h>
#include <cstdlib>
#include <vector>

__global__ void scale(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= 2.0f;
}

constexpr int N = 1 << 20;
constexpr size_t kBytes = N * sizeof(float);

// ---- positives ---------------------------------------------------------

void fromMalloc(float *d) {
  float *h = (float *)malloc(kBytes);
  // CHECK: :[[@LINE+4]]:3: warning: cudaMemcpy copies 4 MiB from pageable host memory 'h' (malloc at line [[@LINE-1]]): the driver stages it through a pinned buffer; allocate it with cudaMallocHost or pin it with cudaHostRegister [host-pageable-transfer]
  // CHECK: note: measured on FIXTURE-GPU (h2d, 1 MiB copies): pageable 10.0 GB/s, pinned 20.0 GB/s (2.00x)
  // CHECK: note: rewrite: allocate 'h' with cudaMallocHost((void **)&h, 4194304) instead of malloc() and release it with cudaFreeHost(h) instead of free()
  // JSON: "rule": "host-pageable-transfer"
  cudaMemcpy(d, h, kBytes, cudaMemcpyHostToDevice);
  free(h);
}

void intoNew(float *d) {
  float *out = new float[N];
  // CHECK: :[[@LINE+1]]:3: warning: cudaMemcpy copies 4 MiB into pageable host memory 'out' (new[] at line [[@LINE-1]])
  cudaMemcpy(out, d, kBytes, cudaMemcpyDeviceToHost);
  delete[] out;
}

void fromVector(float *d) {
  std::vector<float> v(N);
  // CHECK: :[[@LINE+2]]:3: warning: cudaMemcpy copies 4 MiB from pageable host memory 'v' (std::vector at line [[@LINE-1]])
  // CHECK: note: rewrite: pin the container's storage once it has its final size: cudaHostRegister(v.data()
  cudaMemcpy(d, v.data(), kBytes, cudaMemcpyHostToDevice);
  // CHECK: :[[@LINE+1]]:3: warning: cudaMemcpy copies 4 MiB into pageable host memory 'v' (std::vector
  cudaMemcpy(&v[0], d, kBytes, cudaMemcpyDeviceToHost);
}

static float table[8192];
void fromStaticArray(float *d) {
  // CHECK: :[[@LINE+1]]:3: warning: cudaMemcpy copies 32 KiB from pageable host memory 'table' (static array
  cudaMemcpy(d, table, sizeof(table), cudaMemcpyHostToDevice);
}

void asyncFromPageable(float *d, cudaStream_t s) {
  float *h = (float *)malloc(kBytes);
  // CHECK: :[[@LINE+1]]:3: warning: cudaMemcpyAsync copies 4 MiB from pageable host memory 'h' (malloc at line [[@LINE-1]]): the driver stages it through a pinned buffer; from pageable memory cudaMemcpyAsync is synchronous with the host, so it overlaps nothing and stream 's' buys nothing
  cudaMemcpyAsync(d, h, kBytes, cudaMemcpyHostToDevice, s);
  free(h);
}

// A struct member assigned malloc'd memory.
struct Buffers {
  float *host;
  float *dev;
};
void member(Buffers &b) {
  b.host = (float *)malloc(kBytes);
  cudaMalloc(&b.dev, kBytes);
  // CHECK: :[[@LINE+1]]:3: warning: cudaMemcpy copies 4 MiB from pageable host memory 'host' (malloc at line [[@LINE-2]])
  cudaMemcpy(b.dev, b.host, kBytes, cudaMemcpyHostToDevice);
}

// A parameter whose every visible caller passes malloc'd memory; the size is
// not known here (no number of bytes in the message).
void upload(float *d, const float *h, size_t bytes) {
  // CHECK: :[[@LINE+2]]:3: warning: cudaMemcpy copies from pageable host memory 'h' (malloc at line
  // CHECK: note: measured on FIXTURE-GPU (h2d, 16 MiB copies): pageable 12.0 GB/s, pinned 24.0 GB/s (2.00x); the copy's size is not known here
  cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
}
void callsUpload(float *d, size_t n) {
  float *h = (float *)malloc(n * sizeof(float));
  upload(d, h, n * sizeof(float));
}

// ---- negatives -------------------------------------------------------------

void pinned(float *d) {
  float *a, *b;
  cudaMallocHost(&a, kBytes);
  cudaHostAlloc((void **)&b, kBytes, cudaHostAllocDefault);
  cudaMemcpy(d, a, kBytes, cudaMemcpyHostToDevice);
  cudaMemcpy(b, d, kBytes, cudaMemcpyDeviceToHost);
  cudaFreeHost(a);
  cudaFreeHost(b);
}

void registered(float *d) {
  float *h = (float *)malloc(kBytes);
  cudaHostRegister(h, kBytes, cudaHostRegisterDefault);
  cudaMemcpy(d, h, kBytes, cudaMemcpyHostToDevice);
  std::vector<float> v(N);
  cudaHostRegister(v.data(), kBytes, cudaHostRegisterDefault);
  cudaMemcpy(d, v.data(), kBytes, cudaMemcpyHostToDevice);
}

void deviceToDevice(float *d) {
  float *e;
  cudaMalloc(&e, kBytes);
  cudaMemcpy(e, d, kBytes, cudaMemcpyDeviceToDevice);
}

void scalarAndSmall(float *d, int *dCount) {
  int count = 0;
  cudaMemcpy(&count, dCount, sizeof(int), cudaMemcpyDeviceToHost); // one scalar
  float *h = (float *)malloc(256);
  cudaMemcpy(d, h, 256, cudaMemcpyHostToDevice); // 256 bytes: latency-bound
}

// Origins the analyzer cannot trace: never guessed.
float *makeBuffer(size_t bytes);
void unknownOrigins(float *d, float *param, bool pin) {
  cudaMemcpy(d, param, kBytes, cudaMemcpyHostToDevice); // no caller visible
  float *r = makeBuffer(kBytes);
  cudaMemcpy(d, r, kBytes, cudaMemcpyHostToDevice);     // returned by an unanalyzed function
  float *m;
  if (pin)
    cudaMallocHost(&m, kBytes);
  else
    m = (float *)malloc(kBytes);
  cudaMemcpy(d, m, kBytes, cudaMemcpyHostToDevice);     // pinned on one path, pageable on the other
}

void managedCopy(float *d) {
  float *m;
  cudaMallocManaged(&m, kBytes);
  cudaMemcpy(d, m, kBytes, cudaMemcpyDefault);
}

int main() {
  float *d;
  cudaMalloc(&d, kBytes);
  scale<<<N / 256, 256>>>(d, N);
  callsUpload(d, N);
  return 0;
}

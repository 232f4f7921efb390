// The host facts (analyzer/host/HostFacts.h) --dump-model shows: each copy's
// direction, the origin of both sides (pageable, pinned, managed, device or
// unknown with the reason), its size when constant, its stream, the loops
// around it with their trip counts; each launch's stream and traced buffers;
// managed-memory events in source order. Host code the CUDA 13 toolkit no
// longer declares (cudaThreadSynchronize) does not stop the rest.
// RUN: %warplint check %s --dump-model 2>/dev/null | %python %S/Inputs/host_facts.py | %FileCheck %s

#include <cuda_runtime.h>
#include <cstdlib>
#include <vector>

__global__ void k(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += 1.0f;
}

struct Mesh {
  float *coords;
};

float *opaque();

void helper(float *d, float *h) {
  // CHECK: transfer [[@LINE+1]] cudaMemcpy h2d dst=device/cudaMalloc src=pageable/new[] size=4096 stream=default loops=[]
  cudaMemcpy(d, h, 4096, cudaMemcpyHostToDevice);
}

int main() {
  const int n = 1024;
  float *d, *pinned, *managed;
  float *h = (float *)malloc(n * sizeof(float));
  cudaMalloc(&d, n * sizeof(float));
  cudaMallocHost(&pinned, n * sizeof(float));
  cudaMallocManaged(&managed, n * sizeof(float));
  std::vector<float> v(n);
  float stack[256];
  Mesh m;
  m.coords = (float *)calloc(n, sizeof(float));
  cudaStream_t s;
  cudaStreamCreate(&s);
  // CHECK: transfer [[@LINE+1]] cudaMemcpy h2d dst=device/cudaMalloc src=pageable/malloc size=4096 stream=default loops=[]
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK: transfer [[@LINE+1]] cudaMemcpyAsync d2h dst=pinned/cudaMallocHost src=device/cudaMalloc size=4096 stream=s loops=[]
  cudaMemcpyAsync(pinned, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  // CHECK: transfer [[@LINE+1]] cudaMemcpy h2d dst=device/cudaMalloc src=pageable/std::vector size=4096 stream=default loops=[]
  cudaMemcpy(d, v.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK: transfer [[@LINE+1]] cudaMemcpy h2d dst=device/cudaMalloc src=pageable/stack array size=1024 stream=default loops=[]
  cudaMemcpy(d, stack, sizeof(stack), cudaMemcpyHostToDevice);
  // CHECK: transfer [[@LINE+1]] cudaMemcpy h2d dst=device/cudaMalloc src=pageable/calloc size=4096 stream=default loops=[]
  cudaMemcpy(d, m.coords, n * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK: transfer [[@LINE+1]] cudaMemcpy h2d dst=device/cudaMalloc src=unknown (returned by opaque()) size=4096 stream=default loops=[]
  cudaMemcpy(d, opaque(), n * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK: transfer [[@LINE+1]] cudaMemcpy unknown dst=device/cudaMalloc src=managed/cudaMallocManaged size=4096 stream=default loops=[]
  cudaMemcpy(d, managed, n * sizeof(float), cudaMemcpyDefault);
  for (int r = 0; r < 16; ++r)
    // CHECK: transfer [[@LINE+1]] cudaMemcpy h2d dst=device/cudaMalloc src=pinned/cudaMallocHost size=256 stream=default loops=[for:16] varies
    cudaMemcpy(d + r * 64, pinned + r * 64, 64 * sizeof(float), cudaMemcpyHostToDevice);
  helper(d, new float[n]);
  // One element at a constant place: bounded by its size; a computed index is not.
  // CHECK: managed [[@LINE+1]] host_touch managed bytes<=4{{$}}
  managed[0] = 1.0f;
  // CHECK: managed [[@LINE+1]] host_touch managed{{$}}
  managed[n - 1] = 2.0f;
  // CHECK: launch [[@LINE+1]] k stream=s buffers=[d=device]
  k<<<4, 256, 0, s>>>(d, n);
  // CHECK: managed [[@LINE+2]] launch managed
  // CHECK: launch [[@LINE+1]] k stream=default buffers=[managed=managed]
  k<<<4, 256>>>(managed, n);
  cudaThreadSynchronize();
  // CHECK: transfer [[@LINE+1]] cudaMemcpy d2h dst=pageable/malloc src=device/cudaMalloc size=4096 stream=default loops=[]
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  return 0;
}

// RUN: %python %S/Inputs/host_profile_fixture.py %S/../../../probes/profiles/h100.json %t.json
// RUN: %not %warplint check %s --rules host-transfer-no-overlap --profile %t.json --color=never 2>&1 | %FileCheck %s --implicit-check-not='warning:' --implicit-check-not='note: cuda'
// RUN: %python %S/Inputs/host_profile_fixture.py --without-host-probes %S/../../../probes/profiles/h100.json %t.noprobe.json
// RUN: %not %warplint check %s --rules host-transfer-no-overlap --profile %t.noprobe.json --color=never 2>&1 | %FileCheck %s --check-prefix=NOPROBE
// The bundled H100 profile quotes its own measurement.
// RUN: %not %warplint check %s --rules host-transfer-no-overlap --color=never 2>&1 | %FileCheck %s --check-prefix=BUNDLED

#include <cuda_runtime.h>
#include <cstdlib>

constexpr int N = 1 << 24;
constexpr size_t kBytes = N * sizeof(float);

__global__ void saxpy(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

__global__ void gridStride(float *y, const float *x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = 2.0f * x[i];
}

// Every thread reads a neighbour: chunks are not independent.
__global__ void stencil(float *y, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1)
    y[i] = x[i - 1] + x[i] + x[i + 1];
}

// ---- positives ---------------------------------------------------------

void serialized() {
  float *hx, *hy, *dx, *dy;
  cudaMallocHost(&hx, kBytes);
  cudaMallocHost(&hy, kBytes);
  cudaMalloc(&dx, kBytes);
  cudaMalloc(&dy, kBytes);
  // CHECK: :[[@LINE+5]]:3: warning: cudaMemcpy of 64 MiB to 'dx', kernel 'saxpy' (line [[@LINE+7]]) and cudaMemcpy back (line [[@LINE+8]]) run one after another on the default stream, but the kernel touches the copied buffers only at its global thread index: stage them in chunks over several streams so that copies overlap the kernel [host-transfer-no-overlap]
  // CHECK: note: measured on FIXTURE-GPU (copy_kernel_overlap_vs_streams): 8 streams ran the copy-kernel-copy sequence 2.22x faster than one stream, the best of 2, 4, 8 and 16
  // CHECK: note: rewrite: host memory 'hx' and 'hy' already pinned; create 8 streams
  // NOPROBE: note: the active profile has no copy_kernel_overlap_vs_streams measurement
  // BUNDLED: note: measured on NVIDIA H100 80GB HBM3 (copy_kernel_overlap_vs_streams): {{[0-9]+}} streams ran the copy-kernel-copy sequence
  cudaMemcpy(dx, hx, kBytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, hy, kBytes, cudaMemcpyHostToDevice);
  saxpy<<<N / 256, 256>>>(dy, dx, 2.0f, N);
  cudaMemcpy(hy, dy, kBytes, cudaMemcpyDeviceToHost);
}

// One stream, async copies, a grid-stride kernel; pageable host memory.
void oneStream(cudaStream_t s) {
  const int n = 1 << 22;
  float *hx = (float *)malloc(n * sizeof(float)), *hy = (float *)malloc(n * sizeof(float));
  float *dx, *dy;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  // CHECK: :[[@LINE+2]]:3: warning: cudaMemcpyAsync of 16 MiB to 'dx', kernel 'gridStride' (line [[@LINE+3]]) and cudaMemcpyAsync back (line [[@LINE+4]]) run one after another on stream 's'
  // CHECK: note: the host buffers are pageable
  cudaMemcpyAsync(dx, hx, n * sizeof(float), cudaMemcpyHostToDevice, s);
  gridStride<<<1024, 256, 0, s>>>(dy, dx, n);
  cudaMemcpyAsync(hy, dy, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
}

// ---- negatives -------------------------------------------------------------

// The same sequence at a size the file does not fix: not reported (whether
// staging pays depends on it; public code passes a few KB as often as MBs).
void unknownSize(cudaStream_t s, int n) {
  float *hx, *hy, *dx, *dy;
  cudaMallocHost(&hx, n * sizeof(float));
  cudaMallocHost(&hy, n * sizeof(float));
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaMemcpyAsync(dx, hx, n * sizeof(float), cudaMemcpyHostToDevice, s);
  gridStride<<<1024, 256, 0, s>>>(dy, dx, n);
  cudaMemcpyAsync(hy, dy, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
}

// Already staged over streams.
void staged(cudaStream_t *streams) {
  float *hx, *hy, *dx, *dy;
  cudaMallocHost(&hx, kBytes);
  cudaMallocHost(&hy, kBytes);
  cudaMalloc(&dx, kBytes);
  cudaMalloc(&dy, kBytes);
  int chunk = N / 4;
  for (int s = 0; s < 4; ++s) {
    int off = s * chunk;
    cudaMemcpyAsync(dx + off, hx + off, chunk * sizeof(float), cudaMemcpyHostToDevice, streams[s]);
    gridStride<<<chunk / 256, 256, 0, streams[s]>>>(dy + off, dx + off, chunk);
    cudaMemcpyAsync(hy + off, dy + off, chunk * sizeof(float), cudaMemcpyDeviceToHost, streams[s]);
  }
  cudaDeviceSynchronize();
}

// The kernel reads neighbours: no independent chunks.
void neighbours() {
  float *hx, *hy, *dx, *dy;
  cudaMallocHost(&hx, kBytes);
  cudaMallocHost(&hy, kBytes);
  cudaMalloc(&dx, kBytes);
  cudaMalloc(&dy, kBytes);
  cudaMemcpy(dx, hx, kBytes, cudaMemcpyHostToDevice);
  stencil<<<N / 256, 256>>>(dy, dx, N);
  cudaMemcpy(hy, dy, kBytes, cudaMemcpyDeviceToHost);
}

// Small copies: per-call overheads dominate.
void small() {
  float *hx, *hy, *dx, *dy;
  cudaMallocHost(&hx, 4096);
  cudaMallocHost(&hy, 4096);
  cudaMalloc(&dx, 4096);
  cudaMalloc(&dy, 4096);
  cudaMemcpy(dx, hx, 4096, cudaMemcpyHostToDevice);
  saxpy<<<4, 256>>>(dy, dx, 2.0f, 1024);
  cudaMemcpy(hy, dy, 4096, cudaMemcpyDeviceToHost);
}

// Copy and launch on different streams, or no copy back.
void noCopyBack(cudaStream_t s) {
  float *hx, *dx, *dy;
  cudaMallocHost(&hx, kBytes);
  cudaMalloc(&dx, kBytes);
  cudaMalloc(&dy, kBytes);
  cudaMemcpy(dx, hx, kBytes, cudaMemcpyHostToDevice);
  saxpy<<<N / 256, 256, 0, s>>>(dy, dx, 2.0f, N);
  cudaMemcpy(dx, hx, kBytes, cudaMemcpyHostToDevice);
  saxpy<<<N / 256, 256>>>(dy, dx, 2.0f, N);
}

// The copy is not the kernel's prologue: another phase (other kernels) runs
// on the stream between them, so staging this copy overlaps nothing.
void otherPhaseFirst() {
  float *hx, *hy, *dx, *dy, *dz;
  cudaMallocHost(&hx, kBytes);
  cudaMallocHost(&hy, kBytes);
  cudaMalloc(&dx, kBytes);
  cudaMalloc(&dy, kBytes);
  cudaMalloc(&dz, kBytes);
  cudaMemcpy(dx, hx, kBytes, cudaMemcpyHostToDevice);
  gridStride<<<N / 256, 256>>>(dz, dz, N);
  saxpy<<<N / 256, 256>>>(dy, dx, 2.0f, N);
  cudaMemcpy(hy, dy, kBytes, cudaMemcpyDeviceToHost);
}

int main() {
  serialized();
  return 0;
}

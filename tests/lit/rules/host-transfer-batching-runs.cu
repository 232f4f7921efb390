// host-transfer-batching on copies one after another (no loop of their own):
// at least 4 small copies (at most 4 KiB each) in the same direction, in one
// block that runs them all, with nothing between them that may start GPU
// work or wait for it, are one batch (seed 4.1.2: "combining unrelated data
// into one array and unpacking on the device"). Our own kernels and host code.
// RUN: %python %S/Inputs/host_profile_fixture.py %S/../../../probes/profiles/h100.json %t.json
// RUN: %not %warplint check %s --rules host-transfer-batching --profile %t.json --color=never 2>&1 | %FileCheck %s --implicit-check-not='warning:' --implicit-check-not='note: {{[0-9]+}} cuda'

#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                        \
  do {                                                                     \
    cudaError_t e = (call);                                                \
    if (e != cudaSuccess) {                                                \
      fprintf(stderr, "%s\n", cudaGetErrorString(e));                      \
      exit(1);                                                             \
    }                                                                      \
  } while (0)

__constant__ float cGain;
__constant__ float cBias;
__constant__ int cWidth;
__constant__ int cHeight;

__global__ void filter(float *out, const float *coef, const int *offsets, const int *count, const float *scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < *count)
    out[i] = (coef[i % 9] + offsets[i % 3]) * *scale * cGain + cBias + cWidth * cHeight;
}

__global__ void tally(int *hits, int *misses, int *evictions, float *load) {
  atomicAdd(hits, 1);
  atomicAdd(misses, 2);
  atomicAdd(evictions, 3);
  atomicAdd(load, 1.0f);
}

struct Settings {
  float coef[9];
  int offsets[3];
  int count;
  float scale;
};

// ---- positives ---------------------------------------------------------

// The members of a settings struct copied one by one before one launch, once: a note.
void uploadOnce(const Settings &s, float *dOut) {
  float *dCoef, *dScale;
  int *dOffsets, *dCount;
  cudaMalloc(&dCoef, sizeof(s.coef));
  cudaMalloc(&dOffsets, sizeof(s.offsets));
  cudaMalloc(&dCount, sizeof(int));
  cudaMalloc(&dScale, sizeof(float));
  // CHECK: :[[@LINE+3]]:3: note: 4 cudaMemcpy calls on lines [[@LINE+3]]-[[@LINE+6]] copy 4 small pieces host to device one by one (36 bytes, 12 bytes, 4 bytes and 4 bytes, 56 bytes in all) with no kernel launch or wait between them: pack them into one buffer and copy it once [host-transfer-batching]
  // CHECK: note: measured on FIXTURE-GPU: one 256 bytes pageable h2d copy takes {{[0-9.]+}} us (host_copy_latency); 4 such copies cost about {{[0-9]+}} us in latency, one packed copy about {{[0-9]+}} us
  // CHECK-NEXT: note: rewrite: put the pieces in one host struct or array (ideally pinned), allocate one device buffer with the pieces at offsets
  cudaMemcpy(dCoef, s.coef, sizeof(s.coef), cudaMemcpyHostToDevice);
  cudaMemcpy(dOffsets, s.offsets, sizeof(s.offsets), cudaMemcpyHostToDevice);
  cudaMemcpy(dCount, &s.count, sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(dScale, &s.scale, sizeof(float), cudaMemcpyHostToDevice);
  filter<<<4, 256>>>(dOut, dCoef, dOffsets, dCount, dScale);
}

// The same copies repeated every step of a loop, behind an error-check macro: a warning.
void uploadEachStep(const Settings *steps, int nSteps, float *dOut, float *dCoef, int *dOffsets, int *dCount,
                    float *dScale) {
  for (int t = 0; t < nSteps; ++t) {
    // CHECK: :[[@LINE+1]]:5: warning: 4 cudaMemcpy calls on lines [[@LINE+1]]-[[@LINE+4]] copy 4 small pieces host to device one by one (36 bytes, 12 bytes, 4 bytes and 4 bytes, 56 bytes in all) with no kernel launch or wait between them, each iteration of the for loop at line [[@LINE-1]]: pack them into one buffer and copy it once
    CHECK(cudaMemcpy(dCoef, steps[t].coef, sizeof(steps[t].coef), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dOffsets, steps[t].offsets, sizeof(steps[t].offsets), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dCount, &steps[t].count, sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dScale, &steps[t].scale, sizeof(float), cudaMemcpyHostToDevice));
    filter<<<4, 256>>>(dOut, dCoef, dOffsets, dCount, dScale);
  }
}

// Four counters read back one by one after the kernel.
void readCounters(int *dHits, int *dMisses, int *dEvictions, float *dLoad) {
  int hits, misses, evictions;
  float load;
  tally<<<1, 32>>>(dHits, dMisses, dEvictions, dLoad);
  // CHECK: :[[@LINE+2]]:3: note: 4 cudaMemcpy calls on lines [[@LINE+2]]-[[@LINE+6]] copy 4 small pieces device to host one by one (4 bytes, 4 bytes, 4 bytes and 4 bytes, 16 bytes in all)
  // CHECK: note: rewrite: have the kernels write these results into one device struct or array and copy it back
  cudaMemcpy(&hits, dHits, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(&misses, dMisses, sizeof(int), cudaMemcpyDeviceToHost);
  printf("hits %d misses %d\n", hits, misses);  // host work between them does not start GPU work
  cudaMemcpy(&evictions, dEvictions, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(&load, dLoad, sizeof(float), cudaMemcpyDeviceToHost);
  printf("evictions %d load %f\n", evictions, load);
}

// Four scalars into four __constant__ variables.
void setConstants(float gain, float bias, int width, int height) {
  // CHECK: :[[@LINE+2]]:3: note: 4 cudaMemcpyToSymbol calls on lines [[@LINE+2]]-[[@LINE+5]] copy 4 small pieces host to device one by one
  // CHECK: note: rewrite: gather these __constant__ variables into one __constant__ struct
  cudaMemcpyToSymbol(cGain, &gain, sizeof(float));
  cudaMemcpyToSymbol(cBias, &bias, sizeof(float));
  cudaMemcpyToSymbol(cWidth, &width, sizeof(int));
  cudaMemcpyToSymbol(cHeight, &height, sizeof(int));
}

// ---- negatives ---------------------------------------------------------

// Three pieces: under the run's minimum of 4.
void three(const Settings &s, float *dCoef, int *dOffsets, int *dCount) {
  cudaMemcpy(dCoef, s.coef, sizeof(s.coef), cudaMemcpyHostToDevice);
  cudaMemcpy(dOffsets, s.offsets, sizeof(s.offsets), cudaMemcpyHostToDevice);
  cudaMemcpy(dCount, &s.count, sizeof(int), cudaMemcpyHostToDevice);
}

// A launch between the second and the third copy: two runs of 2.
void launchBetween(const Settings &s, float *dOut, float *dCoef, int *dOffsets, int *dCount, float *dScale) {
  cudaMemcpy(dCoef, s.coef, sizeof(s.coef), cudaMemcpyHostToDevice);
  cudaMemcpy(dOffsets, s.offsets, sizeof(s.offsets), cudaMemcpyHostToDevice);
  filter<<<4, 256>>>(dOut, dCoef, dOffsets, dCount, dScale);
  cudaMemcpy(dCount, &s.count, sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(dScale, &s.scale, sizeof(float), cudaMemcpyHostToDevice);
}

// Copies in the branches of ifs and in the cases of a switch run on some paths only.
void branches(const Settings &s, int mode, float *dCoef, int *dOffsets, int *dCount, float *dScale) {
  if (mode == 0)
    cudaMemcpy(dCoef, s.coef, sizeof(s.coef), cudaMemcpyHostToDevice);
  else
    cudaMemcpy(dOffsets, s.offsets, sizeof(s.offsets), cudaMemcpyHostToDevice);
  if (mode == 1)
    cudaMemcpy(dCount, &s.count, sizeof(int), cudaMemcpyHostToDevice);
  if (mode == 2)
    cudaMemcpy(dScale, &s.scale, sizeof(float), cudaMemcpyHostToDevice);
  switch (mode) {
  case 0:
    cudaMemcpy(dCoef, s.coef, sizeof(s.coef), cudaMemcpyHostToDevice);
    break;
  case 1:
    cudaMemcpy(dOffsets, s.offsets, sizeof(s.offsets), cudaMemcpyHostToDevice);
    break;
  case 2:
    cudaMemcpy(dCount, &s.count, sizeof(int), cudaMemcpyHostToDevice);
    break;
  default:
    cudaMemcpy(dScale, &s.scale, sizeof(float), cudaMemcpyHostToDevice);
  }
}

// Pieces of 64 KiB: each copy's bytes, not its latency, dominate.
void largePieces(float *dA, float *dB, float *dC, float *dD, const float *h) {
  const int n = 16384;
  cudaMemcpy(dA, h, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dB, h + n, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dC, h + 2 * n, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dD, h + 3 * n, n * sizeof(float), cudaMemcpyHostToDevice);
}

// One host value copied to four device buffers: a broadcast, not pieces of a batch.
void broadcast(float *dA, float *dB, float *dC, float *dD, float value) {
  cudaMemcpy(dA, &value, sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dB, &value, sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dC, &value, sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dD, &value, sizeof(float), cudaMemcpyHostToDevice);
}

// One copy per GPU, unrolled: each piece is on its own device.
void perGpu(float *d0, float *d1, float *d2, float *d3, const float *h) {
  cudaSetDevice(0);
  cudaMemcpy(d0, h, sizeof(float), cudaMemcpyHostToDevice);
  cudaSetDevice(1);
  cudaMemcpy(d1, h + 1, sizeof(float), cudaMemcpyHostToDevice);
  cudaSetDevice(2);
  cudaMemcpy(d2, h + 2, sizeof(float), cudaMemcpyHostToDevice);
  cudaSetDevice(3);
  cudaMemcpy(d3, h + 3, sizeof(float), cudaMemcpyHostToDevice);
}

// A wait between the copies, sizes only known at run time, streams of their own, and
// directions that alternate: no run of 4.
void mixed(const Settings &s, int n, float *dCoef, int *dOffsets, int *dCount, float *dScale, float *hBack,
           cudaStream_t a, cudaStream_t b) {
  cudaMemcpyAsync(dCoef, s.coef, sizeof(s.coef), cudaMemcpyHostToDevice, a);
  cudaMemcpyAsync(dOffsets, s.offsets, sizeof(s.offsets), cudaMemcpyHostToDevice, b);
  cudaMemcpyAsync(dCount, &s.count, sizeof(int), cudaMemcpyHostToDevice, a);
  cudaMemcpyAsync(dScale, &s.scale, sizeof(float), cudaMemcpyHostToDevice, b);
  cudaMemcpy(dCoef, s.coef, sizeof(s.coef), cudaMemcpyHostToDevice);
  cudaMemcpy(dOffsets, s.offsets, sizeof(s.offsets), cudaMemcpyHostToDevice);
  cudaDeviceSynchronize();
  cudaMemcpy(dCount, &s.count, sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(dScale, &s.scale, sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dCoef, s.coef, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(hBack, dScale, sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(dOffsets, s.offsets, sizeof(s.offsets), cudaMemcpyHostToDevice);
  cudaMemcpy(hBack + 1, dCount, sizeof(int), cudaMemcpyDeviceToHost);
}

// A launch clang cannot parse (a braced block size, which nvcc accepts) between the copies may launch:
// no run across it. (The expected error is printed as a note.)
void unparsedBetween(const Settings &s, float *dOut, float *dCoef, int *dOffsets, int *dCount, float *dScale) {
  cudaMemcpy(dCoef, s.coef, sizeof(s.coef), cudaMemcpyHostToDevice);
  cudaMemcpy(dOffsets, s.offsets, sizeof(s.offsets), cudaMemcpyHostToDevice);
  filter<<<4, {256, 1, 1}>>>(dOut, dCoef, dOffsets, dCount, dScale);
  cudaMemcpy(dCount, &s.count, sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(dScale, &s.scale, sizeof(float), cudaMemcpyHostToDevice);
}

int main() {
  Settings s = {};
  float *dOut;
  cudaMalloc(&dOut, 1024 * sizeof(float));
  uploadOnce(s, dOut);
  return 0;
}

// host-transfer-no-overlap and the staged rewrite written out by hand: the
// chunks of one device buffer (`dv`, `dv + quarter`, ...) each copied in,
// processed and copied back on a stream of their own, with no wait between
// them, already overlap; reporting each chunk as an unstaged sequence is
// wrong (bench/host_precision, fourth pass). A wait between the chunks
// serializes them, and two unrelated tasks on two streams are not chunks of
// one buffer: both are still reported.
// RUN: %not %warplint check %s --rules host-transfer-no-overlap --color=never 2>&1 | %FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>

constexpr int kCount = 1 << 22;  // 16 MiB of floats

__global__ void square(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] = v[i] * v[i];
}

// ---- negatives: chunks already staged by hand -------------------------

void twoHalves(float *hv, float *dv) {
  const int half = kCount / 2;
  cudaStream_t first, second;
  cudaStreamCreate(&first);
  cudaStreamCreate(&second);
  cudaMemcpyAsync(dv, hv, half * sizeof(float), cudaMemcpyHostToDevice, first);
  square<<<half / 256, 256, 0, first>>>(dv, half);
  cudaMemcpyAsync(hv, dv, half * sizeof(float), cudaMemcpyDeviceToHost, first);
  cudaMemcpyAsync(dv + half, hv + half, half * sizeof(float), cudaMemcpyHostToDevice, second);
  square<<<half / 256, 256, 0, second>>>(dv + half, half);
  cudaMemcpyAsync(hv + half, dv + half, half * sizeof(float), cudaMemcpyDeviceToHost, second);
  cudaDeviceSynchronize();
}

// Breadth first: all copies in, then all kernels, then all copies back.
void fourQuartersBreadthFirst(float *hv, float *dv, cudaStream_t *s) {
  const int quarter = kCount / 4;
  cudaMemcpyAsync(dv, hv, quarter * sizeof(float), cudaMemcpyHostToDevice, s[0]);
  cudaMemcpyAsync(dv + quarter, hv + quarter, quarter * sizeof(float), cudaMemcpyHostToDevice, s[1]);
  cudaMemcpyAsync(dv + 2 * quarter, hv + 2 * quarter, quarter * sizeof(float), cudaMemcpyHostToDevice, s[2]);
  cudaMemcpyAsync(dv + 3 * quarter, hv + 3 * quarter, quarter * sizeof(float), cudaMemcpyHostToDevice, s[3]);
  square<<<quarter / 256, 256, 0, s[0]>>>(dv, quarter);
  square<<<quarter / 256, 256, 0, s[1]>>>(dv + quarter, quarter);
  square<<<quarter / 256, 256, 0, s[2]>>>(dv + 2 * quarter, quarter);
  square<<<quarter / 256, 256, 0, s[3]>>>(dv + 3 * quarter, quarter);
  cudaMemcpyAsync(hv, dv, quarter * sizeof(float), cudaMemcpyDeviceToHost, s[0]);
  cudaMemcpyAsync(hv + quarter, dv + quarter, quarter * sizeof(float), cudaMemcpyDeviceToHost, s[1]);
  cudaMemcpyAsync(hv + 2 * quarter, dv + 2 * quarter, quarter * sizeof(float), cudaMemcpyDeviceToHost, s[2]);
  cudaMemcpyAsync(hv + 3 * quarter, dv + 3 * quarter, quarter * sizeof(float), cudaMemcpyDeviceToHost, s[3]);
  cudaDeviceSynchronize();
}

// ---- positives ----------------------------------------------------------

// The second half waits for the first: nothing overlaps.
void halvesWithWait(float *hv, float *dv, cudaStream_t first, cudaStream_t second) {
  const int half = kCount / 2;
  // CHECK: :[[@LINE+1]]:3: warning: cudaMemcpyAsync of 8 MiB to 'dv', kernel 'square' (line [[@LINE+2]]) and cudaMemcpyAsync back (line [[@LINE+3]]) run one after another on stream 'first'
  cudaMemcpyAsync(dv, hv, half * sizeof(float), cudaMemcpyHostToDevice, first);
  square<<<half / 256, 256, 0, first>>>(dv, half);
  cudaMemcpyAsync(hv, dv, half * sizeof(float), cudaMemcpyDeviceToHost, first);
  cudaStreamSynchronize(first);
  // CHECK: :[[@LINE+1]]:3: warning: cudaMemcpyAsync of 8 MiB to 'dv + half', kernel 'square' (line [[@LINE+2]]) and cudaMemcpyAsync back (line [[@LINE+3]]) run one after another on stream 'second'
  cudaMemcpyAsync(dv + half, hv + half, half * sizeof(float), cudaMemcpyHostToDevice, second);
  square<<<half / 256, 256, 0, second>>>(dv + half, half);
  cudaMemcpyAsync(hv + half, dv + half, half * sizeof(float), cudaMemcpyDeviceToHost, second);
  cudaDeviceSynchronize();
}

// Two unrelated buffers, one per stream: each task is still one unstaged sequence.
void twoTasks(float *ha, float *hb, float *da, float *db, cudaStream_t first, cudaStream_t second) {
  // CHECK: :[[@LINE+1]]:3: warning: cudaMemcpyAsync of 16 MiB to 'da', kernel 'square' (line [[@LINE+2]])
  cudaMemcpyAsync(da, ha, kCount * sizeof(float), cudaMemcpyHostToDevice, first);
  square<<<kCount / 256, 256, 0, first>>>(da, kCount);
  cudaMemcpyAsync(ha, da, kCount * sizeof(float), cudaMemcpyDeviceToHost, first);
  // CHECK: :[[@LINE+1]]:3: warning: cudaMemcpyAsync of 16 MiB to 'db', kernel 'square' (line [[@LINE+2]])
  cudaMemcpyAsync(db, hb, kCount * sizeof(float), cudaMemcpyHostToDevice, second);
  square<<<kCount / 256, 256, 0, second>>>(db, kCount);
  cudaMemcpyAsync(hb, db, kCount * sizeof(float), cudaMemcpyDeviceToHost, second);
  cudaDeviceSynchronize();
}

int main() {
  float *hv, *dv, *hb, *db;
  cudaMallocHost(&hv, kCount * sizeof(float));
  cudaMallocHost(&hb, kCount * sizeof(float));
  cudaMalloc(&dv, kCount * sizeof(float));
  cudaMalloc(&db, kCount * sizeof(float));
  cudaStream_t s[4];
  for (int i = 0; i < 4; ++i)
    cudaStreamCreate(&s[i]);
  twoHalves(hv, dv);
  fourQuartersBreadthFirst(hv, dv, s);
  halvesWithWait(hv, dv, s[0], s[1]);
  twoTasks(hv, hb, dv, db, s[0], s[1]);
  return 0;
}

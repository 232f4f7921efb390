// host-transfer-no-overlap and a function its caller runs once per chunk:
// when a visible caller calls the copy-kernel-copy function in a loop and the
// function works on a stream of its own (a member, a parameter), the caller
// stages the chunks over streams already; only a function that waits for its
// stream before returning (so that each chunk waits for the previous one)
// is still reported.
// RUN: %not %warplint check %s --rules host-transfer-no-overlap --color=never 2>&1 | %FileCheck %s --implicit-check-not='warning:' --implicit-check-not='and cudaMemcpyAsync back'

#include <cuda_runtime.h>

constexpr int N = 1 << 24;
constexpr int kChunks = 4;

__global__ void add(float *c, const float *a, const float *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[i] + b[i];
}

// ---- negatives: the caller stages -------------------------------------

class Worker {
public:
  Worker() { cudaStreamCreate(&stream); }
  void run(float *hc, const float *ha, const float *hb, float *dc, float *da, float *db, int n) {
    cudaMemcpyAsync(da, ha, n * sizeof(float), cudaMemcpyHostToDevice, stream);
    cudaMemcpyAsync(db, hb, n * sizeof(float), cudaMemcpyHostToDevice, stream);
    add<<<n / 256, 256, 0, stream>>>(dc, da, db);
    cudaMemcpyAsync(hc, dc, n * sizeof(float), cudaMemcpyDeviceToHost, stream);
  }

private:
  cudaStream_t stream;
};

void chunk(cudaStream_t s, float *hc, const float *ha, float *dc, float *da, int n) {
  cudaMemcpyAsync(da, ha, n * sizeof(float), cudaMemcpyHostToDevice, s);
  add<<<n / 256, 256, 0, s>>>(dc, da, da);
  cudaMemcpyAsync(hc, dc, n * sizeof(float), cudaMemcpyDeviceToHost, s);
}

// ---- positive: each call waits for its stream, the chunks serialize ----

class WaitingWorker {
public:
  WaitingWorker() { cudaStreamCreate(&stream); }
  void run(float *hc, const float *ha, const float *hb, float *dc, float *da, float *db, int n) {
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpyAsync of 4 MiB to 'da', kernel 'add' (line [[@LINE+3]]) and cudaMemcpyAsync back (line [[@LINE+4]]) run one after another on stream 'stream'
    cudaMemcpyAsync(da, ha, (1 << 20) * sizeof(float), cudaMemcpyHostToDevice, stream);
    cudaMemcpyAsync(db, hb, (1 << 20) * sizeof(float), cudaMemcpyHostToDevice, stream);
    add<<<n / 256, 256, 0, stream>>>(dc, da, db);
    cudaMemcpyAsync(hc, dc, (1 << 20) * sizeof(float), cudaMemcpyDeviceToHost, stream);
    cudaStreamSynchronize(stream);
  }

private:
  cudaStream_t stream;
};

int main() {
  float *ha, *hb, *hc, *da, *db, *dc;
  cudaMallocHost(&ha, N * sizeof(float));
  cudaMallocHost(&hb, N * sizeof(float));
  cudaMallocHost(&hc, N * sizeof(float));
  cudaMalloc(&da, N * sizeof(float));
  cudaMalloc(&db, N * sizeof(float));
  cudaMalloc(&dc, N * sizeof(float));
  Worker workers[kChunks];
  WaitingWorker waiting[kChunks];
  cudaStream_t streams[kChunks];
  for (int i = 0; i < kChunks; ++i)
    cudaStreamCreate(&streams[i]);
  for (int i = 0; i < kChunks; ++i) {
    int off = i * (N / kChunks);
    workers[i].run(hc + off, ha + off, hb + off, dc + off, da + off, db + off, N / kChunks);
  }
  for (int i = 0; i < kChunks; ++i) {
    int off = i * (N / kChunks);
    chunk(streams[i], hc + off, ha + off, dc + off, da + off, N / kChunks);
  }
  for (int i = 0; i < kChunks; ++i) {
    int off = i * (N / kChunks);
    waiting[i].run(hc + off, ha + off, hb + off, dc + off, da + off, db + off, N / kChunks);
  }
  cudaDeviceSynchronize();
  return 0;
}

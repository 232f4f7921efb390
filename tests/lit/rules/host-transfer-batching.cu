// RUN: %python %S/Inputs/host_profile_fixture.py %S/../../../probes/profiles/h100.json %t.json
// RUN: %not %warplint check %s --rules host-transfer-batching --profile %t.json --color=never 2>&1 | %FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>
#include <cstdlib>

constexpr int ROWS = 1024, COLS = 256;

struct Node {
  float value;
  int next;
  float weights[16];
};

// ---- positives ---------------------------------------------------------

// One row at a time from one block: contiguous on both sides.
void rows(float *d) {
  float *h;
  cudaMallocHost(&h, ROWS * COLS * sizeof(float));
  for (int r = 0; r < ROWS; ++r)
    // CHECK: :[[@LINE+3]]:5: warning: cudaMemcpy in the for loop at line [[@LINE-1]] copies a different piece each iteration (1024 copies of 1 KiB each): batch them into one copy [host-transfer-batching]
    // CHECK: note: measured on FIXTURE-GPU: one 4 KiB pinned h2d copy takes 5.0 us (host_copy_latency); one 1 MiB copy moves 20.0 GB/s; 1024 such copies cost about 5120 us in latency alone
    // CHECK: note: rewrite: if the pieces are contiguous on both sides, one cudaMemcpy of all 1 MiB; if they are rows with a pitch, one cudaMemcpy2D(dst, dpitch, src, spitch, COLS * sizeof(float), 1024, kind)
    cudaMemcpy(d + r * COLS, h + r * COLS, COLS * sizeof(float), cudaMemcpyHostToDevice);
  cudaFreeHost(h);
}

// Rows allocated one by one: a pointer per row.
void separateRows(float *d, int rows) {
  float **h = (float **)malloc(rows * sizeof(float *));
  for (int r = 0; r < rows; ++r)
    h[r] = (float *)malloc(COLS * sizeof(float));
  for (int r = 0; r < rows; ++r)
    // CHECK: :[[@LINE+2]]:5: warning: cudaMemcpy in the for loop at line [[@LINE-1]] copies a different piece each iteration (one copy per iteration of 1 KiB each)
    // CHECK: note: rewrite: the host rows are separate allocations ('h[r]'): allocate them as one block
    cudaMemcpy(d + r * COLS, h[r], COLS * sizeof(float), cudaMemcpyHostToDevice);
}

// Nodes copied member by member, back to the host.
void nodes(Node *hNodes, Node *dNodes, int count) {
  for (int i = 0; i < count; ++i) {
    // CHECK: :[[@LINE+2]]:5: warning: cudaMemcpy in the for loop at line [[@LINE-1]] copies a member or node each iteration
    // CHECK: note: rewrite: flatten the nodes/members into one contiguous buffer
    cudaMemcpy(&hNodes[i].value, &dNodes[i].value, sizeof(float), cudaMemcpyDeviceToHost);
  }
}

// ---- negatives -------------------------------------------------------------

// Already one copy.
void oneCopy(float *d) {
  float *h;
  cudaMallocHost(&h, ROWS * COLS * sizeof(float));
  cudaMemcpy(d, h, ROWS * COLS * sizeof(float), cudaMemcpyHostToDevice);
}

// One small struct, once.
void oneStruct(Node *d) {
  Node n{};
  cudaMemcpy(d, &n, sizeof(Node), cudaMemcpyHostToDevice);
}

// A tiny constant trip count.
void fewCopies(float *d, float *h) {
  for (int i = 0; i < 3; ++i)
    cudaMemcpy(d + i * COLS, h + i * COLS, COLS * sizeof(float), cudaMemcpyHostToDevice);
}

// The same buffer every iteration (an iterative solver's residual): not a batch.
__global__ void step(float *x, float *res) { res[0] = x[threadIdx.x]; }
void sameBuffer(float *dX, float *dRes, float *hRes) {
  for (int it = 0; it < 100; ++it)
    cudaMemcpy(hRes, dRes, sizeof(float), cudaMemcpyDeviceToHost);
}

// Copies feeding a launch per iteration, and the staged pattern over streams.
void withLaunches(float *d, float *h, cudaStream_t *streams, int chunks) {
  for (int c = 0; c < chunks; ++c) {
    cudaMemcpy(d + c * COLS, h + c * COLS, COLS * sizeof(float), cudaMemcpyHostToDevice);
    step<<<1, COLS>>>(d + c * COLS, d);
  }
  for (int c = 0; c < chunks; ++c)
    cudaMemcpyAsync(d + c * COLS, h + c * COLS, COLS * sizeof(float), cudaMemcpyHostToDevice, streams[c % 4]);
}

// Large pieces (1 MiB or more each) and a copy already written as cudaMemcpy2D.
void largePieces(float *d, float *h) {
  for (int i = 0; i < 64; ++i)
    cudaMemcpy(d + i * (1 << 18), h + i * (1 << 18), (1 << 18) * sizeof(float), cudaMemcpyHostToDevice);
  for (int i = 0; i < 64; ++i)
    cudaMemcpy2D(d + i * 4096, 256, h + i * 4096, 512, 256, 16, cudaMemcpyHostToDevice);
}

// Device-to-device copies in a loop.
void deviceCopies(float *a, float *b) {
  for (int i = 0; i < ROWS; ++i)
    cudaMemcpy(a + i * COLS, b + i * COLS, COLS * sizeof(float), cudaMemcpyDeviceToDevice);
}

int main() { return 0; }

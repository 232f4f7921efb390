// RUN: %python %S/Inputs/host_profile_fixture.py %S/../../../probes/profiles/h100.json %t.json
// RUN: %not %warplint check %s --rules host-transfer-batching --profile %t.json --color=never 2>&1 | %FileCheck %s --implicit-check-not='warning:'

#include <cuda_runtime.h>
#include <cstdio>
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

// Chunk offsets computed by locals of the body (declared without a value,
// assigned from the counter through another local): still one buffer's
// pieces. Library output calls (fwrite) start no GPU work.
constexpr int kChunkBytes = 4096;
void chunksBack(char *hOut, const char *dOut, const int *ends, int chunks, FILE *fp) {
  const int chunkBytes = kChunkBytes;
  for (int c = 0; c < chunks; ++c) {
    int first, prevEnd = 0;
    if (c > 0) prevEnd = ends[c - 1];
    first = prevEnd * 2;
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy in the for loop at line [[@LINE-4]] copies a different piece each iteration
    cudaMemcpy(hOut + first, dOut + first, chunkBytes, cudaMemcpyDeviceToHost);
    fwrite(hOut + first, 1, chunkBytes, fp);
  }
}

// A visible host helper that starts no GPU work does not hide the batch.
static float checksum(const float *p, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i];
  return s;
}
float rowsWithChecksum(float *d, const float *h, int rows) {
  float total = 0;
  for (int r = 0; r < rows; ++r) {
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy in the for loop at line [[@LINE-1]] copies a different piece each iteration
    cudaMemcpy(d + r * COLS, h + r * COLS, COLS * sizeof(float), cudaMemcpyHostToDevice);
    total += checksum(h + r * COLS, COLS);
  }
  return total;
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

// Parts of different, unknown sizes (one per dimension of a tensor, say):
// possibly a handful of large copies, not many small ones.
struct Part {
  float *values;
  int count;
};
void partsOfTensor(float *d, const Part *parts, int nparts) {
  int offset = 0;
  for (int m = 0; m < nparts; ++m) {
    cudaMemcpy(d + offset, parts[m].values, parts[m].count * sizeof(float), cudaMemcpyHostToDevice);
    offset += parts[m].count;
  }
}

// A list built node by node on the host, each node copied on its own: the
// host operand is a local of the body with new contents every iteration.
struct Link {
  Link *next;
};
void linksOneByOne(Link *dList, int n) {
  for (int i = 0; i < n; ++i) {
    Link node;
    node.next = dList + (i + 1) % n;
    // CHECK: :[[@LINE+1]]:5: warning: cudaMemcpy in the for loop at line [[@LINE-3]] copies a different piece each iteration (one copy per iteration of 8 bytes each)
    cudaMemcpy(dList + i, &node, sizeof(Link), cudaMemcpyHostToDevice);
  }
}

// One host buffer copied into each of several device buffers: a broadcast,
// nothing to batch on the host side.
void broadcast(float **dCopies, const float *h, int copies) {
  for (int b = 0; b < copies; ++b)
    cudaMemcpy(dCopies[b], h, COLS * sizeof(float), cudaMemcpyHostToDevice);
}

// Loops that may launch kernels where this file cannot see them: each batch
// is copied and then handed to a function defined in another file (which
// may run a kernel over it), directly, through a visible wrapper, or through
// a function pointer. Copy-then-process is not a batch to merge.
double processBatch(float *table, const float *batch, int n); // defined elsewhere
static double wrapped(float *table, const float *batch, int n) { return processBatch(table, batch, n) * 2; }
void batchesToOpaque(float *dTable, float *dBatch, const float *hItems, int batches, double (*step2)(float *, const float *, int)) {
  double t = 0;
  for (int b = 0; b < batches; ++b) {
    cudaMemcpy(dBatch, hItems + b * COLS, COLS * sizeof(float), cudaMemcpyHostToDevice);
    t += processBatch(dTable, dBatch, COLS);
  }
  for (int b = 0; b < batches; ++b) {
    cudaMemcpy(dBatch, hItems + b * COLS, COLS * sizeof(float), cudaMemcpyHostToDevice);
    t += wrapped(dTable, dBatch, COLS);
  }
  for (int b = 0; b < batches; ++b) {
    cudaMemcpy(dBatch, hItems + b * COLS, COLS * sizeof(float), cudaMemcpyHostToDevice);
    t += step2(dTable, dBatch, COLS);
  }
}

// A launch through the runtime's launch call, and through a lambda.
void batchesLaunchedByApi(float *dBatch, const float *hItems, int batches) {
  void *args[] = {&dBatch};
  for (int b = 0; b < batches; ++b) {
    cudaMemcpy(dBatch, hItems + b * COLS, COLS * sizeof(float), cudaMemcpyHostToDevice);
    cudaLaunchKernel((const void *)step, dim3(1), dim3(COLS), args, 0, 0);
  }
  auto run = [&] { step<<<1, COLS>>>(dBatch, dBatch); };
  for (int b = 0; b < batches; ++b) {
    cudaMemcpy(dBatch, hItems + b * COLS, COLS * sizeof(float), cudaMemcpyHostToDevice);
    run();
  }
}

// Neither the size nor the count is known: one copy per GPU of a multi-GPU
// test (each recv[i] on its own device), possibly large: not a batch.
struct GpuArgs {
  int nGpus;
  size_t bytes;
  void **recv;
  void **expected;
};
void perGpuResults(GpuArgs *args) {
  for (int i = 0; i < args->nGpus; ++i) {
    cudaSetDevice(i);
    cudaMemcpy(args->expected[i], args->recv[i], args->bytes, cudaMemcpyDeviceToHost);
  }
}

int main() { return 0; }

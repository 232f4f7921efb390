// RUN: %not %warplint check %s --rules private-array-local-memory --color=never 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: %not %warplint check %s --rules private-array-local-memory --no-cuda-toolkit --color=never 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
//
// Arrays held by a local object: followed through its member accesses, the
// methods called on it and the functions it is passed to (issue 19, item
// 3). The stack frame of each kernel is what `nvcc -arch=sm_90 -cubin
// -Xptxas -v` (CUDA 13.0) printed when this file was written.

// A byte stream refilled every 32 bytes and read at a cursor kept in the
// object: the cursor is run-time data (the whole object, 40 bytes, is the
// stack frame).
struct ByteStream {
  unsigned char buf[32];
  unsigned cursor;
  __device__ ByteStream() : cursor(32) {}
  __device__ void refill(unsigned seed) {
    for (int b = 0; b < 32; b++)
      buf[b] = (unsigned char)(seed * (b + 7));
    cursor = 0;
  }
  __device__ unsigned char next(unsigned seed) {
    if (cursor >= 32)
      refill(seed);
    return buf[cursor++];
  }
};

// CHECK: :[[@LINE+4]]:16: warning: private array 'stream.buf' (unsigned char[32], 32 bytes a thread) is placed in local memory: the subscript in 'buf[cursor++]' is not a compile-time constant after unrolling ('cursor' is loaded from memory)
// CHECK: :24:12: note: read here
__global__ void xorStream(unsigned char *data, int n, unsigned seed) {
  if (threadIdx.x == 0) {
    ByteStream stream;
    for (int i = 0; i < n; i++)
      data[i] ^= stream.next(seed + i);
  }
}

// A work list whose address goes to a helper that pushes and pops at a
// count kept in the list (a 36-byte frame).
struct WorkList {
  int item[8];
  int count;
};
__device__ inline void pushPop(WorkList *w, const int *edges, int start) {
  w->count = 0;
  w->item[w->count++] = start;
  while (w->count > 0) {
    int v = w->item[--w->count];
    if (edges[v] > 0 && w->count < 7)
      w->item[w->count++] = edges[v];
  }
}
// CHECK: :[[@LINE+4]]:12: warning: private array 'list.item' (int[8], 32 bytes a thread) is placed in local memory: the subscript in 'w->item[w->count++]' is not a compile-time constant after unrolling ('w->count' is loaded from memory)
// CHECK: :50:7: note: written here
__global__ void walk(const int *edges, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  WorkList list;
  if (i < n) {
    pushPop(&list, edges, i);
    out[i] = list.count;
  }
}

// ---- negatives ---------------------------------------------------------

// An object whose array is only indexed by the counters of constant-trip
// loops, in its methods and through a member object (0-byte frame).
struct Mixer {
  unsigned lanes[8];
  __device__ void seed(unsigned s) {
    for (int k = 0; k < 8; k++)
      lanes[k] = s + k;
  }
  __device__ void round() {
    for (int k = 0; k < 8; k++)
      lanes[k] ^= lanes[(k + 3) & 7] << 3;
  }
};
struct Hasher {
  Mixer mix;
  __device__ unsigned digest(int rounds) {
    for (int r = 0; r < rounds; r++)
      mix.round();
    unsigned h = 0;
    for (int k = 0; k < 8; k++)
      h ^= mix.lanes[k];
    return h;
  }
};
__global__ void hashRows(const unsigned *in, unsigned *out) {
  Hasher h;
  h.mix.seed(in[threadIdx.x]);
  out[threadIdx.x] = h.digest(4);
}

// Wild-idiom corpus, group 6 (issue 11 classes; kernel_metrics.py replays):
// thread-private arrays the compiler has to place in local memory (indexed
// by data, indexed in a while loop, too large for registers) against one it
// keeps in registers (a fully unrolled constant walk), and __constant__
// reads whose address is the same in every lane (coef[blockIdx.x], a loop
// counter), differs per lane (coef[threadIdx.x]) or comes from data. The
// counters recorded: local load/store sectors and instructions, and the
// constant-cache requests (see RESULTS.md for the metric names).
#include "wild.cuh"

__constant__ int coef[256];

// L01 a private histogram indexed by data, a[v & 15] += 1 over 16 values:
// local memory expected.
__global__ void privateByData(const int *idx, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int a[16];
  for (int k = 0; k < 16; ++k)
    a[k] = 0;
  for (int k = 0; k < 16; ++k)
    a[idx[(i + 64 * k) & 16383] & 15] += 1;
  int j = idx[i] & 15;
  out[i] = a[j] * 100 + a[15 - j];
}

// L02 a private array written and read in a while loop whose trip count is
// a parameter: local memory expected.
__global__ void privateWhile(const int *in, int *out, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int a[32];
  int k = 0;
  while (k < count) {
    a[k] = in[i] * (k + 1);
    ++k;
  }
  int acc = 0;
  while (k > 0) {
    --k;
    acc += a[k] ^ k;
  }
  out[i] = acc;
}

// L03 a private array too large for registers (512 ints), constant indices
// in loops the compiler does not unroll fully: local memory expected.
__global__ void privateLarge(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int a[512];
  for (int k = 0; k < 512; ++k)
    a[k] = in[i] + 3 * k;
  int acc = 0;
  for (int k = 511; k >= 0; k -= 3)
    acc += a[k];
  out[i] = acc;
}

// L04 a small private array walked by fully unrolled loops with constant
// indices: registers, no local traffic (negative).
__global__ void privateUnrolled(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int a[8];
#pragma unroll
  for (int k = 0; k < 8; ++k)
    a[k] = in[i] + k;
  int acc = 0;
#pragma unroll
  for (int k = 0; k < 8; ++k)
    acc += a[k] * (k + 1);
  out[i] = acc;
}

// C01 coef[threadIdx.x]: a different constant address in every lane
// (serialized in the constant cache).
__global__ void constPerLane(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = coef[threadIdx.x];
}

// C02 coef[blockIdx.x]: one address a warp (negative).
__global__ void constPerBlock(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = coef[blockIdx.x] + threadIdx.x;
}

// C03 coef[data]: the address comes from memory, different per lane.
__global__ void constByData(const int *idx, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = coef[idx[i] & 255];
}

// C04 coef[k] in a loop: one address a warp each iteration (negative).
__global__ void constLoop(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int acc = 0;
  for (int k = 0; k < 16; ++k)
    acc += coef[k] * in[i];
  out[i] = acc;
}

int main() {
  const int T = 256, G = 64, n = T * G;
  std::vector<int> h = hostSeq<int>(n, 6), hidx(n), hc(256);
  for (int i = 0; i < n; ++i)
    hidx[i] = (i * 2654435761u) >> 7;
  for (int k = 0; k < 256; ++k)
    hc[k] = 1000 + 3 * k;
  CK(cudaMemcpyToSymbol(coef, hc.data(), 256 * 4));
  int *in = toDevice(h), *idx = toDevice(hidx), *out = devZero<int>(n);
  std::vector<int> want(n);

  RUN("privateByData", (privateByData<<<G, T>>>(idx, out))); // L01
  for (int i = 0; i < n; ++i) {
    int a[16] = {0};
    for (int k = 0; k < 16; ++k)
      a[hidx[(i + 64 * k) & 16383] & 15] += 1;
    int j = hidx[i] & 15;
    want[i] = a[j] * 100 + a[15 - j];
  }
  expect("privateByData", out, want);

  RUN("privateWhile", (privateWhile<<<G, T>>>(in, out, 24))); // L02
  for (int i = 0; i < n; ++i) {
    int acc = 0;
    for (int k = 0; k < 24; ++k)
      acc += (h[i] * (k + 1)) ^ k;
    want[i] = acc;
  }
  expect("privateWhile", out, want);

  RUN("privateLarge", (privateLarge<<<G, T>>>(in, out))); // L03
  for (int i = 0; i < n; ++i) {
    int acc = 0;
    for (int k = 511; k >= 0; k -= 3)
      acc += h[i] + 3 * k;
    want[i] = acc;
  }
  expect("privateLarge", out, want);

  RUN("privateUnrolled", (privateUnrolled<<<G, T>>>(in, out))); // L04
  for (int i = 0; i < n; ++i) {
    int acc = 0;
    for (int k = 0; k < 8; ++k)
      acc += (h[i] + k) * (k + 1);
    want[i] = acc;
  }
  expect("privateUnrolled", out, want);

  RUN("constPerLane", (constPerLane<<<G, T>>>(out))); // C01
  for (int i = 0; i < n; ++i)
    want[i] = hc[i % T];
  expect("constPerLane", out, want);

  RUN("constPerBlock", (constPerBlock<<<G, T>>>(out))); // C02
  for (int i = 0; i < n; ++i)
    want[i] = hc[i / T] + i % T;
  expect("constPerBlock", out, want);

  RUN("constByData", (constByData<<<G, T>>>(idx, out))); // C03
  for (int i = 0; i < n; ++i)
    want[i] = hc[hidx[i] & 255];
  expect("constByData", out, want);

  RUN("constLoop", (constLoop<<<G, T>>>(in, out))); // C04
  for (int i = 0; i < n; ++i) {
    int acc = 0;
    for (int k = 0; k < 16; ++k)
      acc += hc[k] * h[i];
    want[i] = acc;
  }
  expect("constLoop", out, want);

  freeAll(in, idx, out);
  return finish("wild_private");
}

// Host helpers of the wild-idiom corpus (tests/gpu/corpus/wild_*.cu): every
// kernel runs once on small deterministic inputs and its output is compared
// with a host computation, so the counters belong to a kernel that did what
// its comment says. The counters, not these checks, are the ground truth.
#pragma once
#include "common.cuh"
#include <vector>

// A deterministic host array: value i*7+seed, reduced to 15 bits so that
// sums of a few hundred values stay exact in int and in float.
template <class T> std::vector<T> hostSeq(size_t n, unsigned seed = 1) {
  std::vector<T> h(n);
  for (size_t i = 0; i < n; ++i)
    h[i] = T((i * 7u + seed * 13u) & 0x7fff);
  return h;
}

template <class T> T *toDevice(const std::vector<T> &h) {
  T *d = nullptr;
  CK(cudaMalloc(&d, h.size() * sizeof(T)));
  CK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

template <class T> T *devZero(size_t n) {
  T *d = nullptr;
  CK(cudaMalloc(&d, n * sizeof(T)));
  CK(cudaMemset(d, 0, n * sizeof(T)));
  return d;
}

static int g_failures = 0;

// Compares the first want.size() elements of the device array with `want`;
// prints the first mismatch. Counts failures; main() returns non-zero if any.
template <class T> void expect(const char *name, const T *dev, const std::vector<T> &want) {
  std::vector<T> got(want.size());
  CK(cudaMemcpy(got.data(), dev, want.size() * sizeof(T), cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < want.size(); ++i)
    if (!(got[i] == want[i])) {
      printf("MISMATCH %s at %zu: got %lld want %lld\n", name, i, (long long)got[i], (long long)want[i]);
      ++g_failures;
      return;
    }
  printf("ok %s\n", name);
}

// The transpose of the n x n row-major matrix `m`: what every transpose
// kernel of the corpus must write.
template <class T> std::vector<T> transposed(const std::vector<T> &m, int n) {
  std::vector<T> t(m.size());
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c)
      t[r * n + c] = m[c * n + r];
  return t;
}

// Frees a program's device arrays at its end.
template <class... T> void freeAll(T *...d) {
  for (void *p : {static_cast<void *>(d)...})
    CK(cudaFree(p));
}

inline int finish(const char *program) {
  printf("%s: %s (%d mismatches)\n", program, g_failures ? "FAILED" : "done", g_failures);
  return g_failures ? 1 : 0;
}

// Host helpers shared by the ground-truth corpus programs (tests/gpu/corpus).
// Every program launches each of its kernels once on small inputs; the
// ground-truth harness profiles them one launch at a time under ncu.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(call)                                                               \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                      \
              cudaGetErrorString(e_));                                         \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

// Launch wrapper: checks the launch and the kernel's completion, prints a tag.
#define RUN(name, launch)                                                      \
  do {                                                                         \
    launch;                                                                    \
    CK(cudaGetLastError());                                                    \
    CK(cudaDeviceSynchronize());                                               \
    printf("ran %s\n", name);                                                  \
  } while (0)

// A device buffer of `bytes` bytes filled with small pseudo-random words.
inline void *devbuf(size_t bytes, unsigned seed = 1) {
  void *d = nullptr;
  CK(cudaMalloc(&d, bytes));
  size_t words = bytes / 4;
  unsigned *h = (unsigned *)malloc(words * 4);
  unsigned x = seed * 2654435761u + 12345u;
  for (size_t i = 0; i < words; ++i) {
    x = x * 1664525u + 1013904223u;
    h[i] = (x >> 9) & 0xffff; // small, finite as float bits too
  }
  CK(cudaMemcpy(d, h, words * 4, cudaMemcpyHostToDevice));
  free(h);
  return d;
}

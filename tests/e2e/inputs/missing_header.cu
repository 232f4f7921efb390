// The include cannot be found. Clang keeps parsing after this fatal error, so
// the kernel below, which needs nothing from the header, is still analyzed;
// the error is reported as a note.
#include "this_header_does_not_exist.cuh"

__global__ void stillSeen(float *out) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = 1.f;
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = t[threadIdx.x][threadIdx.y]; // E2E-AFTER-FATAL
}

void run(float *out) { stillSeen<<<1, dim3(32, 32)>>>(out); }

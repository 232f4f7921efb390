// A shared array indexed by data (a histogram's bins) is priced at the bank
// conflicts uniform random indices give: the busiest bank's distinct words
// of 32 lanes, 3.15 wavefronts a warp request over 256 words (ncu measured
// 3.15 on cuda-samples histogram256's atomicAdd into 256 bins a warp), not
// one wavefront a request.
// RUN: %warplint check %s --dump-model --color=never 2>/dev/null | %FileCheck %s

// CHECK: "'hist[v & 255]' indexes shared memory with data: taken as uniform random over its 256 elements (3.1{{[0-9]}} wavefronts a warp request)"
// CHECK: "name": "byteHistogram"
__global__ void byteHistogram(unsigned *out, const unsigned *in) {
  __shared__ unsigned hist[256];
  hist[threadIdx.x] = 0;
  __syncthreads();
  unsigned v = in[blockIdx.x * blockDim.x + threadIdx.x];
  atomicAdd(&hist[v & 255], 1u);
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = hist[threadIdx.x];
}

void launch(unsigned *out, const unsigned *in) { byteHistogram<<<1024, 256>>>(out, in); }

// The byte filter as a grid-stride loop: a fixed grid of 8 blocks per SM
// walks the image, each thread four bytes at a time through the loop
// variable (`for (int i = 4 * tid; i + 3 < n; i += 4 * threads)`).
// `warplint check --fix` packs the four one-byte loads and stores into one
// uchar4 each (the kernel model proves i a multiple of 4 at every iteration
// of every thread): byte_grid_stride_after.cu is its output.
// Usage: byte_grid_stride_before OUT.bin
#include "bench_util.h"

__device__ unsigned char curve(unsigned char v) {
  int boosted = v + (v >> 2) + 8;
  return boosted > 255 ? 255 : (unsigned char)boosted;
}

__global__ void brightenStride(unsigned char *out, const unsigned char *in, int n) {
  for (int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x); i + 3 < n; i += 4 * blockDim.x * gridDim.x) {
    uchar4 out4;
    uchar4 in4 = reinterpret_cast<const uchar4 *>(in)[i / 4];
    out4.x = curve(in4.x);
    out4.y = curve(in4.y);
    out4.z = curve(in4.z);
    out4.w = in4.w;
    reinterpret_cast<uchar4 *>(out)[i / 4] = out4;
  }
}

int main(int argc, char **argv) {
  const int n = 256 << 20; // 256 MiB of RGBA
  const size_t bytes = size_t(n);
  std::vector<unsigned char> host(bytes);
  unsigned long long seed = 0x2545f4914f6cdd1dull;
  for (unsigned char &v : host)
    v = (unsigned char)(nextRandom(seed) >> 56);
  unsigned char *dIn = nullptr, *dOut = nullptr;
  CHECK_CUDA(cudaMalloc(&dIn, bytes));
  CHECK_CUDA(cudaMalloc(&dOut, bytes));
  CHECK_CUDA(cudaMemcpy(dIn, host.data(), bytes, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(dOut, 0xA5, bytes)); // poison: every byte must be written
  int sms = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int threads = 256, blocks = 8 * sms;
  float ms = medianMs([&] { brightenStride<<<blocks, threads>>>(dOut, dIn, n); });
  CHECK_CUDA(cudaMemcpy(host.data(), dOut, bytes, cudaMemcpyDeviceToHost));
  std::printf("median_ms %.4f\n", ms);
  if (argc > 1)
    dumpOutput(argv[1], host.data(), bytes);
  return 0;
}

// A byte image filter (RGBA brightness curve) where each thread handles one
// pixel with four one-byte loads and stores. `warplint check --fix` packs them
// into one uchar4 load and store: byte_filter_after.cu is its output.
// Usage: byte_filter_before OUT.bin
#include "bench_util.h"

__device__ unsigned char curve(unsigned char v) {
  int boosted = v + (v >> 2) + 8;
  return boosted > 255 ? 255 : (unsigned char)boosted;
}

__global__ void brighten(unsigned char *out, const unsigned char *in, int pixels) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < pixels) {
    uchar4 out4;
    uchar4 in4 = reinterpret_cast<const uchar4 *>(in)[i];
    out4.x = curve(in4.x);
    out4.y = curve(in4.y);
    out4.z = curve(in4.z);
    out4.w = in4.w;
    reinterpret_cast<uchar4 *>(out)[i] = out4;
  }
}

int main(int argc, char **argv) {
  const int pixels = 64 << 20; // 256 MB of RGBA
  const size_t bytes = size_t(pixels) * 4;
  std::vector<unsigned char> host(bytes);
  unsigned long long seed = 0x2545f4914f6cdd1dull;
  for (unsigned char &v : host)
    v = (unsigned char)(nextRandom(seed) >> 56);
  unsigned char *dIn = nullptr, *dOut = nullptr;
  CHECK_CUDA(cudaMalloc(&dIn, bytes));
  CHECK_CUDA(cudaMalloc(&dOut, bytes));
  CHECK_CUDA(cudaMemcpy(dIn, host.data(), bytes, cudaMemcpyHostToDevice));
  const int threads = 256, blocks = (pixels + threads - 1) / threads;
  float ms = medianMs([&] { brighten<<<blocks, threads>>>(dOut, dIn, pixels); });
  CHECK_CUDA(cudaMemcpy(host.data(), dOut, bytes, cudaMemcpyDeviceToHost));
  std::printf("median_ms %.4f\n", ms);
  if (argc > 1)
    dumpOutput(argv[1], host.data(), bytes);
  return 0;
}

// The byte filter of byte_filter_before.cu written as much code writes it:
// each thread handles one RGBA pixel through a local byte index
// `int i = 4 * pixel`, then out[i] .. out[i + 3], four one-byte loads and
// stores. `warplint check --fix` packs them into one uchar4 load and store
// (the kernel model proves i a multiple of 4 for every thread, and the launch
// passes cudaMalloc memory): byte_local_index_after.cu is its output.
// Usage: byte_local_index_before OUT.bin
#include "bench_util.h"

__device__ unsigned char curve(unsigned char v) {
  int boosted = v + (v >> 2) + 8;
  return boosted > 255 ? 255 : (unsigned char)boosted;
}

__global__ void brightenLocal(unsigned char *out, const unsigned char *in, int n) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i + 3 < n) {
    out[i] = curve(in[i]);
    out[i + 1] = curve(in[i + 1]);
    out[i + 2] = curve(in[i + 2]);
    out[i + 3] = in[i + 3];
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
  const int threads = 256, blocks = (n / 4 + threads - 1) / threads;
  float ms = medianMs([&] { brightenLocal<<<blocks, threads>>>(dOut, dIn, n); });
  CHECK_CUDA(cudaMemcpy(host.data(), dOut, bytes, cudaMemcpyDeviceToHost));
  std::printf("median_ms %.4f\n", ms);
  if (argc > 1)
    dumpOutput(argv[1], host.data(), bytes);
  return 0;
}

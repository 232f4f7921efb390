// A read-only gather: each thread reads a table entry through an index array,
// scattered but local (within 256 entries of its own). The table and indices
// are only read but declared `float *` / `int *`. `warplint check --fix`
// declares them `const ... *__restrict__` (every launch passes distinct
// cudaMalloc allocations), so the loads may use the read-only data path:
// gather_after.cu is its output. Usage: gather_before OUT.bin
#include "bench_util.h"

__global__ void gather(float *out, float *table, int *index, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float acc = 0.f;
    for (int k = 0; k < 4; ++k)
      acc += table[index[i] + 64 * k];
    out[i] = acc;
  }
}

int main(int argc, char **argv) {
  const int n = 32 << 20;
  const int tableSize = n + 512;
  std::vector<float> table(tableSize);
  std::vector<int> index(n);
  unsigned long long seed = 0x1234567887654321ull;
  for (float &v : table)
    v = float(nextRandom(seed) >> 40) / float(1 << 24);
  for (int i = 0; i < n; ++i)
    index[i] = i + int(nextRandom(seed) % 256);
  float *dOut = nullptr, *dTable = nullptr;
  int *dIndex = nullptr;
  CHECK_CUDA(cudaMalloc(&dOut, size_t(n) * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dTable, size_t(tableSize) * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dIndex, size_t(n) * sizeof(int)));
  CHECK_CUDA(cudaMemcpy(dTable, table.data(), size_t(tableSize) * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dIndex, index.data(), size_t(n) * sizeof(int), cudaMemcpyHostToDevice));
  const int threads = 256, blocks = (n + threads - 1) / threads;
  float ms = medianMs([&] { gather<<<blocks, threads>>>(dOut, dTable, dIndex, n); });
  std::vector<float> out(n);
  CHECK_CUDA(cudaMemcpy(out.data(), dOut, size_t(n) * sizeof(float), cudaMemcpyDeviceToHost));
  std::printf("median_ms %.4f\n", ms);
  if (argc > 1)
    dumpOutput(argv[1], out.data(), size_t(n) * sizeof(float));
  return 0;
}

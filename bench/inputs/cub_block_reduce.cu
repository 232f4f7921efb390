// A TU that pulls in cub and cooperative groups: the heavy headers real CUDA
// code includes. Its parse dominates; the analysis must add little.
#include <cooperative_groups.h>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

namespace cg = cooperative_groups;

template <int BLOCK>
__global__ void blockSums(const float *in, float *out, int n) {
  using Reduce = cub::BlockReduce<float, BLOCK>;
  __shared__ typename Reduce::TempStorage temp;
  __shared__ float stage[BLOCK];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  stage[threadIdx.x] = i < n ? in[i] : 0.f;
  cg::this_thread_block().sync();
  float v = Reduce(temp).Sum(stage[(threadIdx.x * 2) % BLOCK]);
  if (threadIdx.x == 0)
    out[blockIdx.x] = v;
}

__global__ void prefix(const int *in, int *out) {
  using Scan = cub::BlockScan<int, 128>;
  __shared__ typename Scan::TempStorage temp;
  int x = in[blockIdx.x * 128 + threadIdx.x];
  Scan(temp).ExclusiveSum(x, x);
  out[blockIdx.x * 128 + threadIdx.x] = x;
}

void run(const float *in, float *out, const int *a, int *b, int n) {
  blockSums<256><<<n / 256, 256>>>(in, out, n);
  prefix<<<n / 128, 128>>>(a, b);
}

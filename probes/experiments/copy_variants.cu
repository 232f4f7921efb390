// Experiment (not part of the suite): which device-to-device copy kernel gets
// closest to the theoretical DRAM bandwidth? Kept because the dram_copy probe's
// choice of kernels rests on its results (probes/experiments/README.md).
//   nvcc -O3 -arch=sm_90 -o copy_variants copy_variants.cu && ./copy_variants
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#define CK(x)                                                                         \
  do {                                                                                \
    cudaError_t e_ = (x);                                                             \
    if (e_ != cudaSuccess) {                                                          \
      std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));                   \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

__global__ void onePerThread(const float4* __restrict__ in, float4* __restrict__ out, size_t n) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

__device__ __forceinline__ float4 ldStream256(const float4* p) {
  float4 v;
  asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.f32 {%0,%1,%2,%3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "l"(p));
  return v;
}

// Block b copies blockDim*M consecutive float4 (all loads, then all stores).
template <int M, bool Hint>
__global__ void blockChunk(const float4* __restrict__ in, float4* __restrict__ out, size_t n) {
  size_t base = size_t(blockIdx.x) * blockDim.x * M + threadIdx.x;
  float4 v[M];
#pragma unroll
  for (int m = 0; m < M; ++m) {
    size_t i = base + size_t(m) * blockDim.x;
    if (i < n) v[m] = Hint ? ldStream256(in + i) : in[i];
  }
#pragma unroll
  for (int m = 0; m < M; ++m) {
    size_t i = base + size_t(m) * blockDim.x;
    if (i < n) {
      if (Hint) __stcs(out + i, v[m]);
      else out[i] = v[m];
    }
  }
}

// Hopper bulk copy (TMA without a tensor map): thread 0 of each block streams
// its chunks global -> shared -> global with S stages.
template <int S>
__global__ void bulkCopy(const char* in, char* out, size_t chunks, uint32_t chunkBytes) {
  extern __shared__ __align__(128) unsigned char smem[];
  __shared__ __align__(8) uint64_t bar[S];
  if (threadIdx.x != 0) return;
  for (int s = 0; s < S; ++s) {
    uint32_t b = uint32_t(__cvta_generic_to_shared(&bar[s]));
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b));
  }
  asm volatile("fence.mbarrier_init.release.cluster;");
  asm volatile("fence.proxy.async.shared::cta;");
  auto issueLoad = [&](size_t c, int s) {
    uint32_t b = uint32_t(__cvta_generic_to_shared(&bar[s]));
    uint32_t d = uint32_t(__cvta_generic_to_shared(smem + size_t(s) * chunkBytes));
    uint64_t st;
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], %2;"
                 : "=l"(st) : "r"(b), "r"(chunkBytes) : "memory");
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
        ::"r"(d), "l"(in + c * chunkBytes), "r"(chunkBytes), "r"(b) : "memory");
  };
  const size_t first = blockIdx.x, step = gridDim.x;
  uint32_t phase = 0;  // bit s = parity expected for stage s
  int k = 0;
  for (size_t c = first; c < chunks && k < S; c += step, ++k) issueLoad(c, k);
  k = 0;
  for (size_t c = first; c < chunks; c += step, ++k) {
    int s = k % S;
    uint32_t b = uint32_t(__cvta_generic_to_shared(&bar[s]));
    uint32_t par = (phase >> s) & 1u;
    uint32_t done = 0;
    while (!done) {
      asm volatile(
          "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
          : "=r"(done) : "r"(b), "r"(par) : "memory");
    }
    phase ^= 1u << s;
    uint32_t src = uint32_t(__cvta_generic_to_shared(smem + size_t(s) * chunkBytes));
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
                 ::"l"(out + c * chunkBytes), "r"(src), "r"(chunkBytes) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    // The store just issued may stay in flight; older ones must have read
    // their stage before that stage is refilled.
    asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
    if (k >= 1) {
      size_t next = c + (S - 1) * step;  // chunk k-1+S goes to stage (k-1)%S
      if (next < chunks) issueLoad(next, (k - 1) % S);
    }
  }
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

// Each thread copies two adjacent float4 (a warp covers 1 KiB).
__global__ void pairPerThread(const float4* __restrict__ in, float4* __restrict__ out, size_t n) {
  size_t i = 2 * (size_t(blockIdx.x) * blockDim.x + threadIdx.x);
  if (i + 1 < n) {
    float4 x = in[i], y = in[i + 1];
    out[i] = x;
    out[i + 1] = y;
  }
}

// Two streams: element i and element i + n/2.
__global__ void twoStreams(const float4* __restrict__ in, float4* __restrict__ out, size_t n) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x, h = n / 2;
  if (i < h) {
    float4 x = in[i], y = in[i + h];
    out[i] = x;
    out[i + h] = y;
  }
}

__global__ void onePerThreadL2Hint(const float4* __restrict__ in, float4* __restrict__ out, size_t n) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 v;
    asm volatile("ld.global.L2::128B.v4.f32 {%0,%1,%2,%3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(in + i));
    asm volatile("st.global.L1::no_allocate.v4.f32 [%0], {%1,%2,%3,%4};"
                 ::"l"(out + i), "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w) : "memory");
  }
}

static double medianOf(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main() {
  cudaDeviceProp p{};
  CK(cudaGetDeviceProperties(&p, 0));
  int memKHz = 0, bus = 0;
  CK(cudaDeviceGetAttribute(&memKHz, cudaDevAttrMemoryClockRate, 0));
  CK(cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, 0));
  const double theo = 2.0 * memKHz * 1e3 * bus / 8 / 1e9;
  std::printf("device %s, theoretical %.1f GB/s\n", p.name, theo);
  const size_t maxBytes = size_t(4) << 30;
  char *a = nullptr, *b = nullptr;
  CK(cudaMalloc(&a, maxBytes));
  CK(cudaMalloc(&b, maxBytes));
  CK(cudaMemset(a, 1, maxBytes));
  CK(cudaMemset(b, 0, maxBytes));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  const int sms = p.multiProcessorCount;
  CK(cudaFuncSetAttribute(bulkCopy<4>, cudaFuncAttributeMaxDynamicSharedMemorySize, 4 * 32768));
  CK(cudaFuncSetAttribute(bulkCopy<6>, cudaFuncAttributeMaxDynamicSharedMemorySize, 6 * 16384));
  CK(cudaFuncSetAttribute(bulkCopy<3>, cudaFuncAttributeMaxDynamicSharedMemorySize, 3 * 32768));
  struct Variant {
    std::string name;
    std::function<void(size_t)> launch;  // bytes
  };
  const float4* in4 = reinterpret_cast<const float4*>(a);
  float4* out4 = reinterpret_cast<float4*>(b);
  std::vector<Variant> vs = {
      {"cudaMemcpy", [&](size_t B) { CK(cudaMemcpyAsync(b, a, B, cudaMemcpyDeviceToDevice)); }},
      {"one_per_thread_256", [&](size_t B) { size_t n = B / 16; onePerThread<<<unsigned(n / 256), 256>>>(in4, out4, n); }},
      {"one_per_thread_128", [&](size_t B) { size_t n = B / 16; onePerThread<<<unsigned(n / 128), 128>>>(in4, out4, n); }},
      {"one_per_thread_64", [&](size_t B) { size_t n = B / 16; onePerThread<<<unsigned(n / 64), 64>>>(in4, out4, n); }},
      {"one_per_thread_96", [&](size_t B) { size_t n = B / 16; onePerThread<<<unsigned((n + 95) / 96), 96>>>(in4, out4, n); }},
      {"pair_per_thread_128", [&](size_t B) { size_t n = B / 16; pairPerThread<<<unsigned(n / 256), 128>>>(in4, out4, n); }},
      {"two_streams_128", [&](size_t B) { size_t n = B / 16; twoStreams<<<unsigned(n / 256), 128>>>(in4, out4, n); }},
      {"one_per_thread_128_l2hint", [&](size_t B) { size_t n = B / 16; onePerThreadL2Hint<<<unsigned(n / 128), 128>>>(in4, out4, n); }},
      {"block_chunk2_256", [&](size_t B) { size_t n = B / 16; blockChunk<2, false><<<unsigned(n / 512), 256>>>(in4, out4, n); }},
      {"block_chunk4_256", [&](size_t B) { size_t n = B / 16; blockChunk<4, false><<<unsigned(n / 1024), 256>>>(in4, out4, n); }},
      {"block_chunk8_128", [&](size_t B) { size_t n = B / 16; blockChunk<8, false><<<unsigned(n / 1024), 128>>>(in4, out4, n); }},
      {"block_chunk2_256_hint", [&](size_t B) { size_t n = B / 16; blockChunk<2, true><<<unsigned(n / 512), 256>>>(in4, out4, n); }},
      {"block_chunk4_256_hint", [&](size_t B) { size_t n = B / 16; blockChunk<4, true><<<unsigned(n / 1024), 256>>>(in4, out4, n); }},
      {"one_per_thread_256_hint", [&](size_t B) { size_t n = B / 16; blockChunk<1, true><<<unsigned(n / 256), 256>>>(in4, out4, n); }},
      {"bulk_s4_32k_x1", [&](size_t B) { bulkCopy<4><<<sms, 32, 4 * 32768>>>(a, b, B / 32768, 32768); }},
      {"bulk_s6_16k_x2", [&](size_t B) { bulkCopy<6><<<2 * sms, 32, 6 * 16384>>>(a, b, B / 16384, 16384); }},
      {"bulk_s3_32k_x2", [&](size_t B) { bulkCopy<3><<<2 * sms, 32, 3 * 32768>>>(a, b, B / 32768, 32768); }},
  };
  // Correctness of the bulk kernels (they are the untested ones).
  for (const char* nm : {"bulk_s4_32k_x1", "bulk_s6_16k_x2", "bulk_s3_32k_x2", "block_chunk4_256_hint", "pair_per_thread_128", "two_streams_128", "one_per_thread_96", "one_per_thread_128_l2hint"}) {
    for (auto& v : vs)
      if (v.name == nm) {
        CK(cudaMemset(a, 7, 64 << 20));
        CK(cudaMemset(b, 0, 64 << 20));
        v.launch(64 << 20);
        CK(cudaDeviceSynchronize());
        std::vector<unsigned char> h(64 << 20);
        CK(cudaMemcpy(h.data(), b, h.size(), cudaMemcpyDeviceToHost));
        size_t bad = 0;
        for (unsigned char c : h) bad += c != 7;
        std::printf("check %s: %zu wrong bytes\n", nm, bad);
      }
  }
  CK(cudaMemset(a, 1, maxBytes));
  std::printf("%-26s %6s %8s %10s %8s %8s %8s\n", "variant", "GiB", "launches", "median", "min", "max", "%theo");
  for (size_t gib : {1, 4})
    for (int launches : {1, 5})
      if ((gib == 1) == (launches == 1))
      for (auto& v : vs) {
        size_t B = gib << 30;
        std::vector<double> g;
        v.launch(B);
        CK(cudaDeviceSynchronize());
        for (int r = 0; r < 9; ++r) {
          CK(cudaEventRecord(e0));
          for (int l = 0; l < launches; ++l) v.launch(B);
          CK(cudaEventRecord(e1));
          CK(cudaEventSynchronize(e1));
          CK(cudaGetLastError());
          float ms = 0;
          CK(cudaEventElapsedTime(&ms, e0, e1));
          g.push_back(2.0 * B * launches / (ms * 1e-3) / 1e9);
        }
        double m = medianOf(g);
        std::printf("%-26s %6zu %8d %10.1f %8.1f %8.1f %8.1f\n", v.name.c_str(), gib, launches, m,
                    *std::min_element(g.begin(), g.end()), *std::max_element(g.begin(), g.end()),
                    100 * m / theo);
      }
  return 0;
}

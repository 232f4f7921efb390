// Global-memory bandwidth probes (seed 000 Table 4, seed 003 sec. 4.3).
#include "probe.h"
#include "sm_rate.cuh"

#include <algorithm>
#include <cstdio>

#include <string>
#include <vector>

namespace probe {

template <typename T>
__global__ void copyKernel(const T* __restrict__ in, T* __restrict__ out, size_t n) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

__global__ void gatherKernel(const float* __restrict__ in, float* __restrict__ out, size_t n,
                             size_t mask, uint32_t stride) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[(i * stride) & mask];
}

__global__ void offsetCopyKernel(const float* __restrict__ in, float* __restrict__ out, size_t n,
                                 uint32_t offset) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i + offset];
}

// Grid-stride read with M independent 16-byte loads in flight per thread.
template <int M>
__global__ void readKernel(const float4* __restrict__ in, size_t n, float* sink) {
  float acc = 0;
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + (M - 1) * stride < n; i += M * stride) {
    float4 v[M];
#pragma unroll
    for (int m = 0; m < M; ++m) v[m] = in[i + m * stride];
#pragma unroll
    for (int m = 0; m < M; ++m) acc += v[m].x + v[m].y + v[m].z + v[m].w;
  }
  for (; i < n; i += stride) acc += in[i].x;
  if (acc == 1234.5f) sink[0] = acc;
}

// Grid-stride copy with M independent 16-byte loads in flight per thread.
template <int M>
__global__ void copyVecKernel(const float4* __restrict__ in, float4* __restrict__ out, size_t n) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + (M - 1) * stride < n; i += M * stride) {
    float4 v[M];
#pragma unroll
    for (int m = 0; m < M; ++m) v[m] = in[i + m * stride];
#pragma unroll
    for (int m = 0; m < M; ++m) out[i + m * stride] = v[m];
  }
  for (; i < n; i += stride) out[i] = in[i];
}

// The same with streaming cache hints (evict-first loads and stores).
template <int M>
__global__ void copyVecStreamingKernel(const float4* __restrict__ in, float4* __restrict__ out,
                                       size_t n) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + (M - 1) * stride < n; i += M * stride) {
    float4 v[M];
#pragma unroll
    for (int m = 0; m < M; ++m) v[m] = __ldcs(in + i + m * stride);
#pragma unroll
    for (int m = 0; m < M; ++m) __stcs(out + i + m * stride, v[m]);
  }
  for (; i < n; i += stride) __stcs(out + i, __ldcs(in + i));
}

namespace {

constexpr size_t kCopyBytes = size_t(256) << 20;

// Some launch shapes copy 4% faster or slower between one pair of allocations
// than another (H100, 1024 threads an SM, one load each), so the DRAM probes
// spread every sample over kPlacements separate allocations.

// GB/s (1e9 bytes) of `bytes` moved by `launch`, one untimed launch first.
template <typename F>
double gbps(double bytes, F launch) {
  EventTimer t;
  launch();
  checkLaunch("bandwidth warm-up");
  t.start();
  launch();
  float ms = t.stopMs();
  check(cudaGetLastError(), "bandwidth launch");
  return bytes / (ms * 1e-3) / 1e9;
}

// Runs `launch` untimed for at least `ms` milliseconds. Latency-bound shapes
// read 1017 GB/s for the first ~10 ms and 1188 after (H200, 128 threads an
// SM, two loads each): the memory system adapts to a load, so a value's runs
// start only after it has had time to.
template <typename F>
void settle(F launch, float ms) {
  EventTimer t;
  t.start();
  float spent = 0;
  for (int i = 0; i < 200 && spent < ms; ++i) {
    launch();
    spent = t.stopMs();
  }
  check(cudaGetLastError(), "settle launch");
}

template <typename T>
void byType(Context& ctx, ProbeOutput& out, const char* name, char* in, char* outBuf) {
  size_t n = kCopyBytes / sizeof(T);
  auto& v = out.add("bandwidth_gbps", {str("type", name), num("element_bytes", sizeof(T))}, "GB/s",
                    "out[i] = in[i], one element a thread, 256 threads a block, 256 MiB; "
                    "bytes read + written over event time");
  for (int r = 0; r < ctx.runs; ++r)
    v.samples.push_back(gbps(2.0 * kCopyBytes, [&] {
      copyKernel<T><<<unsigned((n + 255) / 256), 256>>>(reinterpret_cast<const T*>(in),
                                                          reinterpret_cast<T*>(outBuf), n);
    }));
}

}  // namespace

void runGlobalBandwidthByType(Context& ctx, ProbeOutput& out) {
  DeviceBuffer<char> a(kCopyBytes), b(kCopyBytes);
  PROBE_CHECK(cudaMemset(a.ptr, 1, a.bytes()));
  byType<char>(ctx, out, "char", a.ptr, b.ptr);
  byType<char2>(ctx, out, "char2", a.ptr, b.ptr);
  byType<char4>(ctx, out, "char4", a.ptr, b.ptr);
  byType<short>(ctx, out, "short", a.ptr, b.ptr);
  byType<int>(ctx, out, "int", a.ptr, b.ptr);
  byType<float>(ctx, out, "float", a.ptr, b.ptr);
  byType<float2>(ctx, out, "float2", a.ptr, b.ptr);
  byType<float4>(ctx, out, "float4", a.ptr, b.ptr);
  byType<double>(ctx, out, "double", a.ptr, b.ptr);
  auto& m = out.add("bandwidth_gbps", {str("type", "cudaMemcpy_d2d")}, "GB/s",
                    "cudaMemcpy device-to-device of 256 MiB; bytes read + written over event time");
  for (int r = 0; r < ctx.runs; ++r)
    m.samples.push_back(gbps(2.0 * kCopyBytes, [&] {
      check(cudaMemcpy(b.ptr, a.ptr, kCopyBytes, cudaMemcpyDeviceToDevice), "cudaMemcpy");
    }));
}

void runGlobalBandwidthByStride(Context& ctx, ProbeOutput& out) {
  const size_t words = kCopyBytes / 4, threads = size_t(32) << 20;
  DeviceBuffer<float> in(words), o(threads);
  PROBE_CHECK(cudaMemset(in.ptr, 0, in.bytes()));
  for (uint32_t s = 1; s <= 32; ++s) {
    auto& v = out.add("bandwidth_gbps", {num("stride_elements", s), str("type", "float")}, "GB/s",
                      "out[i] = in[(i*s) mod 64M], 32M threads; useful bytes (8 a thread) over time");
    for (int r = 0; r < ctx.runs; ++r)
      v.samples.push_back(gbps(8.0 * threads, [&] {
        gatherKernel<<<unsigned(threads / 256), 256>>>(in.ptr, o.ptr, threads, words - 1, s);
      }));
  }
}

void runGlobalBandwidthByOffset(Context& ctx, ProbeOutput& out) {
  const size_t n = kCopyBytes / 4;
  DeviceBuffer<float> in(n + 64), o(n);
  PROBE_CHECK(cudaMemset(in.ptr, 0, in.bytes()));
  for (uint32_t off = 0; off <= 32; ++off) {
    auto& v = out.add("bandwidth_gbps", {num("offset_elements", off), str("type", "float")}, "GB/s",
                      "out[i] = in[i + off], 64M floats; bytes read + written over time");
    for (int r = 0; r < ctx.runs; ++r)
      v.samples.push_back(gbps(8.0 * n, [&] {
        offsetCopyKernel<<<unsigned(n / 256), 256>>>(in.ptr, o.ptr, n, off);
      }));
  }
}

namespace {

// Sustained copy: 4 GiB each way, five launches back to back between the
// events, so launch gaps and the grid's tail weigh 0.1% instead of 1%
// (probes/experiments/README.md: the best of 17 copy kernels on the H200).
void runSustainedCopy(Context& ctx, ProbeOutput& out) {
  const size_t bytes = size_t(4) << 30, n = bytes / 16;
  constexpr int kLaunches = 5;
  DeviceBuffer<float4> a(n), b(n);
  PROBE_CHECK(cudaMemset(a.ptr, 1, a.bytes()));
  auto copyAll = [&](const float4* in, float4* o) {
    copyKernel<float4><<<unsigned(n / 128), 128>>>(in, o, n);
  };
  auto& k = out.add("copy_bandwidth_gbps",
                    {str("kernel", "float4_one_per_thread_sustained"), num("threads_per_block", 128),
                     num("bytes", double(bytes)), num("launches_per_timing", kLaunches)},
                    "GB/s", "out[i] = in[i] float4, 128 threads a block, 4 GiB, 5 launches between "
                    "the events; bytes read + written over event time");
  auto& m = out.add("copy_bandwidth_gbps",
                    {str("kernel", "cudaMemcpy_d2d_sustained"), num("bytes", double(bytes)),
                     num("launches_per_timing", kLaunches)},
                    "GB/s", "cudaMemcpyAsync device-to-device of 4 GiB, 5 back to back between "
                    "the events; bytes read + written over event time");
  for (int r = 0; r < ctx.runs; ++r) {
    k.samples.push_back(gbps(2.0 * bytes * kLaunches, [&] {
      for (int l = 0; l < kLaunches; ++l) copyAll(a.ptr, b.ptr);
    }));
    m.samples.push_back(gbps(2.0 * bytes * kLaunches, [&] {
      for (int l = 0; l < kLaunches; ++l)
        check(cudaMemcpyAsync(b.ptr, a.ptr, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpyAsync");
    }));
  }
}

}  // namespace

namespace {

// A value of the DRAM probes: `launchOn(p)` moves `bytesPerLaunch` using
// placement p. After settling, every sample times one launch on each of the
// four placements back to back, so a sample is their mean and not the luck
// of one allocation (copies between some pairs of allocations run 4% slower).
template <typename F>
void sampleOverPlacements(Context& ctx, Value& v, double bytesPerLaunch, F launchOn) {
  auto all = [&] {
    for (int p = 0; p < kPlacements; ++p) launchOn(p);
  };
  settle(all, 25.0f);
  for (int r = 0; r < ctx.runs; ++r) v.samples.push_back(gbps(bytesPerLaunch * kPlacements, all));
}

}  // namespace

void runDramCopy(Context& ctx, ProbeOutput& out) {
  const size_t bytes = size_t(1) << 30, n = bytes / 16;
  Placements<float4> A(n), B(n);
  A.fill(1);
  B.fill(0);
  const int sms = ctx.prop.multiProcessorCount;
  const std::string timing = "; bytes read + written over event time, a sample timing one "
                             "launch on each of 4 allocation pairs after 25 ms of untimed launches";
  for (int bps : {1, 2, 4})
    for (int tpb : {512, 1024})
      for (int m : {1, 2, 4}) {
        if (bps * tpb > ctx.prop.maxThreadsPerMultiProcessor) continue;
        auto& v = out.add("copy_bandwidth_gbps",
                          {str("kernel", "float4_grid_stride"), num("blocks_per_sm", bps),
                           num("threads_per_block", tpb), num("loads_in_flight_per_thread", m)},
                          "GB/s", "grid-stride float4 copy of 1 GiB" + timing);
        unsigned blocks = unsigned(sms * bps);
        sampleOverPlacements(ctx, v, 2.0 * bytes, [&](int p) {
          switch (m) {
            case 1: copyVecKernel<1><<<blocks, tpb>>>(A[p], B[p], n); break;
            case 2: copyVecKernel<2><<<blocks, tpb>>>(A[p], B[p], n); break;
            default: copyVecKernel<4><<<blocks, tpb>>>(A[p], B[p], n); break;
          }
        });
      }
  for (int bps : {2, 4})
    for (int m : {2, 4}) {
      auto& v = out.add("copy_bandwidth_gbps",
                        {str("kernel", "float4_grid_stride_streaming"), num("blocks_per_sm", bps),
                         num("threads_per_block", 512), num("loads_in_flight_per_thread", m)},
                        "GB/s", "grid-stride float4 copy of 1 GiB with __ldcs/__stcs" + timing);
      unsigned blocks = unsigned(sms * bps);
      sampleOverPlacements(ctx, v, 2.0 * bytes, [&](int p) {
        if (m == 2) copyVecStreamingKernel<2><<<blocks, 512>>>(A[p], B[p], n);
        else copyVecStreamingKernel<4><<<blocks, 512>>>(A[p], B[p], n);
      });
    }
  for (int tpb : {128, 256, 512, 1024}) {
    auto& v = out.add("copy_bandwidth_gbps", {str("kernel", "float4_one_per_thread"),
                                              num("threads_per_block", tpb)},
                      "GB/s", "out[i] = in[i] float4, one element a thread, 1 GiB" + timing);
    sampleOverPlacements(ctx, v, 2.0 * bytes, [&](int p) {
      copyKernel<float4><<<unsigned(n / tpb), tpb>>>(A[p], B[p], n);
    });
  }
  auto& m = out.add("copy_bandwidth_gbps", {str("kernel", "cudaMemcpy_d2d")}, "GB/s",
                    "cudaMemcpyAsync device-to-device of 1 GiB" + timing);
  sampleOverPlacements(ctx, m, 2.0 * bytes, [&](int p) {
    check(cudaMemcpyAsync(B[p], A[p], bytes, cudaMemcpyDeviceToDevice), "cudaMemcpyAsync");
  });
  runSustainedCopy(ctx, out);
}

void runDramBandwidthVsConfig(Context& ctx, ProbeOutput& out) {
  const size_t bytes = size_t(1) << 30, n = bytes / 16;
  Placements<float4> in(n);
  in.fill(0);
  DeviceBuffer<float> sink(1);
  const int sms = ctx.prop.multiProcessorCount;
  for (int bps : {1, 2, 4, 8})
    for (int tpb : {128, 256, 512, 1024}) {
      if (bps * tpb > ctx.prop.maxThreadsPerMultiProcessor) continue;
      for (int m : {1, 2, 4, 8}) {
        auto& v = out.add("read_bandwidth_gbps",
                          {num("blocks_per_sm", bps), num("threads_per_block", tpb),
                           num("loads_in_flight_per_thread", m),
                           num("bytes_in_flight_per_sm", double(bps) * tpb * m * 16)},
                          "GB/s", "grid-stride float4 read of 1 GiB; bytes read over event time, a "
                          "sample timing one launch on each of 4 allocations after 25 ms of "
                          "untimed launches");
        unsigned blocks = unsigned(sms * bps);
        sampleOverPlacements(ctx, v, double(bytes), [&](int p) {
          switch (m) {
            case 1: readKernel<1><<<blocks, tpb>>>(in[p], n, sink.ptr); break;
            case 2: readKernel<2><<<blocks, tpb>>>(in[p], n, sink.ptr); break;
            case 4: readKernel<4><<<blocks, tpb>>>(in[p], n, sink.ptr); break;
            default: readKernel<8><<<blocks, tpb>>>(in[p], n, sink.ptr); break;
          }
        });
      }
    }
}

// ------------------------------------------------ L2-resident bandwidth

// Grid-stride over an L2-resident footprint of `mask + 1` float4 (a power of
// two): thread t reads element (t + (it*M + m) * T) mod footprint, T threads in
// the grid, M independent ld.global.cg loads in flight a thread (L2 only, so
// L1 never serves them). Same shape grid as dram_bandwidth_vs_config. The
// loop is not unrolled and every word of a load is used: in the first H100
// run NVVM unrolled it 16 times (16 x M loads in flight) and ptxas narrowed
// the 16-byte loads whose other words were unused to 4 bytes.
template <int M>
__global__ void l2ReadKernel(const float4* __restrict__ in, uint32_t mask, uint32_t iters, float* sink) {
  const uint32_t T = gridDim.x * blockDim.x;
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
#pragma unroll 1
  for (uint32_t it = 0; it < iters; ++it) {
    float4 v[M];
#pragma unroll
    for (int m = 0; m < M; ++m) v[m] = __ldcg(in + ((i + m * T) & mask));
#pragma unroll
    for (int m = 0; m < M; ++m) acc += (v[m].x + v[m].y) + (v[m].z + v[m].w);
    i += M * T;
  }
  if (acc == 1234.5f) sink[0] = acc;
}

// The same walk storing with st.global.cg (write-back L2 absorbs rewrites of
// the same footprint).
template <int M>
__global__ void l2WriteKernel(float4* __restrict__ out, uint32_t mask, uint32_t iters) {
  const uint32_t T = gridDim.x * blockDim.x;
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  const float4 v = make_float4(float(i), 1.f, 2.f, 3.f);
#pragma unroll 1
  for (uint32_t it = 0; it < iters; ++it) {
#pragma unroll
    for (int m = 0; m < M; ++m) __stcg(out + ((i + m * T) & mask), v);
    i += M * T;
  }
}

void runL2BandwidthVsConfig(Context& ctx, ProbeOutput& out) {
  const size_t footprint = size_t(8) << 20, n = footprint / 16;
  const double target = double(size_t(2) << 30);  // bytes a timed launch moves
  DeviceBuffer<float4> buf(n);
  PROBE_CHECK(cudaMemset(buf.ptr, 0, buf.bytes()));
  DeviceBuffer<float> sink(1);
  const int sms = ctx.prop.multiProcessorCount;
  const uint32_t mask = uint32_t(n - 1);
  auto itersFor = [&](double threads, int m) {
    return uint32_t(std::max(1.0, target / (threads * m * 16)));
  };
  const std::string timing = "; bytes over CUDA-event time of one launch moving ~2 GiB, after "
                             "one untimed launch of the same shape";
  for (int bps : {1, 2, 4, 8})
    for (int tpb : {128, 256, 512, 1024}) {
      if (bps * tpb > ctx.prop.maxThreadsPerMultiProcessor) continue;
      for (int m : {1, 2, 4, 8}) {
        unsigned blocks = unsigned(sms * bps);
        uint32_t iters = itersFor(double(blocks) * tpb, m);
        auto& v = out.add("read_bandwidth_gbps",
                          {num("footprint_mib", 8), num("blocks_per_sm", bps),
                           num("threads_per_block", tpb), num("loads_in_flight_per_thread", m),
                           num("bytes_in_flight_per_sm", double(bps) * tpb * m * 16)},
                          "GB/s", "ld.global.cg float4 reads of an 8 MiB footprint, M loads in "
                          "flight a thread, grid-stride with wrap-around" + timing);
        const double bytes = double(blocks) * tpb * m * 16 * iters;
        for (int r = 0; r < ctx.runs; ++r)
          v.samples.push_back(gbps(bytes, [&] {
            switch (m) {
              case 1: l2ReadKernel<1><<<blocks, tpb>>>(buf.ptr, mask, iters, sink.ptr); break;
              case 2: l2ReadKernel<2><<<blocks, tpb>>>(buf.ptr, mask, iters, sink.ptr); break;
              case 4: l2ReadKernel<4><<<blocks, tpb>>>(buf.ptr, mask, iters, sink.ptr); break;
              default: l2ReadKernel<8><<<blocks, tpb>>>(buf.ptr, mask, iters, sink.ptr); break;
            }
          }));
      }
    }
  for (int bps : {1, 2, 4})
    for (int tpb : {256, 1024}) {
      if (bps * tpb > ctx.prop.maxThreadsPerMultiProcessor) continue;
      for (int m : {1, 2, 4}) {
        unsigned blocks = unsigned(sms * bps);
        uint32_t iters = itersFor(double(blocks) * tpb, m);
        auto& v = out.add("write_bandwidth_gbps",
                          {num("footprint_mib", 8), num("blocks_per_sm", bps),
                           num("threads_per_block", tpb), num("stores_per_thread_per_iteration", m),
                           num("bytes_in_flight_per_sm", double(bps) * tpb * m * 16)},
                          "GB/s", "st.global.cg float4 stores over an 8 MiB footprint, M stores "
                          "an iteration a thread, grid-stride with wrap-around" + timing);
        const double bytes = double(blocks) * tpb * m * 16 * iters;
        for (int r = 0; r < ctx.runs; ++r)
          v.samples.push_back(gbps(bytes, [&] {
            switch (m) {
              case 1: l2WriteKernel<1><<<blocks, tpb>>>(buf.ptr, mask, iters); break;
              case 2: l2WriteKernel<2><<<blocks, tpb>>>(buf.ptr, mask, iters); break;
              default: l2WriteKernel<4><<<blocks, tpb>>>(buf.ptr, mask, iters); break;
            }
          }));
      }
    }
  out.notes.push_back("bytes_in_flight_per_sm = blocks_per_sm x threads_per_block x M x 16 "
                      "(for stores: bytes issued an iteration, stores do not wait)");
}

// ------------------------------------------------------ local memory

// A thread-private array indexed at run time lives in local memory; ptxas -v
// reports a stack frame of N*4 bytes, and the probe reads the same figure back
// (cudaFuncGetAttributes, localSizeBytes). Each step touches the four elements
// j, j + N/4, j + N/2, j + 3N/4 (immediate offsets from one address, so about
// one ALU instruction an access; the first version spent four and was
// issue-bound), j running over 0..N/4-1 by a step that is a kernel argument
// (1), so the compiler cannot resolve the index. j is the same in every lane,
// so a warp access is 32 consecutive words (local memory interleaves the
// threads' words). LOAD_STORE: four loads, then four stores of value + 1 (a
// spill store and reload pattern); otherwise four loads summed.
template <int N, bool LOAD_STORE>
__global__ void __launch_bounds__(1024, 2)
    localBandwidthKernel(uint32_t steps, int step, BlockClock* clocks, float* sink) {
  constexpr int Q = N / 4;
  float buf[N];
  unsigned long long t0 = clock64();
#pragma unroll
  for (int i = 0; i < N; ++i) buf[i] = float(threadIdx.x + i);
  int j = 0;  // signed: j + Q cannot wrap, so the four addresses share one register
  float acc = 0;
  for (uint32_t s = 0; s < steps; ++s) {
    float x0 = buf[j], x1 = buf[j + Q], x2 = buf[j + 2 * Q], x3 = buf[j + 3 * Q];
    if constexpr (LOAD_STORE) {
      buf[j] = x0 + 1.f;
      buf[j + Q] = x1 + 1.f;
      buf[j + 2 * Q] = x2 + 1.f;
      buf[j + 3 * Q] = x3 + 1.f;
    } else {
      acc += (x0 + x1) + (x2 + x3);
    }
    j += step;
    if (j >= Q) j -= Q;
  }
  __syncthreads();
  unsigned long long t1 = clock64();
  recordBlockClock(clocks, t0, t1);
  if (buf[j] + acc == 1234.5f) sink[threadIdx.x] = buf[(j + 1) % N];
}

namespace {

template <int N, bool LOAD_STORE>
void localValue(Context& ctx, ProbeOutput& out, uint32_t steps) {
  const int sms = ctx.prop.multiProcessorCount, bps = 2, tpb = 1024, blocks = sms * bps;
  cudaFuncAttributes attr{};
  PROBE_CHECK(cudaFuncGetAttributes(&attr, localBandwidthKernel<N, LOAD_STORE>));
  if (attr.localSizeBytes < size_t(N) * 4)
    throw std::runtime_error("localBandwidthKernel<" + std::to_string(N) + ">: local frame " +
                             std::to_string(attr.localSizeBytes) + " bytes, the array is not in local memory");
  const double threadsPerSm = double(bps) * tpb, threads = threadsPerSm * sms;
  const double perSmKiB = threadsPerSm * N * 4 / 1024, totalMiB = threads * N * 4 / (1 << 20);
  const std::vector<Param> params = {num("array_bytes_per_thread", N * 4),
                                     str("access", LOAD_STORE ? "load_store" : "load"),
                                     num("footprint_kib_per_sm", perSmKiB), num("footprint_mib", totalMiB),
                                     num("local_frame_bytes", double(attr.localSizeBytes)),
                                     num("warps_per_sm", 64)};
  const std::string m = "dynamically indexed " + std::to_string(N) +
                        "-float private array (ptxas stack frame " + std::to_string(attr.localSizeBytes) +
                        " B); N initial stores, then " + std::to_string(steps) + " steps of 4 local loads" +
                        (LOAD_STORE ? " + 4 local stores" : "") +
                        ", the index uniform across the warp; 2 blocks of 1024 threads an SM";
  auto& gb = out.add("local_bandwidth_gbps", params, "GB/s",
                     m + "; bytes loaded + stored over CUDA-event time after one untimed launch");
  auto& pc = out.add("local_bytes_per_clk_per_sm", params, "B/clk/SM",
                     m + "; bytes loaded + stored over clock64 cycles per SM");
  PROBE_CHECK(cudaFuncSetAttribute(localBandwidthKernel<N, LOAD_STORE>,
                                   cudaFuncAttributePreferredSharedMemoryCarveout, 0));
  DeviceBuffer<BlockClock> clocks{size_t(blocks)};
  DeviceBuffer<float> sink(1024);
  const double bytesPerThread = 4.0 * N + (LOAD_STORE ? 32.0 : 16.0) * steps;
  auto launch = [&] { localBandwidthKernel<N, LOAD_STORE><<<blocks, tpb>>>(steps, 1, clocks.ptr, sink.ptr); };
  for (int r = 0; r < ctx.runs; ++r) {
    gb.samples.push_back(gbps(bytesPerThread * threads, launch));
    std::vector<BlockClock> h(static_cast<size_t>(blocks));
    PROBE_CHECK(cudaMemcpy(h.data(), clocks.ptr, h.size() * sizeof(BlockClock), cudaMemcpyDeviceToHost));
    pc.samples.push_back(perSmRate(h, bytesPerThread));
  }
}

template <bool LOAD_STORE>
void localSeries(Context& ctx, ProbeOutput& out) {
  // Footprints an SM at 2048 threads: 64, 128, 256, 384, 512 KiB and 2 MiB
  // (8.25 to 264 MiB in all): inside L1, around its ~240 KiB, around L2's
  // 50 MiB, far past it.
  localValue<8, LOAD_STORE>(ctx, out, 2048);
  localValue<16, LOAD_STORE>(ctx, out, 1024);
  localValue<32, LOAD_STORE>(ctx, out, 1024);
  localValue<48, LOAD_STORE>(ctx, out, 512);
  localValue<64, LOAD_STORE>(ctx, out, 512);
  localValue<256, LOAD_STORE>(ctx, out, 256);
}

}  // namespace

void runLocalMemoryBandwidth(Context& ctx, ProbeOutput& out) {
  localSeries<true>(ctx, out);
  localSeries<false>(ctx, out);
  out.notes.push_back("which level serves a footprint is not labelled: compare footprint_kib_per_sm "
                      "with L1 (l1_line_size) and footprint_mib with L2, and read the rate");
}

}  // namespace probe

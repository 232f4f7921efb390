// Host <-> device transfer probes (seed 002, Pasternak 2022, sec. 4.1 and
// ch. 5): pageable against pinned copies by size (4.1.1, 5.1), the fixed cost
// of one small copy that batching saves (4.1.2), staged copy/execute over
// streams (4.1.3, 5.2) and the first touch of managed memory (4.1.4).
// These figures are about the PCIe link and the driver, not the SM, so they
// are host wall-clock or CUDA-event times, never clock64.
#include "probe.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace probe {

namespace {

using HostClock = std::chrono::steady_clock;

constexpr size_t kKiB = size_t(1) << 10, kMiB = size_t(1) << 20;

// Page-locked host memory (cudaMallocHost) owned for one probe.
struct PinnedBuffer {
  char* ptr = nullptr;
  size_t bytes = 0;
  explicit PinnedBuffer(size_t n) : bytes(n) {
    PROBE_CHECK(cudaMallocHost(reinterpret_cast<void**>(&ptr), n));
    std::memset(ptr, 0x5a, n);
  }
  ~PinnedBuffer() { cudaFreeHost(ptr); }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
};

// Ordinary (pageable) host memory, every page touched before any timing so
// the first copy does not also pay the kernel's page allocation.
struct PageableBuffer {
  std::unique_ptr<char[]> data;
  size_t bytes = 0;
  explicit PageableBuffer(size_t n) : data(new char[n]), bytes(n) { std::memset(data.get(), 0x5a, n); }
  char* ptr() const { return data.get(); }
};

double secondsSince(HostClock::time_point t0) {
  return std::chrono::duration<double>(HostClock::now() - t0).count();
}

// `copies` synchronous cudaMemcpy calls back to back, then one
// cudaDeviceSynchronize (a pageable host-to-device copy may return once the
// driver has staged the data); host seconds over the whole.
double timeCopies(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, int copies) {
  auto t0 = HostClock::now();
  for (int i = 0; i < copies; ++i) check(cudaMemcpy(dst, src, bytes, kind), "cudaMemcpy");
  PROBE_CHECK(cudaDeviceSynchronize());
  return secondsSince(t0);
}

// At least 8 copies and 256 MiB a measurement, at most 256 copies.
int copiesFor(size_t bytes) {
  return int(std::min<size_t>(256, std::max<size_t>(8, (256 * kMiB) / bytes)));
}

std::string sizeText(size_t bytes) {
  if (bytes >= kMiB) return std::to_string(bytes / kMiB) + " MiB";
  if (bytes >= kKiB) return std::to_string(bytes / kKiB) + " KiB";
  return std::to_string(bytes) + " B";
}

}  // namespace

// ------------------------------------------- pageable against pinned

void runHostTransferBandwidth(Context& ctx, ProbeOutput& out) {
  const size_t sizes[] = {4 * kKiB, 64 * kKiB, 1 * kMiB, 16 * kMiB, 256 * kMiB};
  const size_t largest = 256 * kMiB;
  DeviceBuffer<char> dev(largest);
  PROBE_CHECK(cudaMemset(dev.ptr, 1, largest));
  PinnedBuffer pinned(largest);
  PageableBuffer pageable(largest);
  for (const char* direction : {"h2d", "d2h"}) {
    const bool h2d = std::string(direction) == "h2d";
    for (const char* memory : {"pageable", "pinned"}) {
      char* host = std::string(memory) == "pinned" ? pinned.ptr : pageable.ptr();
      for (size_t bytes : sizes) {
        const int copies = copiesFor(bytes);
        void* dst = h2d ? static_cast<void*>(dev.ptr) : static_cast<void*>(host);
        const void* src = h2d ? static_cast<const void*>(host) : static_cast<const void*>(dev.ptr);
        const cudaMemcpyKind kind = h2d ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
        auto& v = out.add(
            "bandwidth_gbps", {str("direction", direction), str("memory", memory), num("bytes", double(bytes))},
            "GB/s",
            std::string("cudaMemcpy ") + (h2d ? "host-to-device" : "device-to-host") + " of " + sizeText(bytes) +
                " from/to " +
                (std::string(memory) == "pinned" ? "cudaMallocHost memory"
                                                 : "malloc'd memory touched before timing") +
                "; " + std::to_string(copies) +
                " synchronous copies of the same buffer back to back then cudaDeviceSynchronize, timed with "
                "the host's steady clock; bytes copied (10^9 a GB) over that time; one untimed copy first");
        check(cudaMemcpy(dst, src, bytes, kind), "warm-up cudaMemcpy");
        for (int r = 0; r < ctx.runs; ++r)
          v.samples.push_back(double(bytes) * copies / timeCopies(dst, src, bytes, kind, copies) / 1e9);
      }
    }
  }
  out.notes.push_back("host wall clock (std::chrono::steady_clock) around several synchronous cudaMemcpy "
                      "calls, so the figure includes each call's driver overhead, as an application sees it; "
                      "pageable copies go through the driver's pinned staging buffer (seed 002 Fig. 4.1)");
}

// ------------------------------------------- the cost of one small copy

void runHostCopyLatency(Context& ctx, ProbeOutput& out) {
  constexpr int kCopies = 500;
  DeviceBuffer<char> dev(64 * kKiB);
  PROBE_CHECK(cudaMemset(dev.ptr, 1, dev.bytes()));
  PinnedBuffer pinned(64 * kKiB);
  PageableBuffer pageable(64 * kKiB);
  for (const char* direction : {"h2d", "d2h"}) {
    const bool h2d = std::string(direction) == "h2d";
    for (const char* memory : {"pageable", "pinned"}) {
      char* host = std::string(memory) == "pinned" ? pinned.ptr : pageable.ptr();
      for (size_t bytes : {size_t(4), size_t(256), size_t(4096)}) {
        void* dst = h2d ? static_cast<void*>(dev.ptr) : static_cast<void*>(host);
        const void* src = h2d ? static_cast<const void*>(host) : static_cast<const void*>(dev.ptr);
        const cudaMemcpyKind kind = h2d ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
        auto& v = out.add("time_us", {str("direction", direction), str("memory", memory), num("bytes", double(bytes))},
                          "us",
                          std::string("one synchronous cudaMemcpy ") + (h2d ? "host-to-device" : "device-to-host") +
                              " of " + sizeText(bytes) + " from/to " +
                              (std::string(memory) == "pinned" ? "cudaMallocHost memory" : "malloc'd memory") +
                              ": " + std::to_string(kCopies) +
                              " copies back to back then cudaDeviceSynchronize, host steady clock over the "
                              "whole divided by " +
                              std::to_string(kCopies) + "; 20 untimed copies first");
        for (int i = 0; i < 20; ++i) check(cudaMemcpy(dst, src, bytes, kind), "warm-up cudaMemcpy");
        for (int r = 0; r < ctx.runs; ++r)
          v.samples.push_back(timeCopies(dst, src, bytes, kind, kCopies) / kCopies * 1e6);
      }
    }
  }
  out.notes.push_back("time_us is the per-copy overhead that batching saves (seed 002 sec. 4.1.2): n separate "
                      "copies of b bytes cost about n x time_us, one copy of n x b bytes about time_us + n x b / "
                      "bandwidth (host_transfer_bandwidth)");
}

// ------------------------------------------- staged copy / execute

// A compute-bound stage: each thread runs a dependent FMA chain of `iters`
// steps on its element, in place. `iters` is calibrated so the kernel over
// the whole buffer takes about as long as its host-to-device copy.
__global__ void stageKernel(float* d, size_t n, int iters) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = d[i];
#pragma unroll 16
  for (int k = 0; k < iters; ++k) x = fmaf(x, 0.9999f, 0.0001f);
  d[i] = x;
}

namespace {

constexpr size_t kStagedBytes = 64 * kMiB;
constexpr int kStageThreads = 256;

struct Staged {
  float* dev;
  float* hostIn;
  float* hostOut;
  size_t n;
  int iters;
  std::vector<cudaStream_t> streams;
  std::vector<cudaEvent_t> done;
  cudaEvent_t start{}, stop{};
};

void launchStage(const Staged& s, size_t offset, size_t count, cudaStream_t st) {
  stageKernel<<<unsigned((count + kStageThreads - 1) / kStageThreads), kStageThreads, 0, st>>>(s.dev + offset,
                                                                                               count, s.iters);
}

// The whole buffer split into S chunks, chunk i issued on stream i as H2D
// copy, kernel, D2H copy (the seed's loop, sec. 4.1.3); CUDA events from a
// start recorded on stream 0 (every other stream waits on it) to a stop on
// stream 0 after it has waited on every other stream's last copy.
float stagedMs(Staged& s, int streams) {
  const size_t chunk = s.n / size_t(streams);
  PROBE_CHECK(cudaEventRecord(s.start, s.streams[0]));
  for (int i = 1; i < streams; ++i) PROBE_CHECK(cudaStreamWaitEvent(s.streams[i], s.start, 0));
  for (int i = 0; i < streams; ++i) {
    cudaStream_t st = s.streams[size_t(i)];
    const size_t off = size_t(i) * chunk;
    PROBE_CHECK(cudaMemcpyAsync(s.dev + off, s.hostIn + off, chunk * sizeof(float), cudaMemcpyHostToDevice, st));
    launchStage(s, off, chunk, st);
    PROBE_CHECK(cudaMemcpyAsync(s.hostOut + off, s.dev + off, chunk * sizeof(float), cudaMemcpyDeviceToHost, st));
  }
  for (int i = 1; i < streams; ++i) {
    PROBE_CHECK(cudaEventRecord(s.done[size_t(i)], s.streams[size_t(i)]));
    PROBE_CHECK(cudaStreamWaitEvent(s.streams[0], s.done[size_t(i)], 0));
  }
  PROBE_CHECK(cudaEventRecord(s.stop, s.streams[0]));
  PROBE_CHECK(cudaEventSynchronize(s.stop));
  check(cudaGetLastError(), "staged copy/execute");
  float ms = 0;
  PROBE_CHECK(cudaEventElapsedTime(&ms, s.start, s.stop));
  return ms;
}

// One stage alone over the whole buffer on stream 0, event-timed.
enum class Stage { kH2d, kKernel, kD2h };
float stageMs(Staged& s, Stage which) {
  cudaStream_t st = s.streams[0];
  PROBE_CHECK(cudaEventRecord(s.start, st));
  if (which == Stage::kH2d)
    PROBE_CHECK(cudaMemcpyAsync(s.dev, s.hostIn, s.n * sizeof(float), cudaMemcpyHostToDevice, st));
  else if (which == Stage::kKernel)
    launchStage(s, 0, s.n, st);
  else
    PROBE_CHECK(cudaMemcpyAsync(s.hostOut, s.dev, s.n * sizeof(float), cudaMemcpyDeviceToHost, st));
  PROBE_CHECK(cudaEventRecord(s.stop, st));
  PROBE_CHECK(cudaEventSynchronize(s.stop));
  check(cudaGetLastError(), "stage");
  float ms = 0;
  PROBE_CHECK(cudaEventElapsedTime(&ms, s.start, s.stop));
  return ms;
}

float medianOf3(Staged& s, Stage which) {
  return float(median({stageMs(s, which), stageMs(s, which), stageMs(s, which)}));
}

}  // namespace

void runCopyKernelOverlapVsStreams(Context& ctx, ProbeOutput& out) {
  const int counts[] = {1, 2, 4, 8, 16};
  Staged s{};
  s.n = kStagedBytes / sizeof(float);
  DeviceBuffer<float> dev(s.n);
  PinnedBuffer in(kStagedBytes), result(kStagedBytes);
  s.dev = dev.ptr;
  s.hostIn = reinterpret_cast<float*>(in.ptr);
  s.hostOut = reinterpret_cast<float*>(result.ptr);
  for (size_t i = 0; i < s.n; ++i) s.hostIn[i] = float(i % 1024) / 1024.0f;
  for (int i = 0; i < 16; ++i) {
    cudaStream_t st;
    PROBE_CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    s.streams.push_back(st);
    cudaEvent_t e;
    PROBE_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    s.done.push_back(e);
  }
  PROBE_CHECK(cudaEventCreate(&s.start));
  PROBE_CHECK(cudaEventCreate(&s.stop));
  struct Cleanup {
    Staged& s;
    ~Cleanup() {
      for (auto st : s.streams) cudaStreamDestroy(st);
      for (auto e : s.done) cudaEventDestroy(e);
      cudaEventDestroy(s.start);
      cudaEventDestroy(s.stop);
    }
  } cleanup{s};

  // Calibration, twice (the kernel's memory traffic makes its time not quite
  // proportional to iters): iters in steps of 16 so the kernel over the whole
  // buffer takes about as long as the host-to-device copy of it.
  const float h2dMs = medianOf3(s, Stage::kH2d);
  s.iters = 256;
  for (int pass = 0; pass < 2; ++pass) {
    stageMs(s, Stage::kKernel);  // untimed first launch
    const float k = medianOf3(s, Stage::kKernel);
    s.iters = std::max(16, int(std::lround(s.iters * h2dMs / k / 16.0)) * 16);
  }
  const std::string shape = "64 MiB of floats in cudaMallocHost memory; kernel: one thread an element (256 a "
                            "block), a dependent chain of " +
                            std::to_string(s.iters) +
                            " FMAs in place (calibrated so the whole-buffer kernel takes about as long as the "
                            "whole-buffer H2D copy)";

  const char* stageNames[] = {"h2d", "kernel", "d2h"};
  for (int st = 0; st < 3; ++st) {
    auto& v = out.add("stage_time_ms", {str("stage", stageNames[st])}, "ms",
                      std::string("one stage alone over the whole buffer on one stream, CUDA events around it; ") +
                          shape);
    for (int r = 0; r < ctx.runs; ++r) v.samples.push_back(stageMs(s, Stage(st)));
  }

  std::vector<Value*> times, speedups;
  for (int c : counts) {
    times.push_back(&out.add(
        "time_ms", {num("streams", c)}, "ms",
        "the buffer split into " + std::to_string(c) + " chunk(s), chunk i on stream i (non-blocking streams) as "
        "cudaMemcpyAsync H2D, kernel, cudaMemcpyAsync D2H, issued stream by stream; CUDA events from a start on "
        "stream 0 (the others wait on it) to a stop on stream 0 after it waited on every stream; " + shape));
  }
  for (int c : counts) {
    speedups.push_back(&out.add("speedup_vs_one_stream", {num("streams", c)}, "x",
                                "time_ms at 1 stream over time_ms at " + std::to_string(c) +
                                    " streams, both from the same run (a sample is one run's pair); " + shape));
  }
  for (int c : counts) stagedMs(s, c);  // untimed: first use of each stream
  for (int r = 0; r < ctx.runs; ++r) {
    float one = 0;
    for (size_t k = 0; k < std::size(counts); ++k) {
      const float ms = stagedMs(s, counts[k]);
      if (k == 0) one = ms;
      times[k]->samples.push_back(ms);
      speedups[k]->samples.push_back(one / ms);
    }
  }
  // The result must be what the kernel computes: spot-check a few elements.
  bool ok = true;
  for (size_t i = 0; i < s.n; i += s.n / 64 + 1) {
    float x = s.hostIn[i];
    for (int k = 0; k < s.iters; ++k) x = std::fma(x, 0.9999f, 0.0001f);
    ok = ok && std::fabs(x - s.hostOut[i]) <= 1e-4f * std::max(1.0f, std::fabs(x));
  }
  out.derive("kernel_fma_chain", std::to_string(s.iters));
  out.derive("buffer_bytes", std::to_string(kStagedBytes));
  out.derive("result_checked", ok ? "true" : "false");
  out.notes.push_back("kernel_fma_chain: FMA steps a thread after calibration against the H2D copy of the "
                      "whole buffer; stage_time_ms gives the three stages alone: the serial time is about "
                      "their sum, the best overlap about the largest");
  if (!ok) throw std::runtime_error("staged copy/execute: results differ from the host's FMA chain");
}

// ------------------------------------------- managed memory, first touch

// Grid-stride float4 read; the sum is kept only so the loads stay.
__global__ void managedReadKernel(const float4* __restrict__ p, size_t n, float* sink) {
  float acc = 0;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    float4 v = p[i];
    acc += v.x + v.y + v.z + v.w;
  }
  if (acc == 1234.5f) sink[0] = acc;
}

void runManagedFirstTouch(Context& ctx, ProbeOutput& out) {
  constexpr size_t kBytes = 256 * kMiB;
  const size_t n4 = kBytes / sizeof(float4);
  const int blocks = ctx.prop.multiProcessorCount * 2, threads = 1024;
  DeviceBuffer<float> sink(1);
  int concurrent = 0, pageableAccess = 0;
  PROBE_CHECK(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, ctx.device));
  PROBE_CHECK(cudaDeviceGetAttribute(&pageableAccess, cudaDevAttrPageableMemoryAccess, ctx.device));
  out.derive("concurrent_managed_access", concurrent ? "true" : "false");
  out.derive("pageable_memory_access", pageableAccess ? "true" : "false");
  const std::string common = "cudaMallocManaged of 256 MiB, every float written by the host (one loop) after the "
                             "allocation; then a grid-stride float4 read kernel (2 blocks of 1024 threads an SM) "
                             "timed with CUDA events; a fresh allocation every run";
  const char* modes[] = {"none", "prefetch", "device_resident"};
  const char* what[] = {
      "the kernel launched right after the host wrote the data: pages migrate on the GPU's faults",
      "cudaMemPrefetchAsync of the whole buffer to the device (cudaMemLocation device 0), synchronized and "
      "untimed for this value (prefetch_time_ms), then the kernel",
      "the kernel launched a second time right after the `none` launch, the data now resident in device "
      "memory: the floor"};
  Value* time[3];
  Value* bw[3];
  for (int m = 0; m < 3; ++m) {
    time[m] = &out.add("kernel_time_ms", {str("prefetch", modes[m])}, "ms", std::string(what[m]) + "; " + common);
    bw[m] = &out.add("bandwidth_gbps", {str("prefetch", modes[m])}, "GB/s",
                     "256 MiB read over kernel_time_ms (10^9 a GB); " + std::string(what[m]) + "; " + common);
  }
  auto& prefetchMs =
      out.add("prefetch_time_ms", {str("prefetch", "prefetch")}, "ms",
              "cudaMemPrefetchAsync of the host-written 256 MiB to device 0, CUDA events around it; " + common);
  EventTimer timer;
  auto hostWrite = [&](float* p) {
    const size_t n = kBytes / sizeof(float);
    for (size_t i = 0; i < n; ++i) p[i] = float(i & 1023);
  };
  auto kernelMs = [&](float* p) {
    timer.start();
    managedReadKernel<<<blocks, threads>>>(reinterpret_cast<const float4*>(p), n4, sink.ptr);
    float ms = timer.stopMs();
    checkLaunch("managed read kernel");
    return ms;
  };
  // One untimed round: module load and the UVM driver's first use.
  {
    float* p = nullptr;
    PROBE_CHECK(cudaMallocManaged(&p, kBytes));
    hostWrite(p);
    kernelMs(p);
    PROBE_CHECK(cudaFree(p));
  }
  cudaMemLocation dev{};
  dev.type = cudaMemLocationTypeDevice;
  dev.id = ctx.device;
  for (int r = 0; r < ctx.runs; ++r) {
    float* p = nullptr;
    PROBE_CHECK(cudaMallocManaged(&p, kBytes));
    hostWrite(p);
    float ms = kernelMs(p);
    time[0]->samples.push_back(ms);
    bw[0]->samples.push_back(kBytes / (ms * 1e-3) / 1e9);
    ms = kernelMs(p);
    time[2]->samples.push_back(ms);
    bw[2]->samples.push_back(kBytes / (ms * 1e-3) / 1e9);
    PROBE_CHECK(cudaFree(p));

    PROBE_CHECK(cudaMallocManaged(&p, kBytes));
    hostWrite(p);
    timer.start();
    PROBE_CHECK(cudaMemPrefetchAsync(p, kBytes, dev, 0, 0));
    prefetchMs.samples.push_back(timer.stopMs());
    ms = kernelMs(p);
    time[1]->samples.push_back(ms);
    bw[1]->samples.push_back(kBytes / (ms * 1e-3) / 1e9);
    PROBE_CHECK(cudaFree(p));
  }
  out.notes.push_back("none against prefetch + prefetch_time_ms is on-demand migration against one bulk "
                      "migration; device_resident is the same kernel on memory already on the GPU");
}

}  // namespace probe

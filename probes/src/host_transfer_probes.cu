// Host <-> device transfer probes (seed 002, Pasternak 2022, sec. 4.1 and
// ch. 5): pageable against pinned copies by size (4.1.1, 5.1), the fixed cost
// of one small copy that batching saves (4.1.2), staged copy/execute over
// streams (4.1.3, 5.2), the first touch of managed memory (4.1.4) by a
// kernel and by the host after a kernel, and why the first rate depends on
// the kernel and the allocation.
// These figures are about the PCIe link and the driver, not the SM, so they
// are host wall-clock or CUDA-event times, never clock64.
#include "probe.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

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

// ------------------------------------------- managed memory, host touch after a kernel

namespace probe {

// One float a thread, 256 a block: the shape of a kernel that writes its
// results (or the examples/host pair's scaleShift when it also reads).
__global__ void managedWriteKernel(float* p, size_t n) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) p[i] = float(i & 1023) * 0.5f;
}

__global__ void managedScaleKernel(float* p, size_t n) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * 2.0f + 1.0f;
}

__global__ void managedThreadReadKernel(const float* __restrict__ p, size_t n, float* sink) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n && p[i] == 1234.5f) sink[0] = p[i];
}

namespace {

// The host's pass over a buffer, one thread, as plain application code does
// it. Reads sum 32-bit words (integer adds: the compiler may vectorize them,
// so the pass runs near memory speed once the pages are local and the page
// faults are what differs); writes store every word.
volatile uint32_t gHostSink = 0;
void hostReadPass(const float* p, size_t n) {
  const uint32_t* w = reinterpret_cast<const uint32_t*>(p);
  uint32_t acc = 0;
  for (size_t i = 0; i < n; ++i) acc += w[i];
  gHostSink = acc;
}
void hostWritePass(float* p, size_t n) {
  for (size_t i = 0; i < n; ++i) p[i] = float(i & 1023);
}

std::string readText(const char* path) {
  FILE* f = std::fopen(path, "r");
  if (!f) return "unreadable";
  char buf[256] = {};
  size_t got = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  std::string s(buf, got);
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

std::string jsonString(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) o += c;
  }
  return o + "\"";
}

double msSince(HostClock::time_point t0) { return secondsSince(t0) * 1e3; }

}  // namespace

// After a kernel wrote a fresh managed buffer (its pages live on the GPU), the
// host's first pass over the whole buffer: on demand (CPU page faults) against
// cudaMemPrefetchAsync to the host + synchronize + the same pass; the pass
// once more (pages now on the host) is the floor. Host steady clock.
void runManagedHostTouch(Context& ctx, ProbeOutput& out) {
  const size_t sizes[] = {4 * kMiB, 16 * kMiB, 64 * kMiB, 256 * kMiB};
  cudaMemLocation host{};
  host.type = cudaMemLocationTypeHost;
  host.id = 0;
  const std::string common = "a fresh cudaMallocManaged buffer each run, written whole by a kernel (one float a "
                             "thread, 256 a block) and synchronized, untimed; then one host thread passes over "
                             "every 32-bit word (read: an integer sum; write: a store of each float), timed with "
                             "the host's steady clock";
  const char* passes[] = {"read", "write"};
  struct Row {
    Value *none, *pre, *resident, *prefetchMs, *bwNone, *bwPre, *speedup;
  };
  std::vector<Row> rows;
  for (const char* pass : passes) {
    for (size_t bytes : sizes) {
      const std::string size = sizeText(bytes);
      auto params = [&](const char* mode) {
        std::vector<Param> p{str("host_pass", pass), num("bytes", double(bytes))};
        if (mode) p.push_back(str("prefetch", mode));
        return p;
      };
      Row r{};
      r.none = &out.add("host_time_ms", params("none"), "ms",
                        std::string("the host's ") + pass + " pass over " + size +
                            " right after the kernel, no prefetch: pages migrate on CPU page faults; " + common);
      r.pre = &out.add("host_time_ms", params("prefetch"), "ms",
                       std::string("cudaMemPrefetchAsync of the ") + size +
                           " to the host (cudaMemLocation host), cudaStreamSynchronize, then the host's " + pass +
                           " pass: the three together; " + common);
      r.resident = &out.add("host_resident_time_ms", params(nullptr), "ms",
                            std::string("the same ") + pass + " pass a second time right after the `none` pass "
                            "(pages already on the host): the floor; " + common);
      r.prefetchMs = &out.add("prefetch_time_ms", params(nullptr), "ms",
                              "cudaMemPrefetchAsync of the " + size +
                                  " to the host + cudaStreamSynchronize alone (part of host_time_ms prefetch); " +
                                  common);
      r.bwNone = &out.add("bandwidth_gbps", params("none"), "GB/s",
                          "bytes (10^9 a GB) over host_time_ms none; " + common);
      r.bwPre = &out.add("bandwidth_gbps", params("prefetch"), "GB/s",
                         "bytes (10^9 a GB) over host_time_ms prefetch (prefetch included); " + common);
      r.speedup = &out.add("prefetch_speedup", params(nullptr), "x",
                           "host_time_ms none over host_time_ms prefetch, both from the same run (a sample is one "
                           "run's pair); " + common);
      rows.push_back(r);
    }
  }
  auto fresh = [&](size_t bytes) {
    float* p = nullptr;
    PROBE_CHECK(cudaMallocManaged(&p, bytes));
    const size_t n = bytes / sizeof(float);
    managedWriteKernel<<<unsigned((n + 255) / 256), 256>>>(p, n);
    checkLaunch("managed write kernel");
    return p;
  };
  auto passMs = [&](bool write, float* p, size_t n) {
    auto t0 = HostClock::now();
    if (write)
      hostWritePass(p, n);
    else
      hostReadPass(p, n);
    return msSince(t0);
  };
  // One untimed round: module load and the UVM driver's first use.
  {
    float* p = fresh(16 * kMiB);
    passMs(false, p, 16 * kMiB / sizeof(float));
    PROBE_CHECK(cudaFree(p));
  }
  size_t k = 0;
  for (int w = 0; w < 2; ++w) {
    for (size_t bytes : sizes) {
      Row& r = rows[k++];
      const size_t n = bytes / sizeof(float);
      for (int run = 0; run < ctx.runs; ++run) {
        float* p = fresh(bytes);
        const double none = passMs(w == 1, p, n);
        r.resident->samples.push_back(passMs(w == 1, p, n));
        PROBE_CHECK(cudaFree(p));

        p = fresh(bytes);
        auto t0 = HostClock::now();
        PROBE_CHECK(cudaMemPrefetchAsync(p, bytes, host, 0, 0));
        PROBE_CHECK(cudaStreamSynchronize(0));
        const double pre = msSince(t0);
        const double total = pre + passMs(w == 1, p, n);
        PROBE_CHECK(cudaFree(p));

        r.none->samples.push_back(none);
        r.pre->samples.push_back(total);
        r.prefetchMs->samples.push_back(pre);
        r.bwNone->samples.push_back(double(bytes) / (none * 1e-3) / 1e9);
        r.bwPre->samples.push_back(double(bytes) / (total * 1e-3) / 1e9);
        r.speedup->samples.push_back(none / total);
      }
    }
  }
  int concurrent = 0, hostPageTables = 0;
  PROBE_CHECK(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, ctx.device));
  PROBE_CHECK(cudaDeviceGetAttribute(&hostPageTables, cudaDevAttrPageableMemoryAccessUsesHostPageTables, ctx.device));
  out.derive("concurrent_managed_access", concurrent ? "true" : "false");
  out.derive("pageable_memory_access_uses_host_page_tables", hostPageTables ? "true" : "false");
  out.derive("host_page_bytes", std::to_string(sysconf(_SC_PAGESIZE)));
  out.derive("transparent_hugepage", jsonString(readText("/sys/kernel/mm/transparent_hugepage/enabled")));
  out.notes.push_back("the reverse of managed_first_touch: results a kernel wrote, then read (or overwritten) by "
                      "host code; none against prefetch is on-demand migration by CPU page faults against one "
                      "bulk migration to the host first; host_resident_time_ms is the pass itself");
}

// Why managed_first_touch's on-demand rate differs from the examples/host
// managed pair's: the same on-demand migration (host-written pages, GPU page
// faults) timed by CUDA events around one launch, for the probe's kernel and
// the pair's, at three sizes, on a fresh allocation or on one reused the way
// the pair's loop reuses it (host write, kernel, host read, again).
void runManagedFirstTouchShapes(Context& ctx, ProbeOutput& out) {
  const size_t sizes[] = {16 * kMiB, 128 * kMiB, 256 * kMiB};
  const char* kernels[] = {"grid_stride_float4_read", "thread_per_float_read", "thread_per_float_read_write"};
  const char* kernelText[] = {
      "managed_first_touch's kernel: a grid-stride float4 read, 2 blocks of 1024 threads an SM",
      "one float a thread read, 256 a block (one block per 1 KiB)",
      "one float a thread read and written (x = 2x + 1), 256 a block: examples/host/managed_before.cu's "
      "scaleShift"};
  const char* allocs[] = {"fresh", "reused"};
  const char* allocText[] = {
      "a fresh cudaMallocManaged each run, written whole by one host loop, then the launch",
      "one allocation for all runs: an untimed round first, then each run the host writes it whole, the launch, "
      "and the host reads it whole (pages back on the host), as the examples/host pair's loop does"};
  DeviceBuffer<float> sink(1);
  EventTimer timer;
  const int gsBlocks = ctx.prop.multiProcessorCount * 2;
  auto launch = [&](int kernel, float* p, size_t bytes) {
    const size_t n = bytes / sizeof(float);
    timer.start();
    if (kernel == 0)
      managedReadKernel<<<gsBlocks, 1024>>>(reinterpret_cast<const float4*>(p), bytes / sizeof(float4), sink.ptr);
    else if (kernel == 1)
      managedThreadReadKernel<<<unsigned((n + 255) / 256), 256>>>(p, n, sink.ptr);
    else
      managedScaleKernel<<<unsigned((n + 255) / 256), 256>>>(p, n);
    const float ms = timer.stopMs();
    checkLaunch("managed shape kernel");
    return ms;
  };
  for (int a = 0; a < 2; ++a) {
    for (int kernel = 0; kernel < 3; ++kernel) {
      for (size_t bytes : sizes) {
        const size_t n = bytes / sizeof(float);
        const std::vector<Param> params{str("kernel", kernels[kernel]), str("allocation", allocs[a]),
                                        num("bytes", double(bytes))};
        const std::string how = std::string(kernelText[kernel]) + " over " + sizeText(bytes) + "; " +
                                allocText[a] + "; CUDA events around the one launch";
        auto& t = out.add("kernel_time_ms", params, "ms", "on-demand migration (no prefetch): " + how);
        auto& bw = out.add("bandwidth_gbps", params, "GB/s", "bytes (10^9 a GB) over kernel_time_ms; " + how);
        float* p = nullptr;
        if (a == 1) {
          PROBE_CHECK(cudaMallocManaged(&p, bytes));
          hostWritePass(p, n);
          launch(kernel, p, bytes);
          hostReadPass(p, n);
        }
        for (int run = 0; run < ctx.runs; ++run) {
          if (a == 0) PROBE_CHECK(cudaMallocManaged(&p, bytes));
          hostWritePass(p, n);
          const float ms = launch(kernel, p, bytes);
          t.samples.push_back(ms);
          bw.samples.push_back(double(bytes) / (ms * 1e-3) / 1e9);
          if (a == 0) {
            PROBE_CHECK(cudaFree(p));
            p = nullptr;
          } else {
            hostReadPass(p, n);
          }
        }
        if (p) PROBE_CHECK(cudaFree(p));
      }
    }
  }
  out.notes.push_back("diagnostic for managed_first_touch: the same on-demand migration with its kernel and with "
                      "the examples/host pair's kernel, by size and by whether the allocation is fresh or reused");
}

}  // namespace probe

// The probe interface: a probe measures, it never formats. Each probe fills a
// ProbeOutput with raw per-run samples; statistics and JSON are made later by
// profile_writer, so every figure in a profile traces back to real samples.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace probe {

// A parameter that distinguishes values of the same name ("degree": 4).
// `json` holds the value as a JSON literal so numbers and strings both fit.
struct Param {
  std::string key;
  std::string json;
};
Param num(const std::string& key, double v);
Param str(const std::string& key, const std::string& v);

// One measured quantity with all of its per-run samples.
struct Value {
  std::string name;
  std::vector<Param> params;
  std::string unit;
  std::string method;
  std::vector<double> samples;
};

struct ProbeOutput {
  std::deque<Value> values;  // deque: add() references stay valid
  // Derived facts (booleans, inferred sizes) as JSON members: "key": literal.
  std::vector<std::pair<std::string, std::string>> derived;
  std::vector<std::string> notes;

  Value& add(const std::string& name, std::vector<Param> params, const std::string& unit,
             const std::string& method) {
    values.push_back(Value{name, std::move(params), unit, method, {}});
    return values.back();
  }
  void derive(const std::string& key, const std::string& jsonLiteral) {
    derived.emplace_back(key, jsonLiteral);
  }
};

struct Context {
  int device = 0;
  cudaDeviceProp prop{};
  int runs = 7;
  int smClockKHz = 0;       // peak clock from the device attribute
  double smClockMHz = 0.0;  // measured by the sm_clock probe; used for cycles -> ns
  size_t l2Bytes = 0;
};

using ProbeFn = void (*)(Context&, ProbeOutput&);

struct ProbeInfo {
  const char* id;
  const char* title;
  const char* method;
  ProbeFn run;
};

const std::vector<ProbeInfo>& allProbes();

// Throws with the call text so a failing probe names what failed.
inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
#define PROBE_CHECK(call) ::probe::check((call), #call)
inline void checkLaunch(const char* what) {
  check(cudaGetLastError(), what);
  check(cudaDeviceSynchronize(), what);
}

// Device memory owned for the duration of one probe.
template <typename T>
struct DeviceBuffer {
  T* ptr = nullptr;
  size_t count = 0;
  explicit DeviceBuffer(size_t n) : count(n) {
    PROBE_CHECK(cudaMalloc(&ptr, n * sizeof(T)));
  }
  ~DeviceBuffer() { cudaFree(ptr); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  size_t bytes() const { return count * sizeof(T); }
};

// The same buffer allocated kPlacements times. Near a cache's capacity and in
// some DRAM launch shapes the figure depends on where an allocation landed,
// so such probes spread their runs or samples over separate allocations.
constexpr int kPlacements = 4;
template <typename T>
struct Placements {
  std::vector<std::unique_ptr<DeviceBuffer<T>>> bufs;
  explicit Placements(size_t count) {
    for (int p = 0; p < kPlacements; ++p) bufs.push_back(std::make_unique<DeviceBuffer<T>>(count));
  }
  void fill(int byte) {
    for (auto& b : bufs) PROBE_CHECK(cudaMemset(b->ptr, byte, b->bytes()));
  }
  DeviceBuffer<T>& at(int p) const { return *bufs[size_t(p) % bufs.size()]; }
  T* operator[](int p) const { return at(p).ptr; }
};

// Times one asynchronous region with CUDA events; returns milliseconds.
class EventTimer {
 public:
  EventTimer() {
    PROBE_CHECK(cudaEventCreate(&start_));
    PROBE_CHECK(cudaEventCreate(&stop_));
  }
  ~EventTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  void start() { PROBE_CHECK(cudaEventRecord(start_)); }
  float stopMs() {
    PROBE_CHECK(cudaEventRecord(stop_));
    PROBE_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    PROBE_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }

 private:
  cudaEvent_t start_{}, stop_{};
};

double median(std::vector<double> v);

}  // namespace probe

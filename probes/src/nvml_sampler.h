// Samples the SM and memory clocks through NVML while the suite runs. NVML is
// opened with dlopen so the binary builds and runs where it is missing; then
// the profile records that the clocks were not sampled.
#pragma once

#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace probe {

class NvmlSampler {
 public:
  explicit NvmlSampler(const std::string& pciBusId);
  ~NvmlSampler();
  bool available() const { return device_ != nullptr; }
  std::string driverVersion() const { return driver_; }
  int maxMemClockMHz() const { return maxMem_; }
  int maxSmClockMHz() const { return maxSm_; }
  void start(int periodMs);
  void stop();
  std::vector<double> smSamples() const;
  std::vector<double> memSamples() const;

 private:
  void sampleOnce();
  void* lib_ = nullptr;
  void* device_ = nullptr;
  int (*getClock_)(void*, int, unsigned*) = nullptr;
  std::string driver_;
  int maxMem_ = 0, maxSm_ = 0;
  std::atomic<bool> running_{false};
  std::thread thread_;
  mutable std::mutex mu_;
  std::vector<double> sm_, mem_;
};

}  // namespace probe

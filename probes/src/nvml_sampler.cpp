#include "nvml_sampler.h"

#include <dlfcn.h>

#include <chrono>

namespace probe {

namespace {
constexpr int kClockSm = 1, kClockMem = 2;  // nvmlClockType_t values
}

NvmlSampler::NvmlSampler(const std::string& pciBusId) {
  lib_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib_) return;
  auto sym = [&](const char* n) { return dlsym(lib_, n); };
  auto init = reinterpret_cast<int (*)()>(sym("nvmlInit_v2"));
  auto byPci = reinterpret_cast<int (*)(const char*, void**)>(sym("nvmlDeviceGetHandleByPciBusId_v2"));
  auto drv = reinterpret_cast<int (*)(char*, unsigned)>(sym("nvmlSystemGetDriverVersion"));
  auto maxClock = reinterpret_cast<int (*)(void*, int, unsigned*)>(sym("nvmlDeviceGetMaxClockInfo"));
  getClock_ = reinterpret_cast<int (*)(void*, int, unsigned*)>(sym("nvmlDeviceGetClockInfo"));
  if (!init || !byPci || !getClock_ || init() != 0) return;
  void* dev = nullptr;
  if (byPci(pciBusId.c_str(), &dev) != 0) return;
  device_ = dev;
  char buf[96] = {0};
  if (drv && drv(buf, sizeof buf) == 0) driver_ = buf;
  unsigned v = 0;
  if (maxClock && maxClock(device_, kClockMem, &v) == 0) maxMem_ = int(v);
  if (maxClock && maxClock(device_, kClockSm, &v) == 0) maxSm_ = int(v);
}

NvmlSampler::~NvmlSampler() {
  stop();
  auto shutdown = lib_ ? reinterpret_cast<int (*)()>(dlsym(lib_, "nvmlShutdown")) : nullptr;
  if (device_ && shutdown) shutdown();
  if (lib_) dlclose(lib_);
}

void NvmlSampler::sampleOnce() {
  unsigned sm = 0, mem = 0;
  if (getClock_(device_, kClockSm, &sm) != 0 || getClock_(device_, kClockMem, &mem) != 0) return;
  std::lock_guard<std::mutex> g(mu_);
  sm_.push_back(sm);
  mem_.push_back(mem);
}

void NvmlSampler::start(int periodMs) {
  if (!available() || running_) return;
  running_ = true;
  thread_ = std::thread([this, periodMs] {
    while (running_) {
      sampleOnce();
      std::this_thread::sleep_for(std::chrono::milliseconds(periodMs));
    }
  });
}

void NvmlSampler::stop() {
  if (!running_) return;
  running_ = false;
  thread_.join();
}

std::vector<double> NvmlSampler::smSamples() const {
  std::lock_guard<std::mutex> g(mu_);
  return sm_;
}

std::vector<double> NvmlSampler::memSamples() const {
  std::lock_guard<std::mutex> g(mu_);
  return mem_;
}

}  // namespace probe

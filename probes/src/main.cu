// warplint-probe: runs the probe suite on the local GPU and writes a profile.
//   warplint-probe [--only ID,...] [--out FILE] [--runs N] [--profile-id ID]
//                  [--register-arrays FILE] [--list]
//   warplint-probe --report PROFILE     (prints tables; needs python3)
// Exit status: 0 ok, 1 a probe failed, 2 no GPU or bad usage.
#include "nvml_sampler.h"
#include "probe.h"
#include "profile_writer.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#ifndef WARPLINT_PROBE_SCRIPT_DIR
#define WARPLINT_PROBE_SCRIPT_DIR "."
#endif

namespace {

using namespace probe;

int usage(const char* msg) {
  if (msg) std::fprintf(stderr, "warplint-probe: %s\n", msg);
  std::fprintf(stderr,
               "usage: warplint-probe [--only ID,...] [--out FILE] [--runs N] [--profile-id ID]\n"
               "                      [--register-arrays FILE] [--list]\n"
               "       warplint-probe --report PROFILE\n");
  return 2;
}

std::string versionString(int v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

std::string isoNow() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

std::string slug(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (std::isalnum(static_cast<unsigned char>(c))) o += char(std::tolower(c));
    else if (!o.empty() && o.back() != '-') o += '-';
  }
  while (!o.empty() && o.back() == '-') o.pop_back();
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  std::string outPath = "profile.json", only, profileId, regArrays, reportPath;
  int runs = 7;
  bool list = false;
  std::string command;
  for (int i = 0; i < argc; ++i) command += (i ? " " : "") + std::string(argv[i]);
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    const char* v = nullptr;
    if (a == "--list") list = true;
    else if (a == "--only" && (v = next())) only = v;
    else if (a == "--out" && (v = next())) outPath = v;
    else if (a == "--runs" && (v = next())) runs = std::atoi(v);
    else if (a == "--profile-id" && (v = next())) profileId = v;
    else if (a == "--register-arrays" && (v = next())) regArrays = v;
    else if (a == "--report" && (v = next())) reportPath = v;
    else if (a == "-h" || a == "--help") return usage(nullptr), 0;
    else return usage(("unknown or incomplete option " + a).c_str());
  }
  if (!reportPath.empty()) {
    std::string cmd = "python3 '" WARPLINT_PROBE_SCRIPT_DIR "/report.py' '" + reportPath + "'";
    int rc = std::system(cmd.c_str());
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : 2;
  }
  if (list) {
    for (const auto& p : allProbes()) std::printf("%-28s %s\n", p.id, p.title);
    return 0;
  }
  if (runs < 1) return usage("--runs must be positive");
  if (runs < 7) std::fprintf(stderr, "warplint-probe: note: %d runs; profiles need at least 7\n", runs);

  std::set<std::string> selected;
  for (std::stringstream ss(only); ss.good();) {
    std::string id;
    std::getline(ss, id, ',');
    if (id.empty()) continue;
    bool known = false;
    for (const auto& p : allProbes()) known |= id == p.id;
    if (!known) return usage(("unknown probe id " + id + " (see --list)").c_str());
    selected.insert(id);
  }

  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    std::fprintf(stderr, "warplint-probe: no CUDA GPU available (%s); nothing measured\n",
                 e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
    return 2;
  }

  RunInfo run;
  Context& ctx = run.ctx;
  ctx.runs = runs;
  try {
    PROBE_CHECK(cudaSetDevice(0));
    PROBE_CHECK(cudaGetDeviceProperties(&ctx.prop, 0));
    PROBE_CHECK(cudaDeviceGetAttribute(&ctx.smClockKHz, cudaDevAttrClockRate, 0));
    int memKHz = 0;
    PROBE_CHECK(cudaDeviceGetAttribute(&memKHz, cudaDevAttrMemoryClockRate, 0));
    PROBE_CHECK(cudaDeviceGetAttribute(&run.busWidthBits, cudaDevAttrGlobalMemoryBusWidth, 0));
    run.memClockMHz = memKHz / 1000;
    char bus[32] = {0};
    PROBE_CHECK(cudaDeviceGetPCIBusId(bus, sizeof bus, 0));
    run.pciBusId = bus;
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "warplint-probe: cannot use the GPU: %s\n", ex.what());
    return 2;
  }
  ctx.l2Bytes = size_t(ctx.prop.l2CacheSize);
  int rt = 0, drv = 0;
  cudaRuntimeGetVersion(&rt);
  cudaDriverGetVersion(&drv);
  run.runtimeVersion = versionString(rt);
  run.driverApiVersion = versionString(drv);
  run.command = command;
  run.date = isoNow();
  run.tool = "warplint-probe " WARPLINT_PROBE_VERSION;
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  run.host = host;

  NvmlSampler nvml(run.pciBusId);
  run.driverVersion = nvml.available() ? nvml.driverVersion() : "unknown (NVML not available)";
  int memMHz = nvml.maxMemClockMHz() > 0 ? nvml.maxMemClockMHz() : run.memClockMHz;
  run.memClockMHz = memMHz;
  // HBM and GDDR transfer twice per clock.
  run.theoreticalDramGBps = 2.0 * memMHz * 1e6 * run.busWidthBits / 8 / 1e9;
  run.profileId = profileId.empty() ? slug(ctx.prop.name) + "-" + run.date.substr(0, 10) : profileId;

  const bool tty = isatty(fileno(stderr));
  auto t0 = std::chrono::steady_clock::now();  // the settle step counts in the wall time
  // Settle: half a second of device copies first, so the first bandwidth probe
  // does not meet a GPU still leaving idle (seen once: a first run's copies
  // 5-20% slower than the repeat's).
  try {
    DeviceBuffer<char> a(size_t(256) << 20), b(size_t(256) << 20);
    auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
    while (std::chrono::steady_clock::now() < until) {
      PROBE_CHECK(cudaMemcpy(b.ptr, a.ptr, a.bytes(), cudaMemcpyDeviceToDevice));
    }
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "warplint-probe: settle step failed: %s\n", ex.what());
    return 2;
  }

  nvml.start(20);
  int failures = 0;
  const auto& probes = allProbes();
  int index = 0, total = 0;
  for (const auto& p : probes) total += selected.empty() || selected.count(p.id) || std::string(p.id) == "sm_clock";
  for (const auto& p : probes) {
    // sm_clock always runs: the cycle-to-ns conversions depend on it.
    if (!selected.empty() && !selected.count(p.id) && std::string(p.id) != "sm_clock") continue;
    ++index;
    if (tty) std::fprintf(stderr, "[%2d/%d] %-28s ...", index, total, p.id);
    ProbeRecord rec;
    rec.info = &p;
    auto s = std::chrono::steady_clock::now();
    try {
      p.run(ctx, rec.output);
    } catch (const std::exception& ex) {
      rec.error = ex.what();
      ++failures;
      cudaGetLastError();
    }
    rec.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - s).count();
    if (tty) std::fprintf(stderr, "\r[%2d/%d] %-28s %6.2f s %s\n", index, total, p.id, rec.wallSeconds,
                          rec.error.empty() ? "ok" : ("FAILED: " + rec.error).c_str());
    else if (!rec.error.empty()) std::fprintf(stderr, "%s FAILED: %s\n", p.id, rec.error.c_str());
    run.probes.push_back(std::move(rec));
  }
  nvml.stop();
  run.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  run.smClock = {nvml.available() ? "nvml" : "none", nvml.smSamples()};
  run.memClock = {nvml.available() ? "nvml" : "none", nvml.memSamples()};

  std::string json = profileJson(run);
  if (!regArrays.empty()) {
    std::ifstream in(regArrays);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string body = ss.str();
    while (!body.empty() && std::isspace(static_cast<unsigned char>(body.back()))) body.pop_back();
    if (!in || body.empty()) {
      std::fprintf(stderr, "warplint-probe: cannot read %s\n", regArrays.c_str());
      return 2;
    }
    json = json.substr(0, json.rfind("\n}")) + ",\n  \"register_arrays\": " + body + "\n}\n";
  }
  std::ofstream f(outPath);
  f << json;
  if (!f) {
    std::fprintf(stderr, "warplint-probe: cannot write %s\n", outPath.c_str());
    return 2;
  }
  std::fprintf(stderr, "warplint-probe: %s, %zu probes in %.1f s -> %s\n", ctx.prop.name,
               run.probes.size(), run.wallSeconds, outPath.c_str());
  return failures ? 1 : 0;
}

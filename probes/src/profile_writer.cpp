#include "profile_writer.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace probe {

namespace {

constexpr int kSchemaVersion = 1;

std::string quote(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    switch (c) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\t': o += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char b[8];
          std::snprintf(b, sizeof b, "\\u%04x", c);
          o += b;
        } else {
          o += c;
        }
    }
  }
  return o + "\"";
}

std::string number(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

// Quantile by linear interpolation between order statistics.
double quantile(const std::vector<double>& sorted, double q) {
  double pos = q * (sorted.size() - 1);
  size_t lo = size_t(pos);
  size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
}

std::string stats(const std::vector<double>& samples) {
  std::vector<double> s = samples;
  std::sort(s.begin(), s.end());
  std::ostringstream o;
  o << "\"median\": " << number(quantile(s, 0.5)) << ", \"min\": " << number(s.front())
    << ", \"max\": " << number(s.back()) << ", \"q1\": " << number(quantile(s, 0.25))
    << ", \"q3\": " << number(quantile(s, 0.75)) << ", \"runs\": " << s.size();
  return o.str();
}

std::string clockJson(const ClockSeries& c) {
  if (c.samples.empty()) return "{\"source\": \"none\"}";
  return "{\"source\": " + quote(c.source) + ", " + stats(c.samples) + "}";
}

}  // namespace

std::string profileJson(const RunInfo& run) {
  const auto& p = run.ctx.prop;
  std::ostringstream o;
  o << "{\n  \"schema\": \"warplint-hardware-profile\",\n  \"schema_version\": " << kSchemaVersion
    << ",\n  \"profile_id\": " << quote(run.profileId) << ",\n";
  o << "  \"device\": {\"name\": " << quote(p.name) << ", \"compute_capability\": \"" << p.major
    << "." << p.minor << "\", \"sm_count\": " << p.multiProcessorCount
    << ", \"pci_bus_id\": " << quote(run.pciBusId) << ", \"global_memory_bytes\": " << p.totalGlobalMem
    << ", \"l2_bytes\": " << p.l2CacheSize
    << ", \"shared_memory_per_sm_bytes\": " << p.sharedMemPerMultiprocessor
    << ", \"max_shared_memory_per_block_bytes\": " << p.sharedMemPerBlockOptin
    << ", \"registers_per_sm\": " << p.regsPerMultiprocessor
    << ", \"max_threads_per_sm\": " << p.maxThreadsPerMultiProcessor
    << ", \"peak_sm_clock_mhz\": " << run.ctx.smClockKHz / 1000
    << ", \"memory_clock_mhz\": " << run.memClockMHz << ", \"memory_bus_width_bits\": "
    << run.busWidthBits << ", \"theoretical_dram_bandwidth_gbps\": "
    << number(run.theoreticalDramGBps) << "},\n";
  o << "  \"clocks\": {\"sm_mhz\": " << clockJson(run.smClock) << ", \"memory_mhz\": "
    << clockJson(run.memClock) << "},\n";
  o << "  \"software\": {\"driver_version\": " << quote(run.driverVersion)
    << ", \"cuda_runtime_version\": " << quote(run.runtimeVersion)
    << ", \"cuda_driver_api_version\": " << quote(run.driverApiVersion) << "},\n";
  o << "  \"provenance\": {\"date\": " << quote(run.date) << ", \"command\": " << quote(run.command)
    << ", \"host\": " << quote(run.host) << ", \"tool\": " << quote(run.tool)
    << ", \"runs\": " << run.ctx.runs << ", \"wall_seconds\": " << number(run.wallSeconds) << "},\n";
  o << "  \"probes\": [";
  bool firstProbe = true;
  for (const auto& rec : run.probes) {
    o << (firstProbe ? "\n" : ",\n") << "    {\"id\": " << quote(rec.info->id)
      << ", \"title\": " << quote(rec.info->title) << ", \"method\": " << quote(rec.info->method)
      << ", \"wall_seconds\": " << number(rec.wallSeconds);
    firstProbe = false;
    if (!rec.error.empty()) o << ", \"error\": " << quote(rec.error);
    o << ",\n     \"values\": [";
    bool firstValue = true;
    for (const auto& v : rec.output.values) {
      if (v.samples.empty() || !rec.error.empty()) continue;
      o << (firstValue ? "\n" : ",\n") << "      {\"name\": " << quote(v.name) << ", \"params\": {";
      firstValue = false;
      for (size_t i = 0; i < v.params.size(); ++i)
        o << (i ? ", " : "") << quote(v.params[i].key) << ": " << v.params[i].json;
      o << "}, \"unit\": " << quote(v.unit) << ", " << stats(v.samples)
        << ", \"probe\": " << quote(rec.info->id) << ", \"method\": " << quote(v.method)
        << ", \"samples\": [";
      for (size_t i = 0; i < v.samples.size(); ++i) o << (i ? ", " : "") << number(v.samples[i]);
      o << "]}";
    }
    o << "]";
    if (!rec.output.derived.empty() && rec.error.empty()) {
      o << ",\n     \"derived\": {";
      for (size_t i = 0; i < rec.output.derived.size(); ++i)
        o << (i ? ", " : "") << quote(rec.output.derived[i].first) << ": "
          << rec.output.derived[i].second;
      o << "}";
    }
    if (!rec.output.notes.empty()) {
      o << ",\n     \"notes\": [";
      for (size_t i = 0; i < rec.output.notes.size(); ++i)
        o << (i ? ", " : "") << quote(rec.output.notes[i]);
      o << "]";
    }
    o << "}";
  }
  o << "\n  ]\n}\n";
  return o.str();
}

}  // namespace probe

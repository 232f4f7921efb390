// Turns probe samples into the profile JSON (probes/profile.schema.json).
#pragma once

#include "probe.h"

#include <string>
#include <vector>

namespace probe {

struct ProbeRecord {
  const ProbeInfo* info = nullptr;
  ProbeOutput output;
  double wallSeconds = 0;
  std::string error;  // non-empty when the probe threw; its values are dropped
};

struct ClockSeries {
  std::string source;  // "nvml" or "none"
  std::vector<double> samples;
};

struct RunInfo {
  Context ctx;
  std::string profileId, command, date, host, tool;
  std::string driverVersion, runtimeVersion, driverApiVersion, pciBusId;
  double theoreticalDramGBps = 0;
  int memClockMHz = 0, busWidthBits = 0;
  double wallSeconds = 0;
  ClockSeries smClock, memClock;
  std::vector<ProbeRecord> probes;
};

std::string profileJson(const RunInfo& run);

}  // namespace probe

// What a finding costs on the active hardware profile's GPU, in the numbers
// its probes measured. Every function returns an empty string (and adds
// nothing to `details`) when the profile lacks a value: no estimate ever
// stands in for a measurement.
#pragma once

#include "analyzer/profile/HardwareProfile.h"
#include <nlohmann/json.hpp>
#include <string>

namespace warplint {

// "about 91 cycles a load against 29 conflict-free on NVIDIA H200, a 32x
// throughput loss" for a `degree`-way conflict of 4-byte accesses.
std::string sharedConflictCost(const HardwareProfile &p, int degree, nlohmann::json &details);

// For a warp moving `sectors` where `idealSectors` suffice: the measured
// useful bandwidth of a float gather at the same lane stride, or the share of
// the measured DRAM bandwidth left for useful bytes.
std::string globalTrafficCost(const HardwareProfile &p, int sectors, int idealSectors, int64_t laneStrideBytes,
                              int64_t widthBytes, nlohmann::json &details);

// For accesses moving `widthBytes` (1 or 2) a lane: the measured copy
// bandwidth of that element type against a 4-byte one ("one-byte elements
// copy at 796 GB/s on NVIDIA H100 80GB HBM3 against 2358 GB/s as char4").
std::string narrowAccessCost(const HardwareProfile &p, int64_t widthBytes, nlohmann::json &details);

// The profile's identity for `details`.
nlohmann::json profileIdentity(const HardwareProfile &p);

} // namespace warplint

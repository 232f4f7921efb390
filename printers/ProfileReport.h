// A hardware profile as human-readable tables (`warplint probe --report`):
// device, clocks, software and provenance, then per probe every value's
// median, range and spread over the runs, and the derived facts.
#pragma once

#include <string>
#include <vector>

namespace warplint {

// `profileJson` is a profile's text (HardwareProfile::loadText); `probeIds`
// limits the tables to those probes (empty: all). Throws std::exception on
// JSON that lacks the schema's fields.
std::string renderProfileReport(const std::string &profileJson,
                                const std::vector<std::string> &probeIds);

} // namespace warplint

#include "printers/ProfileReport.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

namespace warplint {

namespace {

using nlohmann::ordered_json;

std::string number(double x) {
  char buf[32];
  if (std::fabs(x) >= 1000 || x == std::floor(x))
    std::snprintf(buf, sizeof buf, "%.0f", x);
  else
    std::snprintf(buf, sizeof buf, "%.4g", x);
  return buf;
}

std::string paramsText(const ordered_json &params) {
  std::string out;
  for (const auto &[k, v] : params.items())
    out += (out.empty() ? "" : ", ") + k + "=" + (v.is_string() ? v.get<std::string>() : v.dump());
  return out;
}

void printTable(std::ostringstream &os, const std::vector<std::vector<std::string>> &rows) {
  std::vector<size_t> widths(rows.front().size(), 0);
  for (const auto &r : rows)
    for (size_t i = 0; i < r.size(); ++i)
      widths[i] = std::max(widths[i], r[i].size());
  for (const auto &r : rows) {
    std::string line = "   ";
    for (size_t i = 0; i < r.size(); ++i)
      line += r[i] + std::string(i + 1 < r.size() ? widths[i] - r[i].size() + 2 : 0, ' ');
    os << line << "\n";
  }
}

// For a probe measured against warps per SM (seed 003 Fig. 2), the medians
// once more as one row per series and one column per warp count, so a curve
// reads across a line. Printed only when the probe has two or more warp
// counts in one series.
void printWarpsPivot(std::ostringstream &os, const ordered_json &values) {
  std::vector<double> warps;
  std::vector<std::pair<std::string, std::string>> series; // name, other params
  std::vector<std::vector<std::pair<double, double>>> cells; // per series: (warps, median)
  for (const ordered_json &v : values) {
    const ordered_json &params = v.at("params");
    if (!params.contains("warps_per_sm") || !params["warps_per_sm"].is_number())
      continue;
    double w = params["warps_per_sm"].get<double>();
    ordered_json rest = params;
    rest.erase("warps_per_sm");
    std::pair<std::string, std::string> key{v.at("name").get<std::string>(), paramsText(rest)};
    auto it = std::find(series.begin(), series.end(), key);
    if (it == series.end()) {
      series.push_back(key);
      cells.emplace_back();
      it = series.end() - 1;
    }
    cells[size_t(it - series.begin())].push_back({w, v.at("median").get<double>()});
    if (std::find(warps.begin(), warps.end(), w) == warps.end())
      warps.push_back(w);
  }
  if (warps.size() < 2)
    return;
  std::sort(warps.begin(), warps.end());
  std::vector<std::vector<std::string>> rows = {{"by warps per SM", "params"}};
  for (double w : warps)
    rows.front().push_back(number(w));
  for (size_t i = 0; i < series.size(); ++i) {
    if (cells[i].size() < 2)
      continue;
    std::vector<std::string> row = {series[i].first, series[i].second};
    for (double w : warps) {
      std::string cell = "-";
      for (const auto &[cw, med] : cells[i])
        if (cw == w)
          cell = number(med);
      row.push_back(cell);
    }
    rows.push_back(row);
  }
  if (rows.size() > 1)
    printTable(os, rows);
}

} // namespace

std::string renderProfileReport(const std::string &profileJson,
                                const std::vector<std::string> &probeIds) {
  ordered_json p = ordered_json::parse(profileJson);
  const ordered_json &d = p.at("device"), &s = p.at("software"), &pv = p.at("provenance");
  std::ostringstream os;
  os << "profile " << p.at("profile_id").get<std::string>() << " (schema "
     << p.at("schema_version").get<int>() << ")\n";
  os << "device  " << d.at("name").get<std::string>() << "  cc "
     << d.at("compute_capability").get<std::string>() << "  " << d.at("sm_count").get<int>()
     << " SMs  L2 " << number(d.at("l2_bytes").get<double>() / (1 << 20))
     << " MiB  theoretical DRAM " << number(d.at("theoretical_dram_bandwidth_gbps").get<double>())
     << " GB/s\n";
  const ordered_json &sm = p.at("clocks").at("sm_mhz");
  if (sm.contains("median"))
    os << "clocks  SM " << number(sm["median"].get<double>()) << " MHz (min "
       << number(sm["min"].get<double>()) << ", max " << number(sm["max"].get<double>()) << ", "
       << sm.value("runs", 0) << " samples)\n";
  os << "software driver " << s.value("driver_version", "?") << "  CUDA runtime "
     << s.value("cuda_runtime_version", "?") << "\n";
  os << "run     " << pv.at("date").get<std::string>() << "  " << pv.at("runs").get<int>()
     << " runs  " << number(pv.at("wall_seconds").get<double>()) << " s  `"
     << pv.at("command").get<std::string>() << "`\n";
  for (const ordered_json &probe : p.at("probes")) {
    std::string id = probe.at("id").get<std::string>();
    if (!probeIds.empty() && std::find(probeIds.begin(), probeIds.end(), id) == probeIds.end())
      continue;
    os << "\n== " << id << ": " << probe.at("title").get<std::string>() << "  ("
       << number(probe.value("wall_seconds", 0.0)) << " s)\n";
    if (probe.contains("error"))
      os << "   FAILED: " << probe["error"].get<std::string>() << "\n";
    std::vector<std::vector<std::string>> rows = {
        {"value", "params", "median", "min", "max", "spread", "unit"}};
    for (const ordered_json &v : probe.at("values")) {
      double med = v.at("median").get<double>(), lo = v.at("min").get<double>(),
             hi = v.at("max").get<double>();
      char spread[32];
      std::snprintf(spread, sizeof spread, "%.1f%%", med != 0 ? (hi - lo) / std::fabs(med) * 100 : 0.0);
      rows.push_back({v.at("name").get<std::string>(), paramsText(v.at("params")), number(med),
                      number(lo), number(hi), spread, v.at("unit").get<std::string>()});
    }
    if (rows.size() > 1)
      printTable(os, rows);
    printWarpsPivot(os, probe.at("values"));
    if (probe.contains("derived"))
      for (const auto &[k, v] : probe["derived"].items())
        os << "   derived " << k << ": " << v.dump() << "\n";
  }
  return os.str();
}

} // namespace warplint

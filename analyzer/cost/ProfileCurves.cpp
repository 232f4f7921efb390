#include "analyzer/cost/ProfileCurves.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <string>

namespace warplint {

double Curve::at(double x) const {
  if (points.size() == 1 || x <= points.front().first)
    return points.front().second;
  if (x >= points.back().first)
    return points.back().second;
  auto hi = std::lower_bound(points.begin(), points.end(), std::make_pair(x, -1e300));
  auto lo = hi - 1;
  double x0 = lo->first, x1 = hi->first, xv = x;
  if (logX) {
    x0 = std::log2(x0);
    x1 = std::log2(x1);
    xv = std::log2(x);
  }
  double t = x1 > x0 ? (xv - x0) / (x1 - x0) : 0;
  return lo->second + t * (hi->second - lo->second);
}

namespace {

const int kWarpCounts[] = {1, 2, 4, 6, 8, 12, 16, 24, 32, 48, 64};

// The fixed time of a launch (probe kernel_fixed_time): Nsight Compute's
// gpu__time_duration of a kernel of trivial blocks (256 threads that do no
// memory work) against its block count, 1 block and 1 to 64 blocks an SM.
// What a kernel costs besides its work: the launch, the ramp of its blocks
// onto the SMs and the tail after the last one retires.
Curve launchCurve(const HardwareProfile &p) {
  Curve c;
  c.logX = true;
  int sms = p.smCount();
  for (int perSm : {0, 1, 2, 4, 8, 16, 32, 64}) {
    int blocks = perSm == 0 ? 1 : perSm * sms;
    if (auto v = p.find("kernel_fixed_time", "gpu_time_duration_us", {{"shape", "trivial"}, {"blocks", blocks}}))
      c.points.push_back({double(blocks), v->median});
  }
  return c;
}

Curve warpsCurve(const HardwareProfile &p, const std::string &probe, const std::string &name) {
  Curve c;
  for (int w : kWarpCounts)
    if (auto v = p.find(probe, name, {{"warps_per_sm", w}}))
      c.points.push_back({double(w), v->median});
  return c;
}

// The running maximum of the best value at each x: more bytes in flight
// never measure less.
Curve envelope(const std::map<double, double> &best) {
  Curve c;
  c.logX = true;
  double runningMax = 0;
  for (auto &[x, y] : best) {
    runningMax = std::max(runningMax, y);
    c.points.push_back({x, runningMax});
  }
  return c;
}

// Copy bandwidth (bytes read + written) against the bytes each SM has in
// flight (dram_copy's grid-stride float4 configurations), the envelope.
Curve copyCurve(const HardwareProfile &p) {
  std::map<double, double> best;
  for (int blocks : {1, 2, 4, 8})
    for (int threads : {128, 256, 512, 1024})
      for (int loads : {1, 2, 4, 8}) {
        auto v = p.find("dram_copy", "copy_bandwidth_gbps",
                        {{"kernel", "float4_grid_stride"}, {"blocks_per_sm", blocks}, {"threads_per_block", threads},
                         {"loads_in_flight_per_thread", loads}});
        if (v)
          best[double(blocks) * threads * loads * 16] =
              std::max(best[double(blocks) * threads * loads * 16], v->median);
      }
  return envelope(best);
}

// DRAM read bandwidth against the bytes each SM has in flight (the seed's
// Fig. 3: blocks x threads x requests a thread), the best configuration
// for each amount.
Curve dramCurve(const HardwareProfile &p) {
  std::map<double, double> best;
  for (int blocks : {1, 2, 4, 8, 16})
    for (int threads : {64, 128, 256, 512, 1024})
      for (int loads : {1, 2, 4, 8, 16}) {
        auto v = p.find("dram_bandwidth_vs_config", "read_bandwidth_gbps",
                        {{"blocks_per_sm", blocks}, {"threads_per_block", threads}, {"loads_in_flight_per_thread", loads}});
        if (!v)
          continue;
        double inflight = double(blocks) * threads * loads * 16; // float4 loads
        best[inflight] = std::max(best[inflight], v->median);
      }
  return envelope(best);
}

std::optional<double> l2At(const HardwareProfile &p, double x, bool write) {
  return write ? p.l2WriteBandwidthGBps(x) : p.l2BandwidthGBps(x);
}

ProfileCurves::Range l2Range(const HardwareProfile &p, bool write) {
  ProfileCurves::Range r;
  for (double x = 64; x <= double(1 << 26); x *= 2)
    if (l2At(p, x, write)) {
      r.lo = r.lo > 0 ? r.lo : x;
      r.hi = x;
    }
  return r;
}

} // namespace

const ProfileCurves &ProfileCurves::of(const HardwareProfile &p) {
  // A few profiles at most in one thread's life (the LSP server reloads a
  // changed one): the oldest goes first.
  thread_local std::vector<std::pair<uint64_t, std::unique_ptr<ProfileCurves>>> cache;
  for (auto &[id, curves] : cache)
    if (id == p.contentId())
      return *curves;
  auto c = std::make_unique<ProfileCurves>();
  c->launch = launchCurve(p);
  c->fmaIssue = warpsCurve(p, "alu_throughput_vs_warps", "fma_warp_instructions_per_clk_per_sm");
  c->sharedConflictFree = warpsCurve(p, "shared_throughput_vs_warps", "throughput_bytes_per_clk_per_sm");
  c->dramRead = dramCurve(p);
  c->copy = copyCurve(p);
  c->l2Read = l2Range(p, false);
  c->l2Write = l2Range(p, true);
  if (cache.size() >= 4)
    cache.erase(cache.begin());
  cache.emplace_back(p.contentId(), std::move(c));
  return *cache.back().second;
}

// Outside the range the probe measured (l2_bandwidth_vs_config; the curve
// alone gives nothing there, which left the L2 time out): below the
// smallest point reads are latency-bound, bandwidth in proportion to the
// bytes in flight (Little's law; the measured 2 and 4 KiB points are 1.5
// and 2.8-3.0 TB/s on the H100). Above the largest, the plateau holds.
// Writes wait for no reply: the measured write curve is flat (3.9-4.1 TB/s
// from 4 to 128 KiB), so its end values hold on either side.
std::optional<double> l2BandwidthAt(const HardwareProfile &p, double inflight, bool write) {
  if (auto v = l2At(p, inflight, write))
    return v;
  const ProfileCurves::Range &r = write ? ProfileCurves::of(p).l2Write : ProfileCurves::of(p).l2Read;
  if (r.lo <= 0)
    return std::nullopt;
  if (inflight < r.lo)
    return write ? l2At(p, r.lo, write) : std::optional<double>(*l2At(p, r.lo, write) * inflight / r.lo);
  return l2At(p, r.hi, write);
}

} // namespace warplint

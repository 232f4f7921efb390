#include "gains/SequenceGains.h"
#include "analyzer/host/HostFacts.h"
#include "rules/host/HostRule.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

namespace warplint {

std::optional<double> transferTimeUs(const HardwareProfile &p, const std::string &direction,
                                     const std::string &memory, double bytes) {
  // (bytes, us a copy) at every measured size: single small copies timed
  // alone (host_copy_latency), larger ones back to back (the bandwidth's
  // per-copy time includes its fixed cost).
  std::vector<std::pair<double, double>> points;
  for (double b : {4.0, 256.0, 4096.0}) {
    auto v = p.find("host_copy_latency", "time_us", {{"direction", direction}, {"memory", memory}, {"bytes", b}});
    if (v)
      points.emplace_back(b, v->median);
  }
  for (double b : {65536.0, 1048576.0, 16777216.0, 268435456.0}) {
    auto v = p.find("host_transfer_bandwidth", "bandwidth_gbps",
                    {{"direction", direction}, {"memory", memory}, {"bytes", b}});
    if (v && v->median > 0)
      points.emplace_back(b, b / (v->median * 1e3));
  }
  if (points.size() < 2)
    return std::nullopt;
  if (bytes <= points.front().first)
    return points.front().second;
  for (size_t i = 1; i < points.size(); ++i)
    if (bytes <= points[i].first) {
      auto [b0, t0] = points[i - 1];
      auto [b1, t1] = points[i];
      return t0 + (t1 - t0) * (bytes - b0) / (b1 - b0);
    }
  // Past the largest measured size: that size's bandwidth.
  auto [bl, tl] = points.back();
  return tl * bytes / bl;
}

namespace {

bool sameLoc(const SourceLocation &a, const SourceLocation &b) {
  return a.line == b.line && a.column == b.column && a.file == b.file;
}

// One copy or launch of the host function, and how often it runs relative
// to the others.
struct SequenceEvent {
  const HostTransfer *copy = nullptr;
  const HostLaunch *launch = nullptr;
  double times = 1;
  double us = 0; // one run, as written
};

std::string memoryOf(const HostTransfer &t) {
  const BufferOrigin &h = t.hostOperand == 0 ? t.dst : t.src;
  return h.kind == MemoryOrigin::Pinned ? "pinned" : h.kind == MemoryOrigin::Pageable ? "pageable" : "";
}

const BufferOrigin *hostSide(const HostTransfer &t) {
  return t.hostOperand == 0 ? &t.dst : t.hostOperand == 1 ? &t.src : nullptr;
}

std::optional<double> copyBytes(const HostTransfer &t) {
  if (!t.sizeBytes || t.threeD || t.symbol)
    return std::nullopt;
  if (t.twoD)
    return t.height ? std::optional<double>(double(*t.sizeBytes) * double(*t.height)) : std::nullopt;
  return double(*t.sizeBytes);
}

// The copy's time under `memory` ("" : as written); why not in `why`.
std::optional<double> copyUs(const HardwareProfile &p, const HostTransfer &t, double bytes, std::string memory,
                             std::string &why) {
  if (t.direction == CopyDirection::DeviceToDevice) {
    auto dram = p.dramBandwidthGBps();
    if (!dram) {
      why = "the profile has no DRAM bandwidth for the device-to-device copy at line " + std::to_string(t.loc.line);
      return std::nullopt;
    }
    return 2 * bytes / (*dram * 1e3); // read and write
  }
  if (t.direction != CopyDirection::HostToDevice && t.direction != CopyDirection::DeviceToHost) {
    why = "the copy at line " + std::to_string(t.loc.line) + " has no host-device direction the profile measured";
    return std::nullopt;
  }
  if (memory.empty())
    memory = memoryOf(t);
  if (memory.empty()) {
    why = "the host memory of the copy at line " + std::to_string(t.loc.line) + " is neither pinned nor pageable as far as the analysis can trace";
    return std::nullopt;
  }
  auto us = transferTimeUs(p, copyDirectionName(t.direction), memory, bytes);
  if (!us)
    why = "the profile has no host transfer measurements";
  return us;
}

std::string msText(double us) {
  std::ostringstream os;
  os.setf(std::ios::fixed);
  if (us >= 1000) {
    os.precision(us >= 100000 ? 0 : 1);
    os << us / 1000 << " ms";
  } else {
    os.precision(us >= 100 ? 0 : 1);
    os << us << " us";
  }
  return os.str();
}

std::string speedupText(double s) {
  std::ostringstream os;
  os.setf(std::ios::fixed);
  os.precision(s < 10 ? 2 : s < 100 ? 1 : 0);
  os << "~" << s << "x";
  return os.str();
}

double round3(double v) { return std::round(v * 1000) / 1000; }

class SequencePricer {
public:
  SequencePricer(const TranslationUnitResult &unit, size_t unitIndex, const GainsResult &kernels,
                 const HardwareProfile &profile)
      : unit_(unit), unitIndex_(unitIndex), kernels_(kernels), p_(profile) {}

  // Prices the finding's host function; false with `why` when some part of
  // it cannot be priced (never a partial sum presented as the whole).
  bool price(const HostTransfer &t, std::string &why) {
    const HostFacts &h = *unit_.host;
    function_ = t.function;
    std::vector<const std::vector<HostLoop> *> loopLists;
    for (const HostTransfer &c : h.transfers)
      if (c.function == function_) {
        events_.push_back({&c, nullptr});
        loopLists.push_back(&c.loops);
      }
    for (const HostLaunch &l : h.launches)
      if (l.function == function_) {
        events_.push_back({nullptr, &l});
        loopLists.push_back(&l.loops);
      }
    // Loops around every event scale the whole sequence: only the others
    // need a trip count.
    auto common = [&](const HostLoop &l) {
      return std::all_of(loopLists.begin(), loopLists.end(), [&](const std::vector<HostLoop> *ls) {
        return std::any_of(ls->begin(), ls->end(), [&](const HostLoop &o) { return sameLoc(o.loc, l.loc); });
      });
    };
    for (SequenceEvent &e : events_) {
      const std::vector<HostLoop> &loops = e.copy ? e.copy->loops : e.launch->loops;
      for (const HostLoop &l : loops) {
        if (common(l))
          continue;
        if (!l.tripCount) {
          why = "the " + l.kind + " loop at line " + std::to_string(l.loc.line) + " has no constant trip count";
          return false;
        }
        e.times *= double(*l.tripCount);
      }
      if (e.copy) {
        if (!e.copy->argsParsed) {
          why = "an argument of the copy at line " + std::to_string(e.copy->loc.line) + " did not parse";
          return false;
        }
        auto bytes = copyBytes(*e.copy);
        if (!bytes) {
          why = "the size of the copy at line " + std::to_string(e.copy->loc.line) + " is not a constant";
          return false;
        }
        auto us = copyUs(p_, *e.copy, *bytes, "", why);
        if (!us)
          return false;
        e.us = *us;
        copyUs_ += e.times * e.us;
      } else {
        auto us = launchUs(*e.launch, why);
        if (!us)
          return false;
        e.us = *us;
        ++launches_;
      }
      total_ += e.times * e.us;
    }
    return total_ > 0;
  }

  double total() const { return total_; }
  double copyShare() const { return total_ > 0 ? copyUs_ / total_ : 0; }
  size_t copies() const { return events_.size() - launches_; }
  size_t launches() const { return launches_; }
  const std::string &function() const { return function_; }

  // host-pageable-transfer: every copy of the same host buffer pinned
  // (every pageable copy of the function with `all`).
  std::optional<double> pinned(const HostTransfer &t, bool all, std::string &why) const {
    const BufferOrigin *buffer = hostSide(t);
    double after = 0;
    for (const SequenceEvent &e : events_) {
      double us = e.us;
      if (e.copy && buffer) {
        const BufferOrigin *other = hostSide(*e.copy);
        if (other && other->kind == MemoryOrigin::Pageable &&
            (all || sameLoc(e.copy->loc, t.loc) || (!buffer->key.empty() && other->key == buffer->key))) {
          auto pinnedUs = copyUs(p_, *e.copy, *copyBytes(*e.copy), "pinned", why);
          if (!pinnedUs)
            return std::nullopt;
          us = *pinnedUs;
        }
      }
      after += e.times * us;
    }
    return after;
  }

  // host-transfer-batching, a loop copying one piece each iteration: the
  // innermost loop's copies as one.
  std::optional<double> batched(const HostTransfer &t, std::string &why) const {
    if (t.loops.empty() || !t.loops.back().tripCount) {
      why = t.loops.empty() ? "the copy is in no loop"
                            : "the " + t.loops.back().kind + " loop at line " + std::to_string(t.loops.back().loc.line) +
                                  " has no constant trip count";
      return std::nullopt;
    }
    double n = double(*t.loops.back().tripCount);
    double after = 0;
    for (const SequenceEvent &e : events_) {
      if (e.copy && sameLoc(e.copy->loc, t.loc)) {
        auto one = copyUs(p_, t, n * *copyBytes(t), "", why);
        if (!one)
          return std::nullopt;
        after += e.times / n * *one;
      } else {
        after += e.times * e.us;
      }
    }
    return after;
  }

  // host-transfer-batching, a run of small copies one after another (the
  // finding's details.run: the copies' lines in source order, the first at
  // `t`): wherever the run runs (each iteration of the loops around it), its
  // copies replaced by one copy of their summed bytes, as the advice packs
  // them into one host and one device buffer. The packed host buffer is
  // pinned when every piece's is (what the rule's note assumes), else
  // pageable. `bytes` receives the packed size.
  std::optional<double> packedRun(const HostTransfer &t, const std::vector<unsigned> &lines, double &bytes,
                                  std::string &why) const {
    std::vector<const SequenceEvent *> copies;
    for (const SequenceEvent &e : events_)
      if (e.copy)
        copies.push_back(&e);
    std::sort(copies.begin(), copies.end(),
              [](const SequenceEvent *a, const SequenceEvent *b) { return a->copy->order < b->copy->order; });
    auto first = std::find_if(copies.begin(), copies.end(),
                              [&](const SequenceEvent *e) { return sameLoc(e->copy->loc, t.loc); });
    std::set<const SequenceEvent *> run;
    // The rule's run is consecutive among the function's copies (any other
    // copy between two pieces ends it).
    for (size_t i = 0; first != copies.end() && i < lines.size() && first + i != copies.end(); ++i) {
      const SequenceEvent *e = first[i];
      if (e->copy->loc.line != lines[i] || e->copy->direction != t.direction || e->times != (*first)->times)
        break;
      run.insert(e);
    }
    if (lines.size() < 2 || run.size() != lines.size()) {
      why = "the run's copies (lines " + std::to_string(lines.empty() ? 0 : lines.front()) + "-" +
            std::to_string(lines.empty() ? 0 : lines.back()) + ") were not found in '" + function_ + "'";
      return std::nullopt;
    }
    bytes = 0;
    bool pinned = true;
    for (const SequenceEvent *e : run) {
      bytes += *copyBytes(*e->copy); // priced as written: the size is known
      pinned = pinned && memoryOf(*e->copy) == "pinned";
    }
    auto packed = copyUs(p_, t, bytes, pinned ? "pinned" : "pageable", why);
    if (!packed)
      return std::nullopt;
    double after = (*first)->times * *packed;
    for (const SequenceEvent &e : events_)
      if (!run.count(&e))
        after += e.times * e.us;
    return after;
  }

  // host-transfer-no-overlap: copy in, kernel, copy back staged over S
  // streams: the longest of the three, plus the rest divided by S (a
  // pipeline of S chunks). Other events unchanged.
  std::optional<double> staged(const HostTransfer &t, int launchLine, int copyBackLine, int streams,
                               std::string &why) const {
    const SequenceEvent *in = nullptr, *kernel = nullptr, *back = nullptr;
    for (const SequenceEvent &e : events_) {
      if (e.copy && sameLoc(e.copy->loc, t.loc))
        in = &e;
      else if (e.launch && int(e.launch->loc.line) == launchLine && !kernel)
        kernel = &e;
      else if (e.copy && int(e.copy->loc.line) == copyBackLine && !back)
        back = &e;
    }
    if (!in || !kernel || streams < 2) {
      why = "the staged copy, kernel and copy back were not all found in '" + function_ + "'";
      return std::nullopt;
    }
    std::vector<double> parts{in->us, kernel->us};
    if (back)
      parts.push_back(back->us);
    double sum = 0, longest = 0;
    for (double x : parts)
      sum += x, longest = std::max(longest, x);
    double stagedUs = longest + (sum - longest) / streams;
    double after = 0;
    for (const SequenceEvent &e : events_)
      if (&e != in && &e != kernel && &e != back)
        after += e.times * e.us;
    return after + in->times * stagedUs;
  }

private:
  std::optional<double> launchUs(const HostLaunch &l, std::string &why) const {
    if (l.viaHelper || l.bodyUnseen) {
      why = "the call at line " + std::to_string(l.loc.line) + " may launch GPU work the unit does not show";
      return std::nullopt;
    }
    for (const KernelCostReport &r : kernels_.kernels) {
      if (r.unit != unitIndex_)
        continue;
      std::string name = r.kernel.substr(0, r.kernel.find('<'));
      if (name != l.kernel)
        continue;
      if (!r.asWritten.computed)
        break;
      return r.asWritten.timeUs;
    }
    why = "kernel '" + l.kernel + "' (line " + std::to_string(l.loc.line) + ") has no time from the cost model";
    return std::nullopt;
  }

  const TranslationUnitResult &unit_;
  size_t unitIndex_;
  const GainsResult &kernels_;
  const HardwareProfile &p_;
  std::string function_;
  std::vector<SequenceEvent> events_;
  double total_ = 0, copyUs_ = 0;
  size_t launches_ = 0;
};

int intDetail(const Finding &f, const char *key) {
  auto it = f.details.find(key);
  return it != f.details.end() && it->is_number_integer() ? it->get<int>() : 0;
}

} // namespace

void attachSequenceGains(const AnalysisResults &results, const GainsResult &kernels, std::vector<Finding> &findings,
                         const UnitProfile &profileOf) {
  static const std::set<std::string> rules{"host-pageable-transfer", "host-transfer-batching",
                                           "host-transfer-no-overlap"};
  for (Finding &f : findings) {
    if (!rules.count(f.rule) || f.unit >= results.units.size())
      continue;
    const TranslationUnitResult &unit = results.units[f.unit];
    const HardwareProfile *profile = profileOf(f.unit);
    auto unavailable = [&](const std::string &why) { f.details["predicted_sequence_speedup_unavailable"] = why; };
    if (!profile) {
      unavailable("no hardware profile");
      continue;
    }
    const HostTransfer *t = nullptr;
    if (unit.host)
      for (const HostTransfer &c : unit.host->transfers)
        if (sameLoc(c.loc, f.loc))
          t = &c;
    if (!t) {
      unavailable("the copy was not found in the unit's host facts");
      continue;
    }
    SequencePricer pricer(unit, f.unit, kernels, *profile);
    std::string why;
    if (!pricer.price(*t, why)) {
      unavailable(why.empty() ? "nothing to price" : why);
      continue;
    }
    std::optional<double> after;
    std::string change;
    std::string alsoAll;
    std::optional<std::pair<size_t, double>> packed; // a batching run: its copies and packed bytes
    if (f.rule == "host-pageable-transfer") {
      after = pricer.pinned(*t, false, why);
      const BufferOrigin *h = hostSide(*t);
      change = "with '" + (h ? h->variable : std::string("the buffer")) + "' pinned";
      // Pinning one buffer of several copied: what pinning them all gives.
      if (auto all = pricer.pinned(*t, true, why); after && all && *all < *after * 0.999) {
        f.details["predicted_sequence_speedup_all_pinned"] = round3(pricer.total() / *all);
        alsoAll = "; with every copied host buffer of '" + pricer.function() + "' pinned: ~" + msText(*all) + ", " +
                  speedupText(pricer.total() / *all);
      }
    } else if (f.rule == "host-transfer-batching") {
      // Two shapes (rules/host/HostTransferBatching.cpp): a loop copying one
      // piece each iteration (its copies merged into one), or a run of small
      // copies one after another, listed in details.run (packed into one
      // copy each time the run runs).
      auto run = f.details.find("run");
      if (run != f.details.end() && run->is_array() && !run->empty()) {
        std::vector<unsigned> lines;
        for (const auto &piece : *run)
          lines.push_back(piece.value("line", 0u));
        double bytes = 0;
        after = pricer.packedRun(*t, lines, bytes, why);
        packed = {lines.size(), bytes};
        change = "with the run's " + std::to_string(lines.size()) + " copies packed into one of " +
                 host::bytesText(int64_t(bytes)) + (t->loops.empty() ? "" : " each iteration");
      } else {
        after = pricer.batched(*t, why);
        change = "with the copies batched into one";
      }
    } else {
      int streams = intDetail(f, "streams_suggested");
      after = pricer.staged(*t, intDetail(f, "launch_line"), intDetail(f, "copy_back_line"), streams, why);
      change = "staged over " + std::to_string(streams) + " streams";
    }
    if (!after || *after <= 0) {
      unavailable(why.empty() ? "the change could not be priced" : why);
      continue;
    }
    double speedup = pricer.total() / *after;
    f.details["predicted_sequence_speedup"] = round3(speedup);
    f.details["sequence_cost"] = {{"host_function", pricer.function()},
                                  {"copies", pricer.copies()},
                                  {"launches", pricer.launches()},
                                  {"time_us", round3(pricer.total())},
                                  {"time_us_after", round3(*after)},
                                  {"copy_share", round3(pricer.copyShare())},
                                  {"profile", profile->profileId()},
                                  {"assumes", "copies and kernels run one after another; loops around all of them left out"}};
    if (packed) {
      f.details["sequence_cost"]["run_copies_packed"] = packed->first;
      f.details["sequence_cost"]["packed_copy_bytes"] = std::llround(packed->second);
    }
    std::ostringstream share;
    share << std::lround(pricer.copyShare() * 100);
    f.notes.push_back(
        {{}, "the GPU work '" + pricer.function() + "' shows (" + std::to_string(pricer.copies()) +
                 (pricer.copies() == 1 ? " copy, " : " copies, ") + std::to_string(pricer.launches()) +
                 (pricer.launches() == 1 ? " launch" : " launches") + ", run one after another): ~" +
                 msText(pricer.total()) + " as written (copies " + share.str() + "%), ~" + msText(*after) + " " +
                 change + ": " + speedupText(speedup) + alsoAll + " (" + profile->profileId() + " profile)"});
  }
}

} // namespace warplint

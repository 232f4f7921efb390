#include "analyzer/warp/UniformSweep.h"
#include "analyzer/warp/AccessFingerprint.h"
#include "analyzer/warp/PatternMeasure.h"
#include "analyzer/warp/WarpOutcomes.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <unordered_map>

namespace warplint {

namespace {

constexpr size_t kMaxSweptSymbols = 3;
constexpr int kSweptIdBase = 1 << 24; // ids of the swept stand-ins, apart from the walker's

std::vector<int64_t> sampleValues(size_t symbols, bool boolean) {
  if (boolean)
    return {0, 1};
  std::vector<int64_t> v;
  if (symbols == 1) {
    for (int64_t i = 0; i <= 64; ++i)
      v.push_back(i);
    for (int64_t i : {96, 127, 128, 129, 255, 256, 257, 1000, 1023, 1024, 1025})
      v.push_back(i);
  } else if (symbols == 2) {
    v = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 1024};
  } else {
    v = {0, 1, 2, 8, 32, 33, 1024};
  }
  return v;
}

std::string symbolLabel(const Symbol &s) {
  return s.kind == SymbolKind::Param ? s.name : "'" + s.name + "'";
}

bool admissible(const UniformSample &s) { return s.worst >= 0; }

// Whether `holds` over the admissible samples depends on symbol `i` alone,
// and if so, holds as a function of its value.
std::optional<std::map<int64_t, bool>> projection(const UniformSweep &sweep, size_t i,
                                                  const std::function<bool(const UniformSample &)> &holds) {
  std::map<int64_t, bool> by;
  for (auto &s : sweep.samples) {
    if (!admissible(s))
      continue;
    bool h = holds(s);
    if (s.degenerate && !h)
      continue;
    auto [it, inserted] = by.emplace(s.values[i], h);
    if (!inserted && it->second != h)
      return std::nullopt;
  }
  return by;
}

std::optional<std::string> describeOne(const std::string &name, const std::map<int64_t, bool> &by) {
  bool any = false, all = true;
  for (auto &[v, h] : by)
    any = any || h, all = all && h;
  if (all)
    return std::string("every value");
  if (!any)
    return std::nullopt;
  // A threshold: false below T, true from T on.
  int64_t first = -1;
  bool monotone = true, seenTrue = false;
  for (auto &[v, h] : by) {
    if (h && !seenTrue)
      first = v, seenTrue = true;
    else if (!h && seenTrue)
      monotone = false;
  }
  if (monotone)
    return name + " >= " + std::to_string(first);
  // Below a bound.
  int64_t last = -1;
  bool below = true, seenFalse = false;
  for (auto &[v, h] : by) {
    if (h && seenFalse)
      below = false;
    if (h)
      last = v;
    else
      seenFalse = true;
  }
  if (below)
    return name + " <= " + std::to_string(last);
  // A multiple of a power of two.
  for (int64_t m : {64, 32, 16, 8, 4, 2}) {
    bool match = true;
    for (auto &[v, h] : by)
      match = match && (h == (v % m == 0));
    if (match)
      return name + " is a multiple of " + std::to_string(m);
  }
  for (int64_t m : {64, 32, 16, 8, 4, 2}) {
    bool match = true;
    for (auto &[v, h] : by)
      match = match && (h == (v % m != 0));
    if (match)
      return name + " is not a multiple of " + std::to_string(m);
  }
  return std::nullopt;
}

std::string sampledRange(const std::vector<int64_t> &values) {
  if (values.size() == 2 && values[0] == 0 && values[1] == 1)
    return "0 and 1";
  std::string s;
  for (size_t i = 0; i < values.size() && i < 4; ++i)
    s += (i ? ", " : "") + std::to_string(values[i]);
  return s + ", ..., " + std::to_string(values.back());
}

} // namespace

std::optional<std::string> describeCondition(const UniformSweep &sweep,
                                             const std::function<bool(const UniformSample &)> &holds) {
  if (holdsForEveryValue(sweep, holds))
    return std::string("every value");
  for (size_t i = 0; i < sweep.symbols.size(); ++i) {
    auto by = projection(sweep, i, holds);
    if (!by)
      continue;
    if (auto d = describeOne(sweep.symbols[i], *by); d && *d != "every value")
      return d;
  }
  // Thresholds on several symbols at once: "nx >= 8 and ny >= 1".
  std::vector<int64_t> lows(sweep.symbols.size(), INT64_MAX), mins(sweep.symbols.size(), INT64_MAX);
  bool anyHolds = false;
  for (auto &s : sweep.samples) {
    if (!admissible(s))
      continue;
    for (size_t i = 0; i < s.values.size(); ++i) {
      mins[i] = std::min(mins[i], s.values[i]);
      if (holds(s))
        lows[i] = std::min(lows[i], s.values[i]);
    }
    anyHolds = anyHolds || holds(s);
  }
  if (!anyHolds)
    return std::nullopt;
  for (auto &s : sweep.samples) {
    if (!admissible(s))
      continue;
    bool inBox = true;
    for (size_t i = 0; i < s.values.size(); ++i)
      inBox = inBox && s.values[i] >= lows[i];
    bool h = holds(s);
    if (h != inBox && !(s.degenerate && !h))
      return std::nullopt;
  }
  std::string out;
  for (size_t i = 0; i < sweep.symbols.size(); ++i)
    if (lows[i] > mins[i])
      out += (out.empty() ? "" : " and ") + sweep.symbols[i] + " >= " + std::to_string(lows[i]);
  if (out.empty())
    return std::nullopt;
  return out;
}

bool holdsForEveryValue(const UniformSweep &sweep, const std::function<bool(const UniformSample &)> &holds) {
  bool any = false;
  for (auto &s : sweep.samples) {
    if (!admissible(s) || s.degenerate)
      continue;
    any = true;
    if (!holds(s))
      return false;
  }
  return any;
}

namespace {

void evaluateAccessImpl(const GuardedAccess &access, const std::vector<BlockShape> &shapes,
                        const EvaluationOptions &opts, MemoryAccess &f);

// What evaluateAccessImpl does to a MemoryAccess, kept for accesses with the
// same fingerprint: evaluations appended (no unknown swept) or put in place
// of f's (a sweep, when one value held for every sample), assumptions
// appended, the sweep set.
struct EvaluationEffect {
  MemoryAccess result; // evaluateAccessImpl on an empty access of the same space
  size_t samples = 0;  // the sweep's size, to bound the memo's memory
};

void applyEffect(const EvaluationEffect &effect, MemoryAccess &f) {
  const MemoryAccess &r = effect.result;
  if (!r.uniformSweep) {
    size_t before = f.evals.size();
    f.evals.insert(f.evals.end(), r.evals.begin(), r.evals.end());
    if (r.worstEval >= 0)
      f.worstEval = static_cast<int>(before) + r.worstEval;
  } else if (!r.evals.empty()) {
    f.evals = r.evals;
    f.worstEval = r.worstEval;
  }
  f.assumptions.insert(f.assumptions.end(), r.assumptions.begin(), r.assumptions.end());
  if (r.uniformSweep)
    f.uniformSweep = r.uniformSweep;
}

// Per thread (units are analyzed in parallel), for the whole run: the key
// names everything the evaluation reads, so results are shared across
// kernels and files alike. Bounded by the samples kept; emptied when full.
struct EvaluationMemo {
  std::unordered_map<std::string, EvaluationEffect> byKey;
  size_t samples = 0;
  static constexpr size_t kMaxSamples = 200000, kMaxEntries = 20000;
};

} // namespace

void evaluateAccess(const GuardedAccess &access, const std::vector<BlockShape> &shapes, const EvaluationOptions &opts,
                    MemoryAccess &f) {
  thread_local EvaluationMemo memo;
  std::string key = accessFingerprint(access, f.space, shapes, opts);
  auto it = memo.byKey.find(key);
  if (it == memo.byKey.end()) {
    EvaluationEffect effect;
    effect.result.space = f.space;
    evaluateAccessImpl(access, shapes, opts, effect.result);
    if (effect.result.uniformSweep)
      effect.samples = effect.result.uniformSweep->samples.size();
    if (memo.samples + effect.samples > EvaluationMemo::kMaxSamples || memo.byKey.size() >= EvaluationMemo::kMaxEntries) {
      memo.byKey.clear();
      memo.samples = 0;
    }
    memo.samples += effect.samples;
    it = memo.byKey.emplace(std::move(key), std::move(effect)).first;
  }
  applyEffect(it->second, f);
}

namespace {

void evaluateAccessImpl(const GuardedAccess &access, const std::vector<BlockShape> &shapes,
                        const EvaluationOptions &opts, MemoryAccess &f) {
  auto evaluateAll = [&](const GuardedAccess &ga, const EvaluationOptions &eo, std::vector<WarpAccessEval> &evals,
                         int &worstIndex) {
    double worst = -1;
    WarpsAcrossShapes acrossShapes;
    for (auto &shape : shapes) {
      auto e = evaluateWarpAccessSamples(ga, shape, eo, {}, {{}}, nullptr, &acrossShapes)[0];
      if (!e)
        continue;
      evals.push_back(*e);
      double sev = evaluationSeverity(*e, f.space);
      if (sev > worst) {
        worst = sev;
        worstIndex = static_cast<int>(evals.size()) - 1;
      }
    }
  };

  std::vector<Symbol> all, syms;
  access.byteOffset->collectSymbols(all);
  // A symbol given a value (a retry where the guards pass) is not swept.
  for (auto &s : all)
    if ((s.kind == SymbolKind::Param && !opts.paramOverrides.count(s.index)) ||
        (s.kind == SymbolKind::Uniform && !opts.uniformOverrides.count(s.index)))
      syms.push_back(s);
  if (syms.empty()) {
    evaluateAll(access, opts, f.evals, f.worstEval);
    return;
  }
  // Beyond a few symbols the grid grows too large: the rest keep the
  // default value, and the assumption says so.
  std::vector<Symbol> fixed;
  if (syms.size() > kMaxSweptSymbols) {
    fixed.assign(syms.begin() + kMaxSweptSymbols, syms.end());
    syms.resize(kMaxSweptSymbols);
  }
  UniformSweep sweep;
  std::vector<std::vector<int64_t>> values;
  for (auto &s : syms) {
    sweep.symbols.push_back(s.name);
    sweep.isParam.push_back(s.kind == SymbolKind::Param);
    values.push_back(sampleValues(syms.size(), s.boolean));
  }
  auto c0 = laneCoefficient(access.byteOffset, 0);
  if (c0 && !c0->isKnown())
    c0 = nullptr;
  if (c0)
    sweep.laneStride = c0->str();

  // The swept values stand for the symbols in the address only: guards and
  // loop bounds keep the default (large) value, so that the lanes taking part
  // are those of a large problem, as everywhere else.
  GuardedAccess swept = access;
  std::vector<int> sweptIds;
  for (size_t i = 0; i < syms.size(); ++i) {
    Symbol renamed{SymbolKind::Uniform, kSweptIdBase + static_cast<int>(i), syms[i].name, syms[i].boolean};
    swept.byteOffset = substitute(swept.byteOffset, syms[i], IndexExpr::symbol(renamed));
    sweptIds.push_back(renamed.index);
  }
  // Every combination of the values, the first symbol's fastest.
  std::vector<std::vector<int64_t>> combinations;
  std::vector<size_t> cursor(syms.size(), 0);
  for (;;) {
    std::vector<int64_t> combination;
    for (size_t i = 0; i < syms.size(); ++i)
      combination.push_back(values[i][cursor[i]]);
    combinations.push_back(std::move(combination));
    size_t i = 0;
    for (; i < syms.size(); ++i) {
      if (++cursor[i] < values[i].size())
        break;
      cursor[i] = 0;
    }
    if (i == syms.size())
      break;
  }
  // All of them at once per shape (one enumeration of loops and lanes).
  std::vector<std::vector<std::optional<WarpAccessEval>>> perShape;
  ThinnedIterations thinned;
  WarpsAcrossShapes acrossShapes;
  for (auto &shape : shapes)
    perShape.push_back(evaluateWarpAccessSamples(swept, shape, opts, sweptIds, combinations, &thinned, &acrossShapes));
  if (thinned.total > 0)
    f.assumptions.push_back("loop iterations sampled: " + std::to_string(thinned.kept) + " of " +
                            std::to_string(thinned.total) + " iteration combinations at each of the " +
                            std::to_string(combinations.size()) + " sampled values (the sweep's budget)");
  for (size_t c = 0; c < combinations.size(); ++c) {
    UniformSample sample;
    sample.values = combinations[c];
    double worst = -1;
    for (auto &results : perShape) {
      if (!results[c])
        continue;
      sample.evals.push_back(*results[c]);
      double sev = evaluationSeverity(*results[c], f.space);
      if (sev > worst) {
        worst = sev;
        sample.worst = static_cast<int>(sample.evals.size()) - 1;
      }
    }
    sweep.samples.push_back(std::move(sample));
  }
  // A sample where every lane meets at one address while others spread them
  // is a zero stride: not a configuration the code is written for.
  bool anySpread = false;
  for (auto &s : sweep.samples)
    if (s.worst >= 0 && !s.evals[s.worst].uniform)
      anySpread = true;
  for (auto &s : sweep.samples)
    if (s.worst >= 0 && anySpread)
      s.degenerate = std::all_of(s.evals.begin(), s.evals.end(), [](auto &e) { return e.uniform; });

  // The verdict that holds for every value: the least severe sample.
  const UniformSample *least = nullptr;
  double leastSev = 0;
  for (auto &s : sweep.samples) {
    if (s.worst < 0 || s.degenerate)
      continue;
    double sev = evaluationSeverity(s.evals[s.worst], f.space);
    if (!least || sev < leastSev)
      least = &s, leastSev = sev;
  }
  if (least) {
    f.evals = least->evals;
    f.worstEval = least->worst;
  }

  for (size_t i = 0; i < syms.size(); ++i)
    f.assumptions.push_back(symbolLabel(syms[i]) + " is warp-uniform, value unknown: evaluated at " +
                            sampledRange(values[i]));
  for (auto &s : fixed)
    f.assumptions.push_back(symbolLabel(s) + " taken as " + std::to_string(opts.symbolicValue) +
                            " (too many unknowns to sweep)");

  // Facts for the model: when the access is not ideal, and when it is worst.
  auto worstOf = [&](const UniformSample &s) -> const WarpAccessEval & { return s.evals[s.worst]; };
  double top = -1;
  for (auto &s : sweep.samples)
    if (s.worst >= 0)
      top = std::max(top, evaluationSeverity(worstOf(s), f.space));
  if (f.space == AddressSpace::Shared) {
    if (auto c = describeCondition(sweep, [&](auto &s) { return worstOf(s).bankConflictDegree >= 2 && !worstOf(s).uniform; }))
      sweep.conditions.push_back("bank conflict when " + *c);
  } else {
    if (auto c = describeCondition(sweep, [&](auto &s) {
          auto &e = worstOf(s);
          return !e.uniform && e.idealSectors > 0 && e.sectors >= 2 * e.idealSectors;
        }))
      sweep.conditions.push_back("twice the ideal sectors or more when " + *c);
  }
  if (top >= 0)
    if (auto c = describeCondition(sweep, [&](auto &s) { return evaluationSeverity(worstOf(s), f.space) >= top; }))
      sweep.conditions.push_back("worst when " + *c);
  f.uniformSweep = std::make_shared<const UniformSweep>(std::move(sweep));
}

} // namespace

} // namespace warplint

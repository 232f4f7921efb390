#include "printers/ExplainPrinter.h"
#include "printers/ModelJson.h"
#include "printers/TextPrinter.h"
#include "rules/DataGuidelines.h"

#include <algorithm>
#include <sstream>

namespace warplint {

namespace {

// The findings about object `o` of kernel `k`: those whose details name it,
// or that sit on one of its accesses or its declaration.
std::vector<const Finding *> findingsAbout(const KernelInfo &k, const DataObject &o,
                                           const std::vector<Finding> &findings) {
  auto sameLoc = [](const SourceLocation &a, const SourceLocation &b) {
    return a.valid() && a.file == b.file && a.line == b.line && a.column == b.column;
  };
  std::vector<const Finding *> out;
  for (const Finding &f : findings) {
    if (f.kernel != k.name)
      continue;
    bool about = false;
    auto array = f.details.find("array");
    if (array != f.details.end() && array->is_string())
      about = *array == o.name;
    else {
      about = sameLoc(o.loc, f.loc);
      for (size_t i : o.accesses)
        about = about || (i < k.accesses.size() && k.accesses[i].base == o.name && sameLoc(k.accesses[i].loc, f.loc));
    }
    auto subject = f.details.find("subject"); // readonly-param names its parameter so
    if (!about && subject != f.details.end() && subject->is_string())
      about = *subject == o.name;
    if (about)
      out.push_back(&f);
  }
  return out;
}

std::string accessesText(const DataObject &o) {
  std::string t;
  auto add = [&](int n, const char *word) {
    if (n == 0)
      return;
    t += (t.empty() ? "" : ", ") + std::to_string(n) + " " + word + (n == 1 ? "" : "s");
  };
  add(o.reads, "read");
  add(o.writes, "write");
  if (t.empty())
    t = "none";
  bool evaluates = o.space == AddressSpace::Global || o.space == AddressSpace::Shared ||
                   o.space == AddressSpace::Constant;
  int unevaluated = static_cast<int>(o.accesses.size()) - o.evaluated;
  if (evaluates && unevaluated > 0)
    t += " (" + std::to_string(unevaluated) + " unevaluated)";
  return t;
}

std::string joined(const std::vector<std::string> &items, const char *sep) {
  std::string t;
  for (const std::string &s : items)
    t += (t.empty() ? "" : sep) + s;
  return t;
}

std::string findingsText(const std::vector<const Finding *> &fs) {
  std::vector<std::string> items;
  for (const Finding *f : fs) {
    std::string item = f->rule + " (line " + std::to_string(f->loc.line) + ")";
    if (std::find(items.begin(), items.end(), item) == items.end())
      items.push_back(item);
  }
  return items.empty() ? "-" : joined(items, ", ");
}

void printTable(std::ostream &os, const std::vector<std::vector<std::string>> &rows) {
  std::vector<size_t> width;
  for (const auto &r : rows)
    for (size_t i = 0; i < r.size(); ++i) {
      width.resize(std::max(width.size(), r.size()));
      width[i] = std::max(width[i], r[i].size());
    }
  for (const auto &r : rows) {
    std::string line = "  ";
    for (size_t i = 0; i < r.size(); ++i)
      line += r[i] + (i + 1 < r.size() ? std::string(width[i] - r[i].size() + 2, ' ') : "");
    os << line << "\n";
  }
}

} // namespace

namespace {

std::string fixed(double v, int decimals) {
  std::ostringstream o;
  o.setf(std::ios::fixed);
  o.precision(decimals);
  o << v;
  return o.str();
}

// The cost model's view of one kernel (analyzer/cost/KernelCostModel.h).
void printCost(std::ostream &os, const KernelCostReport &r, const std::vector<Finding> &findings) {
  const KernelCost &c = r.asWritten;
  if (!c.computed) {
    os << "  cost model: not computed (" << c.notComputed << ")\n";
    return;
  }
  os << "  cost model (" << r.profileId << " profile): " << c.bottleneck << " is the bottleneck; "
     << fixed(c.timeUs, 1) << " us at the stated values" << (c.serialized ? ", components added" : "") << "\n";
  if (!c.peakShares.empty()) {
    os << "  busy against each part's peak:";
    for (auto &[part, share] : c.peakShares)
      os << " " << part << " " << fixed(100 * share, 0) << "%";
    os << (c.latencyBound ? " (latency-bound: none at " + fixed(100 * kLatencyBoundShare, 0) + "%)" : "") << "\n";
  }
  std::vector<std::vector<std::string>> rows{{"component", "us", "share", "from"}};
  double sum = 0;
  for (const CostComponent &x : c.components)
    sum += x.us;
  for (const CostComponent &x : c.components)
    rows.push_back({x.name, fixed(x.us, 1), sum > 0 ? fixed(100 * x.us / sum, 0) + "%" : "-", x.basis});
  printTable(os, rows);
  const Occupancy &o = c.occupancy;
  os << "  occupancy: " << o.blocksPerSm << " blocks (" << o.warpsPerSm << " warps) an SM, limited by "
     << o.limitedBy << "; " << o.registersPerThread << " registers a thread (" << o.registersSource << "), "
     << o.sharedBytesPerBlock << " shared bytes a block; " << c.gridBlocks << " blocks\n";
  if (r.allFixesSpeedup)
    os << "  every offered fix applied: ~" << fixed(*r.allFixesSpeedup, 2) << "x\n";
  if (r.allFindingsSpeedup)
    os << "  every finding's change applied: ~" << fixed(*r.allFindingsSpeedup, 2) << "x\n";
  std::vector<const Finding *> mine;
  for (const Finding &f : findings)
    if (f.unit == r.unit && f.kernelIndex == r.kernelIndex && f.details.contains("predicted_kernel_speedup"))
      mine.push_back(&f);
  std::stable_sort(mine.begin(), mine.end(), [](const Finding *a, const Finding *b) {
    return a->details["predicted_kernel_speedup"].get<double>() > b->details["predicted_kernel_speedup"].get<double>();
  });
  for (const Finding *f : mine)
    os << "    ~" << fixed(f->details["predicted_kernel_speedup"].get<double>(), 2) << "x  " << f->rule << " at line "
       << f->loc.line << ": " << f->details["kernel_cost"].value("change", "") << "\n";
  for (const std::string &a : c.assumptions)
    os << "  assumed: " << a << "\n";
}

} // namespace

void printExplain(std::ostream &os, const AnalysisResults &results, const std::vector<Finding> &findings,
                  const std::string &baseDir, const GainsResult *gains) {
  for (size_t ui = 0; ui < results.units.size(); ++ui)
    for (size_t ki = 0; ki < results.units[ui].kernels.size(); ++ki) {
      const KernelInfo &k = results.units[ui].kernels[ki];
      os << "kernel '" << k.name << k.templateArgs << "' (" << displayPath(k.loc.file, baseDir) << ":"
         << k.loc.line << "): ";
      if (k.blockShapes.empty())
        os << "no block shape";
      else
        os << "block " << k.blockShapes.front().str()
           << (k.blockShapeAssumed ? " assumed (no launch site with a constant shape)" : " from the " + k.blockShapeSource);
      os << "\n";
      const KernelCostReport *cost = gains ? gains->forKernel(ui, ki) : nullptr;
      if (k.dataObjects.empty()) {
        os << "  no data objects\n";
        if (cost)
          printCost(os, *cost, findings);
        os << "\n";
        continue;
      }
      std::vector<std::vector<std::string>> rows{{"object", "space", "class", "accesses", "guidelines", "findings"}};
      for (const DataObject &o : k.dataObjects) {
        std::vector<std::string> g = guidelinesFor(k, o);
        rows.push_back({o.name, addressSpaceName(o.space), o.dataClass, accessesText(o),
                        g.empty() ? "-" : joined(g, ", "), findingsText(findingsAbout(k, o, findings))});
      }
      printTable(os, rows);
      os << "  evidence:\n";
      for (const DataObject &o : k.dataObjects)
        os << "    " << o.name << ": " << (o.evidence.empty() ? "-" : joined(o.evidence, "; ")) << "\n";
      if (cost)
        printCost(os, *cost, findings);
      os << "\n";
    }
}

nlohmann::ordered_json classificationToJson(const TranslationUnitResult &unit, const std::vector<Finding> &findings) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const KernelInfo &k : unit.kernels) {
    nlohmann::ordered_json kj;
    kj["kernel"] = k.name;
    if (!k.templateArgs.empty())
      kj["template_args"] = k.templateArgs;
    kj["file"] = k.loc.file;
    kj["line"] = k.loc.line;
    kj["objects"] = nlohmann::ordered_json::array();
    for (const DataObject &o : k.dataObjects) {
      nlohmann::ordered_json oj = dataObjectJson(k, o);
      oj["guidelines"] = guidelinesFor(k, o);
      oj["findings"] = nlohmann::ordered_json::array();
      for (const Finding *f : findingsAbout(k, o, findings))
        oj["findings"].push_back({{"rule", f->rule}, {"line", f->loc.line}, {"column", f->loc.column}});
      kj["objects"].push_back(std::move(oj));
    }
    out.push_back(std::move(kj));
  }
  return out;
}

} // namespace warplint

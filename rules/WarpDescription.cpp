#include "rules/WarpDescription.h"

#include <sstream>

namespace warplint {

std::string laneList(const std::vector<int> &lanes) {
  if (lanes.empty())
    return "none";
  bool contiguous = true, arithmetic = lanes.size() >= 4;
  for (size_t i = 1; i < lanes.size(); ++i) {
    contiguous = contiguous && lanes[i] == lanes[i - 1] + 1;
    arithmetic = arithmetic && lanes[i] - lanes[i - 1] == lanes[1] - lanes[0];
  }
  std::ostringstream os;
  if (contiguous && lanes.size() > 2) {
    os << lanes.front() << "-" << lanes.back();
  } else if (arithmetic) {
    os << lanes[0] << ", " << lanes[1] << ", " << lanes[2] << ", ..., " << lanes.back();
  } else {
    for (size_t i = 0; i < lanes.size(); ++i)
      os << (i ? ", " : "") << lanes[i];
  }
  return os.str();
}

const WarpAccessEval &worstEvaluation(const MemoryAccess &a) { return a.evals.at(a.worstEval); }

std::string accessVerb(const MemoryAccess &a) {
  if (a.isRead && a.isWrite)
    return "read-modify-write";
  return a.isWrite ? "write" : "read";
}

ShapeVerdict verdictOverShapes(const KernelInfo &k, const MemoryAccess &a,
                               const std::function<bool(const WarpAccessEval &)> &shows,
                               const std::function<double(const WarpAccessEval &)> &severity) {
  ShapeVerdict v;
  if (a.worstEval < 0)
    return v;
  if (!k.blockShapeAssumed) {
    if (shows(worstEvaluation(a)))
      v.eval = &worstEvaluation(a);
    return v;
  }
  const WarpAccessEval *mildest = nullptr, *worst = nullptr;
  for (const BlockShape &shape : k.blockShapes) {
    const WarpAccessEval *found = nullptr;
    for (const WarpAccessEval &e : a.evals)
      if (e.block == shape && (!found || severity(e) > severity(*found)))
        found = &e;
    if (!found || !shows(*found)) {
      v.notHolding.push_back(shape); // no lane runs it, or it runs well
      continue;
    }
    v.holding.push_back(shape);
    if (!mildest || severity(*found) < severity(*mildest))
      mildest = found;
    if (!worst || severity(*found) > severity(*worst))
      worst = found;
  }
  if (v.holding.empty())
    return v;
  v.holdsForAll = v.notHolding.empty();
  v.eval = v.holdsForAll ? mildest : worst;
  return v;
}

void qualifyByShape(const KernelInfo &k, const ShapeVerdict &v, Finding &f) {
  if (!k.blockShapeAssumed || !v.eval)
    return;
  f.details["block_shapes_holding"] = nlohmann::json::array();
  for (const BlockShape &b : v.holding)
    f.details["block_shapes_holding"].push_back({b.x, b.y, b.z});
  if (v.holdsForAll) {
    f.notes.push_back({{}, "the block shape is unknown (" + k.blockShapeOrigin +
                               "); this holds for every plausible shape tried: " + shapeList(v.holding)});
    return;
  }
  f.severity = "note";
  f.message += "; only with block " + shapeList(v.holding);
  f.notes.push_back({{}, "the block shape is unknown (" + k.blockShapeOrigin + ") and the verdict depends on it: it holds for " +
                             shapeList(v.holding) + " but not for " + shapeList(v.notHolding)});
}

void addContextNotes(const KernelInfo &k, const MemoryAccess &a, const WarpAccessEval &e,
                     std::vector<FindingNote> &notes) {
  std::ostringstream os;
  os << "block " << e.block.str();
  if (k.blockShapeAssumed)
    os << " assumed: " << k.blockShapeSource;
  else
    os << " from the " << k.blockShapeSource;
  if (e.warpInBlock != 0)
    os << "; warp " << e.warpInBlock << " of the block";
  if (!e.iteration.empty())
    os << "; worst at " << e.iteration;
  notes.push_back({{}, os.str()});
  for (auto it = a.callChain.rbegin(); it != a.callChain.rend(); ++it)
    notes.push_back({*it, "in the call from '" + k.name + "' here"});
  notes.push_back({{}, "address of '" + a.text + "' = " + a.base + " + " + a.indexText + " bytes"});
  for (auto &s : a.assumptions)
    notes.push_back({{}, "assumption: " + s});
}

nlohmann::json contextDetails(const KernelInfo &k, const MemoryAccess &a, const WarpAccessEval &e) {
  nlohmann::json d;
  d["array"] = a.base;
  d["access"] = accessVerb(a);
  d["address_space"] = addressSpaceName(a.space);
  d["expression"] = a.text;
  d["byte_offset"] = a.indexText;
  d["element_size"] = a.elementSize;
  d["access_width"] = a.widthBytes;
  d["block"] = {e.block.x, e.block.y, e.block.z};
  d["block_source"] = k.blockShapeSource;
  d["block_assumed"] = k.blockShapeAssumed;
  d["block_origin"] = k.blockShapeOrigin;
  d["warp_in_block"] = e.warpInBlock;
  d["active_lanes"] = e.activeLanes;
  if (!e.iteration.empty())
    d["worst_iteration"] = e.iteration;
  if (e.laneStrideKnown)
    d["lane_stride_bytes"] = e.laneStrideBytes;
  d["assumptions"] = a.assumptions;
  if (a.uniformSweep) {
    nlohmann::json u{{"symbols", a.uniformSweep->symbols}, {"conditions", a.uniformSweep->conditions}};
    if (!a.uniformSweep->laneStride.empty())
      u["lane_stride_bytes"] = a.uniformSweep->laneStride;
    d["uniform_sweep"] = u;
  }
  for (auto &c : a.callChain)
    d["call_chain"].push_back({{"file", c.file}, {"line", c.line}, {"column", c.column}});
  if (!k.templateArgs.empty())
    d["template_args"] = k.templateArgs;
  return d;
}

} // namespace warplint

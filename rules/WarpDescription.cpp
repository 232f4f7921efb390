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

void addContextNotes(const KernelInfo &k, const MemoryAccess &a, const WarpAccessEval &e,
                     std::vector<FindingNote> &notes) {
  std::ostringstream os;
  os << "block " << e.block.str();
  if (k.blockShapeAssumed)
    os << " assumed: no launch site with a constant block shape is visible";
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

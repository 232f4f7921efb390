#include "rules/DataGuidelines.h"

#include <algorithm>

namespace warplint {

namespace {

const ParamInfo *paramNamed(const KernelInfo &k, const std::string &name) {
  for (const ParamInfo &p : k.params)
    if (p.isPointer && p.name == name)
      return &p;
  return nullptr;
}

} // namespace

std::vector<std::string> guidelinesFor(const KernelInfo &k, const DataObject &o) {
  std::vector<std::string> g;
  const std::string &c = o.dataClass;
  switch (o.space) {
  case AddressSpace::Global:
  case AddressSpace::Generic:
    if (c == "reused")
      g = {"S_5"};               // stage the reused elements in shared memory
    else if (c == "strided")
      g = {"G_3"};               // make the warp's accesses consecutive
    else if (c == "temporal")
      g = {"L_1"};               // keep what a thread re-reads in a register
    else if (c == "read-only")
      g = {"C_2", "G_1"};        // a broadcast: constant memory, or global's own broadcast
    else if (c == "streaming")
      g = {"G_3"};
    if (c != "unclassified" && o.elementSize > 0 && o.elementSize < 4)
      g.push_back("G_2");        // pack narrow elements into 4-byte words
    if (o.onlyRead && c != "unclassified")
      if (const ParamInfo *p = paramNamed(k, o.name); p && !(p->pointeeConst && p->isRestrict))
        g.push_back("T_4");      // read-only data through the read-only path
    break;
  case AddressSpace::Shared:
    if (c == "reused")
      g = {"S_1", "S_2"};        // mind bank conflicts; broadcasts are free
    else if (c == "temporal")
      g = {"S_6"};               // shared memory without reuse is overhead
    break;
  case AddressSpace::Constant:
    g = {"C_1", "C_2", "C_3"};
    break;
  case AddressSpace::Local:
    g = {"L_1", "L_2", "L_3", "L_4"};
    break;
  }
  g.erase(std::unique(g.begin(), g.end()), g.end());
  return g;
}

} // namespace warplint

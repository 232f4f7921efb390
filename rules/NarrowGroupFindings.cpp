#include "rules/NarrowGroupFindings.h"
#include "rules/ProfileCosts.h"
#include "rules/WarpDescription.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <numeric>

namespace warplint {

namespace {

std::string directionVerb(const KernelInfo &k, const NarrowAccessGroup &g) {
  bool reads = false, writes = false;
  for (size_t i : g.accesses) {
    reads = reads || k.accesses[i].isRead;
    writes = writes || k.accesses[i].isWrite;
  }
  return reads && writes ? "reads and writes" : writes ? "writes" : "reads";
}

std::string unitText(int64_t widthBytes) { return widthBytes == 1 ? "one byte" : "one 2-byte element"; }

// "0", "0..3" or "0, 2, 5": where in the thread's bytes one access falls.
std::string offsetsText(std::vector<int64_t> offsets) {
  std::sort(offsets.begin(), offsets.end());
  offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
  bool run = offsets.size() > 2;
  for (size_t i = 1; run && i < offsets.size(); ++i)
    run = offsets[i] == offsets[i - 1] + 1;
  if (run)
    return std::to_string(offsets.front()) + ".." + std::to_string(offsets.back());
  std::string s;
  for (int64_t o : offsets)
    s += (s.empty() ? "" : ", ") + std::to_string(o);
  return s;
}

nlohmann::json groupDetails(const KernelInfo &k, const NarrowAccessGroup &g) {
  nlohmann::json d{{"pointer", g.pointer},        {"access_width", g.widthBytes},
                   {"lane_stride_bytes", g.laneStrideBytes}, {"thread_bytes", g.threadBytes},
                   {"warp_bytes", g.warpBytes},    {"warp_contiguous", g.warpContiguous},
                   {"active_lanes", g.activeLanes}, {"evaluations", g.evaluations}};
  if (!g.loopVar.empty())
    d["unrolled_loop"] = g.loopVar;
  for (const auto &m : g.members) {
    const MemoryAccess &a = k.accesses[m.access];
    d["members"].push_back({{"line", a.loc.line}, {"column", a.loc.column}, {"expression", a.text},
                            {"offset_bytes", m.offsetBytes}});
  }
  return d;
}

// "2 loads and 2 stores", "4 loads": the instructions a thread issues now.
std::string instructionCount(const KernelInfo &k, const NarrowAccessGroup &g) {
  size_t loads = 0, stores = 0;
  for (const auto &m : g.members) {
    loads += k.accesses[m.access].isRead;
    stores += k.accesses[m.access].isWrite;
  }
  std::string l = std::to_string(loads) + (loads == 1 ? " load" : " loads");
  std::string st = std::to_string(stores) + (stores == 1 ? " store" : " stores");
  return loads && stores ? l + " and " + st : loads ? l : st;
}

std::string packingAdvice(const KernelInfo &k, const NarrowAccessGroup &g) {
  int64_t t = g.threadBytes, stride = std::llabs(g.laneStrideBytes);
  if (t == stride && (t == 4 || t == 8 || t == 16)) {
    std::string type = t == 8 ? "uint2" : t == 16 ? "uint4" : g.widthBytes == 1 ? "char4/uchar4" : "short2/ushort2/__half2";
    bool loads = false, stores = false;
    for (const auto &m : g.members) {
      loads = loads || k.accesses[m.access].isRead;
      stores = stores || k.accesses[m.access].isWrite;
    }
    std::string packed = loads && stores ? "load and one store" : loads ? "load" : "store";
    return "pack them: one " + type + " " + packed + " a thread move" + (loads && stores ? "" : "s") + " the " +
           std::to_string(t) + " bytes instead of " + instructionCount(k, g) + ", when '" + g.pointer + "' is " +
           std::to_string(t) + "-byte aligned (cudaMalloc allocations are 256-byte aligned)";
  }
  int64_t words = std::lcm<int64_t>(t, 4);
  return "no " + std::to_string(t) + "-byte vector type exists: give each thread " + std::to_string(words / t) +
         " times as many bytes (" + std::to_string(words) + " bytes, moved as 4-byte or wider words), or stage the "
         "warp's " + std::to_string(g.warpBytes) + " bytes through shared memory with 4-byte accesses";
}

} // namespace

Finding siblingGroupFinding(const std::string &rule, const KernelInfo &k, const NarrowAccessGroup &g,
                            const RuleContext &ctx) {
  const MemoryAccess &first = k.accesses[g.accesses.front()];
  Finding f;
  f.rule = rule;
  f.severity = "warning";
  f.loc = first.loc;
  f.kernel = k.name;
  f.details = contextDetails(k, first, worstEvaluation(first));
  f.details["subject"] = g.pointer;
  f.details["narrow_group"] = groupDetails(k, g);
  f.message = "each thread " + directionVerb(k, g) + " " + std::to_string(g.threadBytes) + " bytes of '" + g.pointer +
              "' " + unitText(g.widthBytes) + " at a time in " + std::to_string(g.members.size()) +
              " accesses: together they cover the warp's " + std::to_string(g.warpBytes) +
              " bytes contiguously, but each request carries " + std::to_string(32 * g.widthBytes) +
              " bytes where one 4-byte access a lane carries 128";
  f.notes.push_back({{}, packingAdvice(k, g)});
  int64_t low = g.members.front().offsetBytes;
  for (const auto &m : g.members)
    low = std::min(low, m.offsetBytes);
  std::map<size_t, std::vector<int64_t>> offsets;
  for (const auto &m : g.members)
    offsets[m.access].push_back(m.offsetBytes - low);
  for (size_t i : g.accesses) {
    const MemoryAccess &a = k.accesses[i];
    bool several = offsets[i].size() > 1;
    f.notes.push_back({a.loc, "'" + a.text + "' " + (a.isWrite ? (a.isRead ? "updates" : "writes") : "reads") +
                                  (several ? " bytes " : " byte ") + offsetsText(offsets[i]) + " of the thread's " +
                                  std::to_string(g.threadBytes) +
                                  (several ? " (over the iterations of the loop on '" + g.loopVar + "')" : "")});
  }
  std::vector<FindingNote> context;
  addContextNotes(k, first, worstEvaluation(first), context);
  f.notes.push_back({{}, "consecutive lanes are " + std::to_string(std::llabs(g.laneStrideBytes)) +
                             " bytes apart; " + context.front().message});
  f.notes.insert(f.notes.end(), context.begin() + 1, context.end());
  addNarrowCost(ctx, g.widthBytes, f);
  f.details["fix"] = {{"kind", "vector-packing"},
                      {"safety", "refused"},
                      {"reason", "not the statement or loop form over bytes W*E+k of a byte-typed parameter that --fix "
                                 "can prove (see the rule's fix safety)"}};
  return f;
}

Finding elementALaneFinding(const std::string &rule, const KernelInfo &k, const NarrowAccessGroup &g,
                            const RuleContext &ctx) {
  const MemoryAccess &a = k.accesses[g.accesses.front()];
  Finding f;
  f.rule = rule;
  // A note: the access is coalesced, and the remedy changes the launch.
  f.severity = "note";
  f.loc = a.loc;
  f.kernel = k.name;
  f.details = contextDetails(k, a, worstEvaluation(a));
  f.details["subject"] = g.pointer;
  f.details["narrow_group"] = groupDetails(k, g);
  bool byte = g.widthBytes == 1;
  f.message = "each lane " + std::string(a.isWrite ? "writes" : "reads") + " " +
              (byte ? "one byte" : "one 2-byte element") + " of '" + g.pointer + "': a warp request carries " +
              std::to_string(32 * g.widthBytes) + " bytes where a 4-byte vector access a lane would carry 128";
  if (byte)
    f.notes.push_back({{}, "restructure (it changes the launch, so --fix applies it only with --fix-launch): give each "
                           "thread 4 bytes, `int i = blockIdx.x * blockDim.x + threadIdx.x; if (4 * i + 3 < n) { uchar4 v = "
                           "reinterpret_cast<const uchar4 *>(in)[i]; /* f on v.x, v.y, v.z, v.w */ "
                           "reinterpret_cast<uchar4 *>(out)[i] = v; } else for (int j = 4 * i; j < n; ++j) "
                           "out[j] = f(in[j]);` and launch (n + 3) / 4 threads instead of n"});
  else
    f.notes.push_back({{}, "restructure (it changes the launch): give each thread two elements moved as one 4-byte "
                           "vector (short2, ushort2 or __half2) with a scalar tail for an odd n, and launch (n + 1) / 2 "
                           "threads instead of n"});
  f.details["fix"] = {{"kind", byte ? "char4-restructure" : "two-element-restructure"},
                      {"safety", "refused"},
                      {"reason", "changes the launch configuration; shown in the note only"}};
  addElementALaneSiblings(k, g, f);
  addNarrowCost(ctx, g.widthBytes, f);
  return f;
}

void addNarrowCost(const RuleContext &ctx, int64_t widthBytes, Finding &f) {
  if (!ctx.profile)
    return;
  std::string cost = narrowAccessCost(*ctx.profile, widthBytes, f.details);
  if (!cost.empty())
    f.notes.push_back({{}, "measured: " + cost});
}

void addElementALaneSiblings(const KernelInfo &k, const NarrowAccessGroup &g, Finding &f) {
  for (size_t i : g.accesses) {
    const MemoryAccess &a = k.accesses[i];
    if (a.loc.line == f.loc.line && a.loc.column == f.loc.column)
      continue;
    f.notes.push_back({a.loc, "also " + unitText(g.widthBytes) + " a lane: '" + a.text + "'"});
  }
}

} // namespace warplint

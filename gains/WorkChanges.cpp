#include "gains/WorkChanges.h"

#include <algorithm>
#include <cmath>

namespace warplint {

namespace {

std::vector<size_t> accessesAt(const KernelInfo &k, const SourceLocation &loc) {
  std::vector<size_t> out;
  for (size_t i = 0; i < k.accesses.size(); ++i)
    if (k.accesses[i].loc.line == loc.line && k.accesses[i].loc.column == loc.column &&
        k.accesses[i].loc.file == loc.file)
      out.push_back(i);
  return out;
}

std::vector<size_t> accessesOf(const KernelInfo &k, const std::string &base, AddressSpace space) {
  std::vector<size_t> out;
  for (size_t i = 0; i < k.accesses.size(); ++i)
    if (k.accesses[i].base == base && k.accesses[i].space == space)
      out.push_back(i);
  return out;
}

AccessWork *workOf(WorkState &s, size_t access) {
  for (AccessWork &w : s.work.accesses)
    if (w.access == access)
      return &w;
  return nullptr;
}

std::string text(const nlohmann::json &d, const char *key) {
  auto it = d.find(key);
  return it != d.end() && it->is_string() ? it->get<std::string>() : "";
}

// The residual degree of each access under the padding trial of `pad` elements.
int residualDegree(const KernelInfo &k, const std::string &array, int64_t pad, size_t access) {
  for (const ArrayInfo &a : k.arrays)
    if (a.name == array)
      for (const ArrayInfo::PaddingTrial &t : a.paddingTrials)
        if (t.padElements == pad) {
          for (const auto &r : t.residuals)
            if (r.access == access)
              return r.degree;
          return 1;
        }
  return 1;
}

bool sharedConflict(const Finding &f, const KernelInfo &k, WorkState &s, std::string &desc, std::string &why) {
  std::string array = text(f.details, "subject");
  int64_t pad = 0;
  bool described = false; // a padding the note names but --fix refuses to apply
  if (auto fix = f.details.find("fix"); fix != f.details.end() && fix->is_object()) {
    if (fix->contains("padding_elements")) {
      pad = (*fix)["padding_elements"].get<int64_t>();
    } else if (text(*fix, "kind") == "padding" && !array.empty()) {
      // Refused ("the smallest conflict-free padding is 8 elements (16 ->
      // 24 a row), more than a quarter of the row"): the change the note
      // describes is that padding of the whole array, as a user applies it
      // by hand (hb-minimod: s_u[16][16][16] -> [16][16][24] removes the
      // conflicts of its 25 stencil reads too, 1,002 -> 531 shared
      // wavefronts a block in ncu).
      for (const ArrayInfo &a : k.arrays)
        if (a.name == array)
          for (const ArrayInfo::PaddingTrial &t : a.paddingTrials)
            if (t.padElements > 0 && t.worstDegree <= 1 && (pad == 0 || t.padElements < pad))
              pad = t.padElements;
      described = pad > 0;
    }
  }
  // The offered (or described) padding changes every access of the array; a
  // finding without one, its own access.
  std::vector<size_t> targets = (!f.fixes.empty() || described) && !array.empty()
                                    ? accessesOf(k, array, AddressSpace::Shared)
                                    : accessesAt(k, f.loc);
  bool any = false;
  for (size_t i : targets) {
    AccessWork *w = workOf(s, i);
    if (!w || k.accesses[i].space != AddressSpace::Shared)
      continue;
    int degree = pad > 0 ? residualDegree(k, array, pad, i) : 1;
    w->wavefronts = std::min(w->wavefronts, w->idealWavefronts * degree);
    any = true;
  }
  if (!any) {
    why = "the access's wavefronts were not counted";
    return false;
  }
  // Without a padded row to add, the conflict-free layout is an index
  // function (i + i/32 for a 1-D array): a shift and an add at every access
  // of the array (measured: crPadded issues 57% more instructions than
  // crBaseline).
  if (pad == 0 && !array.empty() && s.applied.insert("remap:" + array).second)
    for (size_t i : accessesOf(k, array, AddressSpace::Shared))
      if (AccessWork *w = workOf(s, i))
        s.work.warpInstructions += 2 * w->warpExecutions;
  desc = !f.fixes.empty()  ? "the padding of '" + array + "'"
         : described      ? "the padding of '" + array + "' the note names (" + std::to_string(pad) + " elements)"
                          : "this access conflict-free";
  return true;
}

bool uncoalesced(const Finding &f, const KernelInfo &k, WorkState &s, std::string &desc, std::string &why) {
  bool any = false;
  for (size_t i : accessesAt(k, f.loc))
    if (AccessWork *w = workOf(s, i); w && w->counted && w->sectors > w->idealSectors) {
      w->sectors = w->idealSectors;
      w->lines = std::max(w->warpExecutions, std::ceil(w->idealSectors / 4));
      any = true;
    }
  if (!any) {
    why = "the access's sectors were not counted";
    return false;
  }
  desc = "this access at its ideal sectors";
  return true;
}

// A lane's W narrow accesses become one W-byte access: a W-th of the requests.
bool narrowPacking(const Finding &f, const KernelInfo &k, WorkState &s, std::string &desc, std::string &why) {
  std::string kind;
  if (auto fix = f.details.find("fix"); fix != f.details.end() && fix->is_object())
    kind = text(*fix, "kind");
  if (kind == "char4-restructure" && k.byteLane) {
    if (!s.applied.insert("char4-restructure").second) {
      desc = "four bytes a thread, a quarter of the grid";
      return true; // one rewrite of the kernel, whichever finding offers it
    }
    // One byte a lane -> four: a quarter of the grid; each block's requests
    // carry four times the bytes (one 128-byte line a warp request still).
    const double factor = 4;
    for (AccessWork &w : s.work.accesses) {
      const MemoryAccess &a = k.accesses[w.access];
      if (a.space != AddressSpace::Global)
        continue;
      w.sectors *= factor;
      w.idealSectors *= factor;
      w.distinctSectors *= factor;
      w.widthBytes *= static_cast<int64_t>(factor);
    }
    if (s.work.gridBlocks)
      *s.work.gridBlocks = std::max<int64_t>(1, *s.work.gridBlocks / 4);
    else
      s.options.gridScale /= factor;
    // The wider accesses carry the bytes in flight (widthBytes above): no
    // loadBytesInFlightScale on top, which made them 16 bytes a thread, not 4.
    desc = "four bytes a thread, a quarter of the grid";
    return true;
  }
  if (kind == "char4-packing" || kind == "vector-packing-window") {
    // The byte-pack window's pointers: every 1- or 2-byte access of theirs
    // becomes part of one 4-byte access a thread.
    std::set<std::string> pointers;
    for (const BytePackWindow &win : k.bytePackWindows)
      for (const auto &g : win.groups)
        pointers.insert(g.pointer);
    bool any = false;
    for (AccessWork &w : s.work.accesses) {
      const MemoryAccess &a = k.accesses[w.access];
      if (a.space != AddressSpace::Global || a.widthBytes > 2 || !pointers.count(a.base))
        continue;
      double per = 4.0 / double(std::max<int64_t>(1, a.widthBytes));
      s.work.warpInstructions -= w.warpExecutions * (1 - 1 / per);
      w.warpExecutions /= per;
      w.lines /= per;
      // Each request's sectors are written (or looked up) once, not once a byte.
      w.sectors /= per;
      w.idealSectors /= per;
      any = true;
    }
    if (!any) {
      why = "the window's accesses were not found";
      return false;
    }
    desc = "each thread's bytes as one char4";
    return true;
  }
  auto group = f.details.find("narrow_group");
  if (group == f.details.end() || !group->contains("members")) {
    why = "no group of accesses to pack";
    return false;
  }
  std::vector<size_t> members;
  for (const auto &m : (*group)["members"])
    for (size_t i : accessesAt(k, {f.loc.file, m.value("line", 0u), m.value("column", 0u)}))
      members.push_back(i);
  double threadBytes = group->value("thread_bytes", 0.0), width = group->value("access_width", 0.0);
  if (members.empty() || threadBytes <= 0 || width <= 0) {
    why = "the group's accesses were not found";
    return false;
  }
  double per = std::max(1.0, threadBytes / width); // accesses merged into one
  for (size_t i : members)
    if (AccessWork *w = workOf(s, i)) {
      s.work.warpInstructions -= w->warpExecutions * (1 - 1 / per);
      w->warpExecutions /= per;
      w->lines /= per;
      w->sectors /= per;
      w->idealSectors /= per;
    }
  desc = "the thread's " + std::to_string(int(per)) + " accesses as one";
  return true;
}

bool privateArray(const Finding &f, WorkState &s, std::string &desc, std::string &why) {
  std::string array = text(f.details, "array");
  if (array.empty() || !s.options.localArrays.erase(array)) {
    why = "the array's accesses were not counted as local memory";
    return false;
  }
  desc = "'" + array + "' in registers";
  return true;
}

bool constantDivergent(const Finding &f, const KernelInfo &k, WorkState &s, std::string &desc, std::string &why) {
  bool any = false;
  for (size_t i : accessesAt(k, f.loc))
    if (AccessWork *w = workOf(s, i); w && w->constantAddresses > 0) {
      // Through L1: each distinct address a sector at most, four to a line.
      w->sectors = w->idealSectors = w->constantAddresses;
      w->lines = std::max(w->warpExecutions, w->constantAddresses / 4);
      w->constantAddresses = 0;
      s.options.constantAsGlobal.insert(i);
      any = true;
    }
  if (!any) {
    why = "the access's constant-cache requests were not counted";
    return false;
  }
  desc = "the table read through L1";
  return true;
}

bool stagingCandidate(const Finding &f, const KernelInfo &k, WorkState &s, std::string &desc, std::string &why) {
  std::string pointer = text(f.details, "subject");
  if (pointer.empty())
    pointer = text(f.details, "array");
  double reuse = f.details.value("reuse_factor", 0.0);
  if (pointer.empty() || reuse <= 1) {
    why = "no reuse factor";
    return false;
  }
  bool any = false;
  for (size_t i : accessesOf(k, pointer, AddressSpace::Global))
    if (AccessWork *w = workOf(s, i); w && k.accesses[i].isRead && !k.accesses[i].isWrite) {
      // Each element loaded once a block, then read from shared memory.
      double reads = w->warpExecutions;
      w->warpExecutions /= reuse;
      w->sectors /= reuse;
      w->idealSectors /= reuse;
      w->lines /= reuse;
      AccessWork shared;
      shared.access = i;
      shared.counted = true;
      shared.warpExecutions = reads + w->warpExecutions; // the reads, and the tile's stores
      shared.wavefronts = shared.idealWavefronts = reads + w->warpExecutions;
      s.options.extraSharedWavefronts += shared.wavefronts;
      any = true;
    }
  if (!any) {
    why = "the pointer's reads were not counted";
    return false;
  }
  s.work.barriers += 1;
  desc = "'" + pointer + "' staged in shared memory (reuse " + std::to_string(int(std::lround(reuse))) + ")";
  return true;
}

bool stagingNoReuse(const Finding &f, const KernelInfo &k, WorkState &s, std::string &desc, std::string &why) {
  std::string array = text(f.details, "array");
  bool any = false;
  for (size_t i : accessesOf(k, array, AddressSpace::Shared))
    if (AccessWork *w = workOf(s, i)) {
      s.work.warpInstructions -= w->warpExecutions;
      w->warpExecutions = w->wavefronts = w->idealWavefronts = 0;
      any = true;
    }
  if (!any) {
    why = "the array's accesses were not counted";
    return false;
  }
  desc = "'" + array + "' kept in registers";
  return true;
}

} // namespace

bool applyFindingChange(const Finding &f, const KernelInfo &k, WorkState &state, std::string &description,
                        std::string &why) {
  WorkState s = state;
  bool ok = false;
  if (f.rule == "shared-bank-conflict")
    ok = sharedConflict(f, k, s, description, why);
  else if (f.rule == "global-uncoalesced")
    ok = uncoalesced(f, k, s, description, why);
  else if (f.rule == "global-narrow-access")
    ok = narrowPacking(f, k, s, description, why);
  else if (f.rule == "private-array-local-memory")
    ok = privateArray(f, s, description, why);
  else if (f.rule == "constant-divergent-access")
    ok = constantDivergent(f, k, s, description, why);
  else if (f.rule == "shared-staging-candidate")
    ok = stagingCandidate(f, k, s, description, why);
  else if (f.rule == "shared-staging-no-reuse")
    ok = stagingNoReuse(f, k, s, description, why);
  else if (f.rule == "readonly-param") {
    // const/__restrict__ changes what the compiler may assume, not what the
    // model counts: the kernel's loads already go through L1 on this GPU.
    description = "const/__restrict__ (no counted work changes)";
    ok = true;
  } else {
    why = "no model of this rule's change";
  }
  if (ok)
    state = std::move(s);
  return ok;
}

} // namespace warplint

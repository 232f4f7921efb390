// global-narrow-access (G_2): 1- and 2-byte global accesses move too little
// per request. Decided from the warp model (KernelInfo::narrowGroups): a
// thread's narrow accesses whose siblings fill each other's gaps are one
// warning, an element a lane over contiguous bytes one note per pointer.
// Only the proven rewrites are offered: four one-byte accesses a thread to
// bytes 4*E+0..3 become one char4/uchar4 access, sixteen to bytes 16*E+0..15
// one uint4 access (when the alignment is shown; the index spelled so, or
// proven so by the kernel model however it is spelled), and the
// one-byte-a-lane kernel is restructured behind --fix-launch.
#include "rules/AllRules.h"
#include "rules/BytePackingFix.h"
#include "rules/NarrowAccessKinds.h"
#include "rules/NarrowGroupFindings.h"

#include <algorithm>
#include <map>

namespace warplint {

namespace {

const RuleInfo kInfo{
    "global-narrow-access",
    "Byte-wide global memory access",
    "G_2",
    "Fang et al., Benchmarking the GPU memory at the warp level (2018), sections 6.3 and 7.4; "
    "Aho-Corasick on GPU (2021), section 6.4.2",
    "Global memory reaches its bandwidth with 4- to 16-byte accesses; one-byte `char` accesses reached "
    "63 GB/s where `char4` reached 149 GB/s on the same device (Fang et al., Table 4). Each byte load is "
    "its own instruction and a warp request carries 32 bytes, so a thread moving four consecutive bytes "
    "with four loads issues four times the instructions and requests one `char4`/`uchar4` (or, for 16 "
    "bytes, one `uint4`) access needs. The rule decides from the warp model, whatever the code's shape: a 1- or "
    "2-byte global access is reported when the warp's bytes over it and the thread's sibling accesses to the same "
    "pointer (in one straight-line region or loop body, at constant distances) form one contiguous run: `p[i]` with "
    "a global thread index, grid-stride loops, `bool` flag arrays (a note: one element a lane), `i = 4 * tid` "
    "followed by `p[i]` .. `p[i + 3]`, RGB triples `p[3 * i + 0..2]` (a warning: one finding for the siblings, on "
    "which global-uncoalesced stays silent, since the sectors one of them skips are the next one's). Broadcasts, "
    "shared memory, strided single accesses (global-uncoalesced's concern), runs longer than 16 bytes a thread and "
    "accesses under conditions the analyzer cannot evaluate are not reported.",
    "__global__ void brighten(unsigned char *out, const unsigned char *in) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  out[4 * i + 0] = in[4 * i + 0] / 2;\n"
    "  out[4 * i + 1] = in[4 * i + 1] / 2;\n"
    "  out[4 * i + 2] = in[4 * i + 2] / 2;\n"
    "  out[4 * i + 3] = in[4 * i + 3] / 2;\n"
    "}",
    "__global__ void brighten(unsigned char *out, const unsigned char *in) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  uchar4 in4 = reinterpret_cast<const uchar4 *>(in)[i];\n"
    "  uchar4 out4;\n"
    "  out4.x = in4.x / 2;\n"
    "  out4.y = in4.y / 2;\n"
    "  out4.z = in4.z / 2;\n"
    "  out4.w = in4.w / 2;\n"
    "  reinterpret_cast<uchar4 *>(out)[i] = out4;\n"
    "}",
    "safe (applied by --fix) for W consecutive statements (W = 4 or 16) that read and/or write bytes "
    "W*E+0..W-1 of byte-typed pointer parameters, however the index is spelled (`p[4 * i + 1]`, or `p[i + 1]` "
    "through a local `i = 4 * tid` or a grid-stride loop variable, where the kernel model proves for every thread "
    "that the lowest byte's index I is a multiple of W, moves by W from lane to lane, and the others are I+1..I+W-1; "
    "the vector index is then I / W), or a loop `for (k = 0; k < W; ++k)` over bytes W*E+k (or I+k, proven so): the "
    "reads become one char4/uchar4 (uint4 for 16 bytes) load before the statements or the loop, the writes "
    "one store after them, so every byte keeps its value and order (sixteen statements and a loop index a "
    "byte view of the vector). Applied only when alignment is shown (every visible launch passes a cudaMalloc allocation, "
    "256-byte aligned, and the index is W*E), the statements write no other memory and pass no mutable "
    "pointer to a call (and, for a window the model proved, read no other memory when they store: the stores move "
    "after them), and a loop cannot leave early; otherwise refused with the reason. The one-byte-a-lane "
    "kernel (`int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = f(in[i]);` and nothing "
    "else) changes its launch, so it is applied only with --fix-launch: four bytes a thread with one "
    "uchar4/char4 access per pointer and a scalar tail for the last n % 4, and every launch's grid "
    "G -> (G + 3) / 4, only when each launch writes its grid as one integer (n + B - 1) / B of its block "
    "size B and passes cudaMalloc allocations; otherwise the restructured kernel is shown in a note. Every other "
    "narrow pattern (RGB triples, an index the model does not prove a multiple of W moving by W from lane to "
    "lane, 2-byte elements, `bool` arrays) is diagnosed only.",
};

class GlobalNarrowAccess : public Rule {
public:
  const RuleInfo &info() const override { return kInfo; }

  void check(const KernelInfo &k, const RuleContext &ctx, std::vector<Finding> &out) const override {
    // The proven packings first: each window is one finding with its fix,
    // and speaks for the warp-level groups of its accesses.
    std::map<std::string, size_t> packedBy; // "pointer@access text" -> its window's finding in `out`
    for (const BytePackWindow &w : k.bytePackWindows) {
      if (w.groups.empty())
        continue;
      out.push_back(windowFinding(k, w));
      addNarrowCost(ctx, 1, out.back());
      for (const auto &g : w.groups)
        for (const auto *spans : {&g.readSpans, &g.writeSpans})
          for (const SourceSpan &s : *spans)
            packedBy.emplace(g.pointer + "@" + s.text, out.size() - 1);
    }
    std::map<std::string, size_t> laneFindings; // pointer -> its element-a-lane finding in `out`
    bool launchFixOffered = false;
    for (const NarrowAccessGroup &g : k.narrowGroups) {
      NarrowKind kind = narrowKind(g);
      if (kind == NarrowKind::None)
        continue;
      bool inWindow = std::any_of(g.accesses.begin(), g.accesses.end(), [&](size_t i) {
        return packedBy.count(k.accesses[i].base + "@" + k.accesses[i].text);
      });
      if (inWindow)
        continue;
      if (kind == NarrowKind::SiblingsFillGaps) {
        out.push_back(siblingGroupFinding(kInfo.id, k, g, ctx));
        continue;
      }
      if (auto it = laneFindings.find(g.pointer); it != laneFindings.end()) {
        addElementALaneSiblings(k, g, out[it->second]);
        continue;
      }
      out.push_back(elementALaneFinding(kInfo.id, k, g, ctx));
      laneFindings[g.pointer] = out.size() - 1;
      const auto &lanePointers = k.byteLane ? k.byteLane->pointers : std::vector<std::string>{};
      if (std::count(lanePointers.begin(), lanePointers.end(), g.pointer))
        describeLaunchFix(k, *k.byteLane, !launchFixOffered, out.back());
      launchFixOffered = true;
    }
  }

private:
  static Finding windowFinding(const KernelInfo &k, const BytePackWindow &w) {
    const auto &first = w.groups.front();
    Finding f;
    f.rule = kInfo.id;
    f.severity = "warning";
    f.loc = first.loc;
    f.kernel = k.name;
    std::string names;
    for (const auto &g : w.groups)
      names += (names.empty() ? "'" : ", '") + g.pointer + "'";
    std::string width = std::to_string(w.width);
    f.message = "each thread moves bytes " + packedBytesText(w) + " of " + names + " one byte at a time" + (w.loopVar.empty() ? "" : " (a loop over '" + w.loopVar + "')") +
                ": one " + width + "-byte vector access per pointer moves them in 1/" + width +
                " of the instructions and requests";
    f.details["subject"] = first.pointer;
    nlohmann::json fix = {{"kind", w.width == 16 ? "uint4-packing" : "char4-packing"}};
    std::string why = w.unsafeReason;
    for (const auto &g : w.groups) {
      if (why.empty() && !byteVectorType(g.elementType))
        why = "'" + g.pointer + "' points to '" + g.elementType + "', which has no byte vector type";
      if (why.empty())
        why = packingAlignmentRefusal(k, g);
    }
    if (!why.empty()) {
      fix["safety"] = "refused";
      fix["reason"] = why;
      f.notes.push_back({{}, "no packing fix: " + why});
    } else {
      Fix x;
      x.subject = first.pointer;
      x.description = "pack the bytes of " + names + " into " + width + "-byte vector accesses at index " + w.vectorIndex;
      addPackingEdits(w, x);
      f.fixes.push_back(x);
      fix["safety"] = "safe";
      f.notes.push_back({{}, "fix (--fix): " + x.description + "; alignment shown: every launch passes cudaMalloc "
                                                              "allocations (256-byte aligned) and the index is " +
                                 packedIndexProof(w)});
    }
    f.details["fix"] = fix;
    return f;
  }
};

} // namespace

std::unique_ptr<Rule> makeGlobalNarrowAccessRule() { return std::make_unique<GlobalNarrowAccess>(); }

} // namespace warplint

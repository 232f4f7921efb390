// host-transfer-batching (Pasternak 2022, 4.1.2): many small copies in a
// loop, each a different row, struct member or node, where one copy, a
// cudaMemcpy2D or a packed buffer would do. Every copy pays the runtime's
// fixed cost (a few microseconds) however few bytes it moves.
#include "rules/AllRules.h"
#include "rules/host/HostRule.h"

#include <set>

namespace warplint {

namespace {

const RuleInfo kInfo{
    "host-transfer-batching",
    "Many small host-device copies in a loop",
    "4.1.2",
    "Pasternak, Optimizing GPU memory usage (2022), section 4.1.2 (batching)",
    "Each cudaMemcpy costs a fixed latency (the runtime call, the DMA setup, for pageable memory the staging, "
    "for a synchronous copy the wait) on top of its bytes. A loop that copies one row, one struct member or one "
    "node per iteration pays that latency per iteration and moves each piece far below the link's bandwidth. "
    "Batch them: pieces contiguous on both sides are one cudaMemcpy of all the bytes; rows with a pitch are "
    "one cudaMemcpy2D (or cudaMemcpy3D for slices); scattered pieces (rows allocated one by one, nodes, "
    "members of an array of structs) are flattened into one packed, ideally pinned, buffer that is copied "
    "once and unpacked on the device (seed 4.1.2). The finding quotes the active profile's measured latency "
    "of one small copy and the bandwidth of one large copy (host_copy_latency, host_transfer_bandwidth). "
    "Only copies of pieces of one structure that outlives the loop are reported (a row, node or member chosen "
    "by the iteration; the same buffer copied every iteration, or a new object made in each iteration, is not a "
    "batch, and neither is one host buffer copied to a different device buffer each iteration); loops with a "
    "constant trip count under 8, loops that also launch kernels or may (a call of "
    "cudaLaunchKernel, of a CUDA library such as cuBLAS, of a function of the program whose body is in another "
    "file, or of a visible function that makes such a call), copies on a "
    "stream that changes with the loop (the staged pattern), copies of 1 MiB or more each, copies whose size "
    "changes with the iteration and is not known (partitions or tiles of different sizes, which may be few and "
    "large), copies whose size and loop count are both unknown (one copy per GPU of a multi-GPU loop: nothing "
    "says the copies are small or many), loops that select a GPU each iteration (cudaSetDevice with a value the "
    "loop changes: each piece on its own device), loops part of whose body did not parse (a launch written "
    "as nvcc accepts and clang does not, such as a braced block size: it may launch), and copies already "
    "written as cudaMemcpy2D/3D are not.",
    "for (int r = 0; r < rows; ++r)   // one copy per row\n"
    "  cudaMemcpy(d + r * cols, h[r], cols * sizeof(float), cudaMemcpyHostToDevice);",
    "// rows stored in one block h_block (rows * cols floats): one copy\n"
    "cudaMemcpy(d, h_block, rows * cols * sizeof(float), cudaMemcpyHostToDevice);\n"
    "// or rows with a pitch: one cudaMemcpy2D\n"
    "cudaMemcpy2D(d, cols * sizeof(float), h_pitched, pitch, cols * sizeof(float), rows, cudaMemcpyHostToDevice);",
    "none: advice (whether the pieces are contiguous, pitched or scattered decides the rewrite, named in the "
    "notes)",
};

class HostTransferBatching : public HostRule {
public:
  const RuleInfo &info() const override { return kInfo; }

  void checkHost(const TranslationUnitResult &unit, const HostFacts &facts, const RuleContext &ctx,
                 std::vector<Finding> &out) const override {
    // Loops that launch a kernel: a copy there feeds or drains each launch.
    std::set<std::pair<std::string, unsigned>> launchLoops;
    for (const HostLaunch &l : facts.launches)
      for (const HostLoop &loop : l.loops)
        launchLoops.insert({loop.loc.file, loop.loc.line * 1000 + loop.loc.column});
    for (const HostTransfer &t : facts.transfers) {
      if (!t.argsParsed || t.loops.empty() || t.twoD || t.threeD)
        continue;
      if (t.direction != CopyDirection::HostToDevice && t.direction != CopyDirection::DeviceToHost)
        continue;
      const HostLoop &loop = t.loops.back();
      if (loop.tripCount && *loop.tripCount < 8)
        continue;
      if (!t.outerPiece)
        continue;
      // The host side must be the pieces: the same host bytes copied to a different device buffer
      // each iteration (a broadcast) or into the same host buffer each time is not a batch.
      if (!(t.hostOperand == 0 ? t.dstVariesInLoop : t.srcVariesInLoop) && !t.hostFreshInLoop)
        continue;
      if (t.stream.variesInLoop)
        continue;
      if (launchLoops.count({loop.loc.file, loop.loc.line * 1000 + loop.loc.column}))
        continue;
      // One iteration per GPU (cudaSetDevice(g) in the body): each piece is on its own device,
      // and no single copy replaces them.
      if (loop.perDevice)
        continue;
      // Part of the loop did not parse (`k<<<grid, {8, 8, 1}>>>(...)`, which nvcc accepts and
      // clang rejects): it may launch what the copies feed or drain. An error on the copy's own
      // line is its wrapper's (`cutilSafeCall(cudaMemcpy(...))` with the macro undeclared).
      if (hasErrorIn(unit, loop, t.loc.line))
        continue;
      if (t.sizeBytes && *t.sizeBytes >= (int64_t(1) << 20))
        continue;
      // Pieces whose size is read from the data each iteration (partitions, tiles, compressed
      // chunks) may be few and large: nothing says the copies are small.
      if (t.sizeVariesInLoop && !t.sizeBytes)
        continue;
      // Neither the size nor the count known: nothing says the copies are small or many (one copy
      // per GPU of a multi-GPU loop, `for (i < nGpus) cudaMemcpy(host[i], recv[i], bytes, ...)`).
      if (!t.sizeBytes && !loop.tripCount)
        continue;
      out.push_back(makeFinding(t, ctx));
    }
  }

private:
  static bool hasErrorIn(const TranslationUnitResult &unit, const HostLoop &loop, unsigned copyLine) {
    for (const FrontendMessage &e : unit.compileErrors)
      if (e.loc.file == loop.loc.file && e.loc.line >= loop.loc.line && e.loc.line <= loop.endLine &&
          e.loc.line != copyLine)
        return true;
    return false;
  }

  static Finding makeFinding(const HostTransfer &t, const RuleContext &ctx) {
    const HostLoop &loop = t.loops.back();
    // Copies per run of the loop (outer loops repeat the whole batch).
    std::optional<int64_t> copies = loop.tripCount;
    std::string count = copies ? std::to_string(*copies) + " copies" : "one copy per iteration";
    std::string size = t.sizeBytes ? " of " + host::bytesText(*t.sizeBytes) + " each" : "";
    const BufferOrigin &h = t.hostOperand == 0 ? t.dst : t.src;
    std::string piece = t.memberOperand ? "a member or node" : "a different piece";
    Finding f = host::makeFinding(kInfo.id, "warning", t.loc, t.function,
                                  t.api + " in the " + loop.kind + " loop at line " + std::to_string(loop.loc.line) +
                                      " copies " + piece + " each iteration (" + count + size +
                                      "): batch them into one copy");
    std::string dir = copyDirectionName(t.direction);
    std::string mem = h.kind == MemoryOrigin::Pinned ? "pinned" : "pageable";
    int64_t latBytes = 0;
    auto lat = host::copyLatencyUs(ctx.profile, dir, mem, t.sizeBytes.value_or(4096), latBytes);
    std::optional<int64_t> total = copies && t.sizeBytes ? std::optional<int64_t>(*copies * *t.sizeBytes) : std::nullopt;
    int64_t bigBytes = host::measuredTransferSize(total ? std::optional<int64_t>(std::max<int64_t>(*total, 4096)) : std::nullopt);
    auto bw = host::transferBandwidth(ctx.profile, dir, mem, bigBytes);
    if (lat) {
      std::string s = "measured on " + host::deviceName(ctx.profile) + ": one " + host::bytesText(latBytes) + " " + mem +
                      " " + dir + " copy takes " + host::fixed(*lat, 1) + " us (host_copy_latency)";
      if (bw)
        s += "; one " + host::bytesText(bigBytes) + " copy moves " + host::fixed(*bw, 1) + " GB/s";
      if (copies)
        s += "; " + std::to_string(*copies) + " such copies cost about " + host::fixed(*lat * *copies, 0) +
             " us in latency alone";
      f.notes.push_back({{}, s});
      f.details["measured"] = {{"probe", "host_copy_latency"}, {"bytes", latBytes}, {"time_us", *lat}};
      if (bw)
        f.details["measured"]["bandwidth_gbps_one_copy"] = *bw;
    }
    std::string rewrite;
    if (t.memberOperand)
      rewrite = "rewrite: flatten the nodes/members into one contiguous buffer (an array of the fields, indices "
                "instead of pointers), copy it with one " + t.api + ", and unpack or index it on the device";
    else if (h.kind == MemoryOrigin::Unknown && h.unknownReason.find("loaded from memory") != std::string::npos)
      rewrite = "rewrite: the host rows are separate allocations ('" + (t.hostOperand == 0 ? t.dstText : t.srcText) +
                "'): allocate them as one block (rows x row bytes, ideally with cudaMallocHost) and copy it with "
                "one cudaMemcpy, or pack them into one staging buffer first";
    else
      rewrite = "rewrite: if the pieces are contiguous on both sides, one " + t.api + " of all " +
                (copies && t.sizeBytes ? host::bytesText(*copies * *t.sizeBytes) : std::string("the bytes")) +
                "; if they are rows with a pitch, one cudaMemcpy2D(dst, dpitch, src, spitch, " +
                (t.sizeText.empty() ? std::string("width") : t.sizeText) + ", " +
                (loop.tripCount ? std::to_string(*loop.tripCount) : std::string("rows")) +
                ", kind); otherwise pack them into one staging buffer and copy it once";
    f.notes.push_back({loop.loc, rewrite});
    f.details["subject"] = t.hostOperand == 0 ? t.dstText : t.srcText;
    f.details["transfer"] = host::transferJson(t);
    if (copies)
      f.details["copies"] = *copies;
    return f;
  }
};

} // namespace

std::unique_ptr<Rule> makeHostTransferBatchingRule() { return std::make_unique<HostTransferBatching>(); }

} // namespace warplint

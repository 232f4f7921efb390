// host-transfer-batching (Pasternak 2022, 4.1.2): many small copies in a
// loop, each a different row, struct member or node, where one copy, a
// cudaMemcpy2D or a packed buffer would do. Every copy pays the runtime's
// fixed cost (a few microseconds) however few bytes it moves. Also a run of
// small copies one after another outside any loop of their own (the members
// of a struct, several small parameter arrays copied one by one): the seed's
// "combining unrelated data into one array and unpacking on the device".
#include "rules/AllRules.h"
#include "rules/host/HostRule.h"

#include <algorithm>
#include <map>
#include <set>

namespace warplint {

namespace {

const RuleInfo kInfo{
    "host-transfer-batching",
    "Many small host-device copies, in a loop or one after another",
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
    "written as cudaMemcpy2D/3D are not. "
    "Copies one after another outside a loop of their own are the seed's other case, unrelated data combined "
    "into one array and unpacked on the device: a run of at least 4 host-to-device (or device-to-host) copies "
    "of at most 4 KiB each, the size host_copy_latency measures, where a copy's time is its fixed latency (the "
    "members of a struct, several small parameter arrays or scalars copied one by one before a launch) is "
    "reported once, with the pieces' sizes and the latency one packed copy saves: a warning when a loop around "
    "them repeats the run, a note when it runs once per call. A run is consecutive copies of one function in "
    "one block that runs them on every path (copies in the branches of an if or the cases of a switch are not "
    "one run), in the same direction, on the same stream and GPU (a cudaSetDevice between ends it), each with a "
    "host and a device operand of its own, and nothing between two of them that may start GPU work (a launch, "
    "a library call, a function whose body is elsewhere) or waits for it (a synchronize), nor a line clang could "
    "not parse (it may be a launch); a copy of unknown or larger size, or of another direction, ends the run.",
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
    std::set<const HostTransfer *> reported;
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
      reported.insert(&t);
      out.push_back(makeFinding(t, ctx));
    }
    checkRuns(unit, facts, ctx, reported, out);
  }

private:
  // ---- runs of small copies one after another ---------------------------------------------------
  // Each piece at most the largest size host_copy_latency measures (4 KiB), where one copy's time is
  // its fixed latency (within about 20% of a 4-byte copy's on the H100), so that one packed copy
  // saves the others' latency as measured; at least kMinRun pieces.
  static constexpr int64_t kSmallPiece = 4096;
  static constexpr size_t kMinRun = 4;

  static bool sameStream(const StreamUse &a, const StreamUse &b) {
    return (a.isDefault && b.isDefault) || (!a.isDefault && !b.isDefault && a.text == b.text);
  }
  static bool sameLoops(const std::vector<HostLoop> &a, const std::vector<HostLoop> &b) {
    if (a.size() != b.size())
      return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (a[i].loc.line != b[i].loc.line || a[i].loc.column != b[i].loc.column || a[i].loc.file != b[i].loc.file)
        return false;
    return true;
  }
  static const std::string &hostText(const HostTransfer &t) { return t.hostOperand == 0 ? t.dstText : t.srcText; }
  static const std::string &deviceText(const HostTransfer &t) { return t.hostOperand == 0 ? t.srcText : t.dstText; }

  // A copy that may be one piece of a run: a small known size, host-device, in a block it runs in on
  // every path (not under an if of its own, not in a switch), not already a loop finding.
  static bool runPiece(const HostTransfer &t, const std::set<const HostTransfer *> &reported) {
    return t.argsParsed && !t.twoD && !t.threeD && !t.block.empty() && !reported.count(&t) &&
           (t.direction == CopyDirection::HostToDevice || t.direction == CopyDirection::DeviceToHost) &&
           t.sizeBytes && *t.sizeBytes > 0 && *t.sizeBytes <= kSmallPiece;
  }

  // Whether `next` continues the run whose last copy is `prev`: the same direction, block, loops,
  // stream and GPU, the same kind of device side (a __constant__ symbol or a buffer), a host and a
  // device operand the run has not used, and nothing between the two that may start GPU work (a
  // launch, a library call, a function whose body is elsewhere; not the error-check call that wraps
  // `next` itself) or waits for it.
  static bool continues(const HostFacts &facts, const std::vector<const HostTransfer *> &run,
                        const HostTransfer &next) {
    const HostTransfer &prev = *run.back();
    if (next.direction != prev.direction || next.block != prev.block || !sameLoops(next.loops, prev.loops) ||
        !sameStream(next.stream, prev.stream) || next.deviceSelections != prev.deviceSelections ||
        next.symbol != prev.symbol || next.async != prev.async)
      return false;
    for (const HostTransfer *r : run)
      if (hostText(*r) == hostText(next) || deviceText(*r) == deviceText(next))
        return false;
    for (const HostLaunch &l : facts.launches) {
      if (l.function != next.function || l.order <= prev.order || l.order >= next.order)
        continue;
      bool wrapper = l.viaHelper && l.loc.file == next.loc.file && l.loc.line == next.loc.line &&
                     l.loc.column < next.loc.column;
      if (!wrapper)
        return false;
    }
    for (const ManagedEvent &e : facts.managed)
      if ((e.kind == ManagedEvent::Sync || e.kind == ManagedEvent::Launch) && e.function == next.function &&
          e.order > prev.order && e.order < next.order)
        return false;
    return true;
  }

  // A compile error between the run's copies (off the copies' own lines, where it is an error-check
  // wrapper's) may be a launch clang could not parse (`k<<<grid, {8, 8, 1}>>>(...)`).
  static bool hasErrorBetween(const TranslationUnitResult &unit, const std::vector<const HostTransfer *> &run) {
    std::set<unsigned> copyLines;
    for (const HostTransfer *t : run)
      copyLines.insert(t->loc.line);
    for (const FrontendMessage &e : unit.compileErrors)
      if (e.loc.file == run.front()->loc.file && e.loc.line > run.front()->loc.line &&
          e.loc.line < run.back()->loc.line && !copyLines.count(e.loc.line))
        return true;
    return false;
  }

  static void checkRuns(const TranslationUnitResult &unit, const HostFacts &facts, const RuleContext &ctx,
                        const std::set<const HostTransfer *> &reported, std::vector<Finding> &out) {
    // The copies of each function in source order.
    std::map<std::string, std::vector<const HostTransfer *>> byFunction;
    for (const HostTransfer &t : facts.transfers)
      byFunction[t.function].push_back(&t);
    for (auto &[fn, copies] : byFunction) {
      std::sort(copies.begin(), copies.end(),
                [](const HostTransfer *a, const HostTransfer *b) { return a->order < b->order; });
      std::vector<const HostTransfer *> run;
      auto flush = [&] {
        if (run.size() >= kMinRun && !hasErrorBetween(unit, run))
          out.push_back(makeRunFinding(run, ctx));
        run.clear();
      };
      for (const HostTransfer *t : copies) {
        if (!runPiece(*t, reported)) {
          flush();
          continue;
        }
        if (!run.empty() && !continues(facts, run, *t))
          flush();
        run.push_back(t);
      }
      flush();
    }
  }

  static Finding makeRunFinding(const std::vector<const HostTransfer *> &run, const RuleContext &ctx) {
    const HostTransfer &first = *run.front(), &last = *run.back();
    bool h2d = first.direction == CopyDirection::HostToDevice;
    int64_t total = 0, largest = 0;
    bool pinned = true, scalars = true;
    std::string sizes;
    for (size_t i = 0; i < run.size(); ++i) {
      const HostTransfer &t = *run[i];
      total += *t.sizeBytes;
      largest = std::max(largest, *t.sizeBytes);
      const BufferOrigin &h = t.hostOperand == 0 ? t.dst : t.src;
      pinned = pinned && h.kind == MemoryOrigin::Pinned;
      scalars = scalars && h.scalar;
      sizes += (i == 0 ? "" : i + 1 == run.size() ? " and " : ", ") + host::bytesText(*t.sizeBytes);
    }
    // Repeated with its loop (a time step, a batch of inputs): a warning; once per call of the function: a
    // note, since the latency saved is paid once.
    const HostLoop *loop = first.loops.empty() ? nullptr : &first.loops.back();
    bool repeated = loop && (!loop->tripCount || *loop->tripCount >= 8);
    std::string n = std::to_string(run.size());
    std::string where = first.loc.line == last.loc.line ? "on line " + std::to_string(first.loc.line)
                                                        : "on lines " + std::to_string(first.loc.line) + "-" +
                                                              std::to_string(last.loc.line);
    Finding f = host::makeFinding(
        kInfo.id, repeated ? "warning" : "note", first.loc, first.function,
        n + " " + first.api + " calls " + where + " copy " + n + " small pieces " +
            (h2d ? "host to device" : "device to host") + " one by one (" + sizes + ", " + host::bytesText(total) +
            " in all) with no kernel launch or wait between them" +
            (loop ? std::string(repeated ? ", each iteration of the " : ", in the ") + loop->kind + " loop at line " +
                        std::to_string(loop->loc.line)
                  : std::string()) +
            ": pack them into one buffer and copy it once");
    std::string dir = copyDirectionName(first.direction);
    std::string mem = pinned ? "pinned" : "pageable";
    int64_t latBytes = 0;
    if (auto lat = host::copyLatencyUs(ctx.profile, dir, mem, largest, latBytes)) {
      f.notes.push_back({{}, "measured on " + host::deviceName(ctx.profile) + ": one " + host::bytesText(latBytes) + " " +
                                 mem + " " + dir + " copy takes " + host::fixed(*lat, 1) +
                                 " us (host_copy_latency); " + n + " such copies cost about " +
                                 host::fixed(*lat * run.size(), 0) + " us in latency, one packed copy about " +
                                 host::fixed(*lat, 0) + " us" + (repeated ? " (each iteration)" : "")});
      f.details["measured"] = {{"probe", "host_copy_latency"}, {"bytes", latBytes}, {"time_us", *lat}};
    }
    std::string rewrite;
    if (first.symbol)
      rewrite = "rewrite: gather these __constant__ variables into one __constant__ struct, fill a host copy of it "
                "and copy it with one cudaMemcpyToSymbol";
    else if (h2d)
      rewrite = std::string("rewrite: put the pieces in one host struct or array (ideally pinned), allocate one "
                            "device buffer with the pieces at offsets, copy it with one cudaMemcpy and pass the "
                            "kernels pointers into it") +
                (scalars ? "; scalars a kernel only reads can instead be passed as kernel arguments, with no copy" : "");
    else
      rewrite = "rewrite: have the kernels write these results into one device struct or array and copy it back "
                "with one cudaMemcpy";
    f.notes.push_back({{}, rewrite});
    nlohmann::json pieces = nlohmann::json::array();
    for (const HostTransfer *t : run) {
      nlohmann::json j = host::transferJson(*t);
      j["line"] = t->loc.line;
      pieces.push_back(j);
    }
    f.details["subject"] = hostText(first);
    f.details["copies"] = run.size();
    f.details["run_bytes"] = total;
    f.details["run"] = pieces;
    return f;
  }

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

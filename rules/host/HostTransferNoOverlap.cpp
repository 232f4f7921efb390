// host-transfer-no-overlap (Pasternak 2022, 4.1.3 and 5.2): a host-to-device
// copy, a kernel and a device-to-host copy serialized on one stream where
// the work splits into independent chunks: every access the kernel makes to
// the copied buffers is at the thread's global index (element i of the
// launch touches element i of the data), so chunk k of the copy feeds chunk k
// of the grid. Staged over several streams, the copies of one chunk overlap
// the kernel of another.
#include "rules/AllRules.h"
#include "rules/host/HostRule.h"

#include <algorithm>
#include <set>

namespace warplint {

namespace {

const RuleInfo kInfo{
    "host-transfer-no-overlap",
    "Copy, kernel, copy serialized on one stream where the work splits into chunks",
    "4.1.3",
    "Pasternak, Optimizing GPU memory usage (2022), sections 4.1.3 (overlapping data transfers with "
    "computation) and 5.2 (sequential vs asynchronous copy-execute: 1.8x with 4 streams, 2.3x with 16)",
    "A program that copies its input to the device, runs a kernel and copies the result back, each step "
    "waiting for the previous one, leaves the copy engines idle while the kernel runs and the SMs idle while "
    "the data moves. When element i of the kernel's work needs only element i of the data (the kernel "
    "indexes the copied buffers with the thread's global index), the data splits into chunks: each chunk's "
    "host-to-device copy, kernel and device-to-host copy go to their own stream with cudaMemcpyAsync from "
    "pinned memory, and the chunks' steps overlap (the staged concurrent copy and execute of seed 4.1.3). "
    "The number of streams is a trade-off (more, smaller chunks overlap better but pay more per-call "
    "overhead): the finding names the count the active profile measured fastest "
    "(copy_kernel_overlap_vs_streams). Only sequences in one host function are reported, with the launch "
    "between the two copies on the same stream, passed the copied device buffers, and a kernel whose every "
    "access to them is at the global thread index, and no other launch between the copy in and that kernel "
    "or between the kernel and the copy back; copies of a constant size under 1 MiB are not reported "
    "(per-call overheads dominate), nor are copies whose size is not a constant. A function that a "
    "visible caller calls in a loop and that works on a stream of its own (not the default one) is one chunk "
    "of a pipeline its caller stages already: not reported, unless it waits for its stream before returning "
    "(then each chunk waits for the previous one). Chunks staged by hand are not reported either: a sequence on "
    "a stream of its own when the same function copies another part of the same device buffer in on a different "
    "stream (not the default one) that then launches a kernel on it, with no synchronization between the two "
    "copies in. A launch of a single block has nothing to split.",
    "cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice);\n"
    "scale<<<n / 256, 256>>>(d_out, d_in, n);  // out[i] = f(in[i])\n"
    "cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost);",
    "// h_in, h_out from cudaMallocHost; streams[s] created once\n"
    "int chunk = n / S;\n"
    "for (int s = 0; s < S; ++s) {\n"
    "  int off = s * chunk;\n"
    "  cudaMemcpyAsync(d_in + off, h_in + off, chunk * sizeof(float), cudaMemcpyHostToDevice, streams[s]);\n"
    "  scale<<<chunk / 256, 256, 0, streams[s]>>>(d_out + off, d_in + off, chunk);\n"
    "  cudaMemcpyAsync(h_out + off, d_out + off, chunk * sizeof(float), cudaMemcpyDeviceToHost, streams[s]);\n"
    "}\n"
    "cudaDeviceSynchronize();",
    "none: advice with the staged rewrite in the notes (the kernel's size argument and grid must change per "
    "chunk, and the host buffers must be pinned for the copies to overlap)",
};

std::string normalized(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
  return s;
}

// "(blockIdx.x*blockDim.x + threadIdx.x)*4" and its spellings: the global index.
bool isGlobalIndex(std::string s) {
  s = normalized(s);
  if (s.size() > 2 && s.front() == '(' && s.back() == ')')
    s = s.substr(1, s.size() - 2);
  static const std::set<std::string> forms = {
      "blockIdx.x*blockDim.x+threadIdx.x", "threadIdx.x+blockIdx.x*blockDim.x", "blockDim.x*blockIdx.x+threadIdx.x",
      "threadIdx.x+blockDim.x*blockIdx.x"};
  return forms.count(s) > 0;
}

// The byte offset is the global index times the element size (or the
// counter of a grid-stride loop that starts there).
bool chunkMapped(const KernelInfo &k, const std::string &param) {
  int seen = 0;
  for (const MemoryAccess &a : k.accesses) {
    if (a.base != param)
      continue;
    if (!a.indexKnown)
      return false;
    std::string s = normalized(a.indexText);
    std::string scale = "*" + std::to_string(a.elementSize);
    std::string core = s;
    if (s.size() > scale.size() && s.compare(s.size() - scale.size(), scale.size(), scale) == 0)
      core = s.substr(0, s.size() - scale.size());
    else if (a.elementSize != 1)
      return false;
    bool ok = isGlobalIndex(core);
    if (!ok)
      for (const LoopInfo &l : k.loops)
        if (!l.inductionVar.empty() && core == l.inductionVar && isGlobalIndex(l.init) &&
            normalized(l.step).find("gridDim.x") != std::string::npos)
          ok = true;
    if (!ok)
      return false;
    ++seen;
  }
  return seen > 0;
}

bool sameStream(const StreamUse &a, const StreamUse &b) {
  return (a.isDefault && b.isDefault) || (!a.isDefault && !b.isDefault && normalized(a.text) == normalized(b.text));
}

bool sameLoops(const std::vector<HostLoop> &a, const std::vector<HostLoop> &b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].loc.line != b[i].loc.line || a[i].loc.column != b[i].loc.column)
      return false;
  return true;
}

class HostTransferNoOverlap : public HostRule {
public:
  const RuleInfo &info() const override { return kInfo; }

  void checkHost(const TranslationUnitResult &unit, const HostFacts &facts, const RuleContext &ctx,
                 std::vector<Finding> &out) const override {
    // A function that already stages copies over streams is left alone.
    std::set<std::string> staged;
    for (const HostTransfer &t : facts.transfers)
      if (t.stream.variesInLoop)
        staged.insert(t.function);
    // A function its caller runs once per chunk, each call on its own stream: a visible caller calls it
    // in a loop (`for (i...) ops[i].async_operation(h + off, ...)`, each object holding a stream), and
    // its copies and kernel run on a stream that is not the default one. The caller stages the chunks
    // already, unless the function waits for its stream before returning (then the chunks serialize).
    std::set<std::string> chunkWorkers;
    for (const HostLaunch &l : facts.launches)
      if (l.viaHelper && !l.bodyUnseen && !l.loops.empty() && l.kernel.size() > 2 &&
          l.kernel.compare(l.kernel.size() - 2, 2, "()") == 0)
        chunkWorkers.insert(l.kernel.substr(0, l.kernel.size() - 2));
    std::set<size_t> usedD2H;
    for (const HostTransfer &in : facts.transfers) {
      if (!in.argsParsed || in.direction != CopyDirection::HostToDevice || staged.count(in.function))
        continue;
      if (in.dst.kind != MemoryOrigin::Device || in.dst.key.empty() || in.twoD || in.symbol)
        continue;
      // Whether staging pays depends on the size: a copy whose size the file
      // does not fix is not reported (on public code 4 of 10 such copies
      // were of a few KB, where staging loses: bench/host_precision).
      if (!in.sizeBytes || *in.sizeBytes < (int64_t(1) << 20))
        continue;
      // The first launch after it, on its stream, that is passed its buffer.
      const HostLaunch *launch = nullptr;
      size_t param = 0;
      for (const HostLaunch &l : facts.launches) {
        if (l.function != in.function || l.order < in.order || !sameStream(l.stream, in.stream) ||
            !sameLoops(l.loops, in.loops))
          continue;
        for (size_t i = 0; i < l.argOrigins.size(); ++i)
          if (l.argOrigins[i].key == in.dst.key) {
            launch = &l;
            param = i;
            break;
          }
        if (launch)
          break;
      }
      if (!launch)
        continue;
      // Other launches between the copy and its kernel: the copy is not the kernel's prologue (the
      // stream runs another phase first), and staging it overlaps nothing of that kernel.
      // (A call whose body is elsewhere is not counted here: error paths such as my_abort(err) in a
      // CHECK macro would hide every sequence.)
      bool before = false;
      for (const HostLaunch &l : facts.launches)
        if (!l.bodyUnseen && l.function == in.function && l.order > in.order && l.order < launch->order)
          before = true;
      if (before)
        continue;
      // A launch of one block (`dim3 grid(1)`: a test of a few elements, a single-block scan) has
      // nothing to split: each chunk would need blocks of its own.
      bool oneBlock = false;
      for (const LaunchSite &site : unit.launches)
        if (site.loc.file == launch->loc.file && site.loc.line == launch->loc.line && site.grid &&
            site.grid->threads() == 1)
          oneBlock = true;
      if (oneBlock)
        continue;
      const KernelInfo *kernel = nullptr;
      for (const KernelInfo &k : unit.kernels)
        if (k.isGlobal && k.name == launch->kernel && k.params.size() == launch->argOrigins.size())
          kernel = kernel ? kernel : &k;
      if (!kernel || !chunkMapped(*kernel, kernel->params[param].name))
        continue;
      // A later launch on the stream before the copy back, or a device-to-host copy of one of its buffers.
      const HostTransfer *back = nullptr;
      size_t backIndex = 0;
      for (size_t ti = 0; ti < facts.transfers.size(); ++ti) {
        const HostTransfer &t = facts.transfers[ti];
        if (t.function != in.function || t.order < launch->order || t.direction != CopyDirection::DeviceToHost ||
            !t.argsParsed || !sameLoops(t.loops, in.loops) || !sameStream(t.stream, in.stream))
          continue;
        for (size_t i = 0; i < launch->argOrigins.size(); ++i)
          if (!t.src.key.empty() && launch->argOrigins[i].key == t.src.key &&
              chunkMapped(*kernel, kernel->params[i].name)) {
            back = &t;
            backIndex = ti;
            break;
          }
        if (back)
          break;
      }
      if (!back || usedD2H.count(backIndex))
        continue;
      // Another launch between the kernel and the copy back may read the whole buffer.
      bool between = false;
      for (const HostLaunch &l : facts.launches)
        if (!l.bodyUnseen && l.function == in.function && l.order > launch->order && l.order < back->order)
          between = true;
      if (between)
        continue;
      std::string plain = in.function.substr(in.function.rfind(':') == std::string::npos ? 0 : in.function.rfind(':') + 1);
      if (chunkWorkers.count(plain) && !in.stream.isDefault) {
        bool waits = false;
        for (const ManagedEvent &e : facts.managed)
          if (e.kind == ManagedEvent::Sync && e.function == in.function && e.order > back->order)
            waits = true;
        if (!waits)
          continue;
      }
      if (handStaged(facts, in))
        continue;
      usedD2H.insert(backIndex);
      out.push_back(makeFinding(in, *launch, *back, ctx));
    }
  }

private:
  // The staged rewrite written out by hand: another chunk of the same device buffer (`d + half`) is
  // copied in on a different non-default stream of the same function, and that stream launches a
  // kernel on it, with no synchronization between the two copies in. Each chunk is one stage of a
  // pipeline that already overlaps (bench/host_precision, fourth pass: 2 false findings of 63).
  // A wait between them (cudaStreamSynchronize, cudaDeviceSynchronize) serializes the chunks: reported.
  static bool handStaged(const HostFacts &facts, const HostTransfer &in) {
    if (in.stream.isDefault)
      return false;
    for (const HostTransfer &other : facts.transfers) {
      if (&other == &in || !other.argsParsed || other.direction != CopyDirection::HostToDevice ||
          other.function != in.function || other.dst.key != in.dst.key || other.stream.isDefault ||
          sameStream(other.stream, in.stream) || !sameLoops(other.loops, in.loops))
        continue;
      bool launches = false;
      for (const HostLaunch &l : facts.launches)
        if (l.function == in.function && l.order > other.order && sameStream(l.stream, other.stream))
          for (const BufferOrigin &o : l.argOrigins)
            if (o.key == in.dst.key)
              launches = true;
      if (!launches)
        continue;
      size_t lo = std::min(in.order, other.order), hi = std::max(in.order, other.order);
      bool waits = false;
      for (const ManagedEvent &e : facts.managed)
        if (e.kind == ManagedEvent::Sync && e.function == in.function && e.order > lo && e.order < hi)
          waits = true;
      if (!waits)
        return true;
    }
    return false;
  }

  static Finding makeFinding(const HostTransfer &in, const HostLaunch &launch, const HostTransfer &back,
                             const RuleContext &ctx) {
    std::string size = in.sizeBytes ? " of " + host::bytesText(*in.sizeBytes) : "";
    Finding f = host::makeFinding(
        kInfo.id, "warning", in.loc, in.function,
        in.api + size + " to '" + in.dstText + "', kernel '" + launch.kernel + "' (line " +
            std::to_string(launch.loc.line) + ") and " + back.api + " back (line " + std::to_string(back.loc.line) +
            ") run one after another on " + (in.stream.isDefault ? std::string("the default stream") :
                                             "stream '" + in.stream.text + "'") +
            ", but the kernel touches the copied buffers only at its global thread index: stage them in chunks "
            "over several streams so that copies overlap the kernel");
    int best = 4;
    std::optional<double> bestSpeedup;
    if (ctx.profile)
      for (int s : {2, 4, 8, 16})
        if (auto v = ctx.profile->find("copy_kernel_overlap_vs_streams", "speedup_vs_one_stream", {{"streams", s}}))
          if (!bestSpeedup || v->median > *bestSpeedup) {
            bestSpeedup = v->median;
            best = s;
          }
    if (bestSpeedup) {
      f.notes.push_back({{}, "measured on " + host::deviceName(ctx.profile) +
                                 " (copy_kernel_overlap_vs_streams): " + std::to_string(best) + " streams ran the "
                                 "copy-kernel-copy sequence " + host::fixed(*bestSpeedup, 2) +
                                 "x faster than one stream, the best of 2, 4, 8 and 16"});
      f.details["measured"] = {{"probe", "copy_kernel_overlap_vs_streams"}, {"streams", best},
                               {"speedup_vs_one_stream", *bestSpeedup}};
    } else {
      f.notes.push_back({{}, "the active profile has no copy_kernel_overlap_vs_streams measurement: the seed "
                             "measured 1.8x with 4 streams; measure the count on your GPU"});
    }
    std::string S = std::to_string(best);
    std::string hostBuffers = in.srcText == back.dstText ? "'" + in.srcText + "'"
                                                         : "'" + in.srcText + "' and '" + back.dstText + "'";
    bool pinned = in.src.kind == MemoryOrigin::Pinned && back.dst.kind == MemoryOrigin::Pinned;
    f.notes.push_back({{}, "rewrite: " + (pinned ? "host memory " + hostBuffers + " already pinned; " :
                                           "allocate " + hostBuffers + " with cudaMallocHost; ") + "create " + S + " streams; for s in 0.." + S +
                               "-1: cudaMemcpyAsync the s-th chunk of '" + in.dstText + "' on streams[s], launch '" +
                               launch.kernel + "' over that chunk (grid and size / " + S + ", pointers + s*chunk) on "
                               "streams[s], cudaMemcpyAsync the chunk of '" + back.srcText +
                               "' back on streams[s]; then cudaDeviceSynchronize()"});
    if (in.src.kind == MemoryOrigin::Pageable || back.dst.kind == MemoryOrigin::Pageable)
      f.notes.push_back({{}, "the host buffers are pageable: copies from them do not overlap anything until they "
                             "are pinned (host-pageable-transfer)"});
    f.details["subject"] = in.dst.variable;
    f.details["kernel"] = launch.kernel;
    f.details["launch_line"] = launch.loc.line;
    f.details["copy_back_line"] = back.loc.line;
    f.details["streams_suggested"] = best;
    f.details["transfer"] = host::transferJson(in);
    return f;
  }
};

} // namespace

std::unique_ptr<Rule> makeHostTransferNoOverlapRule() { return std::make_unique<HostTransferNoOverlap>(); }

} // namespace warplint

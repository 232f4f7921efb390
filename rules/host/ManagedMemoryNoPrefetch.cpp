// managed-memory-no-prefetch (Pasternak 2022, 4.1.4 and 6.3.3): managed
// memory the host touched and a kernel then uses (or the reverse), with no
// cudaMemPrefetchAsync or cudaMemAdvise for it in between: its pages move
// one GPU (or CPU) page fault at a time while the kernel (or the host code)
// waits, where one prefetch moves them in bulk, ahead of the work.
#include "rules/AllRules.h"
#include "rules/host/HostRule.h"

#include <cmath>
#include <map>
#include <optional>
#include <set>

namespace warplint {

namespace {

const RuleInfo kInfo{
    "managed-memory-no-prefetch",
    "Managed memory used by a kernel after the host touched it, without a prefetch",
    "4.1.4",
    "Pasternak, Optimizing GPU memory usage (2022), sections 4.1.4 (zero copy and unified memory) and 6.3.3 "
    "(explicit copies and pinned memory)",
    "Since Pascal, memory from cudaMallocManaged (or a __managed__ variable) migrates on demand: a kernel that "
    "touches pages last written by the host takes a GPU page fault per page group and waits while the driver "
    "moves them, and host code that reads results a kernel wrote faults them back the same way. The seed's "
    "conclusion (6.3.3) is that even with explicit prefetching unified memory costs a little more than "
    "explicit copies; without prefetching it costs much more. cudaMemPrefetchAsync(ptr, bytes, device, stream) "
    "before the launch moves the pages in bulk at copy-engine bandwidth (and to cudaCpuDeviceId before the host "
    "reads results); cudaMemAdvise states where the data should live. The finding quotes the active profile's "
    "measurements: for a kernel after a host touch, the kernel's time on host-touched managed memory without "
    "and with a prefetch (managed_first_touch); for a host touch after a kernel, one host thread's first read "
    "and write of memory a kernel wrote, without and with a prefetch to the host (prefetch included) and once "
    "resident, at the measured size nearest the buffer's (managed_host_touch, 4 to 256 MiB). The host pass "
    "itself is most of that time, so the prefetch back saves far less than the prefetch before a kernel: where "
    "the profile measured it to buy less than 1.3x on the read (the H100's and H200's 1.04-1.27x), that "
    "direction is a note, not a warning; a profile without the probe gives the finding without numbers (a "
    "warning). "
    "Only buffers whose managed origin is traced are considered, and only host touches, launches and "
    "prefetches written in one host function, in source order; any cudaMemAdvise of the buffer earlier in "
    "that function silences it, and so does handing the buffer, between the two, to code the analyzer cannot "
    "follow (a function whose body is in another file, a library descriptor such as cusparseCreateDnVec). "
    "CUDA library calls that run kernels (cuBLAS, cuSPARSE, cuFFT, ...) count as launches over the managed "
    "buffers passed to them. Prefetches and advice written with the device-number signatures of CUDA 12 and "
    "older (cudaMemPrefetchAsync(p, bytes, dev)), which CUDA 13's headers no longer accept, still count; "
    "sizeof(*p) is not a host touch; a buffer whose allocation is known to be at most one page (4 KiB) is not "
    "reported (one page fault either way), nor is a host touch of one element at a constant place (m[0], *m, "
    "of an element of at most 4 KiB: printf of one result after the kernel), which moves one page where a "
    "prefetch would move the whole buffer; such a touch also ends no pair (a loop over the buffer after it "
    "is still reported against the kernel before it); nor is a loop over a few elements (the counter of a "
    "for with constant bounds, not written in its body, indexing at most 4 KiB of the buffer: "
    "for (i = 0; i < 10; ++i) printf(.., m[i])); a visible helper that prefetches or advises managed memory itself before "
    "launching decides the pages of the buffers handed to it, like code the analyzer cannot follow.",
    "float *x;\n"
    "cudaMallocManaged(&x, n * sizeof(float));\n"
    "for (int i = 0; i < n; ++i) x[i] = 1.0f;   // pages now on the host\n"
    "scale<<<grid, block>>>(x, n);             // GPU page faults migrate them\n"
    "cudaDeviceSynchronize();",
    "float *x;\n"
    "cudaMallocManaged(&x, n * sizeof(float));\n"
    "for (int i = 0; i < n; ++i) x[i] = 1.0f;\n"
    "int dev; cudaGetDevice(&dev);\n"
    "cudaMemPrefetchAsync(x, n * sizeof(float), dev, 0); // bulk migration before the launch\n"
    "scale<<<grid, block>>>(x, n);\n"
    "cudaDeviceSynchronize();",
    "none: advice with a concrete rewrite in the notes (the prefetch needs the buffer's size and device; "
    "CUDA 13 spells the destination as a cudaMemLocation)",
};

class ManagedMemoryNoPrefetch : public HostRule {
  static constexpr double kMiB = 1024.0 * 1024.0;

public:
  const RuleInfo &info() const override { return kInfo; }

  void checkHost(const TranslationUnitResult &, const HostFacts &facts, const RuleContext &ctx,
                 std::vector<Finding> &out) const override {
    // A buffer of at most one page moves as one page fault either way: a prefetch saves nothing
    // (`cudaMallocManaged(&sum, sizeof(float))` read back after an atomicAdd kernel).
    std::set<std::string> onePage;
    std::map<std::string, std::optional<int64_t>> allocBytes; // each buffer's size where constant
    for (const BufferOrigin &b : facts.managedBuffers) {
      if (b.allocBytes && *b.allocBytes <= kPageBytes)
        onePage.insert(b.key);
      if (b.allocBytes)
        allocBytes[b.key] = b.allocBytes;
    }
    // Events of one function, in order.
    std::map<std::string, std::vector<const ManagedEvent *>> byFunction;
    // A host touch of one element at a constant place (`printf("%f", m[0])` after the kernel) moves
    // one page, where a prefetch would move the whole buffer: no finding of its own, and it ends no
    // pair (ManagedEvent::touchBytesAtMost).
    for (const ManagedEvent &e : facts.managed)
      if (!onePage.count(e.bufferKey) &&
          !(e.kind == ManagedEvent::HostTouch && e.touchBytesAtMost && *e.touchBytesAtMost <= kPageBytes))
        byFunction[e.function].push_back(&e);
    for (auto &[fn, events] : byFunction) {
      std::set<std::string> reported; // (buffer, touch line) pairs already reported
      for (size_t i = 0; i < events.size(); ++i) {
        const ManagedEvent &e = *events[i];
        if (e.kind != ManagedEvent::Launch && e.kind != ManagedEvent::HostTouch)
          continue;
        // The previous event of the same buffer, and whether it was advised before.
        const ManagedEvent *prev = nullptr;
        bool advised = false, prefetchedToHost = false;
        for (size_t j = i; j-- > 0;) {
          const ManagedEvent &p = *events[j];
          if (p.bufferKey != e.bufferKey)
            continue;
          if (p.kind == ManagedEvent::Advise)
            advised = true;
          // A prefetch, or code the unit cannot follow (Escape), ends the pair.
          if (!prev && (p.kind == ManagedEvent::Prefetch || p.kind == ManagedEvent::Launch ||
                        p.kind == ManagedEvent::HostTouch || p.kind == ManagedEvent::Escape)) {
            prev = &p;
            prefetchedToHost = p.kind == ManagedEvent::Prefetch && p.toHost;
          }
        }
        (void)prefetchedToHost;
        if (!prev || advised)
          continue;
        if (e.kind == ManagedEvent::Launch && prev->kind == ManagedEvent::HostTouch) {
          std::string key = e.bufferKey + "@" + std::to_string(prev->loc.line);
          if (!reported.insert(key).second)
            continue;
          out.push_back(toDevice(e, *prev, ctx));
        } else if (e.kind == ManagedEvent::HostTouch && prev->kind == ManagedEvent::Launch) {
          std::string key = e.bufferKey + "@L" + std::to_string(prev->loc.line);
          if (!reported.insert(key).second)
            continue;
          out.push_back(toHost(e, *prev, allocBytes.count(e.bufferKey) ? allocBytes[e.bufferKey] : std::nullopt, ctx));
        }
      }
    }
  }

private:
  static void measured(Finding &f, const RuleContext &ctx) {
    if (!ctx.profile)
      return;
    auto none = ctx.profile->find("managed_first_touch", "kernel_time_ms", {{"prefetch", "none"}});
    auto pre = ctx.profile->find("managed_first_touch", "kernel_time_ms", {{"prefetch", "prefetch"}});
    auto bwNone = ctx.profile->find("managed_first_touch", "bandwidth_gbps", {{"prefetch", "none"}});
    auto bwPre = ctx.profile->find("managed_first_touch", "bandwidth_gbps", {{"prefetch", "prefetch"}});
    if (none && pre) {
      std::string s = "measured on " + ctx.profile->deviceName() + " (managed_first_touch): a kernel over host-touched "
                      "managed memory took " + host::fixed(none->median, 3) + " ms with no prefetch, " +
                      host::fixed(pre->median, 3) + " ms after cudaMemPrefetchAsync (" +
                      host::fixed(none->median / pre->median, 2) + "x)";
      if (bwNone && bwPre)
        s += "; " + host::fixed(bwNone->median, 1) + " vs " + host::fixed(bwPre->median, 1) + " GB/s";
      f.notes.push_back({{}, s});
      f.details["measured"] = {{"probe", "managed_first_touch"}, {"kernel_time_ms_none", none->median},
                               {"kernel_time_ms_prefetch", pre->median}};
    }
  }

  // The reverse direction (a kernel wrote the pages, then the host touches them): the active
  // profile's managed_host_touch, at the measured size nearest the buffer's (log scale), or at the
  // largest measured size when the buffer's size is not known. Nothing numeric without the probe.
  static void measuredToHost(Finding &f, const RuleContext &ctx, std::optional<int64_t> bytes) {
    if (!ctx.profile)
      return;
    const HardwareProfile &p = *ctx.profile;
    auto at = [&](const char *name, const char *pass, const char *prefetch, double size) {
      Params q{{"host_pass", pass}, {"bytes", size}};
      if (prefetch)
        q.emplace("prefetch", prefetch);
      return p.find("managed_host_touch", name, q);
    };
    // The sizes the probe measures (probes/src/host_transfer_probes.cu, runManagedHostTouch).
    const double sizes[] = {4.0 * kMiB, 16.0 * kMiB, 64.0 * kMiB, 256.0 * kMiB};
    std::optional<double> size;
    for (double s : sizes) {
      if (!at("host_time_ms", "read", "none", s))
        continue;
      if (!size || !bytes ||
          std::fabs(std::log2(s / double(*bytes))) < std::fabs(std::log2(*size / double(*bytes))))
        size = s;
    }
    if (!size)
      return;
    auto noneR = at("host_time_ms", "read", "none", *size), preR = at("host_time_ms", "read", "prefetch", *size);
    auto resR = at("host_resident_time_ms", "read", nullptr, *size);
    auto noneW = at("host_time_ms", "write", "none", *size), preW = at("host_time_ms", "write", "prefetch", *size);
    if (!noneR || !preR)
      return;
    const std::string mib = std::to_string(int64_t(*size / kMiB)) + " MiB";
    std::string which = !bytes ? mib + ", the largest size measured: this buffer's size is not known"
                        : double(*bytes) == *size ? mib
                                                  : mib + ", the measured size nearest this buffer's " +
                                                        host::fixed(double(*bytes) / kMiB, 1) + " MiB";
    std::string s = "measured on " + p.deviceName() + " (managed_host_touch, " + which +
                    "): after a kernel wrote the buffer, one host thread's first read of it took " +
                    host::fixed(noneR->median, 2) + " ms with no prefetch and " + host::fixed(preR->median, 2) +
                    " ms with cudaMemPrefetchAsync to the host and a synchronize first, the prefetch included (" +
                    host::fixed(noneR->median / preR->median, 2) + "x)";
    if (resR)
      s += "; the same read takes " + host::fixed(resR->median, 2) + " ms once the pages are on the host";
    if (noneW && preW)
      s += "; a write of every element " + host::fixed(noneW->median, 2) + " against " +
           host::fixed(preW->median, 2) + " ms (" + host::fixed(noneW->median / preW->median, 2) + "x)";
    f.notes.push_back({{}, s});
    nlohmann::json m = {{"probe", "managed_host_touch"}, {"bytes", int64_t(*size)},
                        {"host_read_ms_none", noneR->median}, {"host_read_ms_prefetch", preR->median}};
    if (resR)
      m["host_read_ms_resident"] = resR->median;
    if (noneW && preW) {
      m["host_write_ms_none"] = noneW->median;
      m["host_write_ms_prefetch"] = preW->median;
    }
    f.details["measured"] = m;
  }

  static Finding toDevice(const ManagedEvent &launch, const ManagedEvent &touch, const RuleContext &ctx) {
    Finding f = host::makeFinding(
        kInfo.id, "warning", launch.loc, launch.function,
        "kernel '" + launch.text + "' uses managed memory '" + launch.variable + "' that the host touched at line " +
            std::to_string(touch.loc.line) + " with no cudaMemPrefetchAsync or cudaMemAdvise in between: its pages "
            "migrate by GPU page faults while the kernel runs");
    measured(f, ctx);
    f.notes.push_back({touch.loc, "the host touches '" + launch.variable + "' here: " + touch.text});
    f.notes.push_back({{}, "rewrite: before the launch, cudaMemPrefetchAsync(" + launch.variable +
                               ", <its bytes>, <device>, <the launch's stream>) (CUDA 13: a cudaMemLocation "
                               "{cudaMemLocationTypeDevice, device} and flags 0)"});
    f.details["subject"] = launch.variable;
    f.details["direction"] = "host to device";
    f.details["host_touch_line"] = touch.loc.line;
    return f;
  }

  // A host touch after a kernel is a warning only where the profile measured
  // the prefetch back to pay at least this much.
  static constexpr double kWarnBelowSpeedup = 1.3;

  static Finding toHost(const ManagedEvent &touch, const ManagedEvent &launch, std::optional<int64_t> bytes,
                        const RuleContext &ctx) {
    Finding f = host::makeFinding(
        kInfo.id, "warning", touch.loc, touch.function,
        "the host touches managed memory '" + touch.variable + "' that kernel '" + launch.text + "' (line " +
            std::to_string(launch.loc.line) + ") used, with no cudaMemPrefetchAsync to the host in between: its "
            "pages migrate back by CPU page faults");
    measuredToHost(f, ctx, bytes);
    // Where the profile measured the prefetch back to buy little (the H100's
    // and H200's 1.04-1.27x for a read: the host pass itself is most of the
    // time), the finding is advice, not a warning.
    if (auto m = f.details.find("measured"); m != f.details.end() && m->contains("host_read_ms_none") &&
                                               m->contains("host_read_ms_prefetch")) {
      double none = (*m)["host_read_ms_none"].get<double>(), pre = (*m)["host_read_ms_prefetch"].get<double>();
      if (pre > 0 && none / pre < kWarnBelowSpeedup) {
        f.severity = "note";
        f.notes.push_back({{}, "a note only: the measured prefetch back buys " + host::fixed(none / pre, 2) +
                                   "x on the host's read (below " + host::fixed(kWarnBelowSpeedup, 1) + "x)"});
      }
    }
    f.notes.push_back({launch.loc, "kernel '" + launch.text + "' uses '" + touch.variable + "' here"});
    f.notes.push_back({{}, "rewrite: after the kernel, cudaMemPrefetchAsync(" + touch.variable +
                               ", <its bytes>, cudaCpuDeviceId, <stream>) and synchronize that stream before the "
                               "host reads it (CUDA 13: a cudaMemLocation {cudaMemLocationTypeHost, 0})"});
    f.details["subject"] = touch.variable;
    f.details["direction"] = "device to host";
    f.details["launch_line"] = launch.loc.line;
    return f;
  }
};

} // namespace

std::unique_ptr<Rule> makeManagedMemoryNoPrefetchRule() { return std::make_unique<ManagedMemoryNoPrefetch>(); }

} // namespace warplint

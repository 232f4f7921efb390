// host-pageable-transfer (Pasternak 2022, 4.1.1 and 5.1): a copy between
// host and device whose host side is pageable memory (malloc, new,
// std::vector, a stack or static array). The driver first copies it into a
// pinned staging buffer and the DMA engine copies from there; a copy from
// pinned memory skips the host-to-host step. cudaMemcpyAsync from pageable
// memory is synchronous with the host, so its stream overlaps nothing.
#include "rules/AllRules.h"
#include "rules/host/HostRule.h"

namespace warplint {

namespace {

const RuleInfo kInfo{
    "host-pageable-transfer",
    "Host-device copy from pageable host memory",
    "4.1.1",
    "Pasternak, Optimizing GPU memory usage (2022), sections 4.1.1 (page-locked memory), 5.1 (pageable vs "
    "pinned transfers) and 6.3.3 (explicit copies and pinned memory)",
    "The GPU's copy engines can read and write host memory directly only when it is page-locked (pinned). "
    "A cudaMemcpy whose host buffer comes from malloc, new, std::vector or the stack is pageable: the driver "
    "first copies it into a pinned staging buffer on the CPU, then DMAs that, chunk by chunk, so the transfer "
    "runs below the link's bandwidth and costs CPU time. cudaMemcpyAsync from pageable memory is in addition "
    "synchronous with the host: it cannot overlap kernels or other copies, and the stream it names buys "
    "nothing. Allocating the buffer with cudaMallocHost/cudaHostAlloc, or pinning an existing one with "
    "cudaHostRegister, lets the GPU DMA it at once. Pinned memory cannot be paged out: pin the buffers that "
    "are transferred, not everything (seed 4.1.1). The finding quotes the active profile's measured "
    "bandwidth of both kinds at the copy's size (host_transfer_bandwidth). Copies whose host side is one "
    "scalar object, copies of a constant size under 4 KiB (latency-bound: pinning buys little), and host "
    "buffers whose origin the analyzer cannot trace are not reported.",
    "float *h = (float *)malloc(bytes);\n"
    "init(h, n);\n"
    "cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice); // staged through a pinned bounce buffer\n"
    "kernel<<<grid, block>>>(d, n);\n"
    "cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost);\n"
    "free(h);",
    "float *h;\n"
    "cudaMallocHost(&h, bytes); // page-locked: the copy engine DMAs it directly\n"
    "init(h, n);\n"
    "cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);\n"
    "kernel<<<grid, block>>>(d, n);\n"
    "cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost);\n"
    "cudaFreeHost(h);",
    "none: advice with a concrete rewrite in the notes (the allocation, its free and every other use of the "
    "buffer must change together; a std::vector is pinned in place with cudaHostRegister)",
};

std::string rewriteNote(const BufferOrigin &o, const HostTransfer &t) {
  const std::string &v = o.variable;
  std::string bytes = o.allocBytes ? std::to_string(*o.allocBytes) : (t.sizeText.empty() ? "bytes" : t.sizeText);
  if (o.allocator == "malloc" || o.allocator == "calloc" || o.allocator == "aligned_alloc" ||
      o.allocator == "posix_memalign" || o.allocator == "memalign" || o.allocator == "valloc")
    return "rewrite: allocate '" + v + "' with cudaMallocHost((void **)&" + v + ", " + bytes + ") instead of " +
           o.allocator + "() and release it with cudaFreeHost(" + v + ") instead of free()";
  if (o.allocator == "new[]" || o.allocator == "new")
    return "rewrite: allocate '" + v + "' with cudaMallocHost((void **)&" + v + ", " + bytes +
           ") instead of new and release it with cudaFreeHost(" + v + ") instead of delete";
  if (o.allocator == "std::vector" || o.allocator == "std::array")
    return "rewrite: pin the container's storage once it has its final size: cudaHostRegister(" + v + ".data(), " +
           v + ".size() * sizeof(" + v + "[0]), cudaHostRegisterDefault), and cudaHostUnregister(" + v +
           ".data()) before it is resized or destroyed (or give it a pinned allocator)";
  if (o.allocator == "stack array" || o.allocator == "static array")
    return "rewrite: replace the array '" + v + "' by a cudaMallocHost buffer of the same size (" +
           (o.allocBytes ? host::bytesText(*o.allocBytes) : std::string("its size")) +
           "), or pin it once with cudaHostRegister(" + v + ", sizeof(" + v + "), cudaHostRegisterDefault)";
  return "rewrite: allocate '" + v + "' with cudaMallocHost/cudaHostAlloc, or pin it with cudaHostRegister";
}

class HostPageableTransfer : public HostRule {
public:
  const RuleInfo &info() const override { return kInfo; }

  void checkHost(const TranslationUnitResult &, const HostFacts &facts, const RuleContext &ctx,
                 std::vector<Finding> &out) const override {
    for (const HostTransfer &t : facts.transfers) {
      if (!t.argsParsed || t.hostOperand < 0)
        continue;
      const BufferOrigin &h = t.hostOperand == 0 ? t.dst : t.src;
      const BufferOrigin &d = t.hostOperand == 0 ? t.src : t.dst;
      if (h.kind != MemoryOrigin::Pageable || h.scalar)
        continue;
      // A device side that is host memory too (a copy "to the device" into
      // malloc'd memory) is a bug, not this rule's business.
      if (d.kind == MemoryOrigin::Pageable || d.kind == MemoryOrigin::Pinned)
        continue;
      std::optional<int64_t> bytes = t.sizeBytes;
      if (bytes && t.height)
        bytes = *bytes * *t.height;
      if (bytes && *bytes < 4096)
        continue;
      out.push_back(makeFinding(t, h, bytes, ctx));
    }
  }

private:
  static Finding makeFinding(const HostTransfer &t, const BufferOrigin &h, std::optional<int64_t> bytes,
                             const RuleContext &ctx) {
    std::string dir = copyDirectionName(t.direction);
    std::string what = t.direction == CopyDirection::HostToDevice ? "from" : "into";
    std::string size = bytes ? host::bytesText(*bytes) + " " : "";
    std::string msg = t.api + " copies " + size + what + " pageable host memory " + host::describeOrigin(h, t.loc.file) +
                      ": the driver stages it through a pinned buffer";
    if (t.async)
      msg += "; from pageable memory " + t.api + " is synchronous with the host, so it overlaps nothing and " +
             (t.stream.isDefault ? std::string("a stream") : "stream '" + t.stream.text + "'") + " buys nothing";
    msg += "; allocate it with cudaMallocHost or pin it with cudaHostRegister";
    Finding f = host::makeFinding(kInfo.id, "warning", t.loc, t.function, msg);
    int64_t measured = host::measuredTransferSize(bytes);
    auto pageable = host::transferBandwidth(ctx.profile, dir, "pageable", measured);
    auto pinned = host::transferBandwidth(ctx.profile, dir, "pinned", measured);
    if (pageable && pinned) {
      f.notes.push_back({{}, "measured on " + host::deviceName(ctx.profile) + " (" + dir + ", " +
                                 host::bytesText(measured) + " copies): pageable " + host::fixed(*pageable, 1) +
                                 " GB/s, pinned " + host::fixed(*pinned, 1) + " GB/s (" +
                                 host::fixed(*pinned / *pageable, 2) + "x)" +
                                 (bytes ? "" : "; the copy's size is not known here")});
      f.details["measured"] = {{"probe", "host_transfer_bandwidth"}, {"bytes", measured},
                               {"pageable_gbps", *pageable}, {"pinned_gbps", *pinned}};
    }
    f.notes.push_back({h.allocLoc, rewriteNote(h, t)});
    f.notes.push_back({{}, "pinned memory cannot be paged out: pin the buffers that are copied, and allocate them "
                           "once (cudaMallocHost is much slower than malloc), not per copy"});
    f.details["subject"] = h.variable;
    f.details["transfer"] = host::transferJson(t);
    return f;
  }
};

} // namespace

std::unique_ptr<Rule> makeHostPageableTransferRule() { return std::make_unique<HostPageableTransfer>(); }

} // namespace warplint

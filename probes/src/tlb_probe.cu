// TLB reach (seed 001 sec. 3.2's stride chase, one entry per page).
//
// A plain cudaMalloc of many GiB shows no TLB penalty at all on Hopper (the
// driver maps large allocations with large pages), and a card cannot hold
// enough memory to overflow a TLB of large pages. So the main series maps ONE
// physical 2 MiB chunk (cuMemCreate, the VMM granularity) at every 2 MiB of a
// 32 GiB virtual reservation: each virtual page needs its own TLB entry, while
// every line the chase touches lives in the same 2 MiB of L2-resident data.
// Chain element j sits on virtual page (j mod pages) at line u(j) = j*40503
// mod 16384 (an odd multiplier: distinct physical lines for j < 16384); at
// least 2048 elements are chased so the near/far L2 mix averages out.
#include "probe.h"

#include <cuda.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>
#include <string>

namespace probe {

namespace {

constexpr size_t kLine = 128;
constexpr uint32_t kMinElements = 2048;

__device__ __forceinline__ uint64_t loadPtrCg(uint64_t p) {
  uint64_t v;
  asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(v) : "l"(p));
  return v;
}

__host__ __device__ inline uint64_t elementAddress(uint64_t base, size_t strideBytes, size_t pageBytes,
                                                   uint32_t pages, uint32_t j) {
  size_t linesPerPage = pageBytes / kLine;
  size_t line = (size_t(j) * 40503u) % linesPerPage;
  return base + size_t(j % pages) * strideBytes + line * kLine;
}

__global__ void tlbInitKernel(uint64_t base, size_t strideBytes, size_t pageBytes, uint32_t pages,
                              uint32_t elements) {
  uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= elements) return;
  uint64_t here = elementAddress(base, strideBytes, pageBytes, pages, j);
  *reinterpret_cast<uint64_t*>(here) =
      elementAddress(base, strideBytes, pageBytes, pages, (j + 1) % elements);
}

// One lap untimed (fills the TLBs and L2), then `steps` timed dependent loads.
__global__ void tlbChaseKernel(uint64_t start, uint32_t warmSteps, uint32_t steps,
                               unsigned long long* cycles, uint64_t* sink) {
  uint64_t p = start;
  for (uint32_t i = 0; i < warmSteps; ++i) p = loadPtrCg(p);
  unsigned long long t0 = clock64();
  for (uint32_t i = 0; i < steps; ++i) p = loadPtrCg(p);
  unsigned long long t1 = clock64();
  cycles[0] = t1 - t0;
  sink[0] = p;
}

// The driver's virtual-memory calls, fetched through the runtime so the
// binary does not link libcuda (it must start, and say "no GPU", without one).
struct DriverVmm {
  decltype(&cuGetErrorString) getErrorString = nullptr;
  decltype(&cuMemGetAllocationGranularity) granularity = nullptr;
  decltype(&cuMemCreate) create = nullptr;
  decltype(&cuMemRelease) release = nullptr;
  decltype(&cuMemAddressReserve) reserve = nullptr;
  decltype(&cuMemAddressFree) addressFree = nullptr;
  decltype(&cuMemMap) map = nullptr;
  decltype(&cuMemUnmap) unmap = nullptr;
  decltype(&cuMemSetAccess) setAccess = nullptr;

  static const DriverVmm& get() {
    static const DriverVmm api = load();
    return api;
  }

 private:
  template <typename Fn>
  static void fetch(const char* name, Fn& fn) {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult q{};
    if (cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &q) != cudaSuccess ||
        q != cudaDriverEntryPointSuccess || !p)
      throw std::runtime_error(std::string("tlb_reach: driver entry point ") + name + " not found");
    fn = reinterpret_cast<Fn>(p);
  }
  static DriverVmm load() {
    DriverVmm d;
    fetch("cuGetErrorString", d.getErrorString);
    fetch("cuMemGetAllocationGranularity", d.granularity);
    fetch("cuMemCreate", d.create);
    fetch("cuMemRelease", d.release);
    fetch("cuMemAddressReserve", d.reserve);
    fetch("cuMemAddressFree", d.addressFree);
    fetch("cuMemMap", d.map);
    fetch("cuMemUnmap", d.unmap);
    fetch("cuMemSetAccess", d.setAccess);
    return d;
  }
};

void checkCu(CUresult r, const char* what) {
  if (r != CUDA_SUCCESS) {
    const char* msg = nullptr;
    DriverVmm::get().getErrorString(r, &msg);
    throw std::runtime_error(std::string(what) + ": " + (msg ? msg : "CUDA driver error"));
  }
}
#define PROBE_CU(call) checkCu((call), #call)

// One physical chunk mapped at every `stride` bytes of a reserved range (only
// the pages the chase touches need a mapping, so strides can span TiBs).
struct AliasedRange {
  CUdeviceptr va = 0;
  size_t span = 0, page = 0;
  std::vector<CUdeviceptr> maps;
  CUmemGenericAllocationHandle handle{};
  bool haveHandle = false;

  AliasedRange(int device, size_t stride, uint32_t pages) {
    const DriverVmm& vmm = DriverVmm::get();
    CUmemAllocationProp prop{};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = device;
    try {
      mapAll(vmm, prop, stride, pages);
    } catch (...) {
      release();  // the destructor does not run after a throwing constructor
      throw;
    }
  }
  ~AliasedRange() { release(); }
  AliasedRange(const AliasedRange&) = delete;
  AliasedRange& operator=(const AliasedRange&) = delete;

 private:
  void mapAll(const DriverVmm& vmm, const CUmemAllocationProp& prop, size_t stride, uint32_t pages) {
    PROBE_CU(vmm.granularity(&page, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    if (stride % page) throw std::runtime_error("tlb_reach: stride not a multiple of the VMM page");
    span = size_t(pages) * stride;
    PROBE_CU(vmm.create(&handle, page, &prop, 0));
    haveHandle = true;
    PROBE_CU(vmm.reserve(&va, span, page, 0, 0));
    CUmemAccessDesc access{};
    access.location = prop.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    for (uint32_t k = 0; k < pages; ++k) {
      CUdeviceptr at = va + size_t(k) * stride;
      PROBE_CU(vmm.map(at, page, 0, handle, 0));
      maps.push_back(at);
      PROBE_CU(vmm.setAccess(at, page, &access, 1));
    }
  }
  void release() noexcept {
    const DriverVmm& vmm = DriverVmm::get();
    for (CUdeviceptr at : maps) vmm.unmap(at, page);
    maps.clear();
    if (va) vmm.addressFree(va, span);
    va = 0;
    if (haveHandle) vmm.release(handle);
    haveHandle = false;
  }
};

struct Series {
  const char* allocation;
  uint64_t base;
  size_t pageBytes;  // bytes that hold distinct lines for one element's page
  size_t spanBytes;
};

// Footprints where the latency first exceeds the plateau before it by 2% (the
// chase is steady to 0.1 cycle): each is one translation level's reach being
// passed, the step its extra cycles per access.
std::string risesJson(const std::vector<double>& pagesAt, const std::vector<double>& med,
                      double strideMiB) {
  std::string j = "[";
  double plateau = med.empty() ? 0 : med[0];
  for (size_t i = 1; i < med.size(); ++i) {
    if (med[i] > 1.02 * plateau) {
      char buf[256];
      std::snprintf(buf, sizeof buf,
                    "%s{\"last_flat_pages\": %.0f, \"first_penalty_pages\": %.0f, "
                    "\"last_flat_footprint_mib\": %.0f, \"cycles_before\": %.1f, \"cycles_after\": %.1f}",
                    j.size() > 1 ? ", " : "", pagesAt[i - 1], pagesAt[i], pagesAt[i - 1] * strideMiB,
                    med[i - 1], med[i]);
      j += buf;
    }
    plateau = med[i];
  }
  return j + "]";
}

void chaseSeries(Context& ctx, ProbeOutput& out, const Series& s, size_t strideMiB,
                 uint32_t maxPages) {
  DeviceBuffer<unsigned long long> cyc(1);
  DeviceBuffer<uint64_t> sink(1);
  const size_t stride = strideMiB << 20;
  std::vector<double> pagesAt, med;
  for (uint32_t pages = 1; pages <= maxPages && size_t(pages) * stride <= s.spanBytes; pages *= 2) {
    uint32_t elements = std::max(pages, kMinElements);
    tlbInitKernel<<<(elements + 255) / 256, 256>>>(s.base, stride, s.pageBytes, pages, elements);
    checkLaunch("tlbInitKernel");
    auto& v = out.add("latency_cycles",
                      {str("allocation", s.allocation), num("stride_mib", double(strideMiB)),
                       num("pages", pages), num("footprint_mib", double(pages) * double(strideMiB))},
                      "cycles",
                      "ld.global.cg 64-bit pointer chase over max(pages, 2048) lines, element j on "
                      "page j mod pages; one untimed lap, then max(lap, 4096) timed loads");
    uint32_t steps = std::max<uint32_t>(elements, 4096);
    uint64_t start = elementAddress(s.base, stride, s.pageBytes, pages, 0);
    for (int r = 0; r < ctx.runs; ++r) {
      tlbChaseKernel<<<1, 1>>>(start, elements, steps, cyc.ptr, sink.ptr);
      checkLaunch("tlbChaseKernel");
      unsigned long long c = 0;
      PROBE_CHECK(cudaMemcpy(&c, cyc.ptr, sizeof c, cudaMemcpyDeviceToHost));
      v.samples.push_back(double(c) / steps);
    }
    pagesAt.push_back(pages);
    med.push_back(median(v.samples));
  }
  out.derive(std::string("rises_") + s.allocation + "_stride_" + std::to_string(strideMiB) + "_mib",
             risesJson(pagesAt, med, double(strideMiB)));
}

}  // namespace

void runTlbReach(Context& ctx, ProbeOutput& out) {
  PROBE_CHECK(cudaFree(nullptr));  // a current context for the driver API
  constexpr uint32_t kMaxPages = 16384;
  for (size_t strideMiB : {size_t(2), size_t(32), size_t(512)}) {
    // 16384 pages at 512 MiB reserve 8 TiB of address space; halve on refusal.
    std::unique_ptr<AliasedRange> r;
    uint32_t pages = kMaxPages;
    for (; pages >= 64 && !r; pages /= 2) {
      try {
        r = std::make_unique<AliasedRange>(ctx.device, strideMiB << 20, pages);
      } catch (const std::runtime_error&) {
        cudaGetLastError();
      }
    }
    if (!r) throw std::runtime_error("tlb_reach: could not map 64 aliased pages");
    Series s{"vmm_aliased", uint64_t(r->va), r->page, r->span};
    chaseSeries(ctx, out, s, strideMiB, kMaxPages);
    out.derive("vmm_pages_stride_" + std::to_string(strideMiB) + "_mib", std::to_string(r->maps.size()));
    if (strideMiB == 2) out.derive("vmm_page_bytes", std::to_string(r->page));
  }
  // Contrast: a plain allocation, one line-spread element per 2 MiB.
  size_t freeB = 0, totalB = 0;
  PROBE_CHECK(cudaMemGetInfo(&freeB, &totalB));
  size_t bytes = std::min<size_t>(size_t(32) << 30, size_t(0.7 * double(freeB))) >> 30 << 30;
  void* raw = nullptr;
  while (bytes >= (size_t(1) << 30) && cudaMalloc(&raw, bytes) != cudaSuccess) {
    cudaGetLastError();
    bytes /= 2;
  }
  if (!raw) throw std::runtime_error("tlb_reach: could not allocate 1 GiB");
  try {
    Series s{"cudamalloc", reinterpret_cast<uint64_t>(raw), size_t(2) << 20, bytes};
    chaseSeries(ctx, out, s, 2, 16384);
  } catch (...) {
    cudaFree(raw);
    throw;
  }
  cudaFree(raw);
  out.derive("cudamalloc_bytes", std::to_string(bytes));
  out.notes.push_back(
      "rises_*: footprints where the latency passes 1.02 x the point before it; "
      "last_flat_pages bounds one TLB level's reach from below, first_penalty_pages from above");
}

}  // namespace probe

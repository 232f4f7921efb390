// shared-staging-no-reuse (S_6): a shared array through which no thread ever
// reads another thread's data. Shared memory costs stores, loads, capacity
// (and so occupancy) and usually barriers; without reuse across threads it
// buys nothing a register would not. An array written and never read is left
// alone: nvcc deletes it with its stores (no .shared array in the -O3 PTX,
// no STS executed on the H100: tests/gpu/corpus/wild_staging.cu
// stageNeverRead), so it costs nothing to report.
#include "rules/AllRules.h"

namespace warplint {

namespace {

const RuleInfo kInfo{
    "shared-staging-no-reuse",
    "Shared array without reuse across threads",
    "S_6",
    "Fang et al., Benchmarking the GPU memory at the warp level (2018), section 7.2 (S_6)",
    "Shared memory bears an overhead: the stores that fill it, the loads that read it back, the "
    "barriers between them, and capacity that limits how many blocks an SM can hold. It pays off "
    "only when threads read data other threads stored. When every element of a shared array is "
    "read only by the thread that wrote it, a register holds the same value without the "
    "overhead. Measured on an H100 (tests/gpu/RESULTS.md): the kernels reported kept their "
    "output with every shared array made thread-private, those with reuse across threads did "
    "not. An array written and never read is not reported: nvcc removes it and its stores "
    "(none executed). The whole block is enumerated (every thread, every loop iteration); "
    "arrays used beyond their subscripts (passed to calls, cast, dynamic extern arrays, elements "
    "bound to references), with an "
    "access the model cannot evaluate or evaluates only where its guards pass, an address that "
    "moves with a value it does not know (a parameter, a load), or a loop cut short are never "
    "reported. When each "
    "thread uses several elements (a per-thread scratch array) the finding is a note: a private "
    "array indexed at run time would live in local memory (L_1), which may be why shared memory "
    "was chosen.",
    "__shared__ float partial[256];\n"
    "partial[threadIdx.x] = in[i] * scale;\n"
    "__syncthreads();\n"
    "out[i] = partial[threadIdx.x] + bias; // each thread reads back its own value",
    "float partial = in[i] * scale;        // a register\n"
    "out[i] = partial + bias;",
    "none: diagnostic only",
};

class SharedStagingNoReuse : public Rule {
public:
  const RuleInfo &info() const override { return kInfo; }

  void check(const KernelInfo &k, const RuleContext &, std::vector<Finding> &out) const override {
    for (const DataObject &o : k.dataObjects) {
      const BlockSharing &s = o.sharing;
      // The facts call an array temporal only when the enumeration covered
      // every thread and iteration of every access and the layout stays
      // within its subscripts; the checks are repeated so that this rule
      // never depends on that silently.
      if (o.space != AddressSpace::Shared || o.dataClass != "temporal" || !s.computed || !s.complete ||
          s.crossThreadReads > 0 || s.unwrittenReads > 0 || s.laneWrites == 0)
        continue;
      // Never read: the compiler deletes the array and its stores (see top).
      if (s.laneReads == 0)
        continue;
      const MemoryAccess *first = nullptr; // the first write
      for (size_t i : o.accesses)
        if (!first && k.accesses[i].isWrite)
          first = &k.accesses[i];
      if (!first)
        continue;
      out.push_back(makeFinding(k, o, *first));
    }
  }

private:
  static Finding makeFinding(const KernelInfo &k, const DataObject &o, const MemoryAccess &at) {
    const BlockSharing &s = o.sharing;
    bool scratch = s.maxWrittenPerThread > 1;
    Finding f;
    f.rule = kInfo.id;
    f.severity = scratch ? "note" : "warning";
    f.loc = o.loc.valid() ? o.loc : at.loc;
    f.kernel = k.name;
    f.message = "shared '" + o.name + "' carries no data between threads: every element is read only by the "
                "thread that wrote it; a register would do without the stores, loads and barriers";
    f.notes.push_back({at.loc, "written here; " + std::to_string(s.laneWrites) + " element writes and " +
                                   std::to_string(s.laneReads) + " reads by the threads of block " + s.block.str() +
                                   (k.blockShapeAssumed ? " (assumed)" : " from the " + k.blockShapeSource) +
                                   ", every loop iteration"});
    if (scratch)
      f.notes.push_back({{}, "each thread uses up to " + std::to_string(s.maxWrittenPerThread) +
                                 " elements of it: as a private array indexed at run time they would live in local "
                                 "memory (L_1); keep it there only if that is why"});
    f.details["array"] = o.name;
    f.details["address_space"] = "shared";
    f.details["block"] = {s.block.x, s.block.y, s.block.z};
    f.details["block_source"] = k.blockShapeSource;
    f.details["block_assumed"] = k.blockShapeAssumed;
    f.details["element_writes"] = s.laneWrites;
    f.details["element_reads"] = s.laneReads;
    f.details["max_elements_per_thread"] = s.maxWrittenPerThread;
    return f;
  }
};

} // namespace

std::unique_ptr<Rule> makeSharedStagingNoReuseRule() { return std::make_unique<SharedStagingNoReuse>(); }

} // namespace warplint

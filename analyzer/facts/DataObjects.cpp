#include "analyzer/facts/DataObjects.h"
#include "analyzer/warp/BlockEnumeration.h"

#include <algorithm>
#include <optional>
#include <sstream>

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>

namespace warplint {

namespace {

// Thread-iterations evaluated per access when a block is enumerated (the
// cost of the analysis grows with them). Global reads: a window of up to 16
// iterations, enough for the per-element averages of affine indices and for
// a 16-deep tile; 256 threads at 16 iterations fit. Shared
// arrays: every iteration up to the evaluator's cap, or no claim.
constexpr int64_t kGlobalLanesPerAccess = 1 << 12;
constexpr int kGlobalIterations = 16;
constexpr int64_t kSharedLanesPerAccess = 1 << 15;
constexpr int64_t kSharedQuickLanesPerAccess = 1 << 11;

std::string fixed(double v) {
  std::ostringstream os;
  os.precision(v < 10 ? 2 : 3);
  os << v;
  return os.str();
}

std::string plural(int64_t n, const std::string &word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

std::string blockWindow(const BlockSharing &s) {
  std::string text = "block " + s.block.str();
  if (!s.window.empty())
    text += ", " + s.window;
  return text;
}

bool allUniform(const MemoryAccess &a) {
  if (a.evals.empty())
    return false;
  for (const WarpAccessEval &e : a.evals)
    if (!e.uniform)
      return false;
  return true;
}

// Sectors over the ideal of the worst evaluation, counted only when at least
// two sectors are wasted: two lanes reading two rows (a broadcast in each
// half-warp) need two sectors in any layout.
double trafficRatio(const WarpAccessEval &e) {
  if (e.uniform || e.idealSectors <= 0 || e.sectors - e.idealSectors < 2)
    return 0;
  return static_cast<double>(e.sectors) / e.idealSectors;
}

// The worst traffic the access can have: with warp-uniform unknowns in its
// address (a symbolic row pitch), over the values tried, as the rule judges it.
double trafficRatio(const MemoryAccess &a) {
  if (a.worstEval < 0)
    return 0;
  double worst = trafficRatio(a.evals[a.worstEval]);
  if (a.uniformSweep)
    for (const UniformSample &s : a.uniformSweep->samples)
      if (s.worst >= 0)
        worst = std::max(worst, trafficRatio(s.evals[s.worst]));
  return worst;
}

// "read 16 times by 16 threads (up to 16) in 8 warp requests", or "read once, by one thread".
std::string sharingText(const BlockSharing &s) {
  double reads = static_cast<double>(s.laneReads) / s.distinctRead;
  double threads = static_cast<double>(s.threadElementReads) / s.distinctRead;
  double requests = static_cast<double>(s.warpRequests) / s.distinctRead;
  if (s.laneReads == s.distinctRead)
    return "each element it reads is read once, by one thread, within a block (" + blockWindow(s) + ")";
  auto times = [](double v, const char *one, const char *many) {
    return v == 1 ? std::string(one) : fixed(v) + " " + many;
  };
  return "each element it reads is read " + times(reads, "once", "times") + " by " +
         times(threads, "one thread", "threads") + " (up to " + std::to_string(s.maxThreadsPerElement) + ") in " +
         times(requests, "one warp request", "warp requests") + " of one block (" + blockWindow(s) + ")";
}

// Open-addressing tables for the tally: one allocation per table, not one
// per element (hadamard's shared tallies spent half their time in malloc
// and free). Addresses are keys; the two largest int64 values are reserved
// (SharingTally gives up on a block that reaches them).
struct AddressKey {
  static int64_t getEmptyKey() { return INT64_MAX; }
  static int64_t getTombstoneKey() { return INT64_MAX - 1; }
  static unsigned getHashValue(int64_t a) {
    uint64_t x = static_cast<uint64_t>(a) * 0x9e3779b97f4a7c15ull;
    return static_cast<unsigned>(x >> 32);
  }
  static bool isEqual(int64_t a, int64_t b) { return a == b; }
};
struct AddressThreadKey {
  using Key = std::pair<int64_t, int>;
  static Key getEmptyKey() { return {INT64_MAX, 0}; }
  static Key getTombstoneKey() { return {INT64_MAX - 1, 0}; }
  static unsigned getHashValue(const Key &k) {
    uint64_t x = (static_cast<uint64_t>(k.first) * 0x9e3779b97f4a7c15ull) ^ (static_cast<uint64_t>(k.second) * 0xc2b2ae3d27d4eb4full);
    return static_cast<unsigned>(x >> 32);
  }
  static bool isEqual(const Key &a, const Key &b) { return a == b; }
};
// Whether some byte of [address, address + width) is a reserved key (or
// would overflow).
constexpr bool reservedSpan(int64_t address, int64_t width) { return address >= INT64_MAX - std::max<int64_t>(width, 1); }

// What enumerating every thread of the block tells about one object's reads
// (and, for arrays the kernel writes, its writes).
class SharingTally {
public:
  SharingTally(const BlockShape &block, const EvaluationOptions &opts, int64_t lanesPerAccess)
      : block_(block), opts_(opts), lanesPerAccess_(lanesPerAccess) {
    out_.block = block;
    out_.complete = true;
  }

  // Writes first: each element's writer (one thread, or several).
  bool addWrite(const ModeledAccess &a) {
    int64_t lanes = 0;
    auto r = enumerateBlock(a.guarded, block_, opts_, lanesPerAccess_, [&](const BlockLane &l) {
      ++lanes;
      ++out_.laneWrites;
      if (reservedSpan(l.address, a.guarded.widthBytes)) {
        unrepresentable_ = true;
        return;
      }
      if (writtenPairs_.insert({l.address, l.thread}).second)
        out_.maxWrittenPerThread = std::max<int64_t>(out_.maxWrittenPerThread, ++writtenByThread_[l.thread]);
      for (int64_t b = 0; b < a.guarded.widthBytes; ++b) {
        auto [it, fresh] = writer_.try_emplace(l.address + b, l.thread);
        if (!fresh && it->second != l.thread)
          it->second = kManyWriters;
      }
    });
    return !unrepresentable_ && seenAsEvaluated(a, lanes) && note(r);
  }

  bool addRead(const ModeledAccess &a) {
    int64_t lastStep = -1, lastWarp = -1;
    int64_t lanes = 0;
    auto r = enumerateBlock(a.guarded, block_, opts_, lanesPerAccess_, [&](const BlockLane &l) {
      ++lanes;
      int64_t warp = l.thread / 32;
      if (l.step != lastStep || warp != lastWarp) {
        ++request_;
        lastStep = l.step;
        lastWarp = warp;
      }
      ++out_.laneReads;
      if (reservedSpan(l.address, a.guarded.widthBytes)) {
        unrepresentable_ = true;
        return;
      }
      Element &e = elements_[l.address];
      if (e.reads++ == 0) {
        e.width = a.guarded.widthBytes;
        e.firstStep = l.step;
      }
      e.firstStep = std::min(e.firstStep, l.step);
      if (e.lastRequest != request_) {
        e.lastRequest = request_;
        ++e.requests;
      }
      if (pairs_.insert({l.address, l.thread}).second)
        ++e.threads;
      if (tracksWrites_)
        checkWriter(l, a.guarded.widthBytes);
    });
    return !unrepresentable_ && seenAsEvaluated(a, lanes) && note(r);
  }

  void tracksWrites() { tracksWrites_ = true; }

  BlockSharing finish() {
    out_.computed = true;
    out_.distinctRead = static_cast<int64_t>(elements_.size());
    out_.threadElementReads = static_cast<int64_t>(pairs_.size());
    out_.tileSteps = std::min<int64_t>(std::max<int64_t>(out_.steps, 1), std::max<int64_t>(block_.x, 1));
    out_.distinctWritten = static_cast<int64_t>(writer_.size());
    for (auto &[addr, e] : elements_) {
      out_.warpRequests += e.requests;
      out_.maxThreadsPerElement = std::max<int64_t>(out_.maxThreadsPerElement, e.threads);
      out_.footprintBytes += e.width;
      if (e.firstStep < out_.tileSteps)
        out_.tileBytes += e.width;
    }
    return out_;
  }

private:
  static constexpr int kManyWriters = -1;
  struct Element {
    int64_t reads = 0, requests = 0, lastRequest = -1, firstStep = 0, width = 0;
    int threads = 0;
  };

  // An access that a retry evaluated where its guards pass (a block, a
  // parameter value the enumeration's defaults do not give) has threads the
  // enumeration does not see: the counts would be partial.
  static bool seenAsEvaluated(const ModeledAccess &a, int64_t lanes) {
    return lanes > 0 || a.fact.evals.empty();
  }

  bool note(const BlockEnumeration &r) {
    if (!r.evaluated)
      return false;
    out_.complete = out_.complete && r.complete;
    out_.steps = std::max(out_.steps, r.steps);
    if (!r.window.empty() && out_.window.find(r.window) == std::string::npos)
      out_.window += (out_.window.empty() ? "" : "; ") + r.window;
    return true;
  }

  void checkWriter(const BlockLane &l, int64_t width) {
    bool unwritten = false, other = false;
    for (int64_t b = 0; b < width; ++b) {
      auto it = writer_.find(l.address + b);
      if (it == writer_.end())
        unwritten = true;
      else if (it->second != l.thread)
        other = true;
    }
    if (other)
      ++out_.crossThreadReads;
    else if (unwritten)
      ++out_.unwrittenReads;
  }

  BlockShape block_;
  const EvaluationOptions &opts_;
  int64_t lanesPerAccess_;
  BlockSharing out_;
  bool tracksWrites_ = false, unrepresentable_ = false;
  int64_t request_ = 0;
  llvm::DenseMap<int64_t, Element, AddressKey> elements_;
  llvm::DenseSet<std::pair<int64_t, int>, AddressThreadKey> pairs_; // (element, thread) read
  llvm::DenseMap<int64_t, int, AddressKey> writer_;                 // byte -> thread, or kManyWriters
  llvm::DenseSet<std::pair<int64_t, int>, AddressThreadKey> writtenPairs_;
  llvm::DenseMap<int, int64_t> writtenByThread_;
};

void countAccesses(const ModeledKernel &k, DataObject &o) {
  for (size_t i : o.accesses) {
    const MemoryAccess &a = k.accesses[i].fact;
    o.reads += a.isRead ? 1 : 0;
    o.writes += a.isWrite ? 1 : 0;
    if (!a.evals.empty())
      ++o.evaluated;
    if (a.isRead && allUniform(a))
      ++o.uniformReads;
    o.worstTrafficRatio = std::max(o.worstTrafficRatio, trafficRatio(a));
  }
}

// Why some accesses of the object were not evaluated, in one sentence.
std::string unevaluatedEvidence(const ModeledKernel &k, const DataObject &o) {
  int missing = 0;
  std::string firstClass;
  for (size_t i : o.accesses) {
    const MemoryAccess &a = k.accesses[i].fact;
    if (!a.evals.empty() || a.unevaluatedClass == "not executed")
      continue;
    ++missing;
    if (firstClass.empty())
      firstClass = a.unevaluatedClass.empty() ? "not evaluated" : a.unevaluatedClass;
  }
  if (missing == 0)
    return "";
  size_t total = o.accesses.size();
  return std::to_string(missing) + " of " + std::to_string(total) + (total == 1 ? " access" : " accesses") +
         " not evaluated (" + firstClass + ")";
}

void enumerateGlobal(ModeledKernel &k, DataObject &o, const EvaluationOptions &opts) {
  // Data the kernel also writes is not a staging candidate; its class comes
  // from the warp evaluations alone, and the enumeration's cost is saved.
  if (k.info.blockShapes.empty() || !o.onlyRead)
    return;
  EvaluationOptions window = opts;
  window.maxIterationsPerLoop = std::min(opts.maxIterationsPerLoop, kGlobalIterations);
  SharingTally tally(k.info.blockShapes.front(), window, kGlobalLanesPerAccess);
  bool any = false;
  for (size_t i : o.accesses) {
    const MemoryAccess &f = k.accesses[i].fact;
    if (!f.isRead)
      continue;
    if (f.evals.empty())
      return; // a read the model cannot evaluate: counts would be partial
    if (allUniform(f)) {
      ++o.sharing.uniformReadsSkipped;
      continue;
    }
    if (!tally.addRead(k.accesses[i]))
      return;
    any = true;
  }
  if (!any)
    return;
  int skipped = o.sharing.uniformReadsSkipped;
  o.sharing = tally.finish();
  o.sharing.uniformReadsSkipped = skipped;
}

// One block shape's tally of a shared array's writes and reads.
std::optional<BlockSharing> tallyShared(const ModeledKernel &k, const DataObject &o, const BlockShape &shape,
                                        const EvaluationOptions &opts, int64_t lanesPerAccess) {
  // An address that moves with a value the model does not know (a scalar
  // parameter, a warp-uniform load) is enumerated at one sample value, and a
  // lane the sample puts outside the array is skipped as infeasible: the
  // tally cannot show that no thread reads another's element for every
  // value (s[t] written, s[b + t] read is own-element only at b = 0).
  for (size_t i : o.accesses) {
    const ExprRef &addr = k.accesses[i].guarded.byteOffset;
    if (addr && (addr->dependsOn(SymbolKind::Param) || addr->dependsOn(SymbolKind::Uniform)))
      return std::nullopt;
  }
  SharingTally tally(shape, opts, lanesPerAccess);
  tally.tracksWrites();
  for (size_t i : o.accesses)
    if (k.accesses[i].fact.isWrite && !tally.addWrite(k.accesses[i]))
      return std::nullopt;
  for (size_t i : o.accesses)
    if (k.accesses[i].fact.isRead && !tally.addRead(k.accesses[i]))
      return std::nullopt;
  return tally.finish();
}

// Every launch shape is enumerated: a thread-to-element mapping private
// under one shape need not be under another. The first shape's tally is
// kept unless another shows reads across threads or is less complete.
void enumerateShared(ModeledKernel &k, DataObject &o, const EvaluationOptions &opts) {
  for (size_t n = 0; n < k.info.blockShapes.size(); ++n) {
    // Most shared arrays pass data between threads, which a small window
    // shows; the whole enumeration is needed only to claim they do not.
    auto s = tallyShared(k, o, k.info.blockShapes[n], opts, kSharedQuickLanesPerAccess);
    if (s && s->crossThreadReads == 0)
      s = tallyShared(k, o, k.info.blockShapes[n], opts, kSharedLanesPerAccess);
    if (!s) {
      o.sharing = BlockSharing{}; // a shape with an access that cannot be enumerated: no claim
      return;
    }
    if (n == 0 || s->crossThreadReads > 0 || s->unwrittenReads > 0 || !s->complete) {
      bool wasComplete = n == 0 || o.sharing.complete;
      o.sharing = *s;
      o.sharing.complete = s->complete && wasComplete;
    }
    if (o.sharing.crossThreadReads > 0)
      return;
  }
}

void classifyGlobal(const ModeledKernel &k, DataObject &o) {
  const BlockSharing &s = o.sharing;
  std::string missing = unevaluatedEvidence(k, o);
  if (!missing.empty())
    o.evidence.push_back(missing);
  if (o.onlyRead)
    o.evidence.push_back("only read in this kernel, through every alias");
  if (o.evaluated == 0) {
    o.dataClass = "unclassified";
    if (o.accesses.empty())
      o.evidence.push_back("no access the analyzer could see");
    return;
  }
  bool strided = o.worstTrafficRatio >= 2;
  if (strided)
    o.evidence.push_back("its worst warp request touches " + fixed(o.worstTrafficRatio) +
                         "x the sectors its bytes need");
  if (s.computed && s.distinctRead > 0) {
    double threads = static_cast<double>(s.threadElementReads) / s.distinctRead;
    double requests = static_cast<double>(s.warpRequests) / s.distinctRead;
    double perThread = static_cast<double>(s.laneReads) / s.threadElementReads;
    o.evidence.push_back(sharingText(s));
    if (requests >= 2 && threads >= 2) {
      o.dataClass = "reused";
      return;
    }
    if (strided) {
      o.dataClass = "strided";
      return;
    }
    if (perThread >= 2) {
      o.dataClass = "temporal";
      o.evidence.push_back("each thread reads its own elements " + fixed(perThread) + " times");
      return;
    }
    if (threads >= 2 && o.onlyRead && o.writes == 0) {
      o.dataClass = "read-only";
      o.evidence.push_back("the threads that share an element read it in one warp request (a broadcast)");
      return;
    }
  } else if (strided) {
    o.dataClass = "strided";
    return;
  }
  if (o.reads > 0 && o.uniformReads == o.reads && o.writes == 0) {
    o.dataClass = "read-only";
    o.evidence.push_back("every read is warp-uniform: all lanes read one element");
    return;
  }
  o.dataClass = "streaming";
  if (o.writes > 0 && o.reads == 0)
    o.evidence.push_back("only written, in warp requests of at most twice the ideal sectors");
  else
    o.evidence.push_back("its evaluated accesses touch at most twice the ideal sectors");
}

void classifyShared(const ModeledKernel &k, const ArrayInfo *array, DataObject &o) {
  const BlockSharing &s = o.sharing;
  std::string missing = unevaluatedEvidence(k, o);
  if (!missing.empty())
    o.evidence.push_back(missing);
  if (array && !array->layoutEscapes.empty())
    o.evidence.push_back("used beyond its subscripts: " + array->layoutEscapes.front());
  if (s.computed) {
    std::string counts = plural(s.laneReads, "element read") + " and " + plural(s.laneWrites, "element write") +
                         " by the threads of one block (" + blockWindow(s) + ")";
    o.evidence.push_back(counts);
  }
  if (s.computed && s.crossThreadReads > 0) {
    o.dataClass = "reused";
    o.evidence.push_back(plural(s.crossThreadReads, "read") + " of an element another thread wrote");
    return;
  }
  bool certain = s.computed && s.complete && missing.empty() && array && array->layoutEscapes.empty() &&
                 !array->isExtern;
  if (certain && s.unwrittenReads == 0) {
    o.dataClass = "temporal";
    o.evidence.push_back(s.laneReads == 0 ? "never read after it is written"
                                          : "every element is read only by the thread that wrote it");
    return;
  }
  o.dataClass = "unclassified";
  if (s.computed && s.unwrittenReads > 0)
    o.evidence.push_back(plural(s.unwrittenReads, "read") + " of elements no thread of the block was seen writing");
  else if (s.computed && !s.complete)
    o.evidence.push_back("not every loop iteration was enumerated");
}

} // namespace

void describeDataObjects(ModeledKernel &k, const EvaluationOptions &opts) {
  KernelInfo &info = k.info;
  std::vector<DataObject> objects;
  auto object = [&](const std::string &name, AddressSpace space) -> DataObject * {
    for (DataObject &o : objects)
      if (o.name == name && o.space == space)
        return &o;
    return nullptr;
  };
  for (const ParamInfo &p : info.params) {
    if (!p.isPointer)
      continue;
    DataObject o;
    o.name = p.name;
    o.space = AddressSpace::Global;
    o.kind = "pointer parameter";
    o.loc = p.loc;
    o.elementSize = p.elementSize;
    o.onlyRead = p.onlyRead;
    objects.push_back(o);
  }
  for (const ArrayInfo &a : info.arrays) {
    DataObject o;
    o.name = a.name;
    o.space = a.space;
    o.kind = a.space == AddressSpace::Shared ? "shared array" : "private array";
    o.loc = a.loc;
    o.elementSize = a.elementSize;
    objects.push_back(o);
  }
  for (const std::string &c : info.constantSymbols) {
    DataObject o;
    o.name = c;
    o.space = AddressSpace::Constant;
    o.kind = "constant";
    objects.push_back(o);
  }
  // Indices are those KernelInfo::accesses will have: the modeled accesses' order.
  for (size_t i = 0; i < k.accesses.size(); ++i) {
    const MemoryAccess &a = k.accesses[i].fact;
    AddressSpace space = a.space == AddressSpace::Generic ? AddressSpace::Global : a.space;
    DataObject *o = object(a.base, space);
    if (!o) {
      DataObject fresh;
      fresh.name = a.base;
      fresh.space = space;
      fresh.kind = space == AddressSpace::Global ? "global memory" : addressSpaceName(space);
      fresh.loc = a.loc;
      fresh.elementSize = a.elementSize;
      objects.push_back(fresh);
      o = &objects.back();
    }
    if (!o->loc.valid())
      o->loc = a.loc;
    o->accesses.push_back(i);
  }
  for (DataObject &o : objects) {
    countAccesses(k, o);
    if (o.kind != "pointer parameter")
      o.onlyRead = o.writes == 0 && o.reads > 0;
    switch (o.space) {
    case AddressSpace::Global:
      enumerateGlobal(k, o, opts);
      classifyGlobal(k, o);
      break;
    case AddressSpace::Shared: {
      const ArrayInfo *array = nullptr;
      for (const ArrayInfo &a : info.arrays)
        if (a.name == o.name && a.space == AddressSpace::Shared)
          array = &a;
      enumerateShared(k, o, opts);
      classifyShared(k, array, o);
      break;
    }
    case AddressSpace::Constant:
      o.dataClass = "read-only";
      o.evidence.push_back("__constant__: read-only for the kernel; " + std::to_string(o.uniformReads) + " of " +
                           plural(o.reads, "read") + " warp-uniform (a broadcast)");
      break;
    case AddressSpace::Local:
    case AddressSpace::Generic:
      o.dataClass = "temporal";
      o.evidence.push_back("thread-private: each thread's copy lives in registers or local memory");
      break;
    }
  }
  info.dataObjects = std::move(objects);
}

} // namespace warplint

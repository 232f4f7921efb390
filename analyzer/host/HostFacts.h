// Facts about a unit's host code (issue 20): where each host buffer that
// reaches the CUDA runtime was allocated, every copy between host and device
// with its direction, size, stream and enclosing loops, every kernel launch
// with its stream and the buffers it is passed, and, for managed memory, the
// host touches, prefetches and advice in source order. Facts only: the
// rules in rules/host/ judge them. An origin the analyzer cannot trace is
// Unknown with the reason, never a guess.
#pragma once

#include "analyzer/results/AnalysisResults.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
}

namespace warplint {

enum class MemoryOrigin { Pageable, Pinned, Managed, Device, Unknown };
const char *memoryOriginName(MemoryOrigin o); // "pageable", "pinned", "managed", "device", "unknown"

// Where the memory an expression points to comes from (HostBuffers.cpp).
struct BufferOrigin {
  MemoryOrigin kind = MemoryOrigin::Unknown;
  // "malloc", "calloc", "new[]", "std::vector", "stack array", "static array",
  // "scalar", "cudaMallocHost", "cudaHostAlloc", "cudaHostRegister",
  // "cudaMallocManaged", "__managed__", "cudaMalloc", ...
  std::string allocator;
  std::string variable;       // the variable or member the trace ended at ("h_a", "s.rows")
  SourceLocation allocLoc;    // the allocation (or the declaration of an array)
  std::string unknownReason;  // when kind == Unknown
  bool scalar = false;        // the address of one scalar object (`&count`), not a buffer
  std::optional<int64_t> allocBytes; // the allocation's size when constant
  // Canonical identity of the traced variable or member ("var:12:7" / "field:S::rows"), for
  // matching uses of one buffer; empty when none.
  std::string key;
};

// A loop around a copy or a launch, outermost first.
struct HostLoop {
  SourceLocation loc;
  std::string kind;           // "for", "while", "do", "range-for"
  std::string inductionVar;   // for loops with one counter
  std::optional<int64_t> tripCount; // when constant
  unsigned endLine = 0;       // the loop's last line (its closing brace or last statement)
  // The body calls cudaSetDevice (cuCtxSetCurrent) with a value the loop changes: one iteration
  // per GPU, each copy's piece on its own device.
  bool perDevice = false;
};

enum class CopyDirection { HostToDevice, DeviceToHost, DeviceToDevice, HostToHost, Unknown };
const char *copyDirectionName(CopyDirection d); // "h2d", "d2h", "d2d", "h2h", "unknown"

struct StreamUse {
  std::string text;           // as written; "" when omitted
  bool isDefault = true;      // omitted, 0, nullptr, cudaStreamLegacy, cudaStreamPerThread
  bool variesInLoop = false;  // depends on a variable the enclosing loop changes (streams[i])
};

struct HostTransfer {
  SourceLocation loc;
  std::string api;            // "cudaMemcpy", "cudaMemcpyAsync", "cudaMemcpy2D", "cuMemcpyHtoD", ...
  std::string function;       // the host function it is written in
  bool async = false;
  bool argsParsed = true;     // false when an argument did not parse (then nothing else is known)
  CopyDirection direction = CopyDirection::Unknown;
  std::string kindText;       // the cudaMemcpyKind argument as written
  std::string dstText, srcText;
  BufferOrigin dst, src;
  // The host side (src for h2d, dst for d2h) and the device side; null
  // otherwise (indices: 0 = dst, 1 = src, -1 = none).
  int hostOperand = -1;
  std::string sizeText;       // bytes (for 2D: width in bytes)
  std::optional<int64_t> sizeBytes;
  std::string heightText;     // 2D copies: rows
  std::optional<int64_t> height;
  bool twoD = false, threeD = false, symbol = false;
  StreamUse stream;
  std::vector<HostLoop> loops;
  // Whether each operand's address depends on a variable the innermost
  // enclosing loop changes (a different row, node or member each iteration).
  bool dstVariesInLoop = false, srcVariesInLoop = false;
  // The byte count depends on the iteration too (`parts[m].count * sizeof(T)`): pieces of different sizes.
  bool sizeVariesInLoop = false;
  // The host operand is a local the loop body declares (`&node`): new contents each iteration.
  bool hostFreshInLoop = false;
  // A varying operand is a piece of a buffer declared outside that loop (a
  // row, node or member of one structure), not a new object each iteration.
  bool outerPiece = false;
  // The operand indexes an element's member (`h[i].next`, `&nodes[i]->v`): a node or struct copy.
  bool memberOperand = false;
  // The statement list the copy runs in on every path through it: "file:line:col" of its innermost
  // braced block (a macro's own braces and `do { } while (0)` do not count). Empty when the copy is
  // a branch of an if without braces, in a switch, on the right of && / || or ?:, or the unbraced
  // body of a loop: copies with one block run one after another whenever the block runs.
  std::string block;
  // How many cudaSetDevice / cuCtxSetCurrent calls the unit's host code made before the copy (in
  // source order): two copies of one function with different counts may be on different GPUs.
  unsigned deviceSelections = 0;
  size_t order = 0;           // position among the function's host events
};

struct HostLaunch {
  SourceLocation loc;
  std::string kernel;         // callee name ("f()" for a helper that launches one)
  bool viaHelper = false;     // a call to a visible host function whose body launches a kernel
  // A call that may start GPU work the unit cannot see: a function of the
  // program whose body is in another file (`insert_hashtable(...)` declared
  // in a header), a visible helper that makes such a call, or a call through
  // a function pointer. Counted as a launch where a launch makes a rule
  // keep quiet; never one whose buffers are known to reach a kernel.
  bool bodyUnseen = false;
  std::string function;
  StreamUse stream;
  std::vector<HostLoop> loops;
  std::vector<std::string> argTexts;
  std::vector<BufferOrigin> argOrigins; // per argument (Unknown for scalars)
  size_t order = 0;
};

// Managed memory, one buffer's events in one host function, in source order.
// The page managed memory migrates by on a fault (4 KiB): a touch of at
// most this many bytes moves a page or two, where a prefetch would move the
// whole buffer.
inline constexpr int64_t kPageBytes = 4096;

struct ManagedEvent {
  // Escape: the buffer is handed to code the unit cannot follow (a library
  // descriptor such as cusparseCreateDnVec, a function whose body is
  // elsewhere): what happens to its pages from there on is unknown.
  enum Kind { HostTouch, Prefetch, Advise, Launch, Sync, Escape } kind = HostTouch;
  SourceLocation loc;
  std::string bufferKey;      // BufferOrigin::key of the managed buffer (empty for Sync)
  std::string variable;
  std::string function;
  std::string text;           // what was written: "a[i] = ...", "cudaMemPrefetchAsync(a, ...)", kernel name
  std::string prefetchTarget; // Prefetch: the destination device argument as written
  bool toHost = false;        // Prefetch to cudaCpuDeviceId
  // HostTouch: the most bytes of the buffer the touch reaches, where the
  // source bounds it: one element at a constant place (`m[0]`, `*m`: the
  // element's size) or the span a constant loop's counter indexes (`m[i]`
  // for i in [0, 4): 16 bytes; written only up to a page). nullopt: it may
  // reach any part of the buffer. Of several touches of a buffer on one
  // line, the event keeps one that reaches past a page where there is one.
  std::optional<int64_t> touchBytesAtMost;
  bool inLoop = false;
  size_t order = 0;
};

struct HostFacts {
  std::vector<HostTransfer> transfers;
  std::vector<HostLaunch> launches;
  std::vector<ManagedEvent> managed;
  std::vector<BufferOrigin> managedBuffers; // each managed allocation seen
};

// Walks every host function body of the unit's own files.
HostFacts collectHostFacts(clang::ASTContext &ctx);

} // namespace warplint

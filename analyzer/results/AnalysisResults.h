// Facts the analyzer extracts from a translation unit: the kernel model and the
// warp-level evaluation of every memory access. No judgments live here; rules
// turn these facts into findings.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

struct SourceLocation {
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
  bool valid() const { return line != 0; }
};

// A byte range of a file as written (macro expansions undone), for rewrites.
// `file` is absolute; an empty `file` means the text is not written in one
// place of a file (it comes from inside a macro, say) and cannot be edited.
struct SourceSpan {
  std::string file;
  unsigned offset = 0;
  unsigned length = 0;
  std::string text;
  bool valid() const { return !file.empty(); }
};

enum class AddressSpace { Global, Shared, Constant, Local, Generic };
const char *addressSpaceName(AddressSpace s);

struct BlockShape {
  int64_t x = 1, y = 1, z = 1;
  int64_t threads() const { return x * y * z; }
  bool operator==(const BlockShape &o) const { return x == o.x && y == o.y && z == o.z; }
  std::string str() const;
};

struct ParamInfo {
  std::string name;
  std::string type;        // as written, e.g. "const float *__restrict"
  bool isPointer = false;
  bool pointeeConst = false;
  bool isRestrict = false;
  std::string elementType; // pointee type for pointers, else the type
  int64_t elementSize = 0; // bytes; 0 when unknown (dependent or incomplete)
  // Pointers only: whether every use of the pointee, through every alias,
  // cast and call, only reads it (analyzer/ParamUses.cpp), and if not, why.
  bool onlyRead = false;
  bool readAtAll = false;     // at least one read of the pointee was seen
  std::string notReadOnlyReason;
  std::string constFixBlocker; // why `const` on it alone would not compile (an alias declared T *, ...)
  SourceSpan constInsertAt;    // empty span before the pointee type, where `const ` goes
  SourceSpan restrictInsertAt; // empty span just after the `*`
  SourceLocation loc;
};

struct ArrayInfo {
  std::string name;
  AddressSpace space = AddressSpace::Shared; // Shared, Constant or Local (thread-private)
  std::string elementType;
  int64_t elementSize = 0;
  std::vector<int64_t> dims; // outermost first; 0 for an unknown extent
  bool isExtern = false;     // extern __shared__ T a[];
  SourceLocation loc;
  // Shared arrays: each dimension's expression where the declaration writes
  // it (invalid span when it is not written there, e.g. inside a macro).
  std::vector<SourceSpan> dimSpans;
  // Why code outside the subscripts `a[i][j]` can observe the layout (address
  // passed on, pointer arithmetic, casts, sizeof, async copies, an index that
  // leaves its row); padding such an array would change what that code sees.
  std::vector<std::string> layoutEscapes;
  // For conflicted multi-dimensional shared arrays: every access re-evaluated
  // with the innermost dimension padded by `padElements` (0 = as written).
  struct PaddingTrial {
    int64_t padElements = 0;
    int worstDegree = 1;      // worst bank-conflict degree over all accesses
    int excessWavefronts = 0; // sum over accesses of wavefronts above the ideal
  };
  std::vector<PaddingTrial> paddingTrials;
};

struct LoopInfo {
  std::string inductionVar; // empty when no single induction variable was found
  std::string init, bound, step; // source text, for reports
  std::optional<int64_t> tripCount; // when constant
  SourceLocation loc;
};

struct LaunchSite {
  std::string kernel;
  SourceLocation loc;
  std::optional<BlockShape> block; // set when every component evaluated
  std::optional<BlockShape> grid;
  std::string blockText, gridText, sharedBytesText;
  // Per kernel argument: the host variable it is when that variable holds its
  // own allocation (written only by one cudaMalloc in the launching function),
  // as "name@line"; empty when not shown.
  std::vector<std::string> argAllocations;
  SourceSpan gridSpan;        // the grid argument as written (for --fix-launch)
  bool gridIsInteger = false; // a plain integer grid (1-D), not a dim3
};

// One lane-level evaluation of an access for one block shape and one binding
// of the warp-uniform symbols (loop iteration, warp index within the block).
struct WarpAccessEval {
  BlockShape block;
  int warpInBlock = 0;       // which warp of the block was instantiated
  std::string iteration;     // e.g. "s = 16" for a loop-dependent worst case; empty if none
  int activeLanes = 32;
  bool uniform = false;      // every active lane touches the same address
  // Shared memory: bank-conflict degree (max distinct 4-byte words that fall in
  // one bank within one hardware phase) and wavefronts against the ideal.
  int bankConflictDegree = 1;
  int wavefronts = 1;
  int idealWavefronts = 1;
  int conflictBank = -1;              // the bank with the worst conflict
  std::vector<int> conflictLanes;     // the lanes that hit it with distinct words
  // Global memory: 32-byte sectors touched by one warp request against the
  // fewest sectors that could hold the same bytes.
  int sectors = 0;
  int idealSectors = 0;
  int64_t laneStrideBytes = 0;        // address difference between lanes 0 and 1 (0 if not affine)
  bool laneStrideKnown = false;
};

struct MemoryAccess {
  SourceLocation loc;
  std::string kernel;
  std::string base;         // array or pointer name
  std::string text;         // the access expression as written
  AddressSpace space = AddressSpace::Generic;
  bool isWrite = false;
  bool isRead = true;
  int64_t elementSize = 0;  // size of the indexed element type
  int64_t widthBytes = 0;   // bytes moved by the access (element or vector member)
  std::string indexText;    // the linearized index, symbolic (e.g. "32*tx + ty")
  bool indexKnown = false;  // the index was expressed over known symbols
  std::vector<SourceLocation> callChain; // call sites from the kernel down, when inlined from a __device__ function
  std::vector<std::string> assumptions; // e.g. "n treated as large (1024)"
  std::vector<WarpAccessEval> evals;    // one per block shape / iteration evaluated
  // Worst evaluation by the measure relevant to the address space; -1 if none.
  int worstEval = -1;
  // When `evals` is empty for a shared or global access: why no warp could be
  // evaluated, as a short class ("data-dependent index", "unknown non-uniform
  // value", ...) and the detail (which value, which call). Every unevaluated
  // access has one, so that reach reports leave none unexplained.
  std::string unevaluatedClass;
  std::string unevaluatedReason;
};

// Four consecutive statements in which each thread reads and/or writes bytes
// 4*E+0 .. 4*E+3 of byte-typed pointer parameters one byte at a time, or a
// loop `for (k = 0; k < W; ++k)` over bytes W*E+k, W = 4 or 16
// (analyzer/BytePacking.cpp): what a char4/uchar4/uint4 packing would edit.
struct BytePackWindow {
  struct Group {
    std::string pointer;        // the kernel parameter
    size_t paramIndex = 0;
    std::string elementType;    // "unsigned char", "char", ...
    bool reads = false, writes = false;
    std::vector<SourceSpan> readSpans, writeSpans; // p[W*E+k] (W = width); statements: k = 0..W-1 in order
    SourceLocation loc;         // first access
  };
  std::vector<Group> groups;
  std::string vectorIndex;      // E as written
  SourceSpan before;            // empty span at the first statement
  SourceSpan after;             // empty span after the last statement (past its ';')
  std::string indent;           // the first statement's indentation
  std::string unsafeReason;     // why the statements cannot be packed as they are ("" when they can)
  int64_t width = 4;            // bytes a thread moves per pointer: 4 or 16
  std::string loopVar;          // `for (int k = 0; k < width; ++k)` form: k; empty for `width` statements
};

// A kernel whose lanes each move one byte: `int i = blockIdx.x * blockDim.x +
// threadIdx.x; if (i < N) out[i] = E;` and nothing else, with E reading
// byte pointers at [i] (analyzer/ByteLaneShape.cpp). What --fix-launch needs
// to give each thread 4 bytes and a scalar tail.
struct ByteLaneKernel {
  std::string indexVar;          // i
  std::string boundText;         // N as written
  std::string outPointer;        // the byte pointer written at [i]
  std::string valueText;         // E as written
  // Places in valueText to substitute: a read `P[i]` (pointer = P) or
  // another use of i (pointer empty).
  struct Use {
    unsigned offset = 0, length = 0;
    std::string pointer;
  };
  std::vector<Use> uses;
  std::vector<std::string> pointers; // byte pointers accessed (written one first), with their element types
  std::vector<std::string> elementTypes;
  std::vector<size_t> paramIndices;
  SourceSpan statement;          // the whole `if (i < N) ...;` statement
  std::string indent;            // its indentation
  std::string unsafeReason;      // "" when the shape matches exactly
};

// How the threads of one block share the elements of one array
// (analyzer/facts/DataObjects.cpp): every thread of the block (block index 0)
// is enumerated at every iteration of the loops its addresses depend on, up
// to a bounded window. Counts are over that window. Facts only.
struct BlockSharing {
  bool computed = false;         // at least one access of the array was enumerated
  BlockShape block;
  bool complete = false;         // every thread at every iteration of every loop (no window)
  std::string window;            // what was enumerated when not complete, e.g. "the first 64 iterations of k"
  int64_t steps = 0;             // iteration combinations enumerated (1 without loops)
  int64_t laneReads = 0;         // element reads by the threads of the block
  int64_t laneWrites = 0;
  int64_t distinctRead = 0;      // distinct elements read
  int64_t threadElementReads = 0; // distinct (thread, element) pairs read
  int64_t warpRequests = 0;      // sum over elements read of the warp requests that read it
  int64_t maxThreadsPerElement = 0;
  int64_t footprintBytes = 0;    // distinct bytes the block reads in the window
  int64_t tileSteps = 0;         // a tile: the first `tileSteps` steps...
  int64_t tileBytes = 0;         // ...read this many distinct bytes across the block
  // Written arrays (shared): reads of an element by a thread that is not its
  // only writer, and reads of elements no enumerated thread wrote.
  int64_t crossThreadReads = 0;
  int64_t unwrittenReads = 0;
  int64_t distinctWritten = 0;
  int64_t maxWrittenPerThread = 0; // distinct elements (write addresses) one thread writes
  // Reads counted come only from accesses that are not warp-uniform (a
  // broadcast of one element is one request whatever it holds).
  int uniformReadsSkipped = 0;
};

// One data object of a kernel (seed 000 Fig. 14: analyze the accesses,
// classify the data): a pointer parameter, a shared, constant or private
// array, with the class its accesses show and the evidence for it.
struct DataObject {
  std::string name;
  AddressSpace space = AddressSpace::Global;
  std::string kind;              // "pointer parameter", "shared array", "constant", "private array"
  SourceLocation loc;            // declaration, when known
  int64_t elementSize = 0;
  // "reused", "temporal", "strided", "streaming", "read-only" or "unclassified".
  std::string dataClass;
  std::vector<std::string> evidence; // why, one short sentence each
  std::vector<size_t> accesses;  // indices into KernelInfo::accesses
  int reads = 0, writes = 0, evaluated = 0, uniformReads = 0;
  bool onlyRead = false;         // no write, through any alias (parameters: ParamInfo::onlyRead)
  double worstTrafficRatio = 0;  // global: sectors over ideal of the worst evaluated access
  BlockSharing sharing;
};

struct KernelInfo {
  std::string name;
  SourceLocation loc;
  bool isGlobal = false;     // __global__ (else __device__)
  bool isTemplatePattern = false;
  std::string templateArgs;  // for instantiations, e.g. "<float, 32>"
  std::vector<ParamInfo> params;
  std::vector<ArrayInfo> arrays;       // shared, and thread-private local arrays
  std::vector<std::string> constantSymbols; // __constant__ variables it reads
  std::vector<LoopInfo> loops;
  std::vector<MemoryAccess> accesses;
  std::optional<int64_t> launchBoundsMaxThreads;
  std::vector<BlockShape> blockShapes; // shapes the accesses were evaluated under
  bool blockShapeAssumed = false;      // no launch site with a constant shape
  std::string blockShapeSource;        // "launch at f.cu:12" or "default (no launch site)"
  // Where the shapes came from, one word for reports (bench/reach.py):
  // "launch" (a launch site with constant shapes), "default" (none known),
  // and the indirect routes as the analyzer learns them.
  std::string blockShapeOrigin;
  std::vector<LaunchSite> launchSites; // the launches of this kernel visible in the unit
  std::vector<BytePackWindow> bytePackWindows;
  std::optional<ByteLaneKernel> byteLane; // set when the body has the one-byte-a-lane shape
  std::vector<DataObject> dataObjects;   // analyzer/facts/DataObjects.cpp
};

struct FrontendMessage {
  SourceLocation loc;
  std::string level;   // "error", "warning", "note"
  std::string message;
};

struct TranslationUnitResult {
  std::string file;
  bool parsed = false;                 // an AST was produced
  std::string fatalError;              // why not, when !parsed
  std::vector<FrontendMessage> compileErrors; // errors while parsing (kernels may still be analyzed)
  std::vector<KernelInfo> kernels;
  std::vector<LaunchSite> launches;
  // Content hash (analyzer/results/Fix.h contentHash) of each user file the parse read,
  // by absolute path: fixes are applied only to unchanged files.
  std::vector<std::pair<std::string, std::string>> fileHashes;
};

struct AnalysisResults {
  std::vector<TranslationUnitResult> units;
};

} // namespace warplint

// Facts the analyzer extracts from a translation unit: the kernel model and the
// warp-level evaluation of every memory access. No judgments live here; rules
// turn these facts into findings.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

struct PrivateMemoryFacts; // analyzer/results/PrivateMemory.h
struct KernelWork;         // analyzer/results/KernelWork.h
struct WarpExchangeFacts;  // analyzer/results/WarpExchange.h
struct HostFacts;          // analyzer/host/HostFacts.h

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
std::string shapeList(const std::vector<BlockShape> &shapes); // "(128, 1, 1), (256, 1, 1)"

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
  // Where `const ` goes in every other declaration of the function (forward
  // declarations, headers): a signature edit must reach all of them, or the
  // definition becomes a different overload (analyzer/facts/Redeclarations.cpp).
  std::vector<SourceSpan> redeclConstInsertAt;
  // Why an edit of this parameter's type cannot reach every place that spells
  // the signature (an explicit instantiation, a typed function pointer, a
  // declaration in a macro or a system header); empty when it can.
  std::string signatureFixBlocker;
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
    // The accesses still conflicted under this layout: index into
    // KernelInfo::accesses and the worst degree over the evaluated shapes.
    struct Residual {
      size_t access = 0;
      int degree = 1;
    };
    std::vector<Residual> residuals;
  };
  std::vector<PaddingTrial> paddingTrials;
  // The same accesses with the innermost index c of a[..][r][c] replaced by
  // c ^ (r % extent) (an XOR swizzle that keeps the size), when the innermost
  // extent is a power of two; padElements is 0.
  std::optional<PaddingTrial> xorSwizzleTrial;
};

struct LoopInfo {
  std::string inductionVar; // empty when no single induction variable was found
  std::string init, bound, step; // source text, for reports
  std::optional<int64_t> tripCount; // when constant
  SourceLocation loc;
};

struct LaunchSite {
  std::string kernel;              // the callee as written (a pointer's name for indirect launches)
  SourceLocation loc;
  std::optional<BlockShape> block; // set when every component evaluated
  // Each component of the block shape that evaluated (a partial shape:
  // `dim3 b(16, h)` gives x only).
  std::array<std::optional<int64_t>, 3> blockDims;
  bool blockByMemberAssignment = false; // a component came from `b.x = 16;`
  // When `block` is unset because the block size is chosen on different
  // paths (`if (x) t = 128; else t = 256;`): every shape that may reach the
  // launch (analyzer/model/ReachingShapes.h). Empty otherwise.
  std::vector<BlockShape> blockChoices;
  // Set when some value of blockChoices came from outside the launching
  // function's paths: "caller arguments" (a parameter, from its callers'
  // arguments in the unit) or "unwritten global" (a non-const global that
  // nothing in the unit writes). Callers and writers elsewhere are not seen.
  std::string blockChoicesAssumption;
  // The kernels it may start that are only declared in its unit (defined in
  // another one), as KernelInfo::key: what launches in other files of a
  // compile database are matched by.
  std::vector<std::string> externalKernelKeys;
  bool viaPointer = false; // through a function-pointer variable or table
  bool viaRuntimeCall = false; // cudaLaunchKernel / cudaLaunchCooperativeKernel, not <<<>>>
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
  // Distinct addresses and 128-byte lines the active lanes touch (constant
  // memory serves one address at a time).
  int distinctAddresses = 0;
  int distinctLines = 0;
};

// An access whose address involves warp-uniform values the analyzer cannot
// pin down (scalar parameters, values loaded from warp-uniform addresses):
// the warp evaluated at sample values of each, so that a verdict can state
// the condition under which it holds. MemoryAccess::evals then holds the
// evaluation that holds for every value tried (the least severe).
struct UniformSample {
  std::vector<int64_t> values;      // parallel to UniformSweep::symbols
  std::vector<WarpAccessEval> evals; // one per block shape with an active lane
  int worst = -1;                    // index into evals; -1 when none (not admissible)
  bool degenerate = false;           // every lane at one address where other values spread them (a zero stride)
};

struct UniformSweep {
  std::vector<std::string> symbols; // as printed: "n", "perm[blockIdx.x]"
  std::vector<bool> isParam;        // a scalar parameter (else a uniform unknown)
  std::vector<UniformSample> samples;
  // Bytes between consecutive lanes (threadIdx.x) as an expression when the
  // address is affine in it: "4*size".
  std::string laneStride;
  // Facts for the model: "degree >= 2 when w is even", ...
  std::vector<std::string> conditions;
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
  // Set when no lane passed the guards with every parameter at the one
  // default value and the evaluations come from a small value of one guard
  // parameter instead ("r = 8"): a verdict then holds for that value only.
  std::string guardValueAssumed;
  // Set, to the assumption stated, when the evaluations come from a retry
  // where the guards pass (analyzer/warp/UnreachedAccess.h): any other
  // evaluation of the access under the default values (padding trials,
  // narrow-access groups) sees no lane of it.
  std::string evaluatedWhereGuardsPass;
  // Constant-memory accesses: the loads (their MemoryAccess::loc) whose
  // values the index reads, when it reads any (`c[in[i]]`).
  std::vector<SourceLocation> indexLoads;
  std::vector<WarpAccessEval> evals;    // one per block shape / iteration evaluated
  // Set when the address involves warp-uniform unknowns. Shared and never
  // changed once built: accesses evaluated alike (UniformSweep.cpp's memo)
  // point to one sweep instead of copying its hundreds of samples.
  std::shared_ptr<const UniformSweep> uniformSweep;
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

// The 1- and 2-byte global accesses one thread makes to one pointer in one
// straight-line region or loop body (or the iterations of a short constant
// loop), whose addresses differ by constants, measured over the warp
// (analyzer/warp/NarrowAccessGroups.cpp): how many bytes each lane moves per
// instruction and whether the warp's bytes over all of them are contiguous.
// Every such access is in exactly one group; a group of one is a lone access.
struct NarrowAccessGroup {
  std::string pointer;
  std::vector<size_t> accesses;  // indices into KernelInfo::accesses, in source order
  // One member per access and, for an access inside a constant loop whose
  // iterations are its siblings, per iteration: the access and its byte
  // offset from the first member's address in the same lane.
  struct Member {
    size_t access = 0;
    int64_t offsetBytes = 0;
  };
  std::vector<Member> members;
  std::string loopVar;          // the constant loop(s) unrolled into members ("k"), "" if none
  int64_t widthBytes = 0;       // bytes one lane moves per instruction: 1 or 2
  int64_t laneStrideBytes = 0;  // address step between consecutive lanes; 0 when not affine
  int64_t threadBytes = 0;      // distinct bytes one lane moves over all members
  int64_t warpBytes = 0;        // distinct bytes the warp moves over all members (first evaluation)
  int activeLanes = 0;          // lanes taking part in the fullest evaluated warp
  bool warpContiguous = false;  // the warp's bytes form one run in every evaluation
  int evaluations = 0;          // (block shape, warp, block index, loop iteration) bindings checked
  std::string notContiguousReason; // why warpContiguous is false
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
  // Qualified name, template arguments and parameter types: how a launch in
  // another unit names it. Empty for kernels other units cannot launch
  // (internal linkage).
  std::string key;
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
  // No launch gives the whole shape: `blockShapes` are plausible shapes the
  // rules must not pick from (they report what holds for all of them).
  bool blockShapeAssumed = false;
  std::string blockShapeSource;        // "launch at line 12", "launch at f.cu:12", why assumed
  // Where the shapes came from, one phrase for reports
  // (analyzer/model/BlockShapes.h): "launch" (a launch site with constant
  // shapes), "pointer" (a launch through a function-pointer variable or
  // table), "member assignment" (a dim3 set by `b.x = ...`), "launch in other
  // file" (another unit of the compile database), "partial launch" (some
  // components known), "launch_bounds", "default" (none known).
  std::string blockShapeOrigin;
  std::vector<LaunchSite> launchSites; // the launches of this kernel visible in the unit
  std::vector<BytePackWindow> bytePackWindows;
  std::optional<ByteLaneKernel> byteLane; // set when the body has the one-byte-a-lane shape
  // Thread-private arrays and the ptxas stack frame (analyzer/results/PrivateMemory.h).
  std::shared_ptr<PrivateMemoryFacts> privateMemory;
  // __global__ functions of the same name and arity declared in user code
  // but never defined in the unit ("'k' declared at f.cu:3 as 'void (float *)'"):
  // what a signature edit that missed a declaration leaves behind (nvcc:
  // "referenced but not defined"). The fix verifier refuses to add any.
  std::vector<std::string> undefinedOverloads;
  std::vector<NarrowAccessGroup> narrowGroups; // the 1- and 2-byte global accesses, grouped
  std::vector<DataObject> dataObjects;   // analyzer/facts/DataObjects.cpp
  // One block's work, counted (analyzer/cost/WorkTally.h): what the cost
  // model turns into time. Null for kernels with no block shape.
  std::shared_ptr<KernelWork> work;
  // Shared-memory exchanges that stay inside one warp, followed in program
  // order (analyzer/facts/WarpExchanges.cpp). Null when not computed.
  std::shared_ptr<WarpExchangeFacts> warpExchanges;
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
  // What the analyzer did to parse at all: "header 'omp.h' not found;
  // analyzed as if empty" (level "note").
  std::vector<FrontendMessage> frontendNotes;
  std::vector<KernelInfo> kernels;
  std::vector<LaunchSite> launches;
  // Content hash (analyzer/results/Fix.h contentHash) of each user file the parse read,
  // by absolute path: fixes are applied only to unchanged files.
  std::vector<std::pair<std::string, std::string>> fileHashes;
  // The unit's host code: copies, launches, managed memory (analyzer/host/HostFacts.h).
  std::shared_ptr<HostFacts> host;
};

struct AnalysisResults {
  std::vector<TranslationUnitResult> units;
};

} // namespace warplint

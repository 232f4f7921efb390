// The native instruction mix (analyzer/native/SassMix.h) on a recorded
// disassembly: tests/unit/sass/sass_mix_kernels.nvdisasm.txt is
// `nvdisasm -c -gi` (CUDA 13.0.85, on the H100 machine) of
// tests/unit/sass/sass_mix_kernels.cu compiled here with
// `nvcc -cubin -arch=sm_90 -lineinfo` (13.0.88). No toolkit is needed.
#include "analyzer/cost/KernelCostModel.h"
#include "analyzer/native/SassMix.h"
#include "analyzer/results/PrivateMemory.h"

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

using namespace warplint;

namespace {

const char *kFile = "/src/tests/unit/sass/sass_mix_kernels.cu"; // only the file name is compared

std::map<std::string, SassFunction> fixture() {
  std::ifstream in(std::string(WARPLINT_SOURCE_DIR) + "/tests/unit/sass/sass_mix_kernels.nvdisasm.txt");
  std::stringstream text;
  text << in.rdbuf();
  return parseNvdisasm(text.str());
}

int countClass(const SassFunction &f, SassClass c) {
  int n = 0;
  for (const SassInstruction &s : f.instructions)
    n += !s.padding && s.cls == c ? 1 : 0;
  return n;
}

// fmaLoop: `for (int k = 0; k < n; ++k)` at line 16, the load and the
// inlined axpy at line 17, the store at line 18; a block of 256 threads.
struct FmaLoop {
  KernelInfo k;
  KernelWork w;
  explicit FmaLoop(double trips) {
    k.name = "fmaLoop";
    k.isGlobal = true;
    k.loc = {kFile, 13, 17};
    LoopInfo loop;
    loop.loc = {kFile, 16, 3};
    k.loops = {loop};
    MemoryAccess x;
    x.loc = {kFile, 17, 21};
    x.space = AddressSpace::Global;
    MemoryAccess y;
    y.loc = {kFile, 18, 3};
    y.space = AddressSpace::Global;
    y.isWrite = true;
    y.isRead = false;
    k.accesses = {x, y};
    w.computed = true;
    w.block = {256, 1, 1};
    AccessWork xw;
    xw.access = 0;
    xw.loops = {0};
    AccessWork yw;
    yw.access = 1;
    w.accesses = {xw, yw};
    w.loopTrips = {trips};
  }
};

} // namespace

TEST(SassMix, ParsesFunctionsClassesAndOutermostLines) {
  auto fns = fixture();
  ASSERT_EQ(fns.size(), 5u);
  const SassFunction &fma = fns.at("_Z7fmaLoopPKfPffi");
  EXPECT_EQ(fma.instructions.size(), 72u); // 13 NOPs and the self-branch among them
  int live = 0;
  for (const SassInstruction &s : fma.instructions)
    live += s.padding ? 0 : 1;
  EXPECT_EQ(live, 58);
  EXPECT_EQ(countClass(fma, SassClass::Fp32), 7); // 6 FFMA + 1 HFMA2
  EXPECT_EQ(countClass(fma, SassClass::Global), 6); // 5 LDG + 1 STG
  // The helper's FFMA (line 9) is the kernel's line 17 or 18 where it is inlined.
  for (const SassInstruction &s : fma.instructions) {
    if (s.cls == SassClass::Fp32 && s.line != 16) {
      EXPECT_TRUE(s.line == 17 || s.line == 18) << s.line;
    }
  }
  const SassFunction &special = fns.at("_Z16specialAndDoublePKfPdPf");
  EXPECT_EQ(countClass(special, SassClass::Sfu), 2);  // MUFU.SIN, MUFU.EX2
  EXPECT_EQ(countClass(special, SassClass::Fp64), 1); // DFMA
  const SassFunction &local = fns.at("_Z10localArrayPKiPKfPf");
  EXPECT_EQ(countClass(local, SassClass::Local), 6); // 5 STL + 1 LDL
  const SassFunction &shared = fns.at("_Z14sharedUnrolledPf");
  EXPECT_EQ(countClass(shared, SassClass::Shared), 5); // 1 STS + 4 LDS of the unrolled loop
  EXPECT_EQ(classifySassOpcode("LDG.E.128.CONSTANT"), SassClass::Global);
  EXPECT_EQ(classifySassOpcode("UIADD3"), SassClass::Uniform);
  EXPECT_EQ(classifySassOpcode("ULDC.64"), SassClass::Constant);
  EXPECT_EQ(classifySassOpcode("IMAD.WIDE.U32"), SassClass::Integer);
}

TEST(SassMix, CacheFormatRoundTrips) {
  auto fns = fixture();
  std::map<std::string, std::shared_ptr<const SassFunction>> back;
  ASSERT_TRUE(sassFromJson(sassToJson(fns), back));
  ASSERT_EQ(back.size(), fns.size());
  for (auto &[name, f] : fns) {
    const SassFunction &g = *back.at(name);
    ASSERT_EQ(g.instructions.size(), f.instructions.size());
    for (size_t i = 0; i < f.instructions.size(); ++i) {
      EXPECT_EQ(g.instructions[i].address, f.instructions[i].address);
      EXPECT_EQ(g.instructions[i].line, f.instructions[i].line);
      EXPECT_EQ(g.instructions[i].cls, f.instructions[i].cls);
      EXPECT_EQ(g.instructions[i].target, f.instructions[i].target);
      EXPECT_EQ(g.instructions[i].padding, f.instructions[i].padding);
    }
  }
  EXPECT_FALSE(sassFromJson("{\"k\": {\"files\": [], \"rows\": [[0, 0, 1, 99, -1, 0]]}}", back));
}

// nvcc unrolled the loop of run-time trip count by 4 (4 LDG and 4 FFMA a
// native iteration) with a remainder loop of one copy: at 1024 trips the
// unrolled loop runs 256 times and the remainder none.
TEST(SassMix, UnrolledLoopRunsTripsOverCopies) {
  auto fns = fixture();
  FmaLoop m(1024);
  NativeInstructionCount n = countNativeInstructions(fns.at("_Z7fmaLoopPKfPffi"), m.k, m.w);
  ASSERT_TRUE(n.counted) << n.notCounted;
  ASSERT_EQ(n.loops.size(), 2u);
  EXPECT_EQ(n.loops[0], "line 16: unrolled x4, 256 iterations");
  EXPECT_EQ(n.loops[1], "line 16: its remainder loop, 0 iterations");
  // 35 instructions outside the loops, 15 in the unrolled one; 8 warps.
  EXPECT_DOUBLE_EQ(n.warpInstructions, 8 * (35 + 256 * 15));
  EXPECT_DOUBLE_EQ(n.byClass["global"], 8 * (1 + 256 * 4)); // the store, 4 loads an iteration
  // 1026 trips: 256 unrolled iterations and 2 of the remainder (8 instructions).
  FmaLoop odd(1026);
  NativeInstructionCount o = countNativeInstructions(fns.at("_Z7fmaLoopPKfPffi"), odd.k, odd.w);
  EXPECT_DOUBLE_EQ(o.warpInstructions, 8 * (35 + 256 * 15 + 2 * 8));
}

// A loop the native code has but no source loop explains leaves the AST
// estimate in place, and says why.
TEST(SassMix, UnmatchedNativeLoopKeepsTheAstEstimate) {
  auto fns = fixture();
  FmaLoop m(64);
  m.k.loops[0].loc.line = 40; // not the loop's line
  m.w.accesses[0].loops.clear();
  NativeInstructionCount n = countNativeInstructions(fns.at("_Z7fmaLoopPKfPffi"), m.k, m.w);
  EXPECT_FALSE(n.counted);
  EXPECT_NE(n.notCounted.find("matches no source loop"), std::string::npos) << n.notCounted;
}

// A fully unrolled constant loop is no native loop: its copies are counted
// once each (4 LDS), not again by its trip count.
TEST(SassMix, FullyUnrolledLoopIsCountedOnce) {
  auto fns = fixture();
  KernelInfo k;
  k.name = "sharedUnrolled";
  k.loc = {kFile, 22, 17};
  LoopInfo loop;
  loop.loc = {kFile, 28, 3};
  loop.tripCount = 4;
  k.loops = {loop};
  KernelWork w;
  w.computed = true;
  w.block = {256, 1, 1};
  w.loopTrips = {4.0};
  NativeInstructionCount n = countNativeInstructions(fns.at("_Z14sharedUnrolledPf"), k, w);
  ASSERT_TRUE(n.counted) << n.notCounted;
  EXPECT_TRUE(n.loops.empty());
  EXPECT_DOUBLE_EQ(n.byClass["shared"], 8 * 5);
  EXPECT_DOUBLE_EQ(n.warpInstructions, 8 * 32); // 48 less 15 NOPs and the self-branch
}

// The cost model's issue component takes the native count where the
// kernel's native code was read, and says which it used.
TEST(SassMix, CostModelUsesTheNativeCountAndSaysSo) {
  auto fns = fixture();
  FmaLoop m(1024);
  m.w.gridBlocks = 132 * 8;
  m.w.warpInstructions = 8 * 1024 * 3.0; // an AST estimate: 3 a trip
  m.k.privateMemory = std::make_shared<PrivateMemoryFacts>();
  m.k.work = std::make_shared<KernelWork>(m.w);
  std::ifstream in(std::string(WARPLINT_SOURCE_DIR) + "/probes/profiles/h100.json");
  std::stringstream text;
  text << in.rdbuf();
  HardwareProfile profile = HardwareProfile::fromJson(text.str(), "h100");
  KernelCost ast = estimateKernelCost(m.k, m.w, profile);
  ASSERT_TRUE(ast.computed);
  auto says = [](const KernelCost &c, const std::string &what) {
    for (const std::string &a : c.assumptions)
      if (a.rfind(what, 0) == 0)
        return true;
    return false;
  };
  EXPECT_TRUE(says(ast, "instructions: AST estimate"));
  PtxasReport &r = m.k.privateMemory->ptxas;
  r.ran = true;
  r.sass = std::make_shared<SassFunction>(fns.at("_Z7fmaLoopPKfPffi"));
  r.sassTool = "nvdisasm -c -gi of the file's cubin (test)";
  KernelCost native = estimateKernelCost(m.k, m.w, profile);
  ASSERT_TRUE(native.computed);
  EXPECT_TRUE(says(native, "instructions: SASS (nvdisasm -c -gi of the file's cubin (test))"));
  // 8 x (35 + 256 x 15) native against 8 x 3072 AST warp instructions a block.
  EXPECT_NEAR(native.component("issue") / ast.component("issue"), (35.0 + 256 * 15) / 3072, 1e-6);
}

// The second fixture: tests/unit/sass/sass_guard_kernels.nvdisasm.txt is
// `nvdisasm -c -gi` (13.0.85, copied from the H100 machine's toolkit) of
// tests/unit/sass/sass_guard_kernels.cu compiled here with
// `nvcc -cubin -arch=sm_90 -lineinfo` (13.0.88).
namespace {

const char *kGuardFile = "/src/tests/unit/sass/sass_guard_kernels.cu";

std::map<std::string, SassFunction> guardFixture() {
  std::ifstream in(std::string(WARPLINT_SOURCE_DIR) + "/tests/unit/sass/sass_guard_kernels.nvdisasm.txt");
  std::stringstream text;
  text << in.rdbuf();
  return parseNvdisasm(text.str());
}

MemoryAccess accessAt(int line, AddressSpace space, bool write = false) {
  MemoryAccess m;
  m.loc = {kGuardFile, unsigned(line), 5};
  m.space = space;
  m.isWrite = write;
  m.isRead = !write;
  m.widthBytes = 4;
  return m;
}

AccessWork counted(size_t access, double warpExecutions, std::vector<int> loops = {}) {
  AccessWork a;
  a.access = access;
  a.counted = true;
  a.warpExecutions = warpExecutions;
  a.widthBytes = 4;
  a.loops = std::move(loops);
  return a;
}

} // namespace

TEST(SassMix, MemoryOpcodesCarryTheirWidthAndExitsTheirPredicate) {
  EXPECT_EQ(sassAccessBytes("LDS"), 4);
  EXPECT_EQ(sassAccessBytes("LDS.128"), 16);
  EXPECT_EQ(sassAccessBytes("LDS.U8"), 1);
  EXPECT_EQ(sassAccessBytes("STS.64"), 8);
  EXPECT_EQ(sassAccessBytes("LDG.E.128.CONSTANT"), 16);
  EXPECT_EQ(sassAccessBytes("LDG.E.U16"), 2);
  auto fns = guardFixture();
  const SassFunction &half = fns.at("_Z11guardedHalfPf");
  int predicatedExits = 0, exits = 0;
  for (const SassInstruction &s : half.instructions) {
    exits += s.exit ? 1 : 0;
    predicatedExits += s.exit && s.predicated ? 1 : 0;
  }
  EXPECT_EQ(exits, 2); // `@P0 EXIT` (threadIdx.x >= 64) and the last one
  EXPECT_EQ(predicatedExits, 1);
  const SassFunction &wide = fns.at("_Z9wideReadsPfi");
  int wideLoads = 0;
  for (const SassInstruction &s : wide.instructions)
    wideLoads += s.cls == SassClass::Shared && s.bytes == 16 ? 1 : 0;
  EXPECT_EQ(wideLoads, 2); // LDS.128 x2: eight words of the k loop a native iteration
  // Bytes and flags survive the cache entry.
  std::map<std::string, std::shared_ptr<const SassFunction>> back;
  ASSERT_TRUE(sassFromJson(sassToJson(fns), back));
  const SassFunction &again = *back.at("_Z9wideReadsPfi");
  ASSERT_EQ(again.instructions.size(), wide.instructions.size());
  for (size_t i = 0; i < wide.instructions.size(); ++i) {
    EXPECT_EQ(again.instructions[i].bytes, wide.instructions[i].bytes);
    EXPECT_EQ(again.instructions[i].predicated, wide.instructions[i].predicated);
    EXPECT_EQ(again.instructions[i].exit, wide.instructions[i].exit);
  }
}

// `if (threadIdx.x < 64) { ... }` compiles to `@P0 EXIT`: what follows runs
// in the 2 warps of 8 the tally finds running its loads (crBaseline's
// reduction steps were counted in every warp: 2.2x ncu's instructions).
TEST(SassMix, CodeAfterABranchRunsInTheWarpsItsAccessesRunIn) {
  auto fns = guardFixture();
  KernelInfo k;
  k.name = "guardedHalf";
  k.loc = {kGuardFile, 9, 17};
  k.accesses = {accessAt(11, AddressSpace::Shared, true), accessAt(14, AddressSpace::Shared),
                accessAt(14, AddressSpace::Shared), accessAt(15, AddressSpace::Global, true)};
  KernelWork w;
  w.computed = true;
  w.block = {256, 1, 1};
  w.accesses = {counted(0, 8), counted(1, 2), counted(2, 2), counted(3, 2)};
  NativeInstructionCount n = countNativeInstructions(fns.at("_Z11guardedHalfPf"), k, w);
  ASSERT_TRUE(n.counted) << n.notCounted;
  // 11 instructions up to the predicated EXIT in 8 warps, the 8 after it in 2.
  EXPECT_DOUBLE_EQ(n.warpInstructions, 8 * 11 + 2 * 8);
  EXPECT_DOUBLE_EQ(n.skippedByBranches, 6 * 8);
  EXPECT_EQ(n.guardedSpans, 1);
  EXPECT_DOUBLE_EQ(n.sharedRequestsByLine[14], 2 * 2);
  // Without the tally's counts (accesses not counted) every warp runs it.
  for (AccessWork &a : w.accesses)
    a.counted = false;
  NativeInstructionCount every = countNativeInstructions(fns.at("_Z11guardedHalfPf"), k, w);
  EXPECT_DOUBLE_EQ(every.warpInstructions, 8 * 19);
}

// Six shared reads a thread in the source, four LDS in the native code: the
// reads' wavefronts are scaled by 4/6; the store, in another region, is left
// as it is.
TEST(SassMix, SharedWordsTheNativeCodeReusesScaleTheWavefronts) {
  auto fns = guardFixture();
  KernelInfo k;
  k.name = "reusedWindow";
  k.loc = {kGuardFile, 20, 17};
  LoopInfo loop;
  loop.loc = {kGuardFile, 26, 3};
  loop.tripCount = 3;
  k.loops = {loop};
  k.accesses = {accessAt(22, AddressSpace::Global), accessAt(22, AddressSpace::Shared, true),
                accessAt(27, AddressSpace::Shared), accessAt(27, AddressSpace::Shared),
                accessAt(29, AddressSpace::Global, true)};
  KernelWork w;
  w.computed = true;
  w.block = {256, 1, 1};
  w.loopTrips = {3.0};
  w.accesses = {counted(0, 8), counted(1, 8), counted(2, 24, {0}), counted(3, 24, {0}), counted(4, 8)};
  w.accesses[2].region = w.accesses[3].region = 1; // the loop body (lines of one region are pooled)
  NativeInstructionCount n = countNativeInstructions(fns.at("_Z12reusedWindowPKfPf"), k, w);
  ASSERT_TRUE(n.counted) << n.notCounted;
  EXPECT_DOUBLE_EQ(n.sharedWordsByLine[27], 8 * 4);
  std::vector<std::string> notes;
  std::map<size_t, double> scale = nativeSharedScale(n, k, w, notes);
  ASSERT_EQ(scale.size(), 2u);
  EXPECT_DOUBLE_EQ(scale[2], 32.0 / 48);
  EXPECT_DOUBLE_EQ(scale[3], 32.0 / 48);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("line 27"), std::string::npos) << notes[0];
}

// Two LDS.128 a native iteration of the k loop (32 trips, `#pragma unroll
// 8`): eight words, one a source iteration, so eight copies and 4 native
// iterations (counted in instructions, 2 copies and 16: aatTiled's count
// was 2x ncu's).
TEST(SassMix, WideLoadsCountTheirWordsForTheCopiesOfALoop) {
  auto fns = guardFixture();
  KernelInfo k;
  k.name = "wideReads";
  k.loc = {kGuardFile, 34, 17};
  LoopInfo outer, inner;
  outer.loc = {kGuardFile, 39, 3};
  inner.loc = {kGuardFile, 41, 5};
  inner.tripCount = 32;
  k.loops = {outer, inner};
  k.accesses = {accessAt(36, AddressSpace::Shared, true), accessAt(42, AddressSpace::Shared),
                accessAt(44, AddressSpace::Global, true)};
  KernelWork w;
  w.computed = true;
  w.block = {32, 8, 1};
  w.loopTrips = {16.0, 32.0};
  w.accesses = {counted(0, 8), counted(1, 8 * 16 * 32, {0, 1}), counted(2, 8)};
  NativeInstructionCount n = countNativeInstructions(fns.at("_Z9wideReadsPfi"), k, w);
  ASSERT_TRUE(n.counted) << n.notCounted;
  ASSERT_EQ(n.loops.size(), 2u);
  EXPECT_EQ(n.loops[0], "line 39: 16 iterations");
  EXPECT_EQ(n.loops[1], "line 41: unrolled x8, 4 iterations");
  EXPECT_DOUBLE_EQ(n.sharedWordsByLine[42], 8 * 16 * 4 * 8.0); // = the source's 8 x 16 x 32 words
  std::vector<std::string> notes;
  EXPECT_TRUE(nativeSharedScale(n, k, w, notes).empty()); // merged, not fewer: no scale
}

#include "analyzer/warp/UnreachedAccess.h"
#include "analyzer/warp/AccessFingerprint.h"
#include "analyzer/warp/BlockEnumeration.h"
#include "analyzer/warp/FlatExpr.h"
#include "analyzer/warp/UniformSweep.h"
#include "analyzer/warp/WarpBindings.h"

#include <algorithm>
#include <set>
#include <unordered_map>

namespace warplint {

namespace {

// Thread-iterations enumerated per shape before giving up on a proof.
constexpr int64_t kLaneBudget = 1 << 16;

bool readsOnlyShape(const ExprRef &e) {
  for (SymbolKind k : {SymbolKind::BlockIdx, SymbolKind::GridDim, SymbolKind::Param, SymbolKind::Uniform})
    if (e && e->dependsOn(k))
      return false;
  return true;
}

// The loops whose bounds decide whether a thread takes the access: those of
// its guards, and with `address` also those its address walks.
std::vector<std::shared_ptr<const LoopRecurrence>> deciding(const GuardedAccess &access, bool address) {
  std::vector<std::shared_ptr<const LoopRecurrence>> loops;
  if (address)
    access.byteOffset->collectLoops(loops);
  for (auto &g : access.guards)
    g->collectLoops(loops);
  return loops;
}

// Whether no thread of any shape's block takes `probe` (its address is
// ignored): every thread enumerated at every iteration and none passed, or,
// with `emptyLoopCounts`, a loop it depends on never runs.
bool noThreadTakes(const GuardedAccess &probe, const std::vector<BlockShape> &shapes, const EvaluationOptions &opts,
                   bool emptyLoopCounts) {
  for (auto &shape : shapes) {
    int64_t taken = 0;
    BlockEnumeration r = enumerateBlock(probe, shape, opts, kLaneBudget, [&](const BlockLane &) { ++taken; });
    if (emptyLoopCounts && r.loopNeverRuns)
      continue;
    if (!r.evaluated || !r.complete || taken > 0)
      return false;
  }
  return true;
}

} // namespace

bool neverExecuted(const GuardedAccess &access, const std::vector<BlockShape> &shapes,
                   const EvaluationOptions &opts) {
  if (shapes.empty() || access.guards.empty())
    return false;
  // Only the guards decide whether a thread takes part: an address outside
  // the array must not count as "not taken".
  GuardedAccess probe = access;
  probe.byteOffset = IndexExpr::constant(0);
  probe.extentBytes = 0;
  // One guard that no thread passes decides alone, whatever the others and
  // the loops read (`if (!nIsPow2)` around `while (i < n)`).
  for (auto &g : access.guards)
    if (readsOnlyShape(g) && !g->dependsOnLoop()) {
      GuardedAccess one = probe;
      one.guards = {g};
      if (noThreadTakes(one, shapes, opts, false))
        return true;
    }
  for (auto &g : access.guards)
    if (!readsOnlyShape(g))
      return false;
  for (auto &l : deciding(access, false))
    for (const ExprRef &part : {l->init, l->step, l->cond})
      if (!readsOnlyShape(part))
        return false;
  return noThreadTakes(probe, shapes, opts, true);
}

namespace {

// The conjuncts of a guard: `a && b` and `!(a || b)` are two guards.
void splitConjuncts(const ExprRef &g, std::vector<ExprRef> &out) {
  if (g->op == ExprOp::LAnd) {
    splitConjuncts(g->operands[0], out);
    splitConjuncts(g->operands[1], out);
    return;
  }
  if (g->op == ExprOp::Not && g->operands[0]->op == ExprOp::LOr) {
    for (auto &o : g->operands[0]->operands)
      splitConjuncts(IndexExpr::make(ExprOp::Not, {o}), out);
    return;
  }
  if (g->op == ExprOp::Not && g->operands[0]->op == ExprOp::Not) {
    splitConjuncts(g->operands[0]->operands[0], out);
    return;
  }
  out.push_back(g);
}

// The symbols `e` reads, those of the loops it walks included.
std::set<Symbol> symbolsRead(const ExprRef &e) {
  std::vector<Symbol> symbols;
  e->collectSymbols(symbols);
  std::vector<std::shared_ptr<const LoopRecurrence>> loops;
  e->collectLoops(loops);
  for (auto &l : loops)
    for (const ExprRef &part : {l->init, l->step, l->cond})
      if (part)
        part->collectSymbols(symbols);
  return {symbols.begin(), symbols.end()};
}

bool readsUniformUnknown(const ExprRef &g) {
  for (SymbolKind k : {SymbolKind::BlockIdx, SymbolKind::GridDim, SymbolKind::Param, SymbolKind::Uniform})
    if (g->dependsOn(k))
      return true;
  return false;
}

// Splits the guards into those that select whole blocks independently of
// everything else the access reads (see evaluateWhereGuardsPass) and the rest.
void splitBlockSelectingGuards(const GuardedAccess &access, std::vector<ExprRef> &blockSelecting,
                               std::vector<ExprRef> &rest) {
  std::vector<ExprRef> all;
  for (auto &g : access.guards)
    splitConjuncts(g, all);
  std::vector<std::set<Symbol>> reads;
  for (auto &g : all)
    reads.push_back(symbolsRead(g));
  std::set<Symbol> addressReads = symbolsRead(access.byteOffset);
  for (size_t i = 0; i < all.size(); ++i) {
    const ExprRef &g = all[i];
    bool candidate = !g->dependsOn(SymbolKind::ThreadIdx) && !g->dependsOnLoop() && readsUniformUnknown(g);
    for (const Symbol &s : reads[i]) {
      candidate = candidate && !addressReads.count(s);
      for (size_t j = 0; candidate && j < all.size(); ++j)
        candidate = j == i || !reads[j].count(s);
    }
    (candidate ? blockSelecting : rest).push_back(g);
  }
}

std::string joined(const std::vector<ExprRef> &guards) {
  std::string out;
  for (auto &g : guards)
    out += (out.empty() ? "" : " && ") + g->str();
  return out;
}

// Evaluates with `opts`; on success adds `assumption` (after those f had).
bool evaluateAssuming(const GuardedAccess &access, const std::vector<BlockShape> &shapes,
                      const EvaluationOptions &opts, const std::vector<std::string> &assumptions,
                      const std::string &assumption, MemoryAccess &f) {
  f.assumptions = assumptions;
  evaluateAccess(access, shapes, opts, f);
  if (f.evals.empty())
    return false;
  // The failed default evaluation stated its sweep already.
  std::vector<std::string> once;
  for (auto &a : f.assumptions)
    if (std::find(once.begin(), once.end(), a) == once.end())
      once.push_back(a);
  f.assumptions = std::move(once);
  f.assumptions.push_back(assumption);
  f.evaluatedWhereGuardsPass = assumption;
  return true;
}

// Whether some thread of blocks 0 and 1 of any shape passes `guards` (none
// reading a loop) under `opts`, decided as the sweep decides a lane's
// activity: a guard that cannot be evaluated passes, guards read the
// default and overridden values only. When no thread does, no evaluation
// under these values can find an active lane, so a guard-value retry would
// fail: sw4ck's 432 accesses under one `if` made 30,050 such retries, each
// paying an access's whole set-up. Kept per guards, shape and values.
bool anyThreadPasses(const std::vector<ExprRef> &guards, const std::vector<BlockShape> &shapes,
                     const EvaluationOptions &opts) {
  thread_local std::unordered_map<std::string, bool> memo;
  for (const BlockShape &shape : shapes) {
    Binding base = blockBinding(shape, opts);
    std::string key = guardsContextFingerprint(guards, shape, base);
    auto it = memo.find(key);
    if (it == memo.end()) {
      // threadIdx as an input: bound once per block, each thread runs only
      // what reads it; a bind that fails passes every thread (as evaluate).
      const std::vector<int> none;
      std::vector<FlatExpr> flat;
      for (const ExprRef &g : guards)
        flat.emplace_back(*g, none, none, true);
      std::vector<char> bound(flat.size());
      bool passes = false;
      for (int64_t bi = 0; bi <= 1 && !passes; ++bi) {
        Binding b = base;
        for (int d = 0; d < 3; ++d)
          b.blockIdx[d] = bi;
        for (size_t i = 0; i < flat.size(); ++i)
          bound[i] = flat[i].bind(b);
        for (int64_t tid = 0; tid < shape.threads() && !passes; ++tid) {
          bindThread(b, shape, tid);
          passes = true;
          for (size_t i = 0; i < flat.size() && passes; ++i) {
            auto v = bound[i] ? flat[i].at(b.threadIdx) : std::nullopt;
            passes = !(v && *v == 0);
          }
        }
      }
      if (memo.size() >= 100000)
        memo.clear();
      it = memo.emplace(std::move(key), passes).first;
    }
    if (it->second)
      return true;
  }
  return false;
}

// Step 3 of evaluateWhereGuardsPass.
bool evaluateWithSmallGuardValues(const GuardedAccess &access, const std::vector<BlockShape> &shapes,
                                  const EvaluationOptions &opts, const std::vector<std::string> &assumptions,
                                  MemoryAccess &f) {
  std::vector<Symbol> symbols;
  for (auto &g : access.guards)
    g->collectSymbols(symbols);
  for (auto &l : deciding(access, true))
    for (const ExprRef &part : {l->init, l->step, l->cond})
      if (part)
        part->collectSymbols(symbols);
  std::vector<Symbol> tried;
  for (const Symbol &s : symbols)
    if ((s.kind == SymbolKind::Param || s.kind == SymbolKind::Uniform) && !s.boolean &&
        std::find(tried.begin(), tried.end(), s) == tried.end() && tried.size() < 8)
      tried.push_back(s);
  const std::string atDefault =
      "no lane passes the guards with every parameter at " + std::to_string(opts.symbolicValue) + "; evaluated with ";
  bool guardsReadLoops = std::any_of(access.guards.begin(), access.guards.end(),
                                     [](const ExprRef &g) { return g->dependsOnLoop(); });
  auto attempt = [&](const std::vector<Symbol> &set, int64_t value) {
    EvaluationOptions small = opts;
    std::string named;
    for (const Symbol &s : set) {
      (s.kind == SymbolKind::Param ? small.paramOverrides : small.uniformOverrides)[s.index] = value;
      named += (named.empty() ? "" : ", ") + s.name + " = " + std::to_string(value);
    }
    if (!guardsReadLoops && !opts.lastBlock && !anyThreadPasses(access.guards, shapes, small))
      return false; // no lane could be active: the evaluation would find none
    if (!evaluateAssuming(access, shapes, small, assumptions, atDefault + named, f))
      return false;
    f.guardValueAssumed = named;
    return true;
  };
  // Alone first (only one value is then assumed), the first four symbols.
  for (size_t i = 0; i < tried.size() && i < 4; ++i)
    for (int64_t value : {8, 1})
      if (attempt({tried[i]}, value))
        return true;
  std::vector<Symbol> params;
  for (const Symbol &s : tried)
    if (s.kind == SymbolKind::Param)
      params.push_back(s);
  if (params.size() > 1)
    for (int64_t value : {8, 1})
      if (attempt(params, value))
        return true;
  return false;
}

bool evaluateWhereGuardsPassImpl(GuardedAccess &access, const std::vector<BlockShape> &shapes,
                                 const EvaluationOptions &opts, MemoryAccess &f) {
  const MemoryAccess before = f;
  const std::vector<std::string> &assumptions = before.assumptions; // each evaluation adds its own
  std::vector<ExprRef> blockSelecting, rest;
  splitBlockSelectingGuards(access, blockSelecting, rest);
  GuardedAccess withinBlocks = access;
  withinBlocks.guards = rest;
  const std::string where = "evaluated in the blocks where " + joined(blockSelecting) +
                            " holds (a guard on values uniform across the block that the address does not read)";
  if (!blockSelecting.empty() && evaluateAssuming(withinBlocks, shapes, opts, assumptions, where, f)) {
    f.evaluatedWhereGuardsPass.clear(); // exact, and every later evaluation sees the lanes
    access = withinBlocks;
    return true;
  }
  EvaluationOptions last = opts;
  last.lastBlock = true;
  const std::string lastBlock = "evaluated in the grid's last block (blockIdx = gridDim - 1), where the guards pass";
  if (evaluateAssuming(access, shapes, last, assumptions, lastBlock, f))
    return true;
  if (!blockSelecting.empty() && evaluateAssuming(withinBlocks, shapes, last, assumptions, lastBlock, f)) {
    f.assumptions.push_back(where);
    f.evaluatedWhereGuardsPass = lastBlock + "; " + where;
    return true;
  }
  if (evaluateWithSmallGuardValues(access, shapes, opts, assumptions, f))
    return true;
  f = before;
  return false;
}

// What evaluateWhereGuardsPassImpl left in the fields it writes, for an
// access of the same fingerprint and the same state before it.
struct GuardsPassOutcome {
  bool evaluated = false;
  bool guardsReplaced = false; // retry 1 kept: the access lost its block-selecting guards
  std::vector<WarpAccessEval> evals;
  int worstEval = -1;
  std::vector<std::string> assumptions;
  std::shared_ptr<const UniformSweep> uniformSweep; // set by a retry; unset: f's own is kept
  std::string guardValueAssumed, evaluatedWhereGuardsPass;
};

// Per thread (units are analyzed in parallel), for the whole run, bounded
// like the evaluation memo: a stencil kernel repeats the same unreached
// access hundreds of times (sw4ck: its retries were 17% of the file's time,
// each retry a fingerprint and a copy of the memoized evaluation).
struct GuardsPassMemo {
  std::unordered_map<std::string, GuardsPassOutcome> byKey;
  size_t samples = 0;
  static constexpr size_t kMaxSamples = 200000, kMaxEntries = 20000;
};

// The key: everything the retries read of the access, the shapes and the
// options, and the fields of f they start from (the assumptions they keep,
// the markers they test).
std::string guardsPassKey(const GuardedAccess &access, const std::vector<BlockShape> &shapes,
                          const EvaluationOptions &opts, const MemoryAccess &f) {
  std::string key = accessFingerprint(access, f.space, shapes, opts);
  key += "|before" + std::to_string(f.evals.size()) + ',' + std::to_string(f.worstEval) + '|' + f.guardValueAssumed +
         '|' + f.evaluatedWhereGuardsPass + '|';
  for (const std::string &a : f.assumptions) {
    key += a;
    key += '\x1f';
  }
  return key;
}

} // namespace

bool evaluateWhereGuardsPass(GuardedAccess &access, const std::vector<BlockShape> &shapes,
                             const EvaluationOptions &opts, MemoryAccess &f) {
  thread_local GuardsPassMemo memo;
  std::string key = guardsPassKey(access, shapes, opts, f);
  auto it = memo.byKey.find(key);
  if (it == memo.byKey.end()) {
    // Run without f's sweep, so that the outcome says whether a retry set
    // one (the last retry with a sweep wins; none: f's stays).
    MemoryAccess scratch = f;
    scratch.uniformSweep.reset();
    GuardsPassOutcome o;
    GuardedAccess probe = access;
    o.evaluated = evaluateWhereGuardsPassImpl(probe, shapes, opts, scratch);
    o.guardsReplaced = probe.guards != access.guards;
    if (o.evaluated) {
      o.evals = std::move(scratch.evals);
      o.worstEval = scratch.worstEval;
      o.assumptions = std::move(scratch.assumptions);
      o.uniformSweep = std::move(scratch.uniformSweep);
      o.guardValueAssumed = std::move(scratch.guardValueAssumed);
      o.evaluatedWhereGuardsPass = std::move(scratch.evaluatedWhereGuardsPass);
    }
    size_t samples = o.uniformSweep ? o.uniformSweep->samples.size() : 0;
    if (memo.samples + samples > GuardsPassMemo::kMaxSamples || memo.byKey.size() >= GuardsPassMemo::kMaxEntries) {
      memo.byKey.clear();
      memo.samples = 0;
    }
    memo.samples += samples;
    it = memo.byKey.emplace(std::move(key), std::move(o)).first;
  }
  const GuardsPassOutcome &o = it->second;
  if (!o.evaluated)
    return false;
  if (o.guardsReplaced) {
    // This access's own guards (its loops are its own objects), split as
    // the retry that was kept split them.
    std::vector<ExprRef> blockSelecting, rest;
    splitBlockSelectingGuards(access, blockSelecting, rest);
    access.guards = rest;
  }
  f.evals = o.evals;
  f.worstEval = o.worstEval;
  f.assumptions = o.assumptions;
  if (o.uniformSweep)
    f.uniformSweep = o.uniformSweep;
  f.guardValueAssumed = o.guardValueAssumed;
  f.evaluatedWhereGuardsPass = o.evaluatedWhereGuardsPass;
  return true;
}

} // namespace warplint

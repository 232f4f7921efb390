#include "analyzer/warp/FlatExpr.h"
#include "analyzer/Deadline.h"
#include "analyzer/model/WrappingArith.h"

#include <algorithm>

namespace warplint {

FlatExpr::FlatExpr(const IndexExpr &root, const std::vector<int> &sweptIds, const std::vector<int> &sweptLoops,
                   bool threadInputs, unsigned threadDims)
    : sweptIds_(sweptIds), sweptLoops_(sweptLoops), threadInputs_(threadInputs), threadDims_(threadDims) {
  root_ = compile(root);
  columnarAll_.resize(code_.size());
  for (size_t i = 0; i < code_.size(); ++i)
    columnarAll_[i] = sweptMask_[i] != 0;
  if (threadInputs_)
    splitByThread();
  vals_.assign(code_.size(), 0);
  size_t slots = sweptIds_.size() + sweptLoops_.size() + (threadInputs_ ? 3 : 0);
  last_.assign(slots, 0);
  if (slots <= 4)
    byChanged_.resize(size_t{1} << slots);
  for (size_t i = 0; i < code_.size(); ++i)
    if (code_[i].kind == Kind::Loop && code_[i].slot < 0)
      loops_.push_back(static_cast<int>(i));
  loopK_.assign(code_.size(), 0);
  seen_.clear();
}

int FlatExpr::add(Instr in, uint64_t mask) {
  bool swept = mask != 0;
  code_.push_back(in);
  sweptMask_.push_back(mask);
  int i = static_cast<int>(code_.size()) - 1;
  (swept ? sweptOrder_ : boundOrder_).push_back(i);
  return i;
}

// Post-order, so that operands come before their users; a node shared by
// several parents (the same pointer) is compiled once.
int FlatExpr::compile(const IndexExpr &e) {
  if (auto it = seen_.find(&e); it != seen_.end())
    return it->second;
  Instr in;
  uint64_t swept = 0; // the swept slots this instruction reads, through its operands too
  switch (e.op) {
  case ExprOp::Const:
    in.kind = Kind::Const;
    in.value = e.value;
    break;
  case ExprOp::Unknown:
    in.kind = Kind::Fail;
    break;
  case ExprOp::Sym:
    in.index = e.sym.index;
    switch (e.sym.kind) {
    case SymbolKind::ThreadIdx:
      if (threadInputs_ && e.sym.index >= 0 && e.sym.index < 3 && ((threadDims_ >> e.sym.index) & 1)) {
        in.kind = Kind::Swept;
        in.index = static_cast<int>(sweptIds_.size() + sweptLoops_.size()) + e.sym.index;
        swept = in.index < 64 ? uint64_t{1} << in.index : ~uint64_t{0};
      } else {
        in.kind = Kind::Thread;
      }
      break;
    case SymbolKind::BlockIdx: in.kind = Kind::BlockIdx; break;
    case SymbolKind::BlockDim: in.kind = Kind::BlockDim; break;
    case SymbolKind::GridDim: in.kind = Kind::GridDim; break;
    case SymbolKind::Param: in.kind = Kind::Param; break;
    case SymbolKind::Uniform: {
      auto slot = std::find(sweptIds_.begin(), sweptIds_.end(), e.sym.index);
      if (slot != sweptIds_.end()) {
        in.kind = Kind::Swept;
        in.index = static_cast<int>(slot - sweptIds_.begin());
        swept = in.index < 64 ? uint64_t{1} << in.index : ~uint64_t{0};
      } else {
        in.kind = Kind::Uniform;
      }
      break;
    }
    default: in.kind = Kind::Fail; break;
    }
    break;
  case ExprOp::LoopVar:
    in.kind = Kind::Loop;
    in.op = e.loop->stepOp;
    in.index = e.loop->loopId;
    in.a = compile(*e.loop->init);
    in.b = compile(*e.loop->step);
    swept = sweptMask_[in.a] | sweptMask_[in.b];
    if (auto j = std::find(sweptLoops_.begin(), sweptLoops_.end(), in.index); j != sweptLoops_.end()) {
      in.slot = static_cast<int>(sweptIds_.size() + (j - sweptLoops_.begin()));
      swept |= in.slot < 64 ? uint64_t{1} << in.slot : ~uint64_t{0};
    }
    break;
  default:
    if (e.operands.size() > 3) {
      in.kind = Kind::Fail;
      break;
    }
    in.kind = Kind::Op;
    in.op = e.op;
    int *slots[3] = {&in.a, &in.b, &in.c};
    for (size_t i = 0; i < e.operands.size(); ++i) {
      *slots[i] = compile(*e.operands[i]);
      swept |= sweptMask_[*slots[i]];
    }
    break;
  }
  int i = add(in, swept);
  seen_[&e] = i;
  return i;
}

bool FlatExpr::run(size_t i, const int64_t *values) {
  const Instr &in = code_[i];
  int64_t &out = vals_[i];
  switch (in.kind) {
  case Kind::Const: out = in.value; return true;
  case Kind::Fail: return false;
  case Kind::Thread: out = binding_->threadIdx[in.index]; return true;
  case Kind::BlockIdx: out = binding_->blockIdx[in.index]; return true;
  case Kind::BlockDim: out = binding_->blockDim[in.index]; return true;
  case Kind::GridDim: out = binding_->gridDim[in.index]; return true;
  case Kind::Param: {
    const Binding &b = *binding_;
    auto it = b.paramOverride.find(in.index);
    out = it != b.paramOverride.end() ? it->second : b.paramValue;
    return true;
  }
  case Kind::Uniform: {
    const Binding &b = *binding_;
    auto it = b.uniformOverride.find(in.index);
    out = it != b.uniformOverride.end() ? it->second : b.paramValue;
    return true;
  }
  case Kind::Swept: out = values[in.index]; return true;
  case Kind::Loop:
    return loopValue(in.op, vals_[in.a], vals_[in.b], in.slot >= 0 ? values[in.slot] : loopK_[i], out);
  case Kind::Op: break;
  }
  return applyOp(in.op, in.a >= 0 ? vals_[in.a] : 0, in.b >= 0 ? vals_[in.b] : 0, in.c >= 0 ? vals_[in.c] : 0, out);
}

// A loop variable at iteration k from its initial value x and step.
bool FlatExpr::loopValue(ExprOp op, int64_t x, int64_t step, int64_t k, int64_t &out) {
  // As loopValueAt: a closed form for + and -, else step by step.
  // Wrapping and checked arithmetic, as evaluate(): WrappingArith.h.
  if (op == ExprOp::Add) {
    out = wrapAdd(x, wrapMul(k, step));
    return true;
  }
  if (op == ExprOp::Sub) {
    out = wrapSub(x, wrapMul(k, step));
    return true;
  }
  // Closed forms of the steps below, equal to them bit for bit (a sweep asks
  // for every iteration of a `stride *= 2` loop at every lane and sample:
  // 7% of HeCBench tridiagonal's time went to stepping).
  if (k <= 0) {
    out = x;
    return true;
  }
  if (op == ExprOp::Mul) { // x * step^k modulo 2^64, as k wrapping products
    uint64_t power = 1, base = static_cast<uint64_t>(step);
    for (int64_t e = k; e > 0; e >>= 1, base *= base)
      if (e & 1)
        power *= base;
    out = wrapMul(x, static_cast<int64_t>(power));
    return true;
  }
  if (op == ExprOp::Shl || op == ExprOp::Shr) {
    if (step < 0 || step > 62)
      return false;
    // k shifts by `step` are one shift by step*k; past 63 bits a left shift
    // leaves 0 and an arithmetic right shift the sign.
    int64_t total = step == 0 ? 0 : (k >= 64 ? 64 : step * k);
    if (op == ExprOp::Shl)
      out = total >= 64 ? 0 : static_cast<int64_t>(static_cast<uint64_t>(x) << total);
    else
      out = x >> (total >= 63 ? 63 : total);
    return true;
  }
  for (int64_t j = 0; j < k; ++j) {
    switch (op) {
    case ExprOp::Mul: x = wrapMul(x, step); break;
    case ExprOp::Div: if (!divisible(x, step)) return false; x /= step; break;
    case ExprOp::Shl: if (step < 0 || step > 62) return false; x = wrapShl(x, step); break;
    case ExprOp::Shr: if (step < 0 || step > 62) return false; x >>= step; break;
    default: return false;
    }
    // A fixed point: the step was valid once, so it is at every later
    // iteration, and the value no longer changes (0 under * / << >>, -1
    // under >>, anything under * 1 and / 1).
    if (x == 0 || (op == ExprOp::Shr && x == -1) || ((op == ExprOp::Mul || op == ExprOp::Div) && step == 1))
      break;
  }
  out = x;
  return true;
}

namespace {

// One operator on operand values, as evaluate() computes it; false where it
// has no value. A template, so that atColumns' loops over the samples
// dispatch on the operator once, not per sample.
template <ExprOp Op> inline bool applyOpT(int64_t v0, int64_t v1, int64_t v2, int64_t &out) {
  switch (Op) {
  case ExprOp::Neg: out = wrapNeg(v0); break;
  case ExprOp::Not: out = v0 == 0; break;
  case ExprOp::BitNot: out = ~v0; break;
  case ExprOp::Add: out = wrapAdd(v0, v1); break;
  case ExprOp::Sub: out = wrapSub(v0, v1); break;
  case ExprOp::Mul: out = wrapMul(v0, v1); break;
  case ExprOp::Div: if (!divisible(v0, v1)) return false; out = v0 / v1; break;
  case ExprOp::Rem: if (!divisible(v0, v1)) return false; out = v0 % v1; break;
  case ExprOp::Shl: if (v1 < 0 || v1 > 62) return false; out = wrapShl(v0, v1); break;
  case ExprOp::Shr: if (v1 < 0 || v1 > 62) return false; out = v0 >> v1; break;
  case ExprOp::And: out = v0 & v1; break;
  case ExprOp::Or: out = v0 | v1; break;
  case ExprOp::Xor: out = v0 ^ v1; break;
  case ExprOp::Min: out = std::min(v0, v1); break;
  case ExprOp::Max: out = std::max(v0, v1); break;
  case ExprOp::Lt: out = v0 < v1; break;
  case ExprOp::Le: out = v0 <= v1; break;
  case ExprOp::Gt: out = v0 > v1; break;
  case ExprOp::Ge: out = v0 >= v1; break;
  case ExprOp::Eq: out = v0 == v1; break;
  case ExprOp::Ne: out = v0 != v1; break;
  case ExprOp::LAnd: out = v0 && v1; break;
  case ExprOp::LOr: out = v0 || v1; break;
  case ExprOp::Select: out = v0 ? v1 : v2; break;
  default: return false;
  }
  return true;
}

// The operators an Op instruction can hold, for the dispatch below.
#define WARPLINT_FLAT_OPS(X)                                                                                         \
  X(Neg) X(Not) X(BitNot) X(Add) X(Sub) X(Mul) X(Div) X(Rem) X(Shl) X(Shr) X(And) X(Or) X(Xor) X(Min) X(Max) X(Lt)   \
      X(Le) X(Gt) X(Ge) X(Eq) X(Ne) X(LAnd) X(LOr) X(Select)

// out[j] = op(a[j * sa], b[j * sb], c[j * sc]) where fail[j] is clear; a
// point where op has no value fails.
template <ExprOp Op>
void mapOp(size_t n, const int64_t *a, size_t sa, const int64_t *b, size_t sb, const int64_t *c, size_t sc, int64_t *out,
           char *fail) {
  for (size_t j = 0; j < n; ++j)
    if (!fail[j] && !applyOpT<Op>(a[j * sa], b[j * sb], c[j * sc], out[j]))
      fail[j] = 1, out[j] = 0;
}

void mapOp(ExprOp op, size_t n, const int64_t *a, size_t sa, const int64_t *b, size_t sb, const int64_t *c, size_t sc,
           int64_t *out, char *fail) {
  switch (op) {
#define WARPLINT_MAP_CASE(O)                                                                                         \
  case ExprOp::O: mapOp<ExprOp::O>(n, a, sa, b, sb, c, sc, out, fail); return;
    WARPLINT_FLAT_OPS(WARPLINT_MAP_CASE)
#undef WARPLINT_MAP_CASE
  default:
    for (size_t j = 0; j < n; ++j)
      fail[j] = 1, out[j] = 0;
  }
}

} // namespace

bool FlatExpr::applyOp(ExprOp op, int64_t v0, int64_t v1, int64_t v2, int64_t &out) {
  switch (op) {
#define WARPLINT_APPLY_CASE(O)                                                                                       \
  case ExprOp::O: return applyOpT<ExprOp::O>(v0, v1, v2, out);
    WARPLINT_FLAT_OPS(WARPLINT_APPLY_CASE)
#undef WARPLINT_APPLY_CASE
  default: return false;
  }
}

bool FlatExpr::bind(const Binding &b) {
  checkDeadline(); // the sweeps' inner loops: --time-limit stops here
  binding_ = &b;
  bound_ = false;
  threadPrepared_ = false;
  lastValid_ = false;
  for (int i : loops_) {
    auto it = b.loopIter.find(code_[i].index);
    if (it == b.loopIter.end())
      return false;
    loopK_[i] = it->second;
  }
  for (int i : boundOrder_)
    if (!run(static_cast<size_t>(i), nullptr))
      return false;
  bound_ = true;
  lastValid_ = false;
  return true;
}

std::optional<int64_t> FlatExpr::at(const int64_t *values) {
  checkDeadline();
  if (!bound_)
    return std::nullopt;
  // Only the instructions that read a swept value that changed since the
  // last call run again (the samples vary the first symbol fastest).
  uint64_t changed = lastValid_ ? 0 : ~uint64_t{0};
  for (size_t j = 0; j < last_.size() && lastValid_; ++j)
    if (last_[j] != values[j])
      changed |= j < 64 ? uint64_t{1} << j : ~uint64_t{0};
  if (changed == 0)
    return lastResult_;
  std::copy(values, values + last_.size(), last_.begin());
  lastValid_ = true;
  lastResult_ = std::nullopt;
  const std::vector<int> *order = &sweptOrder_;
  if (changed < byChanged_.size()) { // few swept symbols: the instructions to run, per change
    auto &list = byChanged_[changed];
    if (list.empty())
      for (int i : sweptOrder_)
        if (sweptMask_[i] & changed)
          list.push_back(i);
    order = &list;
  }
  for (int i : *order)
    if ((sweptMask_[i] & changed) && !run(static_cast<size_t>(i), values)) {
      lastValid_ = false; // a failed run leaves later values stale
      return std::nullopt;
    }
  lastResult_ = vals_[root_];
  return lastResult_;
}

// An operand of a column instruction: its column when it reads a swept
// value, else its bound value repeated (stride 0).
#define WARPLINT_COLUMN_OPERAND(idx, p, stride)                                                                      \
  do {                                                                                                               \
    static const int64_t zero = 0;                                                                                   \
    if ((idx) < 0)                                                                                                   \
      p = &zero, stride = 0;                                                                                         \
    else if ((threadColumns_ ? columnarThreads_ : columnarAll_)[idx])                                                \
      p = cols_[idx].data(), stride = 1;                                                                             \
    else                                                                                                             \
      p = &vals_[idx], stride = 0;                                                                                   \
  } while (0)

void FlatExpr::runColumn(int i, const int64_t *const *columns, size_t n) {
  const Instr &in = code_[i];
  std::vector<int64_t> &col = cols_[i];
  col.resize(n);
  if (in.kind == Kind::Swept) {
    std::copy(columns[in.index], columns[in.index] + n, col.begin());
    return;
  }
  const int64_t *pa, *pb, *pc;
  size_t sa, sb, sc;
  WARPLINT_COLUMN_OPERAND(in.a, pa, sa);
  WARPLINT_COLUMN_OPERAND(in.b, pb, sb);
  WARPLINT_COLUMN_OPERAND(in.c, pc, sc);
  if (in.kind == Kind::Loop) {
    const int64_t *ks = in.slot >= 0 ? columns[in.slot] : &loopK_[i];
    size_t sk = in.slot >= 0 ? 1 : 0;
    for (size_t j = 0; j < n; ++j)
      if (!fail_[j] && !loopValue(in.op, pa[j * sa], pb[j * sb], ks[j * sk], col[j]))
        fail_[j] = 1, col[j] = 0;
    return;
  }
  // Op (the only other kind that can read a swept value)
  mapOp(in.op, n, pa, sa, pb, sb, pc, sc, col.data(), fail_.data());
}

// Every instruction feeds the root: a point where one failed has no value.
void FlatExpr::rootColumn(size_t n, int64_t *out, char *ok) const {
  const int64_t *root;
  size_t stride;
  WARPLINT_COLUMN_OPERAND(root_, root, stride);
  for (size_t j = 0; j < n; ++j) {
    ok[j] = !fail_[j];
    out[j] = fail_[j] ? 0 : root[j * stride];
  }
}

#undef WARPLINT_COLUMN_OPERAND

void FlatExpr::atColumns(const int64_t *const *columns, size_t n, int64_t *out, char *ok) {
  checkDeadline();
  lastValid_ = false; // at()'s last values are not kept here
  threadPrepared_ = false;
  if (!bound_) {
    std::fill(ok, ok + n, 0);
    return;
  }
  fail_.assign(n, 0);
  if (cols_.size() < code_.size())
    cols_.resize(code_.size());
  threadColumns_ = false;
  for (int i : sweptOrder_)
    runColumn(i, columns, n);
  rootColumn(n, out, ok);
}

// The swept instructions that read threadIdx and the others, and which have
// a column in atThreadColumns (those reading a swept symbol or loop; what
// reads only threadIdx is one value per lane): fixed by the expression.
void FlatExpr::splitByThread() {
  size_t first = sweptIds_.size() + sweptLoops_.size(); // the threadIdx slots follow
  uint64_t threadBits = first + 3 <= 63 ? uint64_t{7} << first : ~uint64_t{0} << std::min<size_t>(first, 63);
  // Bit 63 stands for every slot past 62: such an instruction may read threadIdx.
  threadBits |= uint64_t{1} << 63;
  uint64_t sampleBits = ~threadBits | (uint64_t{1} << 63);
  columnarThreads_.assign(code_.size(), 0);
  for (int i : sweptOrder_) {
    columnarThreads_[i] = (sweptMask_[i] & sampleBits) != 0;
    (sweptMask_[i] & threadBits ? threadOrder_ : sampleOrder_).push_back(i);
  }
  threadValues_.assign(first + 3, 0);
}

void FlatExpr::prepareThreadColumns(const int64_t *const *columns, size_t n) {
  checkDeadline();
  lastValid_ = false;
  threadPrepared_ = bound_ && threadInputs_;
  threadPoints_ = n;
  preparedColumns_ = columns;
  if (!threadPrepared_)
    return;
  fail_.assign(n, 0);
  if (cols_.size() < code_.size())
    cols_.resize(code_.size());
  threadColumns_ = true;
  for (int i : sampleOrder_)
    runColumn(i, columns, n);
  sampleFail_ = fail_;
}

void FlatExpr::atThreadColumns(const int64_t thread[3], int64_t *out, char *ok) {
  size_t n = threadPoints_;
  if (!threadPrepared_) {
    std::fill(ok, ok + n, 0);
    return;
  }
  fail_ = sampleFail_;
  std::copy(thread, thread + 3, threadValues_.end() - 3); // the threadIdx slots come last
  for (int i : threadOrder_) {
    if (columnarThreads_[i]) {
      runColumn(i, preparedColumns_, n);
    } else if (!run(static_cast<size_t>(i), threadValues_.data())) { // fails at every point
      std::fill(ok, ok + n, 0);
      std::fill(out, out + n, 0);
      return;
    }
  }
  rootColumn(n, out, ok);
}

} // namespace warplint

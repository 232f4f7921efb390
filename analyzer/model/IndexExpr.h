// Symbolic index expressions over the CUDA built-in variables, loop
// iterations and kernel parameters. An expression is a small immutable tree
// that can be evaluated for one lane under a binding of every symbol; an
// `Unknown` leaf (a value the analyzer could not pin down) makes evaluation
// fail, so unknown indices are never guessed.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

enum class SymbolKind {
  ThreadIdx, // per lane
  BlockIdx,
  BlockDim,
  GridDim,
  Param,   // a scalar kernel parameter (uniform, value unknown)
  Uniform, // a value every lane of a warp computes alike that the analyzer
           // cannot pin down: a load from a warp-uniform address, a call on
           // warp-uniform arguments, a local every assignment of which is uniform
};

struct Symbol {
  SymbolKind kind;
  int index = 0;    // dimension 0..2 for the built-ins; loop or parameter id
  std::string name{}; // for printing: "tx", "blockDim.x", "n", "k0"
  bool boolean = false; // a bool parameter: 0 or 1
  bool operator<(const Symbol &o) const {
    return kind != o.kind ? kind < o.kind : index < o.index;
  }
  bool operator==(const Symbol &o) const { return kind == o.kind && index == o.index; }
};

enum class ExprOp {
  Const, Sym, Unknown,
  Add, Sub, Mul, Div, Rem, Shl, Shr, And, Or, Xor, Min, Max,
  Neg, Not, BitNot,
  Lt, Le, Gt, Ge, Eq, Ne, LAnd, LOr,
  Select,  // operands: cond, then, else
  LoopVar, // value of a loop's induction variable at the loop's current iteration
};

class IndexExpr;
using ExprRef = std::shared_ptr<const IndexExpr>;

// How a loop's induction variable evolves: v0 = init (may depend on lanes),
// v_{k+1} = v_k <op> step. Evaluated by stepping, so `s *= 2` and `s >>= 1`
// are as exact as `i += 32`.
struct LoopRecurrence {
  int loopId = 0;
  std::string var;
  ExprRef init;
  ExprOp stepOp = ExprOp::Add; // Add, Sub, Mul, Div, Shl, Shr
  ExprRef step;
  ExprRef cond; // over the LoopVar itself; null if none
};

class IndexExpr {
public:
  ExprOp op = ExprOp::Const;
  int64_t value = 0;             // Const
  Symbol sym{SymbolKind::ThreadIdx}; // Sym
  std::shared_ptr<const LoopRecurrence> loop; // LoopVar
  std::string unknownReason;     // Unknown
  std::vector<ExprRef> operands;

  static ExprRef constant(int64_t v);
  static ExprRef symbol(Symbol s);
  static ExprRef unknown(std::string why);
  static ExprRef loopVar(std::shared_ptr<const LoopRecurrence> rec);
  static ExprRef make(ExprOp op, std::vector<ExprRef> operands);
  static ExprRef add(ExprRef a, ExprRef b) { return make(ExprOp::Add, {a, b}); }
  static ExprRef mul(ExprRef a, ExprRef b) { return make(ExprOp::Mul, {a, b}); }

  bool isKnown() const; // no Unknown leaf anywhere
  bool dependsOn(SymbolKind k) const;
  // Every lane of a warp computes the same value: known, and no threadIdx.
  bool isWarpUniform() const { return isKnown() && !dependsOn(SymbolKind::ThreadIdx); }
  // Whether a loop variable appears (its value changes from iteration to iteration).
  bool dependsOnLoop() const;
  void collectSymbols(std::vector<Symbol> &out) const;
  void collectLoops(std::vector<std::shared_ptr<const LoopRecurrence>> &out) const;
  std::string str() const;
  // The first Unknown leaf's reason, for reports.
  std::string firstUnknownReason() const;
};

// Values of every symbol for one lane, and the current iteration of each loop.
struct Binding {
  int64_t threadIdx[3] = {0, 0, 0};
  int64_t blockIdx[3] = {0, 0, 0};
  int64_t blockDim[3] = {1, 1, 1};
  int64_t gridDim[3] = {1, 1, 1};
  std::map<int, int64_t> loopIter; // loop id -> k
  int64_t paramValue = 1024;       // every scalar parameter and uniform unknown
  std::map<int, int64_t> paramOverride;
  std::map<int, int64_t> uniformOverride; // Uniform symbol id -> value
};

// `e` with every symbol `from` replaced by `to` (loop recurrences' init and
// step included).
ExprRef substitute(const ExprRef &e, const Symbol &from, const ExprRef &to);

// The coefficient of threadIdx.<dim> in `e` when `e` is affine in it (the
// other symbols may appear in the coefficient: `4*size` for
// `4*(size*threadIdx.x + t)`); null when `e` is not affine in it.
ExprRef laneCoefficient(const ExprRef &e, int dim);

// Evaluates `e` under `b`; nullopt when an Unknown leaf, a division by zero or
// an undefined shift is reached.
std::optional<int64_t> evaluate(const IndexExpr &e, const Binding &b);

// Value of a loop's induction variable at iteration k, or nullopt.
std::optional<int64_t> loopValueAt(const LoopRecurrence &rec, const Binding &b, int64_t k);

} // namespace warplint

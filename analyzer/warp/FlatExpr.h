// An index expression compiled once into a flat list of instructions, for
// the evaluator's inner loops: the same expression is evaluated for every
// lane, loop iteration and swept value of a warp-uniform unknown, and the
// tree walk (with its map look-ups of loop iterations and parameters) was
// most of warplint's time on files such as Rodinia's heartwall.
//
// The values agree with evaluate() on every binding (tests/unit): evaluate()
// evaluates every operand of every node and fails when any node fails, so a
// flat pass that fails when any instruction fails gives the same result in
// whatever order the instructions run. That lets the instructions that do
// not read a swept symbol run once per binding (bind) and only the others
// once per swept value (at).
#pragma once

#include "analyzer/model/IndexExpr.h"

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace warplint {

class FlatExpr {
public:
  // `sweptIds`: ids of SymbolKind::Uniform symbols whose values are given to
  // at() (parallel to sweptIds) instead of being read from the binding.
  // `sweptLoops`: ids of loops whose iteration is given to at() too, after
  // the swept symbols' values (values[sweptIds.size() + j] for sweptLoops[j]).
  // `threadInputs`: threadIdx.x, .y, .z are given to at() too, after the
  // swept loops (values[sweptIds.size() + sweptLoops.size() + d]), so that
  // one bind() serves every thread of a block and each thread runs only the
  // instructions that read its threadIdx (WarpExchanges).
  // `threadDims`: with threadInputs, the threadIdx dimensions given to at()
  // (bit d for dimension d); the others are read from the binding, as
  // without threadInputs (a dimension no lane of a warp varies along).
  FlatExpr(const IndexExpr &root, const std::vector<int> &sweptIds, const std::vector<int> &sweptLoops = {},
           bool threadInputs = false, unsigned threadDims = 7);

  // Binds every symbol but the swept ones from `b` and runs the
  // instructions that do not read a swept symbol; false when one of them
  // fails (then at() fails for every value).
  bool bind(const Binding &b);
  // The expression's value with the swept symbols (then the swept loops'
  // iterations) at `values`, under the last bind(); nullopt where evaluate()
  // gives nullopt.
  std::optional<int64_t> at(const int64_t *values);
  // bind(b) and at(values) together.
  std::optional<int64_t> evaluate(const Binding &b, const int64_t *values) {
    if (!bind(b))
      return std::nullopt;
    return at(values);
  }

  // at() at n points at once, under the last bind(): the swept slots' values
  // at point j are columns[slot][j]; out[j] is the value and ok[j] 0 where
  // at() gives nullopt. Each instruction runs once over the n points (the
  // uniform sweep's samples) instead of n calls each running every one.
  void atColumns(const int64_t *const *columns, size_t n, int64_t *out, char *ok);

  // atColumns for every thread of a warp, for an expression compiled with
  // threadInputs: prepareThreadColumns runs, under the last bind(), the
  // instructions that read the swept symbols or loops but no threadIdx over
  // the n points once (`columns`: one per swept symbol, then per swept loop); atThreadColumns then gives one
  // thread's values at the n points running only the instructions that read
  // threadIdx (in `(x + nx) % nx + (y + z * ny) * nx` only the x part runs
  // per lane; what reads threadIdx but no swept symbol runs once per lane,
  // not per point). The values are atColumns' with threadIdx at `thread`.
  // `columns` must stay valid until the last atThreadColumns.
  void prepareThreadColumns(const int64_t *const *columns, size_t n);
  void atThreadColumns(const int64_t thread[3], int64_t *out, char *ok);

  // Whether the expression reads a swept symbol at all.
  bool readsSwept() const { return !sweptOrder_.empty(); }

private:
  enum class Kind { Const, Fail, Thread, BlockIdx, BlockDim, GridDim, Param, Uniform, Swept, Loop, Op };
  struct Instr {
    Kind kind = Kind::Const;
    ExprOp op = ExprOp::Const; // Op: the operator; Loop: the step operator
    int index = 0;             // symbol index, loop id or swept slot
    int slot = -1;             // Loop: the slot of its iteration when swept
    int a = -1, b = -1, c = -1; // operands (Loop: init, step)
    int64_t value = 0;         // Const
  };

  int compile(const IndexExpr &e);
  static bool loopValue(ExprOp op, int64_t x, int64_t step, int64_t k, int64_t &out);
  static bool applyOp(ExprOp op, int64_t v0, int64_t v1, int64_t v2, int64_t &out);
  int add(Instr in, uint64_t sweptMask);
  bool run(size_t i, const int64_t *values);
  // Instruction i's column over n points (cols_[i]), failing points in fail_.
  void runColumn(int i, const int64_t *const *columns, size_t n);
  void rootColumn(size_t n, int64_t *out, char *ok) const;

  std::vector<int> sweptIds_, sweptLoops_;
  bool threadInputs_ = false;
  unsigned threadDims_ = 7;
  std::vector<Instr> code_;
  std::vector<int64_t> vals_;    // each instruction's value under the binding
  std::vector<int64_t> loopK_;   // Loop instructions: the iteration bound
  std::vector<int> boundOrder_;  // instructions that read no swept symbol, in order
  std::vector<int> sweptOrder_;  // the others, in order
  std::vector<int> loops_;       // the Loop instructions
  std::vector<uint64_t> sweptMask_; // per instruction: the swept slots it reads (bit 63: any beyond)
  std::vector<int64_t> last_;      // the values of the last at(), while lastValid_
  std::vector<std::vector<int>> byChanged_; // by the mask of changed slots (up to 4 slots)
  bool lastValid_ = false;
  std::optional<int64_t> lastResult_;
  std::unordered_map<const IndexExpr *, int> seen_;
  std::vector<std::vector<int64_t>> cols_; // atColumns: each swept instruction's values
  std::vector<char> fail_;                 // atColumns: the points where one failed
  // With threadInputs (splitByThread): the swept instructions that read
  // threadIdx and the others, and the points where one of the others failed
  // in the last prepareThreadColumns.
  void splitByThread();
  std::vector<int> threadOrder_, sampleOrder_;
  // Per instruction, whether it has a column (else its value is in vals_):
  // for atColumns every swept one, for atThreadColumns those reading a swept
  // symbol or loop; threadColumns_ says which is in use (a flag, not a
  // pointer: FlatExprs are moved into vectors).
  std::vector<char> columnarAll_, columnarThreads_;
  bool threadColumns_ = false;
  std::vector<int64_t> threadValues_;  // at()'s inputs for atThreadColumns' scalar runs
  std::vector<char> sampleFail_;
  size_t threadPoints_ = 0;
  const int64_t *const *preparedColumns_ = nullptr; // the caller's, alive until the last atThreadColumns
  bool threadPrepared_ = false;
  const Binding *binding_ = nullptr;
  bool bound_ = false;
  int root_ = -1;
};

} // namespace warplint

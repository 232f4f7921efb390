// Where a local is assigned, and which conditions decide whether a statement
// runs: what deciding that a local is warp-uniform needs. And the values the
// locals hold at each point of the kernel walk (reaching definitions): the
// dataflow half of the walker, which KernelWalker drives statement by
// statement.
#pragma once

#include "analyzer/model/ExprTranslator.h"
#include "analyzer/model/LoopRecurrences.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace warplint {

// One write of a variable: its initializer, `v = e`, `v op= e`, `++v`.
struct Assignment {
  const clang::Stmt *node = nullptr; // the VarDecl's DeclStmt or the writing expression
  const clang::Expr *value = nullptr; // initializer or right-hand side; null for ++/--
};

// Every variable's assignments in `body`, found in one walk (each list in
// source order), and the loop bodies already asked whether
// lanes may leave them early: what controllingConditions keeps when asked
// about many statements of one body.
struct AssignmentIndex {
  const clang::Stmt *body = nullptr;
  llvm::DenseMap<const clang::VarDecl *, std::vector<Assignment>> byVar;
  llvm::DenseMap<const clang::Stmt *, bool> earlyExits;
  const std::vector<Assignment> &of(const clang::VarDecl *v) const;
};
std::shared_ptr<AssignmentIndex> indexAssignments(const clang::Stmt *body);

// The conditions of the statements and operators (`if`, loops, `switch`,
// `?:`, `&&`, `||`) whose controlled part holds `node`, innermost first, up
// to `body`. `lanesMayLeave` is set when a loop holding `node` has a
// `break`, `continue`, `return` or `goto`: lanes may then run different
// iterations whatever the conditions. `bodyParents`: `body`'s parent map
// (null: the unit's ASTContext map, which covers the whole translation unit).
std::vector<const clang::Expr *> controllingConditions(clang::ASTContext &ctx, const clang::Stmt *node,
                                                       const clang::Stmt *body, bool &lanesMayLeave,
                                                       AssignmentIndex *kept = nullptr,
                                                       const clang::ParentMap *bodyParents = nullptr);

// The value each tracked local (an integer local or parameter written after
// its declaration, whose address does not escape) holds at the walker's
// current point, kept in the translator's bound values so that translating
// an index reads the reaching definition. A value that cannot be followed
// (assigned on some paths only, in a switch, by a loop the walker does not
// step through, or too large to carry) becomes opaque: a Uniform symbol when
// every assignment is warp-uniform, an Unknown leaf saying why otherwise.
class ReachingValues {
public:
  ReachingValues(ExprTranslator &tr, const LocalWrites &writes) : tr_(tr), writes_(writes) {}

  // Locals (and parameters) written after their declaration whose value the
  // walker follows statement by statement.
  bool tracked(const clang::VarDecl *v) const;

  // At the function's entry: tracked parameters hold their entry values.
  void bindParameters(const clang::FunctionDecl *fn);
  // Binds `v` to `value` from here on; a value the evaluator could not afford
  // (a long chain of joins) becomes opaque.
  void assign(const clang::VarDecl *v, ExprRef value);
  // A loop's induction variable: bound to its recurrence as it is.
  void bindInduction(const clang::VarDecl *v, ExprRef value) { tr_.bindLoopVar(v, std::move(value)); }

  // A write to a tracked local (`v = e`, `v op= e`, `++v`), its value
  // computed from the values before the write; `var` is null for anything else.
  struct PendingWrite {
    const clang::VarDecl *var = nullptr;
    ExprRef value;
  };
  PendingWrite writeOf(const clang::BinaryOperator *assignment);
  PendingWrite writeOf(const clang::UnaryOperator *incrementOrDecrement);
  // Applies a write once its operands have been walked.
  void commit(const PendingWrite &w) {
    if (w.value)
      assign(w.var, w.value);
  }

  // Inside a `?:` branch or the right of `&&`/`||`: assignments there happen
  // on some paths only.
  void enterConditional() { ++conditionalDepth_; }
  void leaveConditional() { --conditionalDepth_; }

  // Around an `if`: the values before it, restored for the else branch, and
  // after it those of the branch that falls through, or both joined by the
  // condition.
  const ExprTranslator::ValueMap &now() const { return tr_.boundValues(); }
  ExprTranslator &translator() { return tr_; }
  void restore(ExprTranslator::ValueMap values) { tr_.setBoundValues(std::move(values)); }
  void afterIf(const ExprRef &cond, const ExprTranslator::ValueMap &afterThen, bool thenExits, bool elseExits);

  // Every tracked variable written inside `s` becomes opaque (uniform when
  // all its assignments are).
  void forgetWrittenIn(const clang::Stmt *s, const std::string &why);

  // Binds the variables a loop body updates once per iteration to their
  // recurrences and everything else the loop writes to an opaque value.
  std::vector<CarriedVariable> enterLoopBody(const clang::Stmt *loop, const clang::Stmt *body, int loopId,
                                             ExprRef cond, const clang::VarDecl *induction);
  // After a statement of a block: a loop-carried local holds the next
  // iteration's value after its update.
  void afterStatement(const clang::Stmt *s);
  // After a loop, what it wrote holds the value the last iteration left:
  // a closed form when there is one (LoopExitValues.h), opaque otherwise.
  // `counter` and `counterRec`: a `for` loop's induction variable.
  void leaveLoop(const clang::Stmt *loop, const std::vector<CarriedVariable> &carried,
                 const clang::VarDecl *counter = nullptr, const LoopRecurrence *counterRec = nullptr);

private:
  // After an `if`: each variable the branches left differently holds
  // `cond ? then : else`, or an opaque value when that cannot be written.
  void join(const ExprRef &cond, const ExprTranslator::ValueMap &thenValues,
            const ExprTranslator::ValueMap &elseValues);
  ExprRef valueNow(const clang::VarDecl *v);
  // Whether `v` may change in `loopWrites`' loop: written there, or reached
  // through a pointer or a reference local.
  bool changesIn(const LocalWrites &loopWrites, const clang::VarDecl *v) const {
    return loopWrites.writes.lookup(v) > 0 || writes_.aliased.count(v);
  }

  ExprTranslator &tr_;
  const LocalWrites &writes_;
  std::map<const clang::Stmt *, std::pair<const clang::VarDecl *, ExprRef>> rebindAfter_;
  // Per loop being walked: the values at its entry, and the locals its body
  // sets back to their value there.
  std::map<const clang::Stmt *, ExprTranslator::ValueMap> entryValues_;
  std::map<const clang::Stmt *, std::vector<std::pair<const clang::VarDecl *, ExprRef>>> restored_;
  int conditionalDepth_ = 0; // inside a `?:` branch or the right of `&&`/`||`
};

} // namespace warplint

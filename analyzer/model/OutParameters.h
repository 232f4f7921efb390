// Integer locals a call passes by reference: `load(s, ai, bi)` with
// `__device__ void load(float *s, int &ai, int &bi)`. When the walker inlines
// the call, the callee's reference parameter follows the caller's local: it
// starts with the local's value, the callee's assignments to it are followed
// as a local's are (ReachingValues), and after the call the local holds what
// the parameter held when the callee's body ended.
//
// Only where that is sound: the local is a register nothing else reaches (no
// address taken, no reference local bound to it, no second reference
// parameter of the same call bound to it) and the callee leaves only at the
// end of its body. Otherwise the local's value after the call is unknown,
// with the reason.
#pragma once

#include "analyzer/model/ExprTranslator.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <vector>

namespace warplint {

// The return statements of a function body, those of lambdas in it left out
// (CallResults reads the returned values; a helper that returns early does
// not write its out-parameters on every path).
std::vector<const clang::ReturnStmt *> returnStatements(const clang::Stmt *body);

// An integer reference parameter of a call and what it binds.
struct ReferenceArgument {
  const clang::ParmVarDecl *param = nullptr;
  const clang::VarDecl *local = nullptr; // the caller's local or parameter; null for anything else
  const clang::Expr *arg = nullptr;
  bool writable = false; // a non-const reference: the callee may assign the local
  bool followed = false; // the parameter follows the local's (or the temporary's) value
};

// The integer reference parameters of `call` to `callee`. `callerWrites` are
// the caller's; `followsReference` tells whether one of the caller's own
// reference parameters follows a value.
std::vector<ReferenceArgument> referenceArguments(const clang::CallExpr *call, const clang::FunctionDecl *callee,
                                                  const LocalWrites &callerWrites,
                                                  const ExprTranslator &callerTranslator);

// Where the walker followed the callee's body to its end: its writes and the
// values its locals and parameters held there.
struct CalleeEnd {
  const clang::FunctionDecl *callee = nullptr;
  const LocalWrites *writes = nullptr;
  const ExprTranslator::ValueMap *values = nullptr;
  // A value there may name one of the callee's own parameters (one the call
  // gave no argument for): it means nothing to the caller.
  bool namesOwnParameters = false;
};

// A local and the value it holds after the call.
struct LocalValue {
  const clang::VarDecl *local = nullptr;
  ExprRef value;
};

// What each local `call` passes by non-const reference holds after it; `end`
// is null when the walker did not follow the callee's body. Locals the callee
// never writes are left out: they keep their values.
std::vector<LocalValue> valuesAfterCall(const clang::CallExpr *call, const std::vector<ReferenceArgument> &refs,
                                        const CalleeEnd *end);

} // namespace warplint

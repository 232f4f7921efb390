// Where a local is assigned, and which conditions decide whether a statement
// runs: what deciding that a local is warp-uniform needs.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <vector>

namespace warplint {

// One write of a variable: its initializer, `v = e`, `v op= e`, `++v`.
struct Assignment {
  const clang::Stmt *node = nullptr; // the VarDecl's DeclStmt or the writing expression
  const clang::Expr *value = nullptr; // initializer or right-hand side; null for ++/--
};

std::vector<Assignment> assignmentsOf(const clang::Stmt *body, const clang::VarDecl *v);

// The conditions of the statements and operators (`if`, loops, `switch`,
// `?:`, `&&`, `||`) whose controlled part holds `node`, innermost first, up
// to `body`. `lanesMayLeave` is set when a loop holding `node` has a
// `break`, `continue`, `return` or `goto`: lanes may then run different
// iterations whatever the conditions.
std::vector<const clang::Expr *> controllingConditions(clang::ASTContext &ctx, const clang::Stmt *node,
                                                       const clang::Stmt *body, bool &lanesMayLeave);

} // namespace warplint

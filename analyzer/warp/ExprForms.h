// Predicates on the form of symbolic index expressions, shared by the warp
// evaluator and the block enumeration: whether an expression reads some
// symbols, and whether it is affine in them.
#pragma once

#include "analyzer/model/IndexExpr.h"

#include <functional>

namespace warplint {

using SymbolTest = std::function<bool(const Symbol &)>;

// Whether `e` reads a symbol `is` picks (as collectSymbols finds them: loop
// variables through their initial value and step).
bool readsAny(const IndexExpr &e, const SymbolTest &is);

bool isThreadIdx(const Symbol &s);

// Whether `e` is affine in the symbols `is` picks, jointly, by its form:
// then e(x) = e(0) + sum_i x_i * (e(unit_i) - e(0)) exactly, and e(x) fails
// to evaluate exactly when e(0) does.
bool affineIn(const IndexExpr &e, const SymbolTest &is);

} // namespace warplint

// The block shapes a launch may use when its block size is chosen on
// different paths of the launching function:
//
//   int threads;                      dim3 block;
//   if (small) threads = 128;         if (mode == 0) block.x = 32;
//   else threads = 256;               else block.x = 256;
//   k<<<g, threads>>>(...);           k<<<g, block>>>(...);
//
// Every value that may reach the launch, over all paths from the function's
// entry, is collected per component (a write on a path that returns first
// does not reach it). The result is exact only as a set: the launch runs with
// one of the shapes, and which one is not known.
#pragma once

#include "analyzer/results/AnalysisResults.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <functional>
#include <memory>
#include <string>
#include <optional>
#include <utility>
#include <vector>

namespace warplint {

class BodyParents; // analyzer/facts/BodyParents.h

// A parameter of the launching host function that it never writes takes the
// values its callers in the unit pass (`launchAll(256)`), one more call up at
// most; the function may have callers in other units, so these shapes are
// what the unit shows, not all there are.
// A global that is not const but that nothing in the unit writes holds its
// initializer, for the same reason an assumption.
struct ReachingShapes {
  std::vector<BlockShape> shapes;
  // Empty when the launching function's own paths gave every value;
  // "caller arguments" or "unwritten global" otherwise (the first one used).
  std::string assumption;
};

// Every assignment, compound assignment and increment in `s`, in source
// order: what writes a host local, a dim3 member or a function pointer.
struct HostWrite {
  const clang::Expr *lhs = nullptr;
  const clang::Expr *rhs = nullptr; // null for ++ and --
  bool compound = false;            // +=, ++ and the like: the new value depends on the old one
};
std::vector<HostWrite> hostWritesIn(const clang::Stmt *s);

// While one of these lives on the thread, the walks over the whole unit a
// launch's shapes may need (every call of a launching host function, every
// write of a global) are made once and kept for the unit's other launches;
// the model of a unit opens one around its walk of the AST (the unit's
// launches share one AST). Without one, each launch walks the unit again.
class ReachingShapesUnitCache {
public:
  ReachingShapesUnitCache();
  ~ReachingShapesUnitCache();
  ReachingShapesUnitCache(const ReachingShapesUnitCache &) = delete;
  ReachingShapesUnitCache &operator=(const ReachingShapesUnitCache &) = delete;
  struct Data;

private:
  std::unique_ptr<Data> data_;
  Data *outer_;
};

// `integer` evaluates an expression that needs no path (a constant, a local
// initialized once) and returns nullopt otherwise; `known` are locals whose
// value the launch's position fixes (`case 256:` of `switch (threads)`).
// Nullopt when some component may hold a value that is not a known constant,
// when the function has a goto, or when more than a few shapes would result.
std::optional<ReachingShapes>
reachingBlockShapes(clang::ASTContext &ctx, const clang::FunctionDecl *fn, const clang::Stmt *launch,
                    const clang::Expr *blockArg, const std::function<std::optional<int64_t>(const clang::Expr *)> &integer,
                    const std::vector<std::pair<const clang::VarDecl *, int64_t>> &known,
                    BodyParents *bodies = nullptr);

} // namespace warplint

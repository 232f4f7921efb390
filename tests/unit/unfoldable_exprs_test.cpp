// UnfoldableExprs lets ExprTranslator skip Expr::EvaluateAsInt where it
// surely fails (issue 19): wherever it says so, clang's evaluator must fail
// too, on every integral expression of a function that mixes parameters,
// locals, const and constexpr values, short-circuits, sizeof and calls.
#include "analyzer/model/UnfoldableExprs.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Tooling/Tooling.h"
#include <gtest/gtest.h>

#include <map>
#include <string>

using namespace clang;
using namespace warplint;

namespace {

const char *kCode = R"(
constexpr int twice(int x) { return 2 * x; }
int opaque(int);
struct S { int m; static const int k = 3; };
int f(int n, const int cn, int &r, S s, int *p) {
  int local = 4;
  const int c = 5;
  constexpr int ce = 6;
  const int fromParam = n;
  volatile int v = 1;
  int sum = 0;
  sum += n + 1;             // NUM:param
  sum += local * 2;         // NUM:local
  sum += c + 1;             // NUM:const
  sum += ce * 2;            // NUM:constexpr
  sum += cn - 1;            // NUM:constparam
  sum += fromParam + 0;     // NUM:constlocal
  sum += n * 0;             // NUM:times0
  sum += (false && n) + 7;  // NUM:shortcircuit
  sum += (true || local);   // NUM:or
  sum += sizeof(n) + 1;     // NUM:sizeof
  sum += twice(c);          // NUM:call
  sum += opaque(1) + n;     // NUM:opaque
  sum += r + 1;             // NUM:reference
  sum += s.m + S::k;        // NUM:member
  sum += p[0] + 1;          // NUM:subscript
  sum += (local, 3);        // NUM:comma
  sum += -n + ~local;       // NUM:unary
  sum += n < 4 ? 1 : 2;     // NUM:conditional
  sum += v + 1;             // NUM:volatile
  return sum;
}
)";

struct Collector : RecursiveASTVisitor<Collector> {
  ASTContext &ctx;
  UnfoldableExprs unfoldable;
  int integral = 0, skipped = 0, wrong = 0;
  std::map<std::string, bool> surelyByLine; // the right-hand side of each "NUM:" line
  explicit Collector(ASTContext &c) : ctx(c), unfoldable(c) {}
  bool VisitExpr(Expr *e) {
    if (e->isValueDependent() || !e->getType()->isIntegralOrEnumerationType())
      return true;
    ++integral;
    bool surely = unfoldable.surely(e);
    Expr::EvalResult r;
    if (surely) {
      ++skipped;
      if (e->EvaluateAsInt(r, ctx))
        ++wrong, ADD_FAILURE() << "folds, but was called unfoldable at line "
                               << ctx.getSourceManager().getPresumedLineNumber(e->getBeginLoc());
    }
    return true;
  }
  bool VisitCompoundAssignOperator(CompoundAssignOperator *op) {
    unsigned line = ctx.getSourceManager().getPresumedLineNumber(op->getBeginLoc());
    surelyByLine[std::to_string(line)] = unfoldable.surely(op->getRHS());
    return true;
  }
};

} // namespace

TEST(UnfoldableExprs, SurelyOnlyWhereEvaluateAsIntFails) {
  std::unique_ptr<ASTUnit> ast = tooling::buildASTFromCodeWithArgs(kCode, {"-std=c++17", "-w"}, "input.cc");
  ASSERT_TRUE(ast);
  Collector c(ast->getASTContext());
  c.TraverseDecl(ast->getASTContext().getTranslationUnitDecl());
  EXPECT_EQ(c.wrong, 0);
  EXPECT_GT(c.integral, 60);
  EXPECT_GT(c.skipped, 15); // it does skip: parameters and locals are everywhere

  // Per line of the function: which right-hand sides are called unfoldable.
  std::map<std::string, bool> expected{
      {"param", true},      {"local", true},         {"const", false},    {"constexpr", false},
      {"constparam", true}, {"constlocal", false},   {"times0", true},    {"shortcircuit", false},
      {"or", false},        {"sizeof", false},       {"call", false},     {"opaque", true},
      {"reference", false}, {"member", false},       {"subscript", false}, {"comma", false},
      {"unary", true},      {"conditional", false},  {"volatile", false}};
  std::string code = kCode;
  int line = 1;
  for (size_t at = 0; at < code.size(); ++at) {
    if (code[at] == '\n') {
      ++line;
      continue;
    }
    if (code.compare(at, 4, "NUM:") != 0)
      continue;
    size_t end = code.find('\n', at);
    std::string name = code.substr(at + 4, end - at - 4);
    ASSERT_TRUE(expected.count(name)) << name;
    ASSERT_TRUE(c.surelyByLine.count(std::to_string(line))) << name;
    EXPECT_EQ(c.surelyByLine[std::to_string(line)], expected[name]) << name;
  }
}

// Warp tails in __device__ helpers (analyzer/facts/WarpHelperTails.h): every
// instance of every helper whose body is a tail (read by WarpTails.cpp's step
// parser) and every call of each in the unit, checked for passing threadIdx.x
// as tid; and the unit's registry of those facts and of the loop-form trees
// (WarpLoopTrees.cpp), read by the rule after the model ran.
#include "analyzer/facts/WarpHelperTails.h"
#include "analyzer/facts/WarpTailScanning.h"
#include "analyzer/model/KernelWalker.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include "llvm/Support/FileSystem.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>

namespace warplint {

using namespace clang;
using namespace warp_tail_scanning;

namespace {

const FunctionDecl *patternOf(const FunctionDecl *fd) {
  const FunctionDecl *p = fd->getTemplateInstantiationPattern();
  return (p ? p : fd)->getCanonicalDecl();
}

std::string nameWithArgs(const ASTContext &ctx, const FunctionDecl *fd) {
  std::string s;
  llvm::raw_string_ostream os(s);
  fd->getNameForDiagnostic(os, ctx.getPrintingPolicy(), /*Qualified=*/false);
  return os.str();
}

std::string realPath(const std::string &path) {
  llvm::SmallString<256> out;
  if (llvm::sys::fs::real_path(path, out))
    return path;
  return out.str().str();
}

// Two instances agree when their steps read the same offsets with the same
// operator under the same guards: one rewritten body then serves both.
std::string disagreement(const HelperWarpTail &a, const HelperWarpTail &b) {
  if (a.tail.steps.size() != b.tail.steps.size() || a.registerForm != b.registerForm || a.guards != b.guards)
    return "its steps differ";
  for (size_t i = 0; i < a.tail.steps.size(); ++i) {
    const WarpTailStep &x = a.tail.steps[i], &y = b.tail.steps[i];
    if (x.offset != y.offset || x.opKey != y.opKey || x.form != y.form || x.otherFirst != y.otherFirst)
      return "its step at line " + std::to_string(x.line) + " reads or combines differently";
  }
  return "";
}

class HelperTailScan : public RecursiveASTVisitor<HelperTailScan> {
public:
  explicit HelperTailScan(ASTContext &ctx) : ctx_(ctx), sm_(ctx.getSourceManager()) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }

  struct Entry {
    HelperWarpTail tail;
    const FunctionDecl *tidParamOwner = nullptr;
    int tidIndex = -1; // the tid parameter's position, -1 when the helper reads threadIdx.x itself
    std::set<std::string> callsSeen;
  };
  std::map<const FunctionDecl *, Entry> helpers; // by the pattern's canonical declaration

  bool TraverseDecl(Decl *d) { return inSystemHeader(sm_, d) || RecursiveASTVisitor::TraverseDecl(d); }

  // First pass: every instance of every helper whose body is a tail.
  bool VisitFunctionDecl(FunctionDecl *fd) {
    if (pass_ != 0 || !isDeviceHelper(fd) || !fd->doesThisDeclarationHaveABody())
      return true;
    HelperWarpTail h;
    bool parsed = parseHelperTail(ctx_, fd, h);
    const FunctionDecl *key = patternOf(fd);
    std::string name = nameWithArgs(ctx_, fd);
    if (!parsed) {
      if (fd->isTemplateInstantiation() && !notTails_.count(key))
        notTails_[key] = name + (h.tail.refusal.empty() ? "" : " (" + h.tail.refusal + ")");
      return true;
    }
    auto it = helpers.find(key);
    if (it == helpers.end()) {
      Entry e;
      e.tail = std::move(h);
      if (!e.tail.tail.refusal.empty() && fd->isTemplateInstantiation())
        e.tail.tail.refusal = "in the instance " + name + ": " + e.tail.tail.refusal;
      for (const ParmVarDecl *p : fd->parameters())
        if (p->getNameAsString() == e.tail.tail.tidText)
          e.tidIndex = static_cast<int>(p->getFunctionScopeIndex());
      helpers.emplace(key, std::move(e));
      return true;
    }
    HelperWarpTail &first = it->second.tail;
    if (first.instanceProblem.empty()) {
      if (!h.tail.refusal.empty())
        first.instanceProblem = "the instance " + name + " cannot be rewritten: " + h.tail.refusal;
      else if (std::string d = disagreement(first, h); !d.empty())
        first.instanceProblem = "the instance " + name + " does not agree with the others: " + d;
    }
    return true;
  }

  // Second pass: the calls.
  bool TraverseFunctionDecl(FunctionDecl *fd) {
    const FunctionDecl *saved = current_;
    current_ = fd;
    bool r = RecursiveASTVisitor::TraverseFunctionDecl(fd);
    current_ = saved;
    return r;
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *md) {
    const FunctionDecl *saved = current_;
    current_ = md;
    bool r = RecursiveASTVisitor::TraverseCXXMethodDecl(md);
    current_ = saved;
    return r;
  }

  bool VisitCallExpr(CallExpr *call) {
    if (pass_ != 1)
      return true;
    const FunctionDecl *callee = call->getDirectCallee();
    if (!callee)
      return true;
    auto it = helpers.find(patternOf(callee));
    if (it == helpers.end())
      return true;
    Entry &e = it->second;
    HelperTailCall c;
    c.loc = toLocation(sm_, call->getBeginLoc());
    std::string key = c.loc.file + ":" + std::to_string(c.loc.line) + ":" + std::to_string(c.loc.column);
    if (!e.callsSeen.insert(key).second)
      return true; // another instance of the same call
    c.caller = current_ ? current_->getNameAsString() : "";
    if (call->getBeginLoc().isMacroID())
      c.problem = "the call is written through a macro";
    else if (e.tidIndex >= 0) {
      if (static_cast<unsigned>(e.tidIndex) >= call->getNumArgs() || !current_)
        c.problem = "the call passes no tid argument";
      else if (!threadIndexArgs_.isThreadIndex(call->getArg(e.tidIndex), current_))
        c.problem = "it passes `" + sourceText(ctx_, call->getArg(e.tidIndex)->getSourceRange()) + "` as '" +
                    e.tail.tail.tidText + "', not threadIdx.x (or a local set once from it): `" + e.tail.tail.tidText +
                    " == 0` would not single out lane 0";
    }
    e.tail.calls.push_back(c);
    return true;
  }

  void run() {
    pass_ = 0;
    TraverseDecl(ctx_.getTranslationUnitDecl());
    if (helpers.empty())
      return;
    // An instance of a template helper that is not a tail at all (its steps
    // compute in another type, say): the rewrite of the pattern would change it.
    for (auto &[key, e] : helpers)
      if (auto it = notTails_.find(key); it != notTails_.end() && e.tail.instanceProblem.empty())
        e.tail.instanceProblem = "the instance " + it->second + " is not a tail the rewrite serves exactly";
    pass_ = 1;
    TraverseDecl(ctx_.getTranslationUnitDecl());
  }

private:
  ASTContext &ctx_;
  SourceManager &sm_;
  int pass_ = 0;
  const FunctionDecl *current_ = nullptr;
  ThreadIndexArguments threadIndexArgs_;
  std::map<const FunctionDecl *, std::string> notTails_; // template instances that did not parse as tails
};

std::mutex registryMutex;
std::vector<std::shared_ptr<const UnitHelperTails>> &registry() {
  static std::vector<std::shared_ptr<const UnitHelperTails>> units;
  return units;
}

} // namespace

void describeWarpHelperTails(ASTContext &ctx) {
  SourceManager &sm = ctx.getSourceManager();
  auto entry = sm.getFileEntryRefForID(sm.getMainFileID());
  if (!entry)
    return;
  auto unit = std::make_shared<UnitHelperTails>();
  unit->mainFile = realPath(entry->getName().str());
  HelperTailScan scan(ctx);
  scan.run();
  for (auto &[decl, e] : scan.helpers)
    unit->helpers.push_back(std::move(e.tail));
  unit->loops = findWarpLoopTrees(ctx);
  std::lock_guard<std::mutex> lock(registryMutex);
  auto &units = registry();
  units.erase(std::remove_if(units.begin(), units.end(),
                             [&](const auto &u) { return u->mainFile == unit->mainFile; }),
              units.end());
  if (!unit->helpers.empty() || !unit->loops.empty())
    units.push_back(unit);
}

std::shared_ptr<const UnitHelperTails> helperTailsOfUnit(const std::string &mainFile) {
  std::string path = realPath(mainFile);
  std::lock_guard<std::mutex> lock(registryMutex);
  for (const auto &u : registry())
    if (u->mainFile == path)
      return u;
  return nullptr;
}

const HelperWarpTail *helperTailAt(const SourceLocation &loc, std::shared_ptr<const UnitHelperTails> &keep) {
  std::lock_guard<std::mutex> lock(registryMutex);
  for (const auto &u : registry())
    for (const HelperWarpTail &h : u->helpers)
      if (h.tail.loc.file == loc.file && loc.line >= h.tail.firstLine && loc.line <= h.tail.lastLine) {
        keep = u;
        return &h;
      }
  return nullptr;
}

const WarpLoopTree *loopTreeAt(const SourceLocation &loc, std::shared_ptr<const UnitHelperTails> &keep) {
  std::lock_guard<std::mutex> lock(registryMutex);
  for (const auto &u : registry())
    for (const WarpLoopTree &t : u->loops)
      if (t.loc.file == loc.file && loc.line >= t.firstLine && loc.line <= t.lastLine) {
        keep = u;
        return &t;
      }
  return nullptr;
}

} // namespace warplint

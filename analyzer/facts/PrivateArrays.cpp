// Thread-private arrays: is every subscript a compile-time constant once the
// loops with constant trip counts are fully unrolled (what the compiler needs
// to give each element a register), and does the address stay where it is
// indexed? Each subscript is classified Constant, Dynamic (with the reason a
// compiler cannot resolve it) or Undetermined (the analysis does not know);
// only Dynamic subscripts and escapes are facts a rule may act on.
//
// This file: the walk over the kernel and the __device__ functions it calls,
// each private array's record (its size, recorded for the rule to weigh
// against the register budget), and the result assembly. The rest of the
// analysis is described in PrivateArrayAnalysis.h.
#include "analyzer/facts/PrivateArrays.h"
#include "analyzer/facts/PrivateArrayAnalysis.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

namespace warplint {

using namespace clang;

namespace private_arrays {

namespace {

bool isPrivateArray(const VarDecl *v) {
  return v && v->hasLocalStorage() && !isa<ParmVarDecl>(v) && v->getType()->isConstantArrayType() &&
         !v->hasAttr<CUDASharedAttr>() && !v->hasAttr<CUDAConstantAttr>();
}

} // namespace

std::vector<PrivateArray> Analysis::run(const FunctionDecl *kernel) {
  Frame &f = frame(kernel, nullptr, nullptr, {});
  scanFunction(f, {kernel});
  // `#pragma unroll N` spans are a fix only when they are the whole reason.
  for (size_t i = 0; i < arrays_.size(); ++i)
    if (!rollingBlocked_.count(i) && !arrays_[i].dynamicSubscripts.empty())
      for (const LoopHintAttr *h : rolling_[i]) {
        SourceSpan s = countSpan(h);
        if (!s.valid()) {
          arrays_[i].rollingPragmas.clear();
          break;
        }
        arrays_[i].rollingPragmas.push_back(s);
      }
  return arrays_;
}

Frame &Analysis::frame(const FunctionDecl *fn, const Frame *caller, const CallExpr *call,
                       std::vector<SourceLocation> chain) {
  frames_.emplace_back();
  Frame &f = frames_.back();
  f.fn = fn;
  f.writes = LocalWrites::collect(fn->getBody());
  f.parents = &parents_.of(fn->getBody());
  f.callChain = std::move(chain);
  f.depth = caller ? caller->depth + 1 : 0;
  f.caller = caller;
  f.call = call;
  if (call) {
    unsigned skip = firstArgument(call, fn);
    for (unsigned i = skip; i < call->getNumArgs() && i - skip < fn->getNumParams(); ++i)
      f.args[fn->getParamDecl(i - skip)] = {call->getArg(i), caller};
  }
  for (const AttributedStmt *as : collect<AttributedStmt>(fn->getBody()))
    if (auto *fs = dyn_cast<ForStmt>(as->getSubStmt()))
      for (const Attr *a : as->getAttrs())
        if (auto *hint = dyn_cast<LoopHintAttr>(a))
          if (hint->getOption() == LoopHintAttr::Unroll || hint->getOption() == LoopHintAttr::UnrollCount)
            f.hints[fs] = hint;
  for (const ForStmt *fs : collect<ForStmt>(fn->getBody()))
    if (const VarDecl *v = inductionVar(f, fs))
      f.inductionLoops[v] = fs;
  return f;
}

bool Analysis::inlinable(const FunctionDecl *def, const Frame &caller, const CallStack &stack, int maxDepth) {
  return def && def->getBody() && isDeviceFunction(def) && !def->hasAttr<CUDAGlobalAttr>() &&
         !def->hasAttr<NoInlineAttr>() && caller.depth + 1 < maxDepth &&
         std::find(stack.begin(), stack.end(), def) == stack.end();
}

void Analysis::scanFunction(Frame &f, CallStack stack) {
  if (ctx_.getSourceManager().isInSystemHeader(f.fn->getLocation()))
    return;
  for (const DeclStmt *ds : collect<DeclStmt>(f.fn->getBody()))
    for (const Decl *d : ds->decls())
      if (auto *v = dyn_cast<VarDecl>(d); isPrivateArray(v))
        scanArray(v, f);
      else if (v && v->hasLocalStorage() && !isa<ParmVarDecl>(v) && !v->hasAttr<CUDASharedAttr>())
        scanObject(v, f);
  // Arrays declared in the functions it calls, with their arguments bound.
  for (const CallExpr *call : collect<CallExpr>(f.fn->getBody())) {
    const FunctionDecl *callee = call->getDirectCallee();
    const FunctionDecl *def = callee ? callee->getDefinition() : nullptr;
    if (isa<CXXOperatorCallExpr>(call) || !inlinable(def, f, stack) ||
        ctx_.getSourceManager().isInSystemHeader(def->getLocation()))
      continue;
    std::vector<SourceLocation> chain = f.callChain;
    chain.push_back(toLocation(ctx_.getSourceManager(), call->getBeginLoc()));
    Frame &child = frame(def, &f, call, chain);
    CallStack deeper = stack;
    deeper.push_back(def);
    scanFunction(child, deeper);
  }
}

SourceSpan Analysis::countSpan(const LoopHintAttr *h) {
  SourceSpan s = fileSpan(ctx_, CharSourceRange::getTokenRange(h->getValue()->getSourceRange()));
  if (!s.valid())
    return s;
  const SourceManager &sm = ctx_.getSourceManager();
  clang::SourceLocation begin = sm.getExpansionLoc(h->getValue()->getBeginLoc());
  bool invalid = false;
  const char *at = sm.getCharacterData(begin, &invalid);
  if (invalid)
    return SourceSpan{};
  unsigned blanks = 0;
  while (blanks < s.offset && (at[-1 - int(blanks)] == ' ' || at[-1 - int(blanks)] == '\t'))
    ++blanks;
  if (blanks == 0)
    return SourceSpan{};
  s.offset -= blanks;
  s.length += blanks;
  s.text = std::string(at - blanks, blanks) + s.text;
  return s;
}

// The extents, element type and size of an array type (0 for an extent
// that is not a constant).
static void describeShape(PrivateArray &a, QualType t, const ASTContext &ctx) {
  int64_t count = 1;
  while (const ArrayType *at = t->getAsArrayTypeUnsafe()) {
    int64_t n = 0;
    if (auto *ca = dyn_cast<ConstantArrayType>(at))
      n = static_cast<int64_t>(ca->getSize().getZExtValue());
    a.dims.push_back(n);
    count *= n;
    t = at->getElementType();
  }
  a.elementType = t.getAsString();
  if (!t->isDependentType() && !t->isIncompleteType())
    a.elementSize = ctx.getTypeSizeInChars(t).getQuantity();
  a.bytes = count * a.elementSize;
}

PrivateArray &Analysis::record(const VarDecl *v, const Frame &f) {
  auto it = order_.find(v);
  if (it != order_.end())
    return arrays_[it->second];
  PrivateArray a;
  a.name = v->getNameAsString();
  a.loc = toLocation(ctx_.getSourceManager(), v->getLocation());
  describeShape(a, v->getType(), ctx_);
  a.declaredIn = f.fn->getNameAsString();
  a.callChain = f.callChain;
  arrays_.push_back(a);
  order_[v] = arrays_.size() - 1;
  return arrays_.back();
}

void Analysis::scanArray(const VarDecl *v, const Frame &f) {
  size_t index = (record(v, f), order_[v]);
  current_ = index;
  currentFrame_ = &f;
  currentDecl_ = nullptr;
  for (const DeclStmt *ds : collect<DeclStmt>(f.fn->getBody()))
    for (const Decl *d : ds->decls())
      if (d == v)
        currentDecl_ = ds;
  for (const DeclRefExpr *dre : collect<DeclRefExpr>(f.fn->getBody()))
    if (dre->getDecl() == v)
      usePointer(dre, Verdict{}, f, {f.fn});
}

namespace {

const CXXRecordDecl *userClass(QualType t, const SourceManager &sm) {
  const CXXRecordDecl *rd = t->getAsCXXRecordDecl();
  if (!rd || !rd->hasDefinition() || rd->isDependentContext())
    return nullptr;
  rd = rd->getDefinition();
  if (sm.isInSystemHeader(rd->getLocation()) || rd->isUnion())
    return nullptr;
  return rd;
}

// The paths of fields from a class to each array it holds, through member
// objects up to three deep.
void arrayFields(const CXXRecordDecl *rd, const SourceManager &sm, FieldPath prefix, std::vector<FieldPath> &out) {
  if (prefix.size() >= 3)
    return;
  for (const FieldDecl *fd : rd->fields()) {
    FieldPath p = prefix;
    p.push_back(fd);
    if (fd->getType()->isConstantArrayType())
      out.push_back(p);
    else if (const CXXRecordDecl *member = userClass(fd->getType(), sm))
      arrayFields(member, sm, p, out);
  }
}

} // namespace

void Analysis::scanObject(const VarDecl *v, const Frame &f) {
  const SourceManager &sm = ctx_.getSourceManager();
  if (v->getType()->isReferenceType() || v->getType()->isPointerType())
    return;
  const CXXRecordDecl *rd = userClass(v->getType(), sm);
  if (!rd)
    return;
  std::vector<FieldPath> paths;
  arrayFields(rd, sm, {}, paths);
  for (const FieldPath &path : paths) {
    PrivateArray a;
    a.name = v->getNameAsString();
    for (const FieldDecl *fd : path)
      a.name += "." + fd->getNameAsString();
    a.loc = toLocation(sm, v->getLocation());
    describeShape(a, path.back()->getType(), ctx_);
    a.declaredIn = f.fn->getNameAsString();
    a.callChain = f.callChain;
    arrays_.push_back(a);
    current_ = arrays_.size() - 1;
    currentFrame_ = &f;
    currentDecl_ = nullptr;
    for (const DeclStmt *ds : collect<DeclStmt>(f.fn->getBody()))
      for (const Decl *d : ds->decls())
        if (d == v)
          currentDecl_ = ds;
    for (const DeclRefExpr *dre : collect<DeclRefExpr>(f.fn->getBody()))
      if (dre->getDecl() == v)
        useObject(dre, path, 0, f, {f.fn});
    // An array nothing indexes is none of the rule's business.
    if (arrays_.back().subscripts == 0 && arrays_.back().escape.empty())
      arrays_.pop_back();
  }
}

} // namespace private_arrays

std::vector<PrivateArray> describePrivateArrays(ASTContext &ctx, const FunctionDecl *fn, BodyParents *parents) {
  if (!fn->getBody() || fn->isDependentContext())
    return {};
  BodyParents own;
  private_arrays::Analysis a(ctx, parents ? *parents : own);
  return a.run(fn);
}

} // namespace warplint

// Cooperative groups as sources of lane and block indices. The API lives in
// the toolkit's headers (or the bundled minimal ones), which are system
// headers the analyzer does not walk, so its calls are modeled by their names
// in namespace cooperative_groups:
//   thread_block: thread_rank() = the linear thread id, size()/num_threads() =
//     the block's threads, thread_index()/group_index()/group_dim() =
//     threadIdx/blockIdx/blockDim;
//   a tile of N threads (thread_block_tile<N>, tiled_partition(parent, N)) of
//     the block or of such a tile: thread_rank() = linear % N,
//     meta_group_rank() = linear / N, size()/num_threads() = N;
//   grid_group: thread_rank(), block_rank(), block_index(), the sizes.
// Barriers (sync(), cg::sync(g)) need nothing: the model has no barriers.
// Groups whose members are chosen at run time (coalesced_threads(), tiles of
// them, labeled partitions) are not modeled.
#include "analyzer/model/ExprTranslator.h"
#include "analyzer/model/TemporaryWrappers.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

namespace warplint {

using namespace clang;

struct ExprTranslator::Group {
  enum Kind { None, Block, Tile, Grid } kind = None;
  int64_t size = 0; // tiles: threads in one
};

namespace {

bool inCooperativeGroups(const Decl *d) {
  for (const DeclContext *dc = d->getDeclContext(); dc; dc = dc->getParent())
    if (auto *ns = dyn_cast<NamespaceDecl>(dc); ns && ns->getName() == "cooperative_groups")
      return true;
  return false;
}

std::string nameOf(const NamedDecl *d) { return d->getIdentifier() ? d->getName().str() : ""; }

// A tile's size from its type: thread_block_tile<N, Parent> and the
// toolkit's bases of it carry N as their first template argument. A tile of
// a coalesced group ranks the active threads, not the block's.
std::optional<int64_t> tileSizeOf(const CXXRecordDecl *rd) {
  auto *spec = dyn_cast<ClassTemplateSpecializationDecl>(rd);
  if (!spec || nameOf(rd).find("tile") == std::string::npos)
    return std::nullopt;
  const TemplateArgumentList &args = spec->getTemplateArgs();
  if (args.size() < 1 || args[0].getKind() != TemplateArgument::Integral)
    return std::nullopt;
  if (args.size() >= 2 && args[1].getKind() == TemplateArgument::Type && !args[1].getAsType()->isVoidType()) {
    auto *parent = args[1].getAsType()->getAsCXXRecordDecl();
    std::string p = parent ? nameOf(parent) : "";
    if (p != "thread_block" && p.find("tile") == std::string::npos)
      return std::nullopt;
  }
  int64_t n = args[0].getAsIntegral().getExtValue();
  return n > 0 ? std::optional<int64_t>(n) : std::nullopt;
}

ExprRef sym(SymbolKind k, int dim, const char *name) {
  static const char *axis[3] = {"x", "y", "z"};
  return IndexExpr::symbol({k, dim, std::string(name) + "." + axis[dim]});
}

ExprRef product(SymbolKind k, const char *name) {
  return IndexExpr::mul(IndexExpr::mul(sym(k, 0, name), sym(k, 1, name)), sym(k, 2, name));
}

// Strips what stands between a group value and where it came from: copies,
// temporaries, conversions to a base or to thread_group.
const Expr *groupSource(const Expr *e) {
  while (true) {
    e = e->IgnoreParenImpCasts();
    if (const Expr *inner = peelTemporaryWrapper(e))
      e = inner;
    else if (auto *ce = dyn_cast<CXXConstructExpr>(e); ce && ce->getNumArgs() == 1 && !isa<CXXTemporaryObjectExpr>(ce))
      e = ce->getArg(0);
    else if (auto *mc = dyn_cast<CXXMemberCallExpr>(e); mc && isa<CXXConversionDecl>(mc->getMethodDecl()))
      e = mc->getImplicitObjectArgument();
    else
      return e;
  }
}

// The object a group method is called on: `b` in `b.thread_rank()` (a
// member call, or a static member named through an object), or the only
// argument of a free function such as `cg::thread_rank(b)`.
const Expr *groupObject(const CallExpr *call) {
  if (auto *mc = dyn_cast<CXXMemberCallExpr>(call))
    return mc->getImplicitObjectArgument();
  if (auto *me = dyn_cast<MemberExpr>(call->getCallee()->IgnoreParenImpCasts()))
    return me->getBase();
  if (call->getNumArgs() == 1 && !isa<CXXMethodDecl>(call->getDirectCallee()))
    return call->getArg(0);
  return nullptr;
}

} // namespace

const ExprRef &ExprTranslator::linearThreadId() {
  static const ExprRef id = IndexExpr::add(
      IndexExpr::add(sym(SymbolKind::ThreadIdx, 0, "threadIdx"),
                     IndexExpr::mul(sym(SymbolKind::ThreadIdx, 1, "threadIdx"), sym(SymbolKind::BlockDim, 0, "blockDim"))),
      IndexExpr::mul(sym(SymbolKind::ThreadIdx, 2, "threadIdx"),
                     IndexExpr::mul(sym(SymbolKind::BlockDim, 0, "blockDim"), sym(SymbolKind::BlockDim, 1, "blockDim"))));
  return id;
}

ExprTranslator::Group ExprTranslator::groupOf(const Expr *object, int depth) {
  if (!object || depth > 24)
    return {};
  const Expr *e = groupSource(object);
  if (auto *rd = e->getType().getNonReferenceType()->getAsCXXRecordDecl(); rd && inCooperativeGroups(rd)) {
    std::string name = nameOf(rd);
    if (name == "thread_block")
      return {Group::Block, 0};
    if (name == "grid_group")
      return {Group::Grid, 0};
    if (auto n = tileSizeOf(rd))
      return {Group::Tile, *n};
  }
  // A thread_group (the dynamic type): where it was made.
  if (auto *dre = dyn_cast<DeclRefExpr>(e)) {
    auto *v = dyn_cast<VarDecl>(dre->getDecl());
    if (v && v->hasLocalStorage() && !isa<ParmVarDecl>(v) && v->getInit() && writes_.isStable(v))
      return groupOf(v->getInit(), depth + 1);
    return {};
  }
  auto *call = dyn_cast<CallExpr>(e);
  auto *fd = call ? call->getDirectCallee() : nullptr;
  if (!fd || !inCooperativeGroups(fd))
    return {};
  std::string name = nameOf(fd);
  if (name == "this_thread_block")
    return {Group::Block, 0};
  if (name == "this_grid")
    return {Group::Grid, 0};
  if (name == "tiled_partition" && call->getNumArgs() == 2) {
    Group parent = groupOf(call->getArg(0), depth + 1);
    Expr::EvalResult r;
    if ((parent.kind == Group::Block || parent.kind == Group::Tile) && !call->getArg(1)->isValueDependent() &&
        call->getArg(1)->EvaluateAsInt(r, ctx_) && r.Val.getInt().getExtValue() > 0)
      return {Group::Tile, r.Val.getInt().getExtValue()};
  }
  return {};
}

ExprRef ExprTranslator::cooperativeGroupsValue(const CallExpr *call, int depth) {
  const FunctionDecl *fd = call->getDirectCallee();
  if (!fd || !inCooperativeGroups(fd))
    return nullptr;
  std::string name = nameOf(fd);
  Group g;
  if (const Expr *object = groupObject(call))
    g = groupOf(object, depth + 1);
  else if (auto *md = dyn_cast<CXXMethodDecl>(fd); md && nameOf(md->getParent()) == "thread_block")
    g = {Group::Block, 0}; // cg::thread_block::thread_rank(), a static member
  const ExprRef &linear = linearThreadId();
  ExprRef threads = product(SymbolKind::BlockDim, "blockDim");
  auto constant = [](int64_t v) { return IndexExpr::constant(v); };
  switch (g.kind) {
  case Group::Block:
    if (name == "thread_rank")
      return linear;
    if (name == "size" || name == "num_threads" || name == "group_size")
      return threads;
    break;
  case Group::Tile:
    if (name == "thread_rank")
      return IndexExpr::make(ExprOp::Rem, {linear, constant(g.size)});
    if (name == "meta_group_rank")
      return IndexExpr::make(ExprOp::Div, {linear, constant(g.size)});
    if (name == "size" || name == "num_threads" || name == "group_size")
      return constant(g.size);
    if (name == "meta_group_size")
      return IndexExpr::make(ExprOp::Div, {IndexExpr::add(threads, constant(g.size - 1)), constant(g.size)});
    break;
  case Group::Grid: {
    ExprRef blockRank = IndexExpr::add(
        IndexExpr::add(sym(SymbolKind::BlockIdx, 0, "blockIdx"),
                       IndexExpr::mul(sym(SymbolKind::BlockIdx, 1, "blockIdx"), sym(SymbolKind::GridDim, 0, "gridDim"))),
        IndexExpr::mul(sym(SymbolKind::BlockIdx, 2, "blockIdx"),
                       IndexExpr::mul(sym(SymbolKind::GridDim, 0, "gridDim"), sym(SymbolKind::GridDim, 1, "gridDim"))));
    if (name == "block_rank")
      return blockRank;
    if (name == "thread_rank")
      return IndexExpr::add(IndexExpr::mul(blockRank, threads), linear);
    if (name == "num_blocks")
      return product(SymbolKind::GridDim, "gridDim");
    if (name == "size" || name == "num_threads" || name == "group_size")
      return IndexExpr::mul(threads, product(SymbolKind::GridDim, "gridDim"));
    break;
  }
  case Group::None:
    break;
  }
  return nullptr;
}

ExprRef ExprTranslator::cooperativeGroupsMember(const MemberExpr *me, int depth) {
  auto *field = dyn_cast<FieldDecl>(me->getMemberDecl());
  std::string f = field ? nameOf(field) : "";
  int dim = f == "x" ? 0 : f == "y" ? 1 : f == "z" ? 2 : -1;
  if (dim < 0 || me->isArrow())
    return nullptr;
  const Expr *base = groupSource(me->getBase());
  // `dim3 t = block.thread_index(); ... t.x`
  for (int hops = 0; hops < 4; ++hops) {
    auto *dre = dyn_cast<DeclRefExpr>(base);
    auto *v = dre ? dyn_cast<VarDecl>(dre->getDecl()) : nullptr;
    if (!v || !v->hasLocalStorage() || isa<ParmVarDecl>(v) || !v->getInit() || !writes_.isStable(v))
      break;
    base = groupSource(v->getInit());
  }
  auto *call = dyn_cast<CallExpr>(base);
  const FunctionDecl *fd = call ? call->getDirectCallee() : nullptr;
  if (!fd || !inCooperativeGroups(fd))
    return nullptr;
  std::string name = nameOf(fd);
  const Expr *object = groupObject(call);
  Group g = object ? groupOf(object, depth + 1) : Group{};
  if (!object)
    if (auto *md = dyn_cast<CXXMethodDecl>(fd); md && nameOf(md->getParent()) == "thread_block")
      g = {Group::Block, 0};
  if (g.kind == Group::Block) {
    if (name == "thread_index")
      return sym(SymbolKind::ThreadIdx, dim, "threadIdx");
    if (name == "group_index")
      return sym(SymbolKind::BlockIdx, dim, "blockIdx");
    if (name == "group_dim" || name == "dim_threads")
      return sym(SymbolKind::BlockDim, dim, "blockDim");
  }
  if (g.kind == Group::Grid) {
    if (name == "block_index")
      return sym(SymbolKind::BlockIdx, dim, "blockIdx");
    if (name == "group_dim" || name == "dim_blocks")
      return sym(SymbolKind::GridDim, dim, "gridDim");
  }
  return nullptr;
}

} // namespace warplint

#include "analyzer/Analyzer.h"
#include "analyzer/Deadline.h"
#include "analyzer/facts/BodyParents.h"
#include "analyzer/model/BlockShapes.h"
#include "analyzer/native/PtxasFrames.h"
#include "analyzer/results/PrivateMemory.h"
#include "analyzer/frontend/MissingHeaders.h"
#include "analyzer/frontend/SourceCheck.h"
#include "analyzer/facts/DataObjects.h"
#include "analyzer/facts/WarpExchanges.h"
#include "analyzer/facts/WarpHelperTails.h"
#include "analyzer/facts/WarpTails.h"
#include "analyzer/model/KernelWalker.h"
#include "analyzer/model/LaunchSites.h"
#include "analyzer/model/ReachingShapes.h"
#include "analyzer/warp/FusedWords.h"
#include "analyzer/warp/NarrowAccessGroups.h"
#include "analyzer/warp/PaddingTrials.h"
#include "analyzer/cost/WorkTally.h"
#include "analyzer/warp/UniformSweep.h"
#include "analyzer/warp/UnreachedAccess.h"
#include "analyzer/results/Fix.h"
#include "analyzer/host/HostFacts.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <mutex>
#include <set>
#include <thread>

namespace warplint {

using namespace clang;

const char *addressSpaceName(AddressSpace s) {
  switch (s) {
  case AddressSpace::Global: return "global";
  case AddressSpace::Shared: return "shared";
  case AddressSpace::Constant: return "constant";
  case AddressSpace::Local: return "local";
  case AddressSpace::Generic: return "generic";
  }
  return "generic";
}

std::string BlockShape::str() const {
  return "(" + std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(z) + ")";
}

std::string shapeList(const std::vector<BlockShape> &shapes) {
  std::string s;
  for (const BlockShape &b : shapes)
    s += (s.empty() ? "" : ", ") + b.str();
  return s;
}

namespace {

// Keeps the errors of a parse; warnings are not ours to report.
class ErrorCollector : public DiagnosticConsumer {
public:
  std::vector<FrontendMessage> errors;
  bool fatal = false;
  void HandleDiagnostic(DiagnosticsEngine::Level level, const Diagnostic &info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < DiagnosticsEngine::Error)
      return;
    fatal = fatal || level == DiagnosticsEngine::Fatal;
    FrontendMessage m;
    m.level = level == DiagnosticsEngine::Fatal ? "fatal" : "error";
    llvm::SmallString<256> text;
    info.FormatDiagnostic(text);
    m.message = text.str().str();
    if (info.hasSourceManager() && info.getLocation().isValid())
      m.loc = toLocation(info.getSourceManager(), info.getLocation());
    errors.push_back(std::move(m));
  }
};

// Declarations die with the AST, so launches are matched to kernels while it
// is alive and only indices are kept.
struct UnitModel {
  std::vector<ModeledKernel> kernels;
  std::vector<std::pair<std::string, std::string>> fileHashes;
  std::string inputsHash; // of every file the parse read: keys the unit's cached nvcc compile
  std::vector<LaunchSite> launches;
  std::vector<std::vector<const FunctionDecl *>> launchKernels; // parallel to launches; AST lifetime only
  std::vector<const FunctionDecl *> kernelDecls;   // parallel to kernels; AST lifetime only
  std::vector<std::vector<size_t>> kernelLaunches; // parallel to kernels: indices into launches
  std::shared_ptr<HostFacts> host;                 // the host code's copies, launches, managed memory
};

class ModelVisitor : public RecursiveASTVisitor<ModelVisitor> {
public:
  ModelVisitor(ASTContext &ctx, UnitModel &out) : ctx_(ctx), sm_(ctx.getSourceManager()), out_(out) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }

  bool TraverseDecl(Decl *d) {
    // Headers outside the user's code (the CUDA toolkit, cub, the standard
    // library) are skipped whole: they hold no kernels of the user's and
    // walking them would dominate the run time.
    if (d && !isa<TranslationUnitDecl>(d) && d->getLocation().isValid() &&
        sm_.isInSystemHeader(sm_.getExpansionLoc(d->getLocation())))
      return true;
    return RecursiveASTVisitor::TraverseDecl(d);
  }

  // Launch sites are attributed to the function they are written in.
  bool TraverseFunctionDecl(FunctionDecl *fd) {
    return inFunction(fd, [&] { return RecursiveASTVisitor::TraverseFunctionDecl(fd); });
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *md) {
    return inFunction(md, [&] { return RecursiveASTVisitor::TraverseCXXMethodDecl(md); });
  }
  template <typename Traverse> bool inFunction(const FunctionDecl *fd, Traverse traverse) {
    const FunctionDecl *saved = current_;
    current_ = fd;
    bool r = traverse();
    current_ = saved;
    return r;
  }

  bool VisitFunctionDecl(FunctionDecl *fd) {
    if (!fd->doesThisDeclarationHaveABody() || fd->isInvalidDecl() || !isDeviceFunction(fd))
      return true;
    if (fd->getDescribedFunctionTemplate()) {
      // A template pattern: its instantiations are analyzed instead, when any
      // exist; otherwise the pattern, as far as its types are known.
      auto *tmpl = fd->getDescribedFunctionTemplate();
      if (!tmpl->specializations().empty())
        return true;
    }
    if (!seen_.insert(fd).second)
      return true;
    setDeadlineStage("modeling function '" + fd->getNameAsString() + "'");
    checkDeadlineNow();
    out_.kernels.push_back(modelKernel(ctx_, fd));
    describeWarpTails(ctx_, fd, out_.kernels.back()); // while the AST lives: the rewrite's facts
    out_.kernelDecls.push_back(fd);
    return true;
  }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *call) {
    addLaunch(launchOperands(call));
    return true;
  }

  bool VisitCallExpr(CallExpr *call) {
    if (!isa<CUDAKernelCallExpr>(call))
      if (auto op = runtimeLaunchOperands(call))
        addLaunch(*op);
    return true;
  }

private:
  void addLaunch(const LaunchOperands &op) {
    bool viaPointer = false;
    std::vector<const FunctionDecl *> kernels = launchedKernels(op, current_, viaPointer);
    out_.launches.push_back(modelLaunch(ctx_, op, current_, kernels, viaPointer, &hostParents_));
    out_.launchKernels.push_back(std::move(kernels));
  }

  ASTContext &ctx_;
  SourceManager &sm_;
  UnitModel &out_;
  const FunctionDecl *current_ = nullptr;
  BodyParents hostParents_; // the launches' enclosing bodies (modelLaunch)
  std::set<const FunctionDecl *> seen_;
};

bool sameKernel(const FunctionDecl *launched, const FunctionDecl *analyzed) {
  if (!launched || !analyzed)
    return false;
  if (launched->getCanonicalDecl() == analyzed->getCanonicalDecl())
    return true;
  // A launch of k<float> tells the shape of the pattern k<T> too, and a
  // launch of the pattern inside a template (k<T><<<g, 192>>>) that of every
  // instantiation.
  if (auto *pattern = launched->getTemplateInstantiationPattern())
    return pattern->getCanonicalDecl() == analyzed->getCanonicalDecl();
  if (auto *pattern = analyzed->getTemplateInstantiationPattern())
    return pattern->getCanonicalDecl() == launched->getCanonicalDecl();
  return false;
}

// A __device__ helper analyzed in place at its call sites is not analyzed
// again on its own: there it would run under a made-up block shape with
// pointers of unknown address space.
void dropInlinedHelpers(UnitModel &m) {
  std::set<const FunctionDecl *> inlined;
  for (auto &k : m.kernels)
    for (auto *fd : k.inlinedCallees)
      inlined.insert(fd->getCanonicalDecl());
  for (size_t i = m.kernels.size(); i-- > 0;)
    if (!m.kernels[i].info.isGlobal && inlined.count(m.kernelDecls[i]->getCanonicalDecl())) {
      m.kernels.erase(m.kernels.begin() + i);
      m.kernelDecls.erase(m.kernelDecls.begin() + i);
    }
}

// The action is owned and destroyed by clang's tooling, so what it builds
// lives outside it.
struct UnitOutput {
  UnitModel model;
  bool handled = false; // the AST reached our consumer
  std::string stoppedWhile; // --time-limit was reached while doing this (the model is incomplete)
  SourceShape shape;    // whether the main file is source at all
  std::vector<std::pair<std::string, SourceLocation>> missingHeaders; // skipped as if empty
  bool hashInputs = false; // fill model.inputsHash (only a ptxas compile needs it)
};

class ModelConsumer : public ASTConsumer {
public:
  explicit ModelConsumer(UnitOutput &out) : out_(out) {}
  void HandleTranslationUnit(ASTContext &ctx) override {
    // The time limit's exception is caught here, in our frame: it must
    // never unwind through clang's (built without exceptions).
    try {
      model(ctx);
    } catch (const TimeLimitReached &stop) {
      out_.stoppedWhile = stop.stage;
      out_.handled = true;
    }
  }

private:
  // clang builds its parent map (ASTContext::getParents) on the first query,
  // over the traversal scope: by default the whole unit, the toolkit's and
  // the standard library's headers included, a tenth of a small file's run.
  // Every parent query of the model starts in the user's code and stops at
  // its function (the walker never enters a system header's body), so the
  // map covers the user's top-level declarations only; the same parents.
  static void scopeParentsToUserCode(ASTContext &ctx) {
    const SourceManager &sm = ctx.getSourceManager();
    std::vector<Decl *> user;
    for (Decl *d : ctx.getTranslationUnitDecl()->decls())
      if (d->getLocation().isInvalid() || !sm.isInSystemHeader(sm.getExpansionLoc(d->getLocation())))
        user.push_back(d);
    ctx.setTraversalScope(user);
  }

  void model(ASTContext &ctx) {
    scopeParentsToUserCode(ctx);
    ReachingShapesUnitCache reaching; // the unit's launches share its walks of the unit
    ModelVisitor v(ctx, out_.model);
    v.TraverseDecl(ctx.getTranslationUnitDecl());
    describeWarpHelperTails(ctx); // warp tails in __device__ helpers and all their calls, for the rewrite
    UnitModel &m = out_.model;
    dropInlinedHelpers(m);
    m.kernelLaunches.resize(m.kernels.size());
    for (size_t k = 0; k < m.kernels.size(); ++k) {
      const FunctionDecl *fd = m.kernelDecls[k];
      if (fd->isExternallyVisible())
        m.kernels[k].info.key = kernelKey(fd);
      for (size_t l = 0; l < m.launches.size(); ++l)
        for (const FunctionDecl *launched : m.launchKernels[l])
          if (sameKernel(launched, fd)) {
            m.kernelLaunches[k].push_back(l);
            break;
          }
    }
    m.launchKernels.clear();
    m.kernelDecls.clear();
    m.host = std::make_shared<HostFacts>(collectHostFacts(ctx));
    recordHashes(ctx);
    if (out_.hashInputs)
      out_.model.inputsHash = hashInputs(ctx.getSourceManager());
    out_.shape = describeMainFile(ctx);
    out_.handled = true;
  }

  // Every file the parse read, by path and content as parsed (in-memory
  // overlays included), in path order: two parses with the same hash read
  // the same text. xxh3: the toolkit's headers are megabytes.
  static std::string hashInputs(const SourceManager &sm) {
    std::vector<std::pair<std::string, uint64_t>> files;
    for (auto it = sm.fileinfo_begin(); it != sm.fileinfo_end(); ++it) {
      std::optional<llvm::MemoryBufferRef> buffer = it->second->getBufferIfLoaded();
      if (buffer)
        files.emplace_back(it->first.getName().str(), llvm::xxh3_64bits(buffer->getBuffer()));
    }
    std::sort(files.begin(), files.end());
    std::string text;
    for (const auto &[path, h] : files)
      text += path + " " + std::to_string(h) + "\n";
    return std::to_string(llvm::xxh3_64bits(llvm::StringRef(text)));
  }

  // The main file and every file a rewrite would touch, as parsed.
  void recordHashes(ASTContext &ctx) {
    SourceManager &sm = ctx.getSourceManager();
    std::set<std::string> files;
    auto add = [&](const SourceSpan &s) {
      if (s.valid())
        files.insert(s.file);
    };
    for (const ModeledKernel &k : out_.model.kernels) {
      for (const ArrayInfo &a : k.info.arrays)
        for (const SourceSpan &s : a.dimSpans)
          add(s);
      for (const ParamInfo &p : k.info.params) {
        add(p.constInsertAt);
        add(p.restrictInsertAt);
        for (const SourceSpan &s : p.redeclConstInsertAt)
          add(s);
      }
      for (const BytePackWindow &w : k.info.bytePackWindows)
        add(w.before);
      if (k.info.byteLane)
        add(k.info.byteLane->statement);
    }
    for (const LaunchSite &l : out_.model.launches) {
      add(l.gridSpan);
    }
    if (auto main = sm.getFileEntryRefForID(sm.getMainFileID())) {
      llvm::SmallString<256> path(main->getName());
      sm.getFileManager().makeAbsolutePath(path);
      files.insert(path.str().str());
      // warp-shuffle-candidate rewrites warp tails and per-warp tree loops
      // where they are written, a header included (a __device__ helper's).
      if (std::shared_ptr<const UnitHelperTails> tails = helperTailsOfUnit(path.str().str())) {
        for (const HelperWarpTail &h : tails->helpers)
          add(h.tail.body);
        for (const WarpLoopTree &t : tails->loops)
          add(t.span);
      }
    }
    for (const std::string &file : files) {
      auto ref = sm.getFileManager().getOptionalFileRef(file);
      if (!ref)
        continue;
      FileID fid = sm.translateFile(*ref);
      if (fid.isInvalid())
        continue;
      auto buffer = sm.getBufferOrNone(fid);
      if (buffer)
        out_.model.fileHashes.emplace_back(file, contentHash(buffer->getBuffer().str()));
    }
  }

  UnitOutput &out_;
};

// At most this many missing headers are skipped as if empty.
constexpr int kMaxMissingHeaders = 8;

class ModelAction : public ASTFrontendAction {
public:
  explicit ModelAction(UnitOutput &out) : out_(out) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &, StringRef) override {
    return std::make_unique<ModelConsumer>(out_);
  }
  bool BeginSourceFileAction(CompilerInstance &ci) override {
    ci.getPreprocessor().addPPCallbacks(std::make_unique<MissingHeaderSkipper>(skipped_, kMaxMissingHeaders));
    return true;
  }
  void EndSourceFileAction() override {
    const clang::SourceManager &sm = getCompilerInstance().getSourceManager();
    for (const SkippedHeader &h : skipped_)
      out_.missingHeaders.push_back({h.name, h.at.isValid() ? toLocation(sm, h.at) : SourceLocation{}});
  }

private:
  UnitOutput &out_;
  std::vector<SkippedHeader> skipped_;
};

// Why an access's byte offset could not be expressed over known symbols: the
// first Unknown leaf's reason, sorted into a few classes for reach reports.
void explainUnknownIndex(const IndexExpr &offset, MemoryAccess &f) {
  std::string why = offset.firstUnknownReason();
  auto has = [&](const char *s) { return why.find(s) != std::string::npos; };
  if (has("loaded from memory"))
    f.unevaluatedClass = "data-dependent index";
  else if (has("result of a call"))
    f.unevaluatedClass = "call result";
  else if (has("assigned more than once") || has("modified in the body") || has("inside a loop") ||
           has("a loop left") || has("some paths") || has("different paths") || has("in a switch") ||
           has("unsupported operator") || has("written by a call"))
    f.unevaluatedClass = "value assigned more than once";
  else if (has("template parameter"))
    f.unevaluatedClass = "template-dependent";
  else if (has("non-integer") || has("not an integer"))
    f.unevaluatedClass = "non-integer value";
  else if (has("no initializer"))
    f.unevaluatedClass = "uninitialized local";
  else
    f.unevaluatedClass = "other unknown value";
  f.unevaluatedReason = why;
}

// Launches in other units of a compile database, by the kernel key they
// name (LaunchSite::externalKernelKeys).
using ForeignLaunches = std::map<std::string, std::vector<const LaunchSite *>>;

void evaluateKernel(ModeledKernel &k, const std::vector<size_t> &launches, const UnitModel &unit,
                    const ForeignLaunches &foreign, const AnalyzerOptions &opts) {
  std::vector<const LaunchSite *> own, other;
  for (size_t i : launches)
    own.push_back(&unit.launches[i]);
  if (auto it = foreign.find(k.info.key); !k.info.key.empty() && it != foreign.end())
    other = it->second;
  ShapeChoice choice = chooseBlockShapes(k, own, other, opts.plausibleShapes);
  const std::vector<BlockShape> &shapes = choice.shapes;
  std::optional<BlockShape> grid = choice.grid;
  k.info.blockShapes = shapes;
  k.info.blockShapeSource = choice.source;
  k.info.blockShapeOrigin = choice.origin;
  k.info.blockShapeAssumed = choice.assumed;

  EvaluationOptions eo;
  eo.grid = grid;
  eo.symbolicValue = opts.symbolicValue;
  for (auto &a : k.accesses) {
    MemoryAccess &f = a.fact;
    if (f.space == AddressSpace::Generic) {
      f.unevaluatedClass = "unknown address space";
      f.unevaluatedReason = "a pointer whose memory (global or shared) the analyzer could not trace";
      continue;
    }
    if (f.space == AddressSpace::Local)
      continue;
    if (!f.indexKnown) {
      explainUnknownIndex(*a.guarded.byteOffset, f);
      continue;
    }
    // Words the compiler fuses into one wide access are evaluated as it.
    if (auto fused = fuseUnrolledWords(k, a)) {
      evaluateAccess(fused->access, shapes, eo, f);
      f.assumptions.push_back(fused->note);
    } else {
      evaluateAccess(a.guarded, shapes, eo, f);
    }
  }
  for (auto &a : k.accesses) {
    MemoryAccess &f = a.fact;
    bool modeled = f.space == AddressSpace::Shared || f.space == AddressSpace::Global ||
                   f.space == AddressSpace::Constant;
    if (modeled && f.indexKnown && f.evals.empty() && neverExecuted(a.guarded, shapes, eo)) {
      f.unevaluatedClass = "not executed";
      f.unevaluatedReason = "no thread of the block passes the access's guards for this block shape and "
                            "these constants (a branch the kernel's own constants rule out)";
    } else if (modeled && f.indexKnown && f.evals.empty() && evaluateWhereGuardsPass(a.guarded, shapes, eo, f)) {
      // evaluated: f.assumptions say where
    } else if (modeled && f.indexKnown && f.evals.empty()) {
      f.unevaluatedClass = "no active lane";
      f.unevaluatedReason = "no lane of the evaluated warps passes the access's guards, or every binding "
                            "put a lane outside the array";
    }
  }
  evaluatePaddings(k, shapes, eo);
  findNarrowAccessGroups(k, shapes, eo);
  describeDataObjects(k, eo);
  describeWarpExchanges(k, eo);
  if (opts.countWork)
    k.info.work = std::make_shared<KernelWork>(tallyKernelWork(k, eo));
  for (size_t i : launches)
    k.info.launchSites.push_back(unit.launches[i]);
}

} // namespace

namespace {

// A parsed unit whose kernels wait for their block shapes: evaluation needs
// the launches of every unit of the database (ModeledKernel holds no AST).
struct ParsedUnit {
  TranslationUnitResult result;
  UnitModel model;
  CompileJob job;                       // for --ptxas-confirm after evaluation
  std::optional<CudaInstallation> cuda; // the toolkit parsed against; none with the minimal header
  double parseSeconds = 0;              // spent of the unit's --time-limit before evaluation
};

// The unit's report when --time-limit stopped it: nothing of it is kept (a
// partial model would give partial findings that look complete).
void stopUnit(TranslationUnitResult &result, double elapsed, double limit, const std::string &stage) {
  char seconds[64];
  std::snprintf(seconds, sizeof seconds, "%.2f s", elapsed);
  char limitText[64];
  std::snprintf(limitText, sizeof limitText, "%g s", limit);
  result.parsed = false;
  result.kernels.clear();
  result.launches.clear();
  result.fatalError = "analysis of " + llvm::sys::path::filename(result.file).str() + " stopped after " + seconds +
                      " of CPU time: the time limit of " + limitText + " a file (--time-limit) was reached while " +
                      stage + " (raise it, or --time-limit 0 for none)";
}

ParsedUnit parseUnit(const CompileJob &job, const AnalyzerOptions &opts) {
  ParsedUnit parsed;
  TranslationUnitResult &result = parsed.result;
  result.file = job.file;
  DeadlineScope deadline(opts.timeLimitSeconds);
  ClangCommand cmd = buildClangCommand(job, opts.frontend);
  parsed.job = job;
  if (!cmd.usesMinimalCuda)
    parsed.cuda = cmd.cuda;
  // Without carets clang also skips its "N errors generated" line on stderr;
  // errors reach us through the collector below.
  if (!cmd.argv.empty())
    cmd.argv.insert(cmd.argv.begin() + 1, "-fno-caret-diagnostics");

  // Files under review (a fix being verified) are parsed from memory.
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs = llvm::vfs::getRealFileSystem();
  if (!opts.overlayFiles.empty()) {
    auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(fs);
    auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
    for (const auto &[path, contents] : opts.overlayFiles)
      memory->addFile(path, 0, llvm::MemoryBuffer::getMemBufferCopy(contents, path));
    overlay->pushOverlay(memory);
    fs = overlay;
  }
  auto files = llvm::makeIntrusiveRefCnt<FileManager>(FileSystemOptions{cmd.directory}, fs);
  auto out = std::make_unique<UnitOutput>();
  out->hashInputs = opts.ptxas != PtxasMode::Off;
  auto errorsOwner = std::make_unique<ErrorCollector>();
  tooling::ToolInvocation invocation(cmd.argv, std::make_unique<ModelAction>(*out), files.get());
  invocation.setDiagnosticConsumer(errorsOwner.get());
  invocation.run();
  for (const auto &[header, at] : out->missingHeaders)
    result.frontendNotes.push_back({at, "note", "header '" + header + "' not found; analyzed as if empty"});

  parsed.parseSeconds = deadline.elapsedSeconds();
  // Clang's parse itself cannot be stopped; a limit it used up ends here.
  if (opts.timeLimitSeconds > 0 && (!out->stoppedWhile.empty() || parsed.parseSeconds >= opts.timeLimitSeconds)) {
    stopUnit(result, parsed.parseSeconds, opts.timeLimitSeconds,
             out->stoppedWhile.empty() ? "parsing" : out->stoppedWhile);
    return parsed;
  }
  const ErrorCollector &errors = *errorsOwner;
  result.compileErrors = errors.errors;
  if (!out->handled) {
    result.parsed = false;
    result.fatalError = errors.errors.empty() ? "clang produced no AST for this file"
                                              : errors.errors.front().message;
    return parsed;
  }
  // An error with no source location is about the command itself (a language
  // standard CUDA does not allow, an unknown GPU arch): clang parses on, but
  // under settings the build never uses, so nothing it models can be trusted.
  for (const FrontendMessage &e : errors.errors)
    if (!e.loc.valid()) {
      result.parsed = false;
      result.fatalError = "the compile command was rejected: " + e.message;
      return parsed;
    }
  if (std::string why = notSourceReason(out->shape, errors.errors.size(), errors.fatal); !why.empty()) {
    result.parsed = false;
    result.fatalError = why;
    return parsed;
  }
  result.parsed = true;
  parsed.model = std::move(out->model);
  result.launches = parsed.model.launches;
  result.fileHashes = parsed.model.fileHashes;
  result.host = parsed.model.host;
  if (errors.fatal && parsed.model.kernels.empty()) {
    result.parsed = false;
    result.fatalError = errors.errors.front().message;
  }
  return parsed;
}

// Whether the unit is compiled with ptxas -v under `mode`: in auto, when
// some kernel has a private array that ptxas may put in local memory (a
// subscript that is not constant after unrolling, or an address that
// leaves the code that indexes it); its static verdict is then replaced by
// the stack frame.
bool wantsPtxas(PtxasMode mode, const TranslationUnitResult &unit) {
  if (mode == PtxasMode::Off || unit.kernels.empty())
    return false;
  if (mode == PtxasMode::On)
    return true;
  for (const KernelInfo &k : unit.kernels)
    if (k.isGlobal && k.privateMemory)
      for (const PrivateArray &a : k.privateMemory->arrays)
        if (!a.dynamicSubscripts.empty() || !a.escape.empty())
          return true;
  return false;
}

TranslationUnitResult evaluateUnit(ParsedUnit &&parsed, const ForeignLaunches &foreign,
                                   const AnalyzerOptions &opts) {
  TranslationUnitResult result = std::move(parsed.result);
  if (!result.parsed)
    return result;
  UnitModel &unit = parsed.model;
  // The unit's time limit less what its parse took (units are parsed, then
  // evaluated, in two passes).
  double limit = opts.timeLimitSeconds;
  DeadlineScope deadline(limit > 0 ? std::max(limit - parsed.parseSeconds, 1e-9) : 0);
  try {
    for (size_t i = 0; i < unit.kernels.size(); ++i) {
      ModeledKernel &k = unit.kernels[i];
      setDeadlineStage("evaluating kernel '" + k.info.name + "'");
      checkDeadlineNow();
      evaluateKernel(k, unit.kernelLaunches[i], unit, foreign, opts);
      for (auto &a : k.accesses)
        k.info.accesses.push_back(std::move(a.fact));
      result.kernels.push_back(std::move(k.info));
    }
  } catch (const TimeLimitReached &stop) {
    stopUnit(result, parsed.parseSeconds + deadline.elapsedSeconds(), limit, stop.stage);
    return result;
  }
  // Stack frames for the private-array rule, registers and shared memory
  // for the cost model's occupancy.
  if (parsed.cuda && wantsPtxas(opts.ptxas, result)) {
    PtxasCompileRequest request;
    request.job = &parsed.job;
    request.cuda = &*parsed.cuda;
    request.inputsHash = unit.inputsHash;
    request.cacheDir = opts.nativeCacheDir;
    // nvcc reads the files on disk: text edited in memory is only matched
    // against a cached compile of the same content.
    request.mayCompile = opts.ptxas != PtxasMode::CacheOnly && opts.overlayFiles.empty();
    request.timeoutSeconds = opts.timeLimitSeconds;
    attributePtxasFrames(compileWithPtxasVerbose(request), *parsed.cuda, result);
  }
  return result;
}

} // namespace

TranslationUnitResult analyzeUnit(const CompileJob &job, const AnalyzerOptions &opts) {
  return evaluateUnit(parseUnit(job, opts), ForeignLaunches{}, opts);
}

namespace {

// Runs work(i) for i in [0, count) on `threads` workers that take the next
// index in turn. Each unit is parsed by its own Clang instance (file
// manager, diagnostics, AST) and evaluated on its own model, so units run in
// parallel; results go to their index's slot, so the order never depends on
// timing.
template <typename Work> void forEachUnit(size_t count, unsigned threads, Work work) {
  std::atomic<size_t> next{0};
  auto run = [&] {
    for (size_t i; (i = next.fetch_add(1)) < count;)
      work(i);
  };
  size_t n = std::min<size_t>(std::max(1u, threads), count);
  std::vector<std::thread> workers;
  for (size_t t = 1; t < n; ++t)
    workers.emplace_back(run);
  run();
  for (std::thread &w : workers)
    w.join();
}

} // namespace

AnalysisResults analyze(const std::vector<CompileJob> &jobs, const AnalyzerOptions &opts) {
  std::vector<ParsedUnit> parsed(jobs.size());
  std::mutex progress;
  size_t done = 0;
  forEachUnit(jobs.size(), opts.threads, [&](size_t i) {
    parsed[i] = parseUnit(jobs[i], opts);
    if (opts.onUnitDone) {
      std::lock_guard<std::mutex> lock(progress);
      opts.onUnitDone(++done, jobs.size(), jobs[i].file);
    }
  });
  // Every unit's launches of kernels it only declares, for the units that
  // define them. The launch sites live in `parsed` until evaluation ends.
  // A unit only declares the kernels these launches name, so none of them
  // matches a kernel of its own unit.
  ForeignLaunches foreign;
  for (const ParsedUnit &p : parsed)
    for (const LaunchSite &l : p.model.launches)
      for (const std::string &key : l.externalKernelKeys)
        foreign[key].push_back(&l);
  AnalysisResults r;
  r.units.resize(jobs.size());
  forEachUnit(jobs.size(), opts.threads,
              [&](size_t i) { r.units[i] = evaluateUnit(std::move(parsed[i]), foreign, opts); });
  return r;
}

} // namespace warplint

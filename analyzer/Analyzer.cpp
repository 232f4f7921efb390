#include "analyzer/Analyzer.h"
#include "analyzer/facts/DataObjects.h"
#include "analyzer/model/KernelWalker.h"
#include "analyzer/model/LaunchSites.h"
#include "analyzer/warp/PaddingTrials.h"
#include "analyzer/results/Fix.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <algorithm>
#include <atomic>
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
  std::vector<LaunchSite> launches;
  std::vector<const FunctionDecl *> launchCallees; // parallel to launches; AST lifetime only
  std::vector<const FunctionDecl *> kernelDecls;   // parallel to kernels; AST lifetime only
  std::vector<std::vector<size_t>> kernelLaunches; // parallel to kernels: indices into launches
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
    out_.kernels.push_back(modelKernel(ctx_, fd));
    out_.kernelDecls.push_back(fd);
    return true;
  }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *call) {
    out_.launches.push_back(modelLaunch(ctx_, call, current_));
    out_.launchCallees.push_back(call->getDirectCallee());
    return true;
  }

private:
  ASTContext &ctx_;
  SourceManager &sm_;
  UnitModel &out_;
  const FunctionDecl *current_ = nullptr;
  std::set<const FunctionDecl *> seen_;
};

bool sameKernel(const FunctionDecl *launched, const FunctionDecl *analyzed) {
  if (!launched || !analyzed)
    return false;
  if (launched->getCanonicalDecl() == analyzed->getCanonicalDecl())
    return true;
  // A launch of k<float> tells the shape of the pattern k<T> too.
  if (auto *pattern = launched->getTemplateInstantiationPattern())
    return pattern->getCanonicalDecl() == analyzed->getCanonicalDecl();
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
};

class ModelConsumer : public ASTConsumer {
public:
  explicit ModelConsumer(UnitOutput &out) : out_(out) {}
  void HandleTranslationUnit(ASTContext &ctx) override {
    ModelVisitor v(ctx, out_.model);
    v.TraverseDecl(ctx.getTranslationUnitDecl());
    UnitModel &m = out_.model;
    dropInlinedHelpers(m);
    m.kernelLaunches.resize(m.kernels.size());
    for (size_t k = 0; k < m.kernels.size(); ++k)
      for (size_t l = 0; l < m.launches.size(); ++l)
        if (sameKernel(m.launchCallees[l], m.kernelDecls[k]))
          m.kernelLaunches[k].push_back(l);
    m.launchCallees.clear();
    m.kernelDecls.clear();
    recordHashes(ctx);
    out_.handled = true;
  }

private:
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

class ModelAction : public ASTFrontendAction {
public:
  explicit ModelAction(UnitOutput &out) : out_(out) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &, StringRef) override {
    return std::make_unique<ModelConsumer>(out_);
  }

private:
  UnitOutput &out_;
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
  else if (has("assigned more than once") || has("modified in the body"))
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

BlockShape defaultShape(const ModeledKernel &k, const AnalyzerOptions &opts) {
  if (k.threadDims >= 3)
    return opts.default3D;
  if (k.threadDims == 2)
    return opts.default2D;
  if (k.info.launchBoundsMaxThreads && *k.info.launchBoundsMaxThreads >= 32)
    return BlockShape{*k.info.launchBoundsMaxThreads, 1, 1};
  return opts.default1D;
}

void evaluateKernel(ModeledKernel &k, const std::vector<size_t> &launches, const UnitModel &unit,
                    const AnalyzerOptions &opts) {
  std::vector<BlockShape> shapes;
  std::optional<BlockShape> grid;
  std::string source;
  for (size_t i : launches) {
    if (!unit.launches[i].block)
      continue;
    const BlockShape &b = *unit.launches[i].block;
    if (b.threads() <= 0 || b.threads() > 1024)
      continue;
    if (std::find(shapes.begin(), shapes.end(), b) == shapes.end())
      shapes.push_back(b);
    if (unit.launches[i].grid)
      grid = unit.launches[i].grid;
    if (source.empty()) {
      const SourceLocation &at = unit.launches[i].loc;
      source = at.file == k.info.loc.file ? "launch at line " + std::to_string(at.line)
                                          : "launch at " + at.file + ":" + std::to_string(at.line);
    }
  }
  if (shapes.empty()) {
    shapes.push_back(defaultShape(k, opts));
    k.info.blockShapeAssumed = true;
    source = "default " + shapes.back().str() + ": no launch site with a constant block shape";
    k.info.blockShapeOrigin = "default";
  } else {
    k.info.blockShapeOrigin = "launch";
  }
  k.info.blockShapes = shapes;
  k.info.blockShapeSource = source;

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
    std::vector<Symbol> syms;
    a.guarded.byteOffset->collectSymbols(syms);
    for (auto &s : syms)
      if (s.kind == SymbolKind::Param)
        f.assumptions.push_back("parameter '" + s.name + "' taken as " + std::to_string(opts.symbolicValue) +
                                " (a large multiple of 32)");
    double worst = -1;
    for (auto &shape : shapes) {
      auto e = evaluateWarpAccess(a.guarded, shape, eo);
      if (!e)
        continue;
      f.evals.push_back(*e);
      double sev = evaluationSeverity(*e, f.space);
      if (sev > worst) {
        worst = sev;
        f.worstEval = static_cast<int>(f.evals.size()) - 1;
      }
    }
  }
  for (auto &a : k.accesses) {
    MemoryAccess &f = a.fact;
    bool modeled = f.space == AddressSpace::Shared || f.space == AddressSpace::Global ||
                   f.space == AddressSpace::Constant;
    if (modeled && f.indexKnown && f.evals.empty()) {
      f.unevaluatedClass = "no active lane";
      f.unevaluatedReason = "no lane of the evaluated warps passes the access's guards, or every binding "
                            "put a lane outside the array";
    }
  }
  evaluatePaddings(k, shapes, eo);
  describeDataObjects(k, eo);
  for (size_t i : launches)
    k.info.launchSites.push_back(unit.launches[i]);
}

} // namespace

TranslationUnitResult analyzeUnit(const CompileJob &job, const AnalyzerOptions &opts) {
  TranslationUnitResult result;
  result.file = job.file;
  ClangCommand cmd = buildClangCommand(job, opts.frontend);
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
  UnitOutput out;
  tooling::ToolInvocation invocation(cmd.argv, std::make_unique<ModelAction>(out), files.get());
  ErrorCollector errors;
  invocation.setDiagnosticConsumer(&errors);
  invocation.run();

  result.compileErrors = errors.errors;
  if (!out.handled) {
    result.parsed = false;
    result.fatalError = errors.errors.empty() ? "clang produced no AST for this file"
                                              : errors.errors.front().message;
    return result;
  }
  // An error with no source location is about the command itself (a language
  // standard CUDA does not allow, an unknown GPU arch): clang parses on, but
  // under settings the build never uses, so nothing it models can be trusted.
  for (const FrontendMessage &e : errors.errors)
    if (!e.loc.valid()) {
      result.parsed = false;
      result.fatalError = "the compile command was rejected: " + e.message;
      return result;
    }
  result.parsed = true;
  UnitModel &unit = out.model;
  for (size_t i = 0; i < unit.kernels.size(); ++i) {
    ModeledKernel &k = unit.kernels[i];
    evaluateKernel(k, unit.kernelLaunches[i], unit, opts);
    for (auto &a : k.accesses)
      k.info.accesses.push_back(std::move(a.fact));
    result.kernels.push_back(std::move(k.info));
  }
  result.launches = unit.launches;
  result.fileHashes = unit.fileHashes;
  if (errors.fatal && result.kernels.empty()) {
    result.parsed = false;
    result.fatalError = errors.errors.front().message;
  }
  return result;
}

AnalysisResults analyze(const std::vector<CompileJob> &jobs, const AnalyzerOptions &opts) {
  AnalysisResults r;
  r.units.resize(jobs.size());
  // Each unit is parsed by its own Clang instance (file manager, diagnostics,
  // AST), so units run on worker threads that take the next job in turn; a
  // unit's result goes to its job's slot, so the order never depends on timing.
  std::atomic<size_t> next{0};
  std::mutex progress;
  size_t done = 0;
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < jobs.size();) {
      r.units[i] = analyzeUnit(jobs[i], opts);
      if (opts.onUnitDone) {
        std::lock_guard<std::mutex> lock(progress);
        opts.onUnitDone(++done, jobs.size(), jobs[i].file);
      }
    }
  };
  size_t threads = std::min<size_t>(std::max(1u, opts.threads), jobs.size());
  std::vector<std::thread> workers;
  for (size_t t = 1; t < threads; ++t)
    workers.emplace_back(work);
  work();
  for (std::thread &w : workers)
    w.join();
  return r;
}

} // namespace warplint

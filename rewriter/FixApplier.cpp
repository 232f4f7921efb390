#include "rewriter/FixApplier.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <set>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace warplint {

namespace {

bool readFile(const std::string &path, std::string &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

// Temp file next to the target, then rename: a reader sees the old or the new
// file, never half of one. The file keeps its permissions.
bool writeSourceAtomically(const std::string &path, const std::string &contents, std::string &error) {
  struct stat st;
  mode_t mode = stat(path.c_str(), &st) == 0 ? (st.st_mode & 07777) : 0644;
  std::string tmp = path + ".warplint-XXXXXX";
  std::vector<char> name(tmp.begin(), tmp.end());
  name.push_back('\0');
  int fd = mkstemp(name.data());
  if (fd < 0) {
    error = "cannot create a temporary file next to '" + path + "'";
    return false;
  }
  bool ok = true;
  for (size_t done = 0; ok && done < contents.size();) {
    ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
    ok = n > 0;
    done += ok ? static_cast<size_t>(n) : 0;
  }
  ok = ok && fchmod(fd, mode) == 0 && fsync(fd) == 0;
  ok = (::close(fd) == 0) && ok;
  if (!ok || std::rename(name.data(), path.c_str()) != 0) {
    std::remove(name.data());
    error = "cannot write '" + path + "'";
    return false;
  }
  return true;
}

std::string shellQuoted(const std::string &s) {
  std::string q = "'";
  for (char c : s)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string directoryOf(const std::string &path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash == 0 ? 1 : slash);
}

// Compiles `contents` as if it were `path` (same directory, so relative
// includes resolve); "" when nvcc accepts it, else its first error line.
std::string nvccRejects(const FixOptions &opts, const std::string &path, const std::string &contents) {
  std::string dir = directoryOf(path);
  std::string tmp = dir + "/.warplint-verify-XXXXXX.cu";
  std::vector<char> name(tmp.begin(), tmp.end());
  name.push_back('\0');
  int fd = mkstemps(name.data(), 3);
  if (fd < 0)
    return "cannot create a temporary file in '" + dir + "' for nvcc";
  bool ok = ::write(fd, contents.data(), contents.size()) == static_cast<ssize_t>(contents.size());
  ::close(fd);
  std::string log = std::string(name.data()) + ".log", object = std::string(name.data()) + ".o";
  std::string cmd = shellQuoted(opts.nvcc) + " -arch=sm_90 -c " + shellQuoted(name.data()) + " -o " +
                    shellQuoted(object) + " -I" + shellQuoted(dir);
  for (const std::string &f : opts.nvccFlags)
    cmd += " " + shellQuoted(f);
  cmd += " > " + shellQuoted(log) + " 2>&1";
  int status = ok ? std::system(cmd.c_str()) : -1;
  std::string output;
  readFile(log, output);
  std::remove(name.data());
  std::remove(log.c_str());
  std::remove(object.c_str());
  if (status == 0)
    return "";
  std::istringstream lines(output);
  std::string line, first;
  while (std::getline(lines, line))
    if (line.find("error") != std::string::npos) {
      first = line;
      break;
    }
  return "nvcc rejects the fixed file" + (first.empty() ? std::string() : ": " + first);
}

// One of `after`'s undefinedOverloads that `before` did not have; "" if none.
std::string newUndefinedOverload(const TranslationUnitResult &before, const TranslationUnitResult &after) {
  std::map<std::string, size_t> known;
  for (const KernelInfo &k : before.kernels)
    known[k.name] = std::max(known[k.name], k.undefinedOverloads.size());
  for (const KernelInfo &k : after.kernels)
    if (k.undefinedOverloads.size() > known[k.name])
      return k.undefinedOverloads.back();
  return "";
}

class Applier {
public:
  Applier(const AnalysisResults &results, const std::vector<CompileJob> &jobs, const AnalyzerOptions &aopts,
          const RuleContext &ctx, const RuleOptions &ropts, const FixOptions &opts, FixResult &out)
      : results_(results), jobs_(jobs), aopts_(aopts), ctx_(ctx), ropts_(ropts), opts_(opts), out_(out) {}

  void run(const std::vector<Finding> &findings) {
    collect(findings);
    refuseOverlaps();
    refuseChangedFiles();
    std::map<size_t, std::vector<size_t>> byUnit;
    for (size_t i = 0; i < out_.outcomes.size(); ++i)
      if (out_.outcomes[i].why.empty())
        byUnit[unit_[i]].push_back(i);
    for (auto &[unit, fixes] : byUnit)
      verifyUnit(unit, fixes);
    for (FixOutcome &o : out_.outcomes)
      o.applied = o.why.empty();
    if (opts_.write)
      write();
  }

private:
  std::string analyzedHash(const std::string &file) const {
    for (const TranslationUnitResult &u : results_.units)
      for (const auto &[path, hash] : u.fileHashes)
        if (path == file)
          return hash;
    return "";
  }

  void collect(const std::vector<Finding> &findings) {
    for (const Finding &f : findings)
      for (const Fix &fix : f.fixes) {
        bool duplicate = std::any_of(out_.outcomes.begin(), out_.outcomes.end(), [&](const FixOutcome &o) {
          return o.fix.replacements == fix.replacements;
        });
        if (duplicate)
          continue; // one kernel instantiated twice, or a header analyzed per unit
        FixOutcome o{fix, f.rule, f.kernel, f.message, f.loc, false, ""};
        if (fix.changesLaunch && !opts_.fixLaunch)
          o.why = "it changes the launch configuration; apply it with --fix-launch";
        size_t unit = results_.units.size();
        for (size_t u = 0; u < results_.units.size() && unit == results_.units.size(); ++u) {
          bool all = true;
          for (const Replacement &r : fix.replacements) {
            bool hashed = false;
            for (const auto &entry : results_.units[u].fileHashes)
              hashed = hashed || entry.first == r.file;
            all = all && hashed;
          }
          if (all)
            unit = u;
        }
        if (unit == results_.units.size() && o.why.empty())
          o.why = "the files it edits were not all read by one analysis";
        if (fix.replacements.empty() && o.why.empty())
          o.why = "it has no edits";
        out_.outcomes.push_back(o);
        unit_.push_back(unit);
      }
  }

  void refuseOverlaps() {
    for (size_t i = 0; i < out_.outcomes.size(); ++i) {
      FixOutcome &fi = out_.outcomes[i];
      for (size_t j = 0; j < i && fi.why.empty(); ++j) {
        const FixOutcome &fj = out_.outcomes[j];
        if (!fj.why.empty())
          continue;
        for (const Replacement &a : fi.fix.replacements)
          for (const Replacement &b : fj.fix.replacements)
            if (a.overlaps(b) && fi.why.empty())
              fi.why = "it overlaps the fix for the finding at line " + std::to_string(fj.loc.line) + " (" + fj.rule + ")";
      }
    }
  }

  void refuseChangedFiles() {
    for (FixOutcome &o : out_.outcomes)
      for (const Replacement &r : o.fix.replacements) {
        if (!o.why.empty())
          break;
        if (!out_.original.count(r.file)) {
          std::string text;
          if (!readFile(r.file, text)) {
            o.why = "cannot read '" + r.file + "'";
            continue;
          }
          out_.original[r.file] = text;
        }
        if (contentHash(out_.original[r.file]) != analyzedHash(r.file))
          o.why = "'" + r.file + "' changed since it was analyzed; it was not modified";
        else if (r.offset + r.length > out_.original[r.file].size())
          o.why = "an edit lies outside '" + r.file + "'";
      }
  }

  std::map<std::string, std::string> contentsWith(const std::vector<size_t> &fixes) {
    std::map<std::string, std::vector<Replacement>> perFile;
    for (size_t i : fixes)
      for (const Replacement &r : out_.outcomes[i].fix.replacements)
        perFile[r.file].push_back(r);
    std::map<std::string, std::string> contents;
    for (auto &[file, reps] : perFile)
      contents[file] = applyReplacements(out_.original[file], reps);
    return contents;
  }

  // "" when `fixes` together re-analyze cleanly; else why not.
  std::string check(size_t unit, const std::vector<size_t> &fixes, std::map<std::string, std::string> &contents) {
    contents = contentsWith(fixes);
    AnalyzerOptions o = aopts_;
    o.overlayFiles = contents;
    TranslationUnitResult r = analyzeUnit(jobs_[unit], o);
    if (!r.parsed)
      return "the fixed file does not parse: " + r.fatalError;
    const auto &before = results_.units[unit].compileErrors;
    if (r.compileErrors.size() > before.size()) {
      for (const FrontendMessage &e : r.compileErrors) {
        bool old = std::any_of(before.begin(), before.end(), [&](const FrontendMessage &b) { return b.message == e.message; });
        if (!old)
          return "it adds a compile error: line " + std::to_string(e.loc.line) + ": " + e.message;
      }
      return "it adds a compile error";
    }
    // Two overloads are legal C++, so a declaration the edit missed parses
    // fine; nvcc then fails with "referenced but not defined". Refused here,
    // without nvcc: no kernel may gain a declaration that is never defined.
    std::string mismatch = newUndefinedOverload(results_.units[unit], r);
    if (!mismatch.empty())
      return "the definition no longer matches a declaration: " + mismatch;
    AnalysisResults again;
    again.units.push_back(std::move(r));
    std::vector<Finding> remaining = runRules(again, ctx_, ropts_);
    for (size_t i : fixes) {
      const FixOutcome &o = out_.outcomes[i];
      for (const Finding &f : remaining)
        if (f.rule == o.rule && f.kernel == o.kernel && f.details.value("subject", "") == o.fix.subject &&
            (o.fix.residualDegree == 0 || f.details.value("degree", 0) > o.fix.residualDegree))
          return "its finding remains after the fix: line " + std::to_string(f.loc.line) + ": " + f.message;
    }
    if (!opts_.nvcc.empty())
      for (const auto &[file, text] : contents) {
        std::string why = nvccRejects(opts_, file, text);
        if (!why.empty())
          return why;
      }
    return "";
  }

  void verifyUnit(size_t unit, const std::vector<size_t> &fixes) {
    std::map<std::string, std::string> contents;
    if (check(unit, fixes, contents).empty()) {
      for (auto &[file, text] : contents)
        out_.fixed[file] = text;
      return;
    }
    // Some fix is bad: keep the fixes that verify one after another.
    std::vector<size_t> kept;
    for (size_t i : fixes) {
      std::vector<size_t> trial = kept;
      trial.push_back(i);
      std::string why = check(unit, trial, contents);
      if (why.empty())
        kept = trial;
      else
        out_.outcomes[i].why = "rolled back: " + why;
    }
    if (!kept.empty() && check(unit, kept, contents).empty())
      for (auto &[file, text] : contents)
        out_.fixed[file] = text;
  }

  void write() {
    for (const auto &[file, text] : out_.fixed) {
      std::string now, error;
      // Checked again just before the rename: an editor may have saved since.
      if (!readFile(file, now) || contentHash(now) != analyzedHash(file)) {
        out_.writeErrors.push_back("'" + file + "' changed while fixing; it was not modified");
        continue;
      }
      if (!writeSourceAtomically(file, text, error))
        out_.writeErrors.push_back(error);
    }
  }

  const AnalysisResults &results_;
  const std::vector<CompileJob> &jobs_;
  const AnalyzerOptions &aopts_;
  const RuleContext &ctx_;
  const RuleOptions &ropts_;
  const FixOptions &opts_;
  FixResult &out_;
  std::vector<size_t> unit_; // parallel to outcomes
};

} // namespace

std::string applyReplacements(const std::string &contents, std::vector<Replacement> replacements) {
  // From the end of the file backwards, so earlier offsets stay valid; at one
  // offset the replacement goes first, so that an insertion there lands
  // before the replaced text rather than inside it.
  std::sort(replacements.begin(), replacements.end(), [](const Replacement &a, const Replacement &b) {
    return a.offset != b.offset ? a.offset > b.offset : a.length > b.length;
  });
  replacements.erase(std::unique(replacements.begin(), replacements.end()), replacements.end());
  std::string out = contents;
  for (const Replacement &r : replacements)
    if (r.offset + r.length <= out.size())
      out.replace(r.offset, r.length, r.text);
  return out;
}

std::vector<const FixOutcome *> FixResult::applied() const {
  std::vector<const FixOutcome *> list;
  for (const FixOutcome &o : outcomes)
    if (o.applied)
      list.push_back(&o);
  return list;
}

FixResult applyFixes(const AnalysisResults &results, const std::vector<Finding> &findings,
                     const std::vector<CompileJob> &jobs, const AnalyzerOptions &analyzerOpts,
                     const RuleContext &ruleCtx, const RuleOptions &ruleOpts, const FixOptions &opts) {
  FixResult out;
  Applier(results, jobs, analyzerOpts, ruleCtx, ruleOpts, opts, out).run(findings);
  return out;
}

} // namespace warplint

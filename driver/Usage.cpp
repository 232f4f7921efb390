// The help texts. Each option of CommandLine.cpp appears here; a unit test
// checks that `check --help` mentions them all.
#include "driver/CommandLine.h"

namespace warplint {

namespace {

const char *const kGeneralUsage = R"(usage: warplint <command> [options]

Finds CUDA memory accesses that waste bandwidth (shared-memory bank conflicts,
uncoalesced global accesses) by simulating the 32 lanes of a warp.

Commands:
  check        analyze CUDA source files
  list-rules   list the rules and what they find
  docs         write the rule documentation pages from the registry
  lsp          language server for editors (LSP over stdin/stdout)
  verify       run a program under Nsight Compute and check the findings
               against its counters (needs a GPU and ncu); with
               --before-after, measure a fix (the program before and after,
               or --pair kernels of one) against the predicted speedup
               (`warplint verify --before-after --help`; --csv-dir replays)
  probe        measure this GPU's memory hierarchy into a profile (needs a
               GPU), or print a profile's tables with --report

Options:
  -h, --help   show this help; `warplint <command> --help` for a command
  --version    show the version

Exit status: 0 no findings, 1 findings (see `check --fail-on`), 2 usage error
or a file that could not be analyzed at all.
)";

const char *const kCheckUsage = R"(usage: warplint check [options] FILE... [-- COMPILER-FLAGS...]
       warplint check [options] -p BUILD_DIR [FILE...] [-- EXTRA-FLAGS...]

Without -p, FILEs are parsed as CUDA with the flags after `--`; with neither,
as CUDA C++17 for sm_90. With -p, compile commands come from
BUILD_DIR/compile_commands.json (nvcc or clang); no FILE means every CUDA
source in it.

Options:
  -p BUILD_DIR               use BUILD_DIR/compile_commands.json
  --format text|json|sarif   report format (default: text)
  -o, --output FILE          write the report to FILE, replaced atomically
  --cuda-path DIR            CUDA toolkit to parse against (default: $CUDA_PATH,
                             /usr/local/cuda, then nvcc on PATH)
  --no-cuda-toolkit          use warplint's bundled CUDA declarations only
  --rules ID[,ID...]         run only these rules (see `warplint list-rules`)
  --baseline FILE            report only findings not in FILE, an earlier
                             --format json or sarif report (matched by rule,
                             file, kernel and the line's text, not its number)
  --config FILE              settings file instead of each file's nearest
                             .warplint.yaml (keys: enable, disable, profile,
                             exclude, warnings-as-errors, rules)
  --warnings-as-errors ID,...|all
                             report these rules' warnings as errors
  --profile FILE|NAME        hardware profile used to cost findings
  --color auto|always|never  color text output (default: auto, on a terminal)
  -j, --jobs N               files analyzed at once (default: one per core);
                             the report is the same for every N
  -q, --quiet                no progress line (shown on a terminal) and no
                             summary line on stderr
  --time-limit SECONDS       stop a file's analysis after SECONDS of CPU time
                             (default 120, 0: none); the file is reported as
                             not analyzed (exit 2) with where it stopped
  --dump-model               print the analyzer's facts (kernels, launches,
                             accesses and their warp evaluations, each block's
                             counted work) and each kernel's cost as JSON
  --explain                  after the findings, each kernel's cost model (time
                             in issue, shared, L1, L2, DRAM; the bottleneck;
                             occupancy; assumptions; each finding's predicted
                             gain) and its data objects as a table: space,
                             class (reused, temporal, strided, streaming,
                             read-only), accesses, the guidelines that apply,
                             the findings, and the evidence
  --print-clang-command      print the clang command each file is parsed with
  --fix                      apply the fixes findings offer, in place (atomic;
                             each fix re-analyzed first, and rolled back when
                             it adds a compile error or leaves its finding)
  --fix-dry-run              print those fixes as a unified diff instead
  --export-fixes FILE.yaml   write them for clang-apply-replacements
  --fix-verify-nvcc          also compile each fixed file with nvcc -arch=sm_90
  --fix-launch               also apply fixes that change launch sites (the
                             one-byte-a-lane kernels of global-narrow-access:
                             four bytes a thread, a quarter of the grid)
  --assume-no-alias          take pointer parameters to never alias (readonly-param
                             then adds __restrict__ without launch-site proof)
  --ptxas off|auto|on        when to compile a file with the toolkit's nvcc
                             -Xptxas -v and let each kernel's stack frame decide
                             private-array-local-memory (drops arrays ptxas keeps
                             in registers; registers also feed the cost model's
                             occupancy). auto (default; $WARPLINT_PTXAS sets
                             another): only files with a private array whose
                             place depends on ptxas; on: every file. Needs the
                             toolkit; compiles are cached (a real compilation:
                             seconds the first time, nothing once cached)
  --ptxas-confirm            same as --ptxas on
  --cache-dir DIR            where those compiles are cached (default
                             $WARPLINT_CACHE_DIR, else ~/.cache/warplint)
  --no-cache                 compile again on every run and cache nothing
  --fail-on note|warning|error
                             the least severe finding that makes the exit
                             status 1 (default: note, i.e. any finding)
  --fail-min-gain PCT        findings whose predicted kernel gain is below PCT
                             percent do not make the exit status 1 (default 5;
                             0 restores failing on every finding); findings the
                             cost model cannot price always count
  --min-gain PCT             do not show findings whose predicted kernel gain is
                             below PCT percent (default 0: show all)
  --no-cost-model            skip the kernel cost model: findings carry no
                             predicted gain (and every finding fails the run)
  --sort gain|source         order text findings by predicted kernel gain,
                             largest first (default: source order)
  --show-suppressed          also print the findings NOLINT comments silence
  -h, --help                 show this help

Suppressing a finding (clang-tidy's syntax; a bare NOLINT silences every rule,
ids may be globs such as `shared-*` or `warplint-*`, text after the closing
parenthesis is kept as the reason):
  x = tile[i][j];  // NOLINT(shared-bank-conflict) reason
  // NOLINTNEXTLINE(global-uncoalesced) reason
  // NOLINTBEGIN(readonly-param) ... // NOLINTEND(readonly-param)

Every finding the kernel cost model can price states its predicted gain on its
kernel ("kernel k: shared-memory bound (model: shared 68%, dram 24%, issue 8%);
the padding of 'tile': ~1.15x on this kernel"); JSON carries it as
details.predicted_kernel_speedup and each kernel's model as units[].costs.

Exit status: 0 no findings at or above --fail-on, 1 findings, 2 usage error or
a file that could not be analyzed at all, such as a file that is not CUDA or
C++ (findings for the other files are still reported).
)";

const char *const kListRulesUsage = R"(usage: warplint list-rules [--format text|markdown|json]

Lists every rule: id, guideline and title. Markdown is the docs/rules index.
)";

const char *const kDocsUsage = R"(usage: warplint docs --out DIR

Writes DIR/<rule-id>.md for every rule and DIR/README.md, the index, from the
rule registry. The committed docs/rules/ is this output:
  warplint docs --out docs/rules
)";

const char *const kLspUsage = R"(usage: warplint lsp [options] [-- FALLBACK-FLAGS...]

Speaks the Language Server Protocol on stdin/stdout: diagnostics for each
CUDA file the editor opens or changes, and quickfix code actions for the
fixes `check --fix` applies. Compile commands come from the
compile_commands.json nearest the file (its directory and their parents,
and their build/ sub-directories, as clangd looks), nvcc lines translated;
files in none are parsed with FALLBACK-FLAGS. See docs/editors.md.

Options:
  -p BUILD_DIR               use BUILD_DIR/compile_commands.json for every file
  --cuda-path DIR            CUDA toolkit to parse against
  --no-cuda-toolkit          use warplint's bundled CUDA declarations only
  --rules ID[,ID...]         run only these rules
  --config FILE              settings file instead of each file's .warplint.yaml
  --profile FILE|NAME        hardware profile used to cost findings
  --assume-no-alias          take pointer parameters to never alias
  --time-limit SECONDS       stop a file's analysis after SECONDS of CPU time
                             (default 120, 0: none)
  --stdio                    accepted and ignored (stdio is the transport)
  -h, --help                 show this help

Exit status: 0 after `shutdown` then `exit`, 1 when the client exits or
disconnects without `shutdown`, 2 on a usage error.
)";

} // namespace

std::string usageText(const std::string &topic) {
  if (topic == "check")
    return kCheckUsage;
  if (topic == "list-rules")
    return kListRulesUsage;
  if (topic == "docs")
    return kDocsUsage;
  if (topic == "lsp")
    return kLspUsage;
  return kGeneralUsage;
}

} // namespace warplint

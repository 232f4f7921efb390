#include "analyzer/native/SassMix.h"
#include "analyzer/results/PrivateMemory.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <regex>
#include <set>
#include <sstream>

namespace warplint {

const char *sassClassName(SassClass c) {
  switch (c) {
  case SassClass::Fp32: return "fp32";
  case SassClass::Integer: return "integer";
  case SassClass::Fp64: return "fp64";
  case SassClass::Sfu: return "sfu";
  case SassClass::Shared: return "shared";
  case SassClass::Global: return "global";
  case SassClass::Local: return "local";
  case SassClass::Constant: return "constant";
  case SassClass::Control: return "control";
  case SassClass::Uniform: return "uniform";
  case SassClass::Other: return "other";
  }
  return "other";
}

SassClass classifySassOpcode(const std::string &opcode) {
  std::string op = opcode.substr(0, opcode.find('.'));
  static const std::map<std::string, SassClass> known = {
      {"FFMA", SassClass::Fp32},     {"FADD", SassClass::Fp32},     {"FMUL", SassClass::Fp32},
      {"FMNMX", SassClass::Fp32},    {"FSETP", SassClass::Fp32},    {"FSEL", SassClass::Fp32},
      {"FSET", SassClass::Fp32},     {"FCHK", SassClass::Fp32},     {"FRND", SassClass::Fp32},
      {"FSWZADD", SassClass::Fp32},  {"HFMA2", SassClass::Fp32},    {"HADD2", SassClass::Fp32},
      {"HMUL2", SassClass::Fp32},    {"HSETP2", SassClass::Fp32},   {"HMNMX2", SassClass::Fp32},
      {"DFMA", SassClass::Fp64},     {"DADD", SassClass::Fp64},     {"DMUL", SassClass::Fp64},
      {"DSETP", SassClass::Fp64},    {"DMNMX", SassClass::Fp64},    {"DSET", SassClass::Fp64},
      {"MUFU", SassClass::Sfu},      {"LDS", SassClass::Shared},    {"STS", SassClass::Shared},
      {"LDSM", SassClass::Shared},   {"STSM", SassClass::Shared},   {"ATOMS", SassClass::Shared},
      {"LDG", SassClass::Global},    {"STG", SassClass::Global},    {"LD", SassClass::Global},
      {"ST", SassClass::Global},     {"ATOM", SassClass::Global},   {"ATOMG", SassClass::Global},
      {"RED", SassClass::Global},    {"REDG", SassClass::Global},   {"LDGSTS", SassClass::Global},
      {"UBLKCP", SassClass::Global}, {"UTMALDG", SassClass::Global}, {"UTMASTG", SassClass::Global},
      {"LDL", SassClass::Local},     {"STL", SassClass::Local},     {"LDC", SassClass::Constant},
      {"ULDC", SassClass::Constant}, {"BRA", SassClass::Control},   {"BRX", SassClass::Control},
      {"JMP", SassClass::Control},   {"JMX", SassClass::Control},   {"CALL", SassClass::Control},
      {"RET", SassClass::Control},   {"EXIT", SassClass::Control},  {"BSSY", SassClass::Control},
      {"BSYNC", SassClass::Control}, {"BREAK", SassClass::Control}, {"BPT", SassClass::Control},
      {"WARPSYNC", SassClass::Control}, {"BAR", SassClass::Control}, {"BMOV", SassClass::Control},
      {"YIELD", SassClass::Control}, {"NANOSLEEP", SassClass::Control}, {"KILL", SassClass::Control},
      {"DEPBAR", SassClass::Control}, {"MEMBAR", SassClass::Control}, {"ERRBAR", SassClass::Control},
      {"CCTL", SassClass::Control},  {"LDGDEPBAR", SassClass::Control}, {"SYNCS", SassClass::Control},
      {"SHFL", SassClass::Other},    {"MATCH", SassClass::Other},   {"REDUX", SassClass::Other},
      {"HMMA", SassClass::Other},    {"IMMA", SassClass::Other},    {"HGMMA", SassClass::Other},
      {"WGMMA", SassClass::Other},   {"NOP", SassClass::Other},
  };
  if (auto it = known.find(op); it != known.end())
    return it->second;
  if (!op.empty() && op[0] == 'U')
    return SassClass::Uniform; // UIADD3, UMOV, ULEA, ...
  return SassClass::Integer;   // IMAD, IADD3, LOP3, ISETP, MOV, SEL, conversions, S2R, ...
}

int sassAccessBytes(const std::string &opcode) {
  int bytes = 4;
  size_t start = opcode.find('.');
  bool matrix = opcode.rfind("LDSM", 0) == 0 || opcode.rfind("STSM", 0) == 0;
  while (start != std::string::npos) {
    size_t end = opcode.find('.', start + 1);
    std::string t = opcode.substr(start + 1, end == std::string::npos ? std::string::npos : end - start - 1);
    if (t == "U8" || t == "S8")
      bytes = 1;
    else if (t == "U16" || t == "S16")
      bytes = 2;
    else if (t == "64")
      bytes = 8;
    else if (t == "128")
      bytes = 16;
    else if (matrix && (t == "2" || t == "4"))
      bytes = 4 * std::stoi(t); // ldmatrix .x2/.x4: a 4-byte word a lane per 8x8 matrix
    start = end;
  }
  return bytes;
}

namespace {

// `//## File "a.cu", line 9 inlined at "a.cu", line 17`: the last location
// is the outermost (the kernel's own line).
const std::regex &lineInfoRegex() {
  static const std::regex r(R"re("([^"]*)", line (\d+))re");
  return r;
}

} // namespace

std::map<std::string, SassFunction> parseNvdisasm(const std::string &text) {
  std::map<std::string, SassFunction> out;
  static const std::regex section(R"(^\s*\.section\s+\.text\.([^,\s]+),)");
  static const std::regex inst(R"(^\s*/\*([0-9a-fA-F]+)\*/\s+(@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)(.*)$)");
  static const std::regex label(R"(^\s*([.$A-Za-z_][^\s:]*):\s*$)");
  static const std::regex target(R"(`\(([^)]+)\))");
  SassFunction *fn = nullptr;
  std::map<std::string, uint32_t> labels;          // of the current function
  std::vector<std::pair<size_t, std::string>> pendingTargets;
  std::string pendingLabel;                        // defined before the next instruction
  bool cold = false;                               // inside a slow-path subroutine ($__internal_...)
  int curFile = -1, curLine = 0;
  auto finish = [&] {
    if (!fn)
      return;
    for (auto &[i, name] : pendingTargets)
      if (auto it = labels.find(name); it != labels.end())
        fn->instructions[i].target = it->second;
    // The self-branch after the last EXIT and the NOPs that pad the section:
    // never executed.
    for (SassInstruction &s : fn->instructions)
      if (s.target == int64_t(s.address))
        s.padding = true;
    labels.clear();
    pendingTargets.clear();
  };
  std::istringstream lines(text);
  std::string line;
  std::smatch m;
  while (std::getline(lines, line)) {
    if (std::regex_search(line, m, section)) {
      finish();
      fn = &out[m[1]];
      fn->mangled = m[1];
      cold = false;
      curFile = -1;
      curLine = 0;
      continue;
    }
    if (!fn)
      continue;
    if (line.find("//##") != std::string::npos) {
      std::string last, lastLine;
      for (auto it = std::sregex_iterator(line.begin(), line.end(), lineInfoRegex()); it != std::sregex_iterator();
           ++it) {
        last = (*it)[1];
        lastLine = (*it)[2];
      }
      if (!last.empty()) {
        auto f = std::find(fn->files.begin(), fn->files.end(), last);
        curFile = static_cast<int>(f - fn->files.begin());
        if (f == fn->files.end())
          fn->files.push_back(last);
        curLine = std::stoi(lastLine);
      }
      continue;
    }
    if (std::regex_match(line, m, label)) {
      std::string name = m[1];
      if (name.rfind(".text.", 0) == 0)
        continue;
      if (name[0] == '$')
        cold = true; // a subroutine of the section (a division's slow path): run on rare operands only
      labels[name] = 0xffffffffu;
      pendingLabel = name;
      continue;
    }
    if (!std::regex_match(line, m, inst))
      continue;
    SassInstruction s;
    s.address = static_cast<uint32_t>(std::stoul(m[1].str(), nullptr, 16));
    std::string opcode = m[3];
    s.cls = classifySassOpcode(opcode);
    s.line = curLine;
    s.file = curFile;
    s.padding = cold || opcode == "NOP";
    if (s.cls == SassClass::Shared || s.cls == SassClass::Global || s.cls == SassClass::Local)
      s.bytes = static_cast<uint8_t>(sassAccessBytes(opcode));
    s.predicated = m[2].matched && m[2].str().find("PT") == std::string::npos;
    s.exit = opcode == "EXIT";
    for (auto &[name, addr] : labels)
      if (addr == 0xffffffffu)
        addr = s.address;
    pendingLabel.clear();
    std::string rest = m[4];
    std::smatch t;
    if (opcode.rfind("BRA", 0) == 0 && std::regex_search(rest, t, target))
      pendingTargets.push_back({fn->instructions.size(), t[1]});
    fn->instructions.push_back(s);
  }
  finish();
  return out;
}

std::string sassToJson(const std::map<std::string, SassFunction> &functions) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto &[name, f] : functions) {
    nlohmann::json rows = nlohmann::json::array();
    for (const SassInstruction &s : f.instructions)
      rows.push_back({s.address, s.file, s.line, int(s.cls), s.target, s.padding ? 1 : 0, int(s.bytes),
                      (s.predicated ? 1 : 0) | (s.exit ? 2 : 0)});
    j[name] = {{"files", f.files}, {"rows", rows}};
  }
  return j.dump();
}

bool sassFromJson(const std::string &text, std::map<std::string, std::shared_ptr<const SassFunction>> &out) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return false;
  try {
    for (auto &[name, v] : j.items()) {
      auto f = std::make_shared<SassFunction>();
      f->mangled = name;
      f->files = v.at("files").get<std::vector<std::string>>();
      for (const auto &r : v.at("rows")) {
        if (r.size() != 8)
          return false; // an entry from before the rows had bytes and flags: compiled again
        SassInstruction s;
        s.address = r.at(0).get<uint32_t>();
        s.file = r.at(1).get<int>();
        s.line = r.at(2).get<int>();
        int c = r.at(3).get<int>();
        if (c < 0 || c > int(SassClass::Other))
          return false;
        s.cls = SassClass(c);
        s.target = r.at(4).get<int64_t>();
        s.padding = r.at(5).get<int>() != 0;
        s.bytes = static_cast<uint8_t>(r.at(6).get<int>());
        int flags = r.at(7).get<int>();
        s.predicated = (flags & 1) != 0;
        s.exit = (flags & 2) != 0;
        f->instructions.push_back(s);
      }
      out[name] = std::move(f);
    }
  } catch (const nlohmann::json::exception &) {
    return false;
  }
  return true;
}

std::string findNvdisasm(const std::string &cudaRoot) {
  const char *e = std::getenv("WARPLINT_NVDISASM");
  std::string setting = e ? e : "";
  if (setting.empty() || setting == "off")
    return "";
  if (setting != "auto")
    return llvm::sys::fs::can_execute(setting) ? setting : "";
  std::string p = cudaRoot + "/bin/nvdisasm";
  return !cudaRoot.empty() && llvm::sys::fs::can_execute(p) ? p : "";
}

namespace {

std::string baseOf(const std::string &path) { return std::string(llvm::sys::path::filename(path)); }

double tripsAt(const KernelWork &w, int loop) {
  return loop >= 0 && size_t(loop) < w.loopTrips.size() && w.loopTrips[loop] ? *w.loopTrips[loop] : 1.0;
}

// nvcc unrolls by powers of two: a measured ratio of copies, rounded to one.
double roundToPowerOfTwo(double r) {
  if (r < 1.5)
    return 1;
  return std::exp2(std::round(std::log2(r)));
}

struct Region {
  uint32_t start = 0, end = 0; // [start, end]: the loop header's address to its backward branch
  int backLine = 0;            // the backward branch's source line (0: another file or none)
  int parent = -1;
  int loop = -1;               // the source loop it implements (index into KernelInfo::loops)
  double copies = 1;           // of the loop's body a native iteration runs
  double iterations = 1;       // native iterations an entry
  int direct = 0;                   // its own instructions (not in a nested region)
  double directMemory = 0;          // of them global/shared, in 4-byte words a lane (LDS.128: 4)
  bool remainder = false;
};

bool isMemory(SassClass c) { return c == SassClass::Global || c == SassClass::Shared; }

} // namespace

NativeInstructionCount countNativeInstructions(const SassFunction &f, const KernelInfo &k, const KernelWork &w) {
  NativeInstructionCount out;
  std::string kernelFile = baseOf(k.loc.file);
  auto kernelLine = [&](const SassInstruction &s) {
    return s.line > 0 && s.file >= 0 && size_t(s.file) < f.files.size() && baseOf(f.files[s.file]) == kernelFile
               ? s.line
               : 0;
  };
  // --- the model's side: each loop's header line, each access's line and loops ---
  std::map<int, std::vector<int>> loopsByHeaderLine;
  for (size_t i = 0; i < k.loops.size(); ++i)
    if (baseOf(k.loops[i].loc.file) == kernelFile)
      loopsByHeaderLine[k.loops[i].loc.line].push_back(int(i));
  struct LineAccess {
    std::vector<int> loops;
    bool instruction; // global, shared or generic: one load or store instruction in the AST count
    double words;     // 4-byte words a lane it moves (a float4: 4), as the native code's wide loads count them
    bool local;       // a private array's element (LDL/STL where the array is in local memory)
  };
  std::map<int, std::vector<LineAccess>> accessesByLine;
  for (const AccessWork &a : w.accesses) {
    if (a.access >= k.accesses.size())
      continue;
    const MemoryAccess &m = k.accesses[a.access];
    int line = 0;
    if (!m.callChain.empty())
      line = baseOf(m.callChain.front().file) == kernelFile ? m.callChain.front().line : 0;
    else
      line = baseOf(m.loc.file) == kernelFile ? m.loc.line : 0;
    if (line <= 0)
      continue;
    bool inst = m.space == AddressSpace::Global || m.space == AddressSpace::Shared || m.space == AddressSpace::Generic;
    accessesByLine[line].push_back(
        {a.loops, inst, std::max(1.0, double(m.widthBytes) / 4), m.space == AddressSpace::Local});
  }

  // --- the native side: loops from backward branches ---
  std::vector<const SassInstruction *> live;
  for (const SassInstruction &s : f.instructions)
    if (!s.padding)
      live.push_back(&s);
  out.staticInstructions = int(live.size());
  if (live.empty()) {
    out.notCounted = "the kernel's native code is empty";
    return out;
  }
  int withLine = 0;
  for (const SassInstruction *s : live)
    withLine += kernelLine(*s) > 0 ? 1 : 0;
  if (withLine * 2 < int(live.size())) {
    out.notCounted = "the native code has no line information for most instructions (compiled without -lineinfo?)";
    return out;
  }
  std::map<uint32_t, Region> byStart;
  for (const SassInstruction *s : live)
    if (s->target >= 0 && uint32_t(s->target) <= s->address) {
      Region &r = byStart[uint32_t(s->target)];
      r.start = uint32_t(s->target);
      if (s->address >= r.end) {
        r.end = s->address;
        r.backLine = kernelLine(*s);
      }
    }
  std::vector<Region> regions;
  for (auto &[start, r] : byStart)
    regions.push_back(r);
  // Outermost first: by start, the longer first.
  std::sort(regions.begin(), regions.end(),
            [](const Region &a, const Region &b) { return a.start != b.start ? a.start < b.start : a.end > b.end; });
  for (size_t i = 0; i < regions.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (regions[j].start <= regions[i].start && regions[i].end <= regions[j].end &&
          (regions[i].parent < 0 || regions[regions[i].parent].start <= regions[j].start))
        regions[i].parent = int(j);
  auto innermost = [&](uint32_t addr) {
    int best = -1;
    for (size_t i = 0; i < regions.size(); ++i)
      if (regions[i].start <= addr && addr <= regions[i].end)
        best = int(i); // later ones are nested in earlier ones
    return best;
  };
  std::vector<int> regionOf(live.size(), -1);
  // region -> line -> its own global/shared instructions' words: nvcc merges
  // a thread's adjacent reads into one wide load (aatTiled's As[ty + 8 * r][k]
  // over k: LDS.128), so the copies of a loop body are counted in words.
  std::map<int, std::map<int, double>> memoryByRegionLine;
  // The same for local loads and stores (LDL/STL): a loop over a private
  // array in local memory has no other memory instruction to count its
  // copies by (standardize's `mean += x[k]` under `#pragma unroll 4`).
  std::map<int, std::map<int, double>> localByRegionLine;
  for (size_t i = 0; i < live.size(); ++i) {
    int r = innermost(live[i]->address);
    regionOf[i] = r;
    if (r < 0)
      continue;
    ++regions[r].direct;
    if (isMemory(live[i]->cls)) {
      double words = std::max(1.0, live[i]->bytes / 4.0);
      regions[r].directMemory += words;
      memoryByRegionLine[r][kernelLine(*live[i])] += words;
    } else if (live[i]->cls == SassClass::Local) {
      localByRegionLine[r][kernelLine(*live[i])] += std::max(1.0, live[i]->bytes / 4.0); // STL.128: 4
    }
  }

  // --- each native loop matched to a source loop ---
  auto ancestorsLoops = [&](int r) {
    std::set<int> loops;
    for (int p = regions[r].parent; p >= 0; p = regions[p].parent)
      loops.insert(regions[p].loop);
    return loops;
  };
  // A constant loop of at most 32 trips: nvcc unrolls it fully (the AST
  // estimate's own assumption), so it is no native loop.
  auto likelyUnrolled = [&](int loop) { return k.loops[loop].tripCount && *k.loops[loop].tripCount <= 32; };
  for (size_t r = 0; r < regions.size(); ++r) {
    Region &R = regions[r];
    std::set<int> outer = ancestorsLoops(int(r));
    if (auto it = loopsByHeaderLine.find(R.backLine); R.backLine > 0 && it != loopsByHeaderLine.end())
      for (int loop : it->second)
        if (!outer.count(loop)) {
          R.loop = loop;
          break;
        }
    if (R.loop < 0) {
      // The loop most of its own memory instructions' source accesses are
      // in, below the loops around it.
      std::map<int, double> votes;
      for (auto &[line, n] : memoryByRegionLine[int(r)])
        if (auto it = accessesByLine.find(line); it != accessesByLine.end())
          for (const LineAccess &a : it->second) {
            int pick = -1;
            for (int loop : a.loops)
              if (!outer.count(loop) && (pick < 0 || !likelyUnrolled(loop)))
                pick = loop;
            if (pick >= 0)
              votes[pick] += n;
          }
      double best = 0;
      for (auto &[loop, n] : votes)
        if (n > best)
          best = n, R.loop = loop;
    }
    if (R.loop < 0) {
      std::ostringstream why;
      why << "a loop of the native code (its backward branch at 0x" << std::hex << R.end << std::dec;
      if (R.backLine > 0)
        why << ", line " << R.backLine;
      why << ") matches no source loop";
      out.notCounted = why.str();
      return out;
    }
  }
  // Copies of the body a native iteration runs. nvcc unrolls a loop of
  // run-time trip count by a factor and runs the rest in a remainder loop of
  // one copy: two sibling native loops of one source loop, the larger one
  // unrolled by the ratio of their memory instructions (or of all their
  // instructions). Alone, a loop's copies are its memory instructions over
  // the source accesses one iteration makes (loops nested in it that no
  // native loop implements are unrolled into it).
  std::set<int> matched;
  for (const Region &R : regions)
    matched.insert(R.loop);
  std::map<std::pair<int, int>, std::vector<int>> siblings; // (parent, loop) -> regions
  for (size_t r = 0; r < regions.size(); ++r)
    siblings[{regions[r].parent, regions[r].loop}].push_back(int(r));
  for (auto &[key, group] : siblings) {
    int loop = key.second;
    double trips = tripsAt(w, loop);
    if (group.size() >= 2) {
      int main = group.front();
      for (int r : group)
        if (regions[r].direct > regions[main].direct)
          main = r;
      int rest = -1;
      for (int r : group)
        if (r != main && (rest < 0 || regions[r].direct < regions[rest].direct))
          rest = r;
      double ratio = regions[rest].directMemory > 0
                         ? double(regions[main].directMemory) / regions[rest].directMemory
                         : double(regions[main].direct) / std::max(1, regions[rest].direct);
      double u = std::min(roundToPowerOfTwo(ratio), std::max(1.0, trips));
      regions[main].copies = u;
      regions[main].iterations = std::floor(trips / u);
      for (int r : group)
        if (r != main) {
          regions[r].remainder = true;
          regions[r].iterations = r == rest ? trips - u * std::floor(trips / u) : 0;
        }
      continue;
    }
    Region &R = regions[group.front()];
    double expected = 0; // memory words one source iteration moves, per line of the region
    double native = R.directMemory;
    std::set<int> lines;
    for (auto &[line, n] : memoryByRegionLine[group.front()])
      lines.insert(line);
    const std::map<int, double> &localLines = localByRegionLine[group.front()];
    for (auto &[line, n] : localLines)
      lines.insert(line);
    for (int line : lines) {
      auto it = accessesByLine.find(line);
      if (it == accessesByLine.end())
        continue;
      // Local accesses count where the native code has local instructions
      // on the line (the array is in local memory there, not in registers).
      auto localHere = localLines.find(line);
      bool localCounted = false;
      for (const LineAccess &a : it->second) {
        auto at = std::find(a.loops.begin(), a.loops.end(), loop);
        bool counts = a.instruction || (a.local && localHere != localLines.end());
        if (!counts || at == a.loops.end())
          continue;
        if (a.local && !localCounted) {
          native += localHere->second;
          localCounted = true;
        }
        double inner = 1;
        bool unrolledInside = true;
        for (auto d = at + 1; d != a.loops.end(); ++d) {
          unrolledInside = unrolledInside && !matched.count(*d);
          inner *= tripsAt(w, *d);
        }
        if (unrolledInside)
          expected += inner * a.words;
      }
    }
    double u = expected > 0 && native > 0 ? roundToPowerOfTwo(native / expected) : 1;
    u = std::min(u, std::max(1.0, trips));
    R.copies = u;
    R.iterations = trips / u;
  }
  for (const Region &R : regions) {
    std::ostringstream os;
    os.precision(4);
    os << "line " << k.loops[R.loop].loc.line << ": ";
    if (R.remainder)
      os << "its remainder loop, " << R.iterations << " iterations";
    else if (R.copies > 1)
      os << "unrolled x" << R.copies << ", " << R.iterations << " iterations";
    else
      os << R.iterations << " iterations";
    out.loops.push_back(os.str());
  }

  // --- which warps run each instruction ---
  // Code behind a forward branch (an `if` body, the else of one, what
  // follows a predicated EXIT) runs only in the warps that take it: the
  // guard `if (t < NE / (2 * st))` of a reduction step leaves 19 of its 64
  // warp-steps running (crBaseline; counting every warp made its native count
  // 2.2x ncu's sm__inst_executed). The tally knows which warps run each
  // memory access (AccessWork::warpExecutions, per warp and iteration of its
  // loops): a skipped span runs in the share of its memory instructions'
  // accesses (the largest, as a branch runs wherever any part of it does);
  // a span without any takes the share of the span around it.
  double warps = std::ceil(double(w.block.threads()) / 32);
  std::map<int, double> lineShare; // kernel line -> the share of warp-iterations its accesses run
  for (const AccessWork &a : w.accesses) {
    if (!a.counted || a.access >= k.accesses.size())
      continue;
    const MemoryAccess &m = k.accesses[a.access];
    if (m.space != AddressSpace::Global && m.space != AddressSpace::Shared && m.space != AddressSpace::Generic)
      continue;
    int line = !m.callChain.empty() ? (baseOf(m.callChain.front().file) == kernelFile ? m.callChain.front().line : 0)
                                    : (baseOf(m.loc.file) == kernelFile ? m.loc.line : 0);
    double full = warps;
    for (int loop : a.loops)
      full *= tripsAt(w, loop);
    if (line <= 0 || full <= 0)
      continue;
    double share = std::clamp(a.warpExecutions / full, 0.0, 1.0);
    auto [it, fresh] = lineShare.emplace(line, share);
    if (!fresh)
      it->second = std::max(it->second, share);
  }
  struct Span {
    uint32_t from = 0, to = 0; // instructions strictly between the branch and its target
    int parent = -1;
    double share = -1;         // -1: that of the span around it
  };
  uint32_t lastAddress = live.back()->address;
  std::vector<Span> spans;
  for (const SassInstruction *s : live) {
    Span sp;
    sp.from = s->address;
    if (s->target > int64_t(s->address))
      sp.to = uint32_t(s->target);
    else if (s->exit && s->predicated)
      sp.to = lastAddress + 1;
    else
      continue;
    // A branch out of a native loop or into one (a break, a rotated loop's
    // entry) is the loop's control, not a guard around code.
    bool crosses = false;
    for (const Region &R : regions) {
      bool fromIn = R.start <= sp.from && sp.from <= R.end;
      bool toIn = R.start <= sp.to - 1 && sp.to - 1 <= R.end;
      crosses = crosses || fromIn != toIn;
    }
    if (!crosses && sp.to > sp.from + 1)
      spans.push_back(sp);
  }
  std::sort(spans.begin(), spans.end(),
            [](const Span &a, const Span &b) { return a.from != b.from ? a.from < b.from : a.to > b.to; });
  std::vector<Span> nested;
  for (const Span &sp : spans) {
    bool ok = true;
    for (const Span &o : nested) {
      bool disjoint = sp.to <= o.from + 1 || o.to <= sp.from + 1;
      bool inside = o.from <= sp.from && sp.to <= o.to;
      ok = ok && (disjoint || inside);
    }
    if (ok)
      nested.push_back(sp);
  }
  for (size_t i = 0; i < nested.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (nested[j].from <= nested[i].from && nested[i].to <= nested[j].to)
        nested[i].parent = int(j); // the last (innermost) one that holds it
  auto innermostSpan = [&](uint32_t addr) {
    int best = -1;
    for (size_t i = 0; i < nested.size(); ++i)
      if (nested[i].from < addr && addr < nested[i].to)
        best = int(i);
    return best;
  };
  std::vector<int> spanOf(live.size(), -1);
  std::vector<double> direct(nested.size(), -1), within(nested.size(), -1);
  for (size_t i = 0; i < live.size(); ++i) {
    spanOf[i] = innermostSpan(live[i]->address);
    if (spanOf[i] < 0 || !isMemory(live[i]->cls))
      continue;
    auto it = lineShare.find(kernelLine(*live[i]));
    if (it == lineShare.end())
      continue;
    direct[spanOf[i]] = std::max(direct[spanOf[i]], it->second);
    for (int p = spanOf[i]; p >= 0; p = nested[p].parent)
      within[p] = std::max(within[p], it->second);
  }
  for (size_t i = 0; i < nested.size(); ++i)
    nested[i].share = direct[i] >= 0 ? direct[i] : within[i];
  out.guardedSpans = int(std::count_if(nested.begin(), nested.end(), [](const Span &s) { return s.share >= 0; }));
  auto shareOf = [&](size_t i) {
    for (int p = spanOf[i]; p >= 0; p = nested[p].parent)
      if (nested[p].share >= 0)
        return nested[p].share;
    return 1.0;
  };

  // --- what one block issues ---
  for (size_t i = 0; i < live.size(); ++i) {
    double every = warps;
    for (int r = regionOf[i]; r >= 0; r = regions[r].parent)
      every *= regions[r].iterations;
    double times = every * shareOf(i);
    out.skippedByBranches += every - times;
    const SassInstruction &s = *live[i];
    if (s.cls == SassClass::Shared) {
      out.sharedRequestsByLine[kernelLine(s)] += times;
      out.sharedWordsByLine[kernelLine(s)] += times * std::max(1.0, s.bytes / 4.0);
    }
    out.warpInstructions += times;
    out.byClass[sassClassName(s.cls)] += times;
    out.byLine[kernelLine(s)] += times;
    if (s.cls == SassClass::Sfu)
      out.sfuWarpInstructions += times;
    else if (s.cls == SassClass::Fp64)
      out.fp64WarpInstructions += times;
    else if (s.cls == SassClass::Local)
      out.localWarpInstructions += times;
  }
  out.counted = true;
  return out;
}

std::map<size_t, double> nativeSharedScale(const NativeInstructionCount &n, const KernelInfo &k, const KernelWork &w,
                                           std::vector<std::string> &notes) {
  std::map<size_t, double> out;
  if (!n.counted)
    return out;
  std::string kernelFile = baseOf(k.loc.file);
  // The lines of one straight-line region are compared together: nvcc
  // attributes a word it loads once to the first line that reads it
  // (cyclic reduction's `det` and `x[i1]` lines share b[i2] and c[i1]).
  struct Access {
    const AccessWork *work;
    int line;
  };
  std::vector<Access> accesses;
  std::map<int, int> parent; // union-find over lines
  std::function<int(int)> find = [&](int x) {
    auto it = parent.find(x);
    if (it == parent.end() || it->second == x)
      return x;
    return it->second = find(it->second);
  };
  std::map<int, int> regionLine; // region -> a line of it
  for (const AccessWork &a : w.accesses) {
    if (!a.counted || a.access >= k.accesses.size() || a.warpExecutions <= 0)
      continue;
    const MemoryAccess &m = k.accesses[a.access];
    if (m.space != AddressSpace::Shared)
      continue;
    int line = !m.callChain.empty() ? (baseOf(m.callChain.front().file) == kernelFile ? m.callChain.front().line : 0)
                                    : (baseOf(m.loc.file) == kernelFile ? m.loc.line : 0);
    if (line <= 0)
      continue;
    accesses.push_back({&a, line});
    parent.emplace(line, line);
    auto [it, fresh] = regionLine.emplace(a.region, line);
    if (!fresh)
      parent[find(line)] = find(it->second);
  }
  struct Group {
    double tallyWords = 0, nativeWords = 0;
    std::set<int> lines;
    std::vector<const AccessWork *> accesses;
  };
  std::map<int, Group> groups;
  for (const Access &a : accesses) {
    Group &g = groups[find(a.line)];
    g.tallyWords += a.work->warpExecutions * std::max(1.0, double(a.work->widthBytes) / 4);
    g.accesses.push_back(a.work);
    if (g.lines.insert(a.line).second)
      if (auto words = n.sharedWordsByLine.find(a.line); words != n.sharedWordsByLine.end())
        g.nativeWords += words->second;
  }
  for (auto &[root, g] : groups) {
    // nvcc reuses a word it loaded for the unrolled iterations that read it
    // again: fewer native words than the source reads. Merged loads (LDS.64,
    // LDS.128 for a thread's adjacent words) move as many words and are left
    // as the tally prices them: the warp model serves a wide request in
    // phases of 128 bytes (WarpSimulator.cpp), so merging saves no wavefront.
    if (g.tallyWords <= 0 || g.nativeWords <= 0)
      continue;
    double reuse = g.nativeWords / g.tallyWords;
    if (reuse >= 0.999)
      continue;
    for (const AccessWork *a : g.accesses)
      out[a->access] = reuse;
    std::ostringstream os;
    os.precision(3);
    os << (g.lines.size() == 1 ? "line " : "lines ");
    bool first = true;
    for (int l : g.lines) {
      os << (first ? "" : ", ") << l;
      first = false;
    }
    os << ": " << g.nativeWords << " native shared words a block where the source reads " << g.tallyWords << " (x"
       << reuse << ")";
    notes.push_back(os.str());
  }
  return out;
}

} // namespace warplint

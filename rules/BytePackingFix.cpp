// The rewrites global-narrow-access offers (G_2): packing four or sixteen
// one-byte accesses a thread into one vector access, and, behind
// --fix-launch, restructuring a one-byte-a-lane kernel and its launches.
#include "rules/BytePackingFix.h"

#include <algorithm>
#include <cctype>
#include <regex>

namespace warplint {

const char *byteVectorType(const std::string &element) {
  if (element == "unsigned char" || element == "uint8_t" || element == "__uint8_t")
    return "uchar4";
  if (element == "char" || element == "signed char" || element == "int8_t" || element == "__int8_t")
    return "char4";
  return nullptr;
}

std::string packingAlignmentRefusal(const KernelInfo &k, const BytePackWindow::Group &g) {
  if (k.launchSites.empty())
    return "alignment not shown: no launch of '" + k.name + "' is visible to show that '" + g.pointer +
           "' is a cudaMalloc allocation";
  for (const LaunchSite &l : k.launchSites)
    if (l.argAllocations.size() <= g.paramIndex || l.argAllocations[g.paramIndex].empty())
      return "alignment not shown: the launch at line " + std::to_string(l.loc.line) + " passes '" + g.pointer +
             "' something other than a variable holding its own cudaMalloc allocation";
  return "";
}

// The index I of a window the model proved (vector index "I / W" or
// "(I) / W"), or "" for a spelled window (vector index E of W*E+k).
static std::string provenIndex(const BytePackWindow &w) {
  std::string suffix = " / " + std::to_string(w.width), v = w.vectorIndex;
  if (v.size() <= suffix.size() || v.compare(v.size() - suffix.size(), suffix.size(), suffix) != 0)
    return "";
  return v.substr(0, v.size() - suffix.size());
}

std::string packedBytesText(const BytePackWindow &w) {
  std::string last = std::to_string(w.width - 1), i = provenIndex(w);
  if (!i.empty())
    return i + "+0.." + last;
  return std::to_string(w.width) + "*" + w.vectorIndex + "+0.." + last;
}

std::string packedIndexProof(const BytePackWindow &w) {
  std::string i = provenIndex(w);
  if (!i.empty())
    return i + ", which the kernel model proves a multiple of " + std::to_string(w.width) + " for every thread";
  return std::to_string(w.width) + "*" + w.vectorIndex;
}

// The four-statement form: components .x .. .w of one vector per pointer.
static void statementEdits(const BytePackWindow &w, Fix &x) {
  std::string before, after;
  static const char *lanes[4] = {"x", "y", "z", "w"};
  for (const auto &g : w.groups) {
    std::string vt = byteVectorType(g.elementType), var = g.pointer + "4";
    if (g.reads)
      before += vt + " " + var + " = reinterpret_cast<const " + vt + " *>(" + g.pointer + ")[" + w.vectorIndex + "];\n" + w.indent;
    else
      before += vt + " " + var + ";\n" + w.indent;
    if (g.writes)
      after += "\n" + w.indent + "reinterpret_cast<" + vt + " *>(" + g.pointer + ")[" + w.vectorIndex + "] = " + var + ";";
    for (const auto *spans : {&g.readSpans, &g.writeSpans})
      for (size_t i = 0; i < spans->size(); ++i)
        x.replacements.push_back({(*spans)[i].file, (*spans)[i].offset, (*spans)[i].length, var + "." + lanes[i]});
  }
  x.replacements.push_back({w.before.file, w.before.offset, 0, before});
  x.replacements.push_back({w.after.file, w.after.offset, 0, after});
}

// The loop form and the sixteen-statement form: one vector per pointer and a
// byte view of it, indexed by the loop variable (fully unrolled by the
// compiler: the bytes stay in registers) or by the constant k of p[16*E+k].
static void byteViewEdits(const BytePackWindow &w, Fix &x) {
  std::string before, after;
  for (const auto &g : w.groups) {
    std::string vt = w.width == 16 ? "uint4" : byteVectorType(g.elementType);
    std::string vec = g.pointer + "_v", bytes = g.pointer + "_b";
    std::string view = (g.writes ? "" : "const ") + g.elementType + " *";
    if (g.reads)
      before += vt + " " + vec + " = reinterpret_cast<const " + vt + " *>(" + g.pointer + ")[" + w.vectorIndex + "];\n" + w.indent;
    else
      before += vt + " " + vec + ";\n" + w.indent;
    before += view + bytes + " = reinterpret_cast<" + view + ">(&" + vec + ");\n" + w.indent;
    if (g.writes)
      after += "\n" + w.indent + "reinterpret_cast<" + vt + " *>(" + g.pointer + ")[" + w.vectorIndex + "] = " + vec + ";";
    for (const auto *spans : {&g.readSpans, &g.writeSpans})
      for (size_t i = 0; i < spans->size(); ++i)
        x.replacements.push_back({(*spans)[i].file, (*spans)[i].offset, (*spans)[i].length,
                                  bytes + "[" + (w.loopVar.empty() ? std::to_string(i) : w.loopVar) + "]"});
  }
  x.replacements.push_back({w.before.file, w.before.offset, 0, before});
  x.replacements.push_back({w.after.file, w.after.offset, 0, after});
}


// Whether `grid` reads (X + B - 1) / B with B the launch's block size.
static bool coversWithBlocks(std::string grid, std::string block) {
  auto squeeze = [](std::string &t) { t.erase(std::remove_if(t.begin(), t.end(), ::isspace), t.end()); };
  squeeze(grid);
  squeeze(block);
  static const std::regex ceilDiv("\\((.+)\\+(.+)-1\\)/(.+)");
  std::smatch m;
  return std::regex_match(grid, m, ceilDiv) && m[2] == block && m[3] == block;
}

static std::string launchRefusal(const KernelInfo &k, const ByteLaneKernel &b) {
  if (!b.unsafeReason.empty())
    return b.unsafeReason;
  for (const std::string &t : b.elementTypes)
    if (!byteVectorType(t))
      return "'" + t + "' has no 4-byte vector type";
  if (k.launchSites.empty())
    return "no launch of '" + k.name + "' is visible to change";
  for (const LaunchSite &l : k.launchSites) {
    std::string at = "the launch at line " + std::to_string(l.loc.line);
    if (l.viaPointer)
      return at + " goes through a function pointer that may start other kernels";
    if (l.viaRuntimeCall)
      return at + " passes the kernel's arguments as a void * array, whose allocations are not traced";
    if (!l.gridIsInteger || !l.gridSpan.valid())
      return at + " does not give the grid as one integer written in the file";
    if (!coversWithBlocks(l.gridText, l.blockText))
      return at + " does not size the grid as (n + B - 1) / B blocks of its block size B, so a quarter of it "
                  "is not shown to cover the bytes";
    for (size_t i = 0; i < b.pointers.size(); ++i)
      if (l.argAllocations.size() <= b.paramIndices[i] || l.argAllocations[b.paramIndices[i]].empty())
        return "alignment not shown: " + at + " passes '" + b.pointers[i] +
               "' something other than a variable holding its own cudaMalloc allocation";
  }
  return "";
}

// E with its byte reads and index uses replaced.
static std::string substituted(const ByteLaneKernel &b, const std::string &lane, const std::string &index) {
  std::vector<ByteLaneKernel::Use> uses = b.uses;
  std::sort(uses.begin(), uses.end(), [](const auto &x, const auto &y) { return x.offset > y.offset; });
  std::string v = b.valueText;
  for (const auto &u : uses)
    v.replace(u.offset, u.length,
              u.pointer.empty() ? index : lane.empty() ? u.pointer + "[" + index + "]" : u.pointer + "4." + lane);
  return v;
}

// --fix-launch: four bytes a thread with one vector access per pointer,
// a scalar tail for the last n % 4 bytes, and a quarter of the grid.
void describeLaunchFix(const KernelInfo &k, const ByteLaneKernel &b, bool offer, Finding &f) {
  std::string why = launchRefusal(k, b);
  if (!why.empty()) {
    f.notes.push_back({{}, "no --fix-launch rewrite: " + why});
    return;
  }
  if (!offer) {
    f.notes.push_back({{}, "restructured by the --fix-launch rewrite offered for '" + b.outPointer + "'"});
    return;
  }
  const std::string &i = b.indexVar, in = b.indent + "  ";
  std::string vt = byteVectorType(b.elementTypes.front());
  bool outRead = false;
  for (const auto &u : b.uses)
    outRead = outRead || u.pointer == b.outPointer;
  std::string t = "if (4 * " + i + " + 3 < " + b.boundText + ") {\n";
  for (size_t p = 0; p < b.pointers.size(); ++p) {
    std::string pvt = byteVectorType(b.elementTypes[p]);
    if (p > 0 || outRead)
      t += in + pvt + " " + b.pointers[p] + "4 = reinterpret_cast<const " + pvt + " *>(" + b.pointers[p] + ")[" + i + "];\n";
    else
      t += in + pvt + " " + b.pointers[p] + "4;\n";
  }
  static const char *lanes[4] = {"x", "y", "z", "w"};
  for (int c = 0; c < 4; ++c)
    t += in + b.outPointer + "4." + lanes[c] + " = " +
         substituted(b, lanes[c], "(4 * " + i + " + " + std::to_string(c) + ")") + ";\n";
  t += in + "reinterpret_cast<" + vt + " *>(" + b.outPointer + ")[" + i + "] = " + b.outPointer + "4;\n";
  t += b.indent + "} else {\n";
  t += in + "for (int tail = 4 * " + i + "; tail < " + b.boundText + "; ++tail)\n";
  t += in + "  " + b.outPointer + "[tail] = " + substituted(b, "", "tail") + ";\n";
  t += b.indent + "}";
  Fix x;
  x.subject = b.outPointer;
  x.changesLaunch = true;
  x.description = "give each thread 4 bytes of " + b.outPointer + " (" + vt + " accesses, a scalar tail) and launch a quarter of the blocks";
  x.replacements.push_back({b.statement.file, b.statement.offset, b.statement.length, t});
  for (const LaunchSite &l : k.launchSites) {
    const SourceSpan &g = l.gridSpan;
    bool simple = g.text.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") == std::string::npos;
    x.replacements.push_back({g.file, g.offset, g.length, "(" + (simple ? g.text : "(" + g.text + ")") + " + 3) / 4"});
  }
  f.fixes.push_back(x);
  f.notes.push_back({{}, "fix (--fix-launch): " + x.description + "; alignment shown at every launch"});
  f.details["fix"] = {{"kind", "char4-restructure"}, {"safety", "changes the launch: --fix-launch"}};
}

void addPackingEdits(const BytePackWindow &w, Fix &x) {
  if (w.loopVar.empty() && w.width == 4)
    statementEdits(w, x);
  else
    byteViewEdits(w, x);
}

} // namespace warplint

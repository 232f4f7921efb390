#include "rules/PaddingFix.h"
#include "rules/WarpDescription.h"

#include <algorithm>
#include <regex>

namespace warplint {

const char *const kPaddingFixSafety =
    "safe (applied by --fix): pads the innermost dimension where the declaration writes it (a macro "
    "argument is edited at the declaration, never the macro's definition) by the fewest elements that "
    "make every access of the array conflict-free for its element and access width, re-evaluated with "
    "the padded row. Where no padding makes every access conflict-free (a 16x16 block over a 16-wide tile), "
    "the padding with the fewest wavefronts above the ideal over all accesses is applied if it beats the layout "
    "as written, and the finding names the conflicts it leaves and their degree (re-analysis accepts those, no "
    "worse); an XOR swizzle evaluated conflict-free for every access is named in a note. A padding of more than a quarter of the row (and more than 4 elements) is "
    "offered in words only, since its shared-memory cost may lower occupancy. Refused when the layout escapes the subscripts: extern arrays, the address passed "
    "on or stored, pointer arithmetic, casts (vector accesses padding would misalign), sizeof, bulk/async "
    "copies, an index that leaves its row, or a dimension written inside a macro. After applying, the "
    "file is re-analyzed; a fix that adds a compile error or leaves a conflict it did not state is rolled back. XOR "
    "swizzles and transposed indexing are suggested, never applied.";

std::string paddedDimension(const std::string &text, int64_t pad) {
  static const std::regex number("\\s*([0-9]+)[uUlL]*\\s*");
  static const std::regex plusConstant("\\s*(.*\\S)\\s*\\+\\s*([0-9]+)\\s*");
  static const std::regex identifier("\\s*([A-Za-z_][A-Za-z0-9_:]*)\\s*");
  std::smatch m;
  if (std::regex_match(text, m, number))
    return std::to_string(std::stoll(m[1]) + pad);
  if (std::regex_match(text, m, plusConstant))
    return m[1].str() + " + " + std::to_string(std::stoll(m[2]) + pad);
  if (std::regex_match(text, m, identifier))
    return m[1].str() + " + " + std::to_string(pad);
  return "(" + text + ") + " + std::to_string(pad);
}

namespace {

const ArrayInfo *findArray(const KernelInfo &k, const std::string &name) {
  for (const ArrayInfo &a : k.arrays)
    if (a.name == name && a.space == AddressSpace::Shared)
      return &a;
  return nullptr;
}

std::string joined(const std::vector<std::string> &items) {
  std::string s;
  for (const std::string &i : items)
    s += (s.empty() ? "" : "; ") + i;
  return s;
}

// The padding offered for an array, or why none is.
struct PaddingChoice {
  const ArrayInfo::PaddingTrial *trial = nullptr; // set when offered
  bool partial = false;                           // conflicts remain, fewer wavefronts than as written
  std::string refusal;
};

// A padding that grows the array by more than a quarter (and more than 4
// elements a row) costs shared memory, hence occupancy, the finding cannot
// weigh: offered in words only.
bool tooLarge(const ArrayInfo &a, int64_t pad) { return pad > std::max<int64_t>(4, a.dims.back() / 4); }

std::string rowChange(const ArrayInfo &a, int64_t pad) {
  int64_t row = a.dims.back();
  return std::to_string(pad) + " elements (" + std::to_string(row) + " -> " + std::to_string(row + pad) + " a row)";
}

PaddingChoice choosePadding(const ArrayInfo *a) {
  PaddingChoice c;
  if (!a)
    c.refusal = "the array is not declared in this function";
  else if (a->dims.size() < 2)
    c.refusal = "a one-dimensional array has no rows to pad";
  else if (!a->layoutEscapes.empty())
    c.refusal = "its layout escapes: " + joined(a->layoutEscapes);
  else if (a->dimSpans.size() != a->dims.size() || !a->dimSpans.back().valid())
    c.refusal = "its innermost dimension is not written at the declaration (it comes from a macro body or a typedef)";
  else if (a->paddingTrials.empty())
    c.refusal = "its accesses could not be re-evaluated with a padded row";
  if (!c.refusal.empty())
    return c;
  for (const ArrayInfo::PaddingTrial &t : a->paddingTrials)
    if (t.padElements > 0 && t.worstDegree < 2 && t.excessWavefronts == 0) {
      if (tooLarge(*a, t.padElements))
        c.refusal = "the smallest conflict-free padding is " + rowChange(*a, t.padElements) +
                    ", more than a quarter of the row; an XOR swizzle keeps the size";
      else
        c.trial = &t;
      return c;
    }
  // No padding frees every access (rows that free a column read can make a
  // two-row write wrap onto itself): the one with the fewest wavefronts above
  // the ideal over all accesses, the smallest on ties, if it beats the layout
  // as written.
  const ArrayInfo::PaddingTrial &asWritten = a->paddingTrials.front();
  const ArrayInfo::PaddingTrial *best = nullptr;
  for (const ArrayInfo::PaddingTrial &t : a->paddingTrials)
    if (t.padElements > 0 && (!best || t.excessWavefronts < best->excessWavefronts))
      best = &t;
  std::string none = "no padding up to " + std::to_string(a->paddingTrials.back().padElements) +
                     " elements makes every access conflict-free";
  if (!best || asWritten.padElements != 0 || best->excessWavefronts >= asWritten.excessWavefronts)
    c.refusal = none + " or lowers the wavefronts of the layout as written";
  else if (tooLarge(*a, best->padElements))
    c.refusal = none + "; the one with the fewest wavefronts, " + rowChange(*a, best->padElements) +
                ", is more than a quarter of the row";
  else {
    c.trial = best;
    c.partial = true;
  }
  return c;
}

// "[16][17]": the declaration's dimensions with the innermost padded.
std::string paddedShape(const ArrayInfo &a, int64_t pad) {
  std::string s;
  for (size_t i = 0; i < a.dims.size(); ++i)
    s += "[" + std::to_string(a.dims[i] + (i + 1 == a.dims.size() ? pad : 0)) + "]";
  return s;
}

// "leaves 2-way conflicts on the write 'h[y][x]' at line 40 and the read
// 'h[x][y]' at line 42".
std::string residualText(const KernelInfo &k, const ArrayInfo::PaddingTrial &t) {
  bool sameDegree = true;
  for (const auto &r : t.residuals)
    sameDegree = sameDegree && r.degree == t.residuals.front().degree;
  std::string list;
  for (size_t i = 0; i < t.residuals.size(); ++i) {
    const auto &r = t.residuals[i];
    if (r.access >= k.accesses.size())
      continue;
    const MemoryAccess &m = k.accesses[r.access];
    std::string item = "the " + accessVerb(m) + " '" + m.text + "' at line " + std::to_string(m.loc.line);
    if (!sameDegree)
      item += " (" + std::to_string(r.degree) + "-way)";
    list += (i == 0 ? "" : i + 1 == t.residuals.size() ? " and " : ", ") + item;
  }
  if (sameDegree && !t.residuals.empty())
    return "leaves " + std::to_string(t.residuals.front().degree) + "-way conflicts on " + list;
  return "leaves conflicts on " + list;
}

std::string outer(const ArrayInfo &a) { return a.dims.size() > 2 ? "[...]" : ""; }

// The swizzle as it would be written for this array: "h[r][c ^ r]", with
// `% extent` only where the row index can reach past it.
std::string swizzleForm(const ArrayInfo &a) {
  int64_t extent = a.dims.back();
  std::string key = a.dims[a.dims.size() - 2] <= extent ? "r" : "(r % " + std::to_string(extent) + ")";
  return a.name + outer(a) + "[r][c ^ " + key + "]";
}

std::string alternativesNote(const ArrayInfo *a) {
  const std::string transposed = "transposed indexing, storing the tile so that the warp reads along rows";
  if (a && a->xorSwizzleTrial && a->xorSwizzleTrial->worstDegree < 2 && a->xorSwizzleTrial->excessWavefronts == 0)
    return "alternative (not applied): an XOR swizzle is conflict-free for every access of '" + a->name +
           "' and keeps its size " + paddedShape(*a, 0) + ": write each access " + a->name + outer(*a) +
           "[r][c] as " + swizzleForm(*a) + " (reads and writes alike); or " + transposed;
  return "alternatives (not applied): an XOR swizzle of the column, a[r][c ^ r] in every access, keeps the "
         "size; or " + transposed;
}

} // namespace

void describePaddingFix(const KernelInfo &k, const std::string &array, bool offerFix, Finding &f) {
  const ArrayInfo *a = findArray(k, array);
  nlohmann::json fix = {{"kind", "padding"}};
  PaddingChoice choice = choosePadding(a);
  if (!choice.trial) {
    fix["safety"] = "refused";
    fix["reason"] = choice.refusal;
    f.notes.push_back({{}, "no padding fix: " + choice.refusal});
  } else {
    int64_t pad = choice.trial->padElements;
    const SourceSpan &dim = a->dimSpans.back();
    std::string padded = paddedDimension(dim.text, pad);
    std::string before = std::to_string(a->dims.back()), after = std::to_string(a->dims.back() + pad);
    fix["safety"] = "safe";
    fix["padding_elements"] = pad;
    fix["replacement"] = {{"from", dim.text}, {"to", padded}};
    std::string outcome = "every access of '" + array + "' is conflict-free with the padded row";
    if (choice.partial) {
      const ArrayInfo::PaddingTrial &asWritten = a->paddingTrials.front();
      outcome = "no padding makes every access conflict-free; padding to " + paddedShape(*a, pad) + " " +
                residualText(k, *choice.trial) + " (" + std::to_string(choice.trial->excessWavefronts) +
                (choice.trial->excessWavefronts == 1 ? " wavefront" : " wavefronts") +
                " above the conflict-free ideal over all accesses, against " +
                std::to_string(asWritten.excessWavefronts) + " as written)";
      fix["partial"] = true;
      fix["residual_degree"] = choice.trial->worstDegree;
      fix["excess_wavefronts"] = choice.trial->excessWavefronts;
      fix["excess_wavefronts_as_written"] = asWritten.excessWavefronts;
      for (const auto &r : choice.trial->residuals)
        if (r.access < k.accesses.size())
          fix["residual"].push_back({{"line", k.accesses[r.access].loc.line},
                                     {"expression", k.accesses[r.access].text},
                                     {"degree", r.degree}});
    }
    if (offerFix) {
      Fix x;
      x.description = "pad the innermost dimension of '" + array + "' by " + std::to_string(pad) + " (" + before +
                      " -> " + after + " elements a row): '" + dim.text + "' -> '" + padded + "'";
      x.subject = array;
      if (choice.partial)
        x.residualDegree = choice.trial->worstDegree;
      x.replacements.push_back({dim.file, dim.offset, dim.length, padded});
      f.fixes.push_back(x);
      f.notes.push_back({{}, "fix (--fix): " + x.description + "; " + outcome});
    } else {
      f.notes.push_back({{}, std::string(choice.partial ? "improved" : "fixed") + " by the padding of '" + array +
                                 "' offered at its first conflicting access" +
                                 (choice.partial ? "; " + outcome : "")});
    }
  }
  f.notes.push_back({{}, alternativesNote(a)});
  f.details["fix"] = fix;
  f.details["subject"] = array;
}

} // namespace warplint

#include "rules/PaddingFix.h"

#include <algorithm>
#include <regex>

namespace warplint {

const char *const kPaddingFixSafety =
    "safe (applied by --fix): pads the innermost dimension where the declaration writes it (a macro "
    "argument is edited at the declaration, never the macro's definition) by the fewest elements that "
    "make every access of the array conflict-free for its element and access width, re-evaluated with "
    "the padded row; a padding of more than a quarter of the row (and more than 4 elements) is "
    "offered in words only, since its shared-memory cost may lower occupancy. Refused when the layout escapes the subscripts: extern arrays, the address passed "
    "on or stored, pointer arithmetic, casts (vector accesses padding would misalign), sizeof, bulk/async "
    "copies, an index that leaves its row, or a dimension written inside a macro. After applying, the "
    "file is re-analyzed; a fix that adds a compile error or leaves a conflict is rolled back. XOR "
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

// Why no padding is offered, or "" with `pad` set.
std::string refusal(const ArrayInfo *a, int64_t &pad) {
  if (!a)
    return "the array is not declared in this function";
  if (a->dims.size() < 2)
    return "a one-dimensional array has no rows to pad";
  if (!a->layoutEscapes.empty())
    return "its layout escapes: " + joined(a->layoutEscapes);
  if (a->dimSpans.size() != a->dims.size() || !a->dimSpans.back().valid())
    return "its innermost dimension is not written at the declaration (it comes from a macro body or a typedef)";
  for (const ArrayInfo::PaddingTrial &t : a->paddingTrials)
    if (t.padElements > 0 && t.worstDegree < 2 && t.excessWavefronts == 0) {
      // A padding that grows the array by more than a quarter (and more than
      // 4 elements a row) costs shared memory, hence occupancy, the finding
      // cannot weigh: offered in words only.
      int64_t row = a->dims.back();
      if (t.padElements > std::max<int64_t>(4, row / 4))
        return "the smallest conflict-free padding is " + std::to_string(t.padElements) + " elements (" +
               std::to_string(row) + " -> " + std::to_string(row + t.padElements) +
               " a row), more than a quarter of the row; an XOR swizzle keeps the size";
      pad = t.padElements;
      return "";
    }
  if (a->paddingTrials.empty())
    return "its accesses could not be re-evaluated with a padded row";
  return "no padding up to " + std::to_string(a->paddingTrials.back().padElements) +
         " elements makes every access conflict-free";
}

} // namespace

void describePaddingFix(const KernelInfo &k, const std::string &array, bool offerFix, Finding &f) {
  const ArrayInfo *a = findArray(k, array);
  nlohmann::json fix = {{"kind", "padding"}};
  int64_t pad = 0;
  std::string why = refusal(a, pad);
  if (!why.empty()) {
    fix["safety"] = "refused";
    fix["reason"] = why;
    f.notes.push_back({{}, "no padding fix: " + why});
  } else {
    const SourceSpan &dim = a->dimSpans.back();
    std::string padded = paddedDimension(dim.text, pad);
    std::string before = std::to_string(a->dims.back()), after = std::to_string(a->dims.back() + pad);
    fix["safety"] = "safe";
    fix["padding_elements"] = pad;
    fix["replacement"] = {{"from", dim.text}, {"to", padded}};
    if (offerFix) {
      Fix x;
      x.description = "pad the innermost dimension of '" + array + "' by " + std::to_string(pad) + " (" + before +
                      " -> " + after + " elements a row): '" + dim.text + "' -> '" + padded + "'";
      x.subject = array;
      x.replacements.push_back({dim.file, dim.offset, dim.length, padded});
      f.fixes.push_back(x);
      f.notes.push_back({{}, "fix (--fix): " + x.description + "; every access of '" + array +
                                 "' is conflict-free with the padded row"});
    } else {
      f.notes.push_back({{}, "fixed by the padding of '" + array + "' offered at its first conflicting access"});
    }
  }
  f.notes.push_back({{}, "alternatives (not applied): an XOR swizzle of the column, a[r][c ^ r] in every "
                         "access, keeps the size; or transposed indexing, storing the tile so that the "
                         "warp reads along rows"});
  f.details["fix"] = fix;
  f.details["subject"] = array;
}

} // namespace warplint

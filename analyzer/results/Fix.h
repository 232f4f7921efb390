// The fix model: a finding's rewrite as byte-range replacements in files. Rules
// build fixes from analyzer facts; the rewriter library applies, verifies and
// exports them. Kept free of Clang and of the other libraries, and kept with
// the analyzer's result types (the lowest layer), so that the analyzer
// (content hashes), rules, printers and the rewriter include it downward.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace warplint {

// Replace `length` bytes at byte `offset` of `file` (absolute path) with `text`.
struct Replacement {
  std::string file;
  unsigned offset = 0;
  unsigned length = 0;
  std::string text;
  bool operator==(const Replacement &o) const {
    return file == o.file && offset == o.offset && length == o.length && text == o.text;
  }
  bool overlaps(const Replacement &o) const {
    if (file != o.file)
      return false;
    // Two insertions at one point conflict too: their order would be a guess.
    if (offset == o.offset)
      return true;
    return offset < o.offset + o.length && o.offset < offset + length;
  }
};

struct Fix {
  std::string description;            // "pad the innermost dimension of 'tile' by 1 (32 -> 33)"
  std::vector<Replacement> replacements;
  // What the finding is about; after the fix no finding of the same rule and
  // kernel may name it any more (re-analysis checks this).
  std::string subject;                // e.g. the array or parameter name
  bool changesLaunch = false;         // edits a launch site: only with --fix-launch
  // A fix that lowers a cost without removing it (a padding that leaves
  // 2-way conflicts where none is conflict-free): findings on the subject up
  // to this degree (details["degree"]) may remain. 0: none may.
  int residualDegree = 0;
};

// Content hashes of the files an analysis read, so that a fix is never applied
// to a file that changed since (FNV-1a, 64 bits, as hex). Inline: the analyzer
// records hashes and must not link the rewriter.
inline std::string contentHash(const std::string &contents) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : contents) {
    h ^= c;
    h *= 1099511628211ull;
  }
  static const char *digits = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4)
    out[i] = digits[h & 15];
  return out;
}

} // namespace warplint

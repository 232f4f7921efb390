// Baselines: adopt warplint on existing code by reporting only findings that
// an earlier report (JSON or SARIF) did not have. Findings are matched by a
// fingerprint of rule, file, kernel, the finding's source line as text
// (whitespace collapsed) and its occurrence among equal lines, never by line
// number, so edits above a finding do not bring it back.
#pragma once

#include "printers/SourceLines.h"
#include "rules/Finding.h"

#include <set>
#include <string>
#include <vector>

namespace warplint {

// Sets `fingerprint` on every finding. Paths enter the fingerprint relative
// to `baseDir` when under it, so checkouts in other places agree.
void assignFingerprints(std::vector<Finding> &findings, const std::string &baseDir, SourceLines &source);

struct Baseline {
  std::string path;
  std::set<std::string> fingerprints;
};

// Reads a report warplint wrote with --format json or sarif. False with
// `error` when the file is unreadable, not such a report, or has no
// fingerprints (written by a warplint without them).
bool loadBaseline(const std::string &path, Baseline &out, std::string &error);

// Drops the findings whose fingerprint the baseline holds; returns how many.
size_t subtractBaseline(std::vector<Finding> &findings, const Baseline &baseline);

} // namespace warplint

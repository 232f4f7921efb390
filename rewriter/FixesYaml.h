// --export-fixes: the applied fixes in clang-tidy's export format, which
// clang-apply-replacements reads (MainSourceFile, Diagnostics[DiagnosticName,
// DiagnosticMessage{Message, FilePath, FileOffset, Replacements[{FilePath,
// Offset, Length, ReplacementText}]}, Level, BuildDirectory]).
#pragma once

#include "rewriter/FixApplier.h"
#include <string>

namespace warplint {

std::string fixesYaml(const std::string &mainSourceFile, const std::string &buildDirectory,
                      const std::vector<const FixOutcome *> &fixes);

} // namespace warplint

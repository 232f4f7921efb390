// The commands main() dispatches to. Each returns the process exit status and
// reports problems on stderr as "warplint: error: ...".
#pragma once

#include "analyzer/Analyzer.h"
#include "driver/CommandLine.h"

#include <string>
#include <vector>

namespace warplint {

int runCheck(const CheckOptions &opts);
int runListRules(const ListRulesOptions &opts);
int runDocs(const DocsOptions &opts);
// Defined in LspCommand.cpp.
int runLsp(const CheckOptions &opts);

// Shared by the commands that analyze: the registry's rule ids; 0 or the
// usage-error status (message printed) for unknown rule ids in --rules and
// --warnings-as-errors or a --cuda-path that is no toolkit; and the
// analyzer's options from the command line.
std::vector<std::string> knownRuleIds();
int checkRuleAndCudaOptions(const CheckOptions &opts);
AnalyzerOptions analyzerOptionsFor(const CheckOptions &opts);

} // namespace warplint

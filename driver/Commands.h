// The commands main() dispatches to. Each returns the process exit status and
// reports problems on stderr as "warplint: error: ...".
#pragma once

#include "driver/CommandLine.h"

namespace warplint {

int runCheck(const CheckOptions &opts);
int runListRules(const ListRulesOptions &opts);
int runDocs(const DocsOptions &opts);

} // namespace warplint

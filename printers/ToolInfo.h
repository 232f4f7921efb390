// What the printers say about warplint itself: name, version and where its
// documentation lives (SARIF consumers link rules to their docs pages).
#pragma once

#include <string>

namespace warplint {

#ifndef WARPLINT_VERSION
#define WARPLINT_VERSION "0.0.0-dev"
#endif

inline constexpr const char *kToolName = "warplint";
inline constexpr const char *kToolVersion = WARPLINT_VERSION;
// TODO(lead): replace with the project's public home once it has one; SARIF
// needs absolute URIs here, and rule help links are built from it.
inline constexpr const char *kToolInformationUri = "https://github.com/warplint/warplint";

// The key of warplint's fingerprint in a SARIF result's partialFingerprints
// (driver/Baseline.h computes it; --baseline reads it back).
constexpr const char *kSarifFingerprintKey = "warplintFingerprint/v1";

// Documentation page of one rule, generated into docs/rules/<id>.md.
inline std::string ruleDocPath(const std::string &ruleId) { return "docs/rules/" + ruleId + ".md"; }
inline std::string ruleHelpUri(const std::string &ruleId) {
  return std::string(kToolInformationUri) + "/blob/main/" + ruleDocPath(ruleId);
}

} // namespace warplint

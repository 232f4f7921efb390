// What each analyzed file is checked with: its `.warplint.yaml` (or the one
// --config names) under the command line's flags, which win.
#pragma once

#include "analyzer/profile/HardwareProfile.h"
#include "driver/CommandLine.h"
#include "driver/ProjectConfig.h"
#include "rules/Rule.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

struct FileSettings {
  const ProjectConfig *config = nullptr; // null: no config file applies
  RuleContext ctx;
  RuleOptions rules;
  double minGain = -1e300;                    // percent: findings predicted below it are not shown (none by default)
  double failMinGain = kDefaultFailMinGain;   // percent: findings predicted below it do not fail the run
};

class FileSettingsResolver {
public:
  FileSettingsResolver(const CheckOptions &cli, std::vector<std::string> knownRules);
  // Loads --config and the command line's profile; false with `error` on a bad one.
  bool init(std::string &error);
  // The settings for `file`, shared by every file under one config; null with
  // `error` when its config or the profile it names is invalid.
  const FileSettings *forFile(const std::string &file, std::string &error);

private:
  const FileSettings *settingsFor(const std::string &configPath, std::string &error);
  const HardwareProfile *profile(const std::string &nameOrPath, std::string &error);

  const CheckOptions &cli_;
  std::vector<std::string> known_;
  std::map<std::string, std::unique_ptr<ProjectConfig>> configs_;    // by path
  std::map<std::string, std::unique_ptr<FileSettings>> settings_;    // by config path ("" = none)
  std::map<std::string, std::optional<HardwareProfile>> profiles_;   // by name or path ("" = default)
  std::map<std::string, std::string> configOfDirectory_;             // directory -> nearest config
};

} // namespace warplint

#include "driver/FileSettings.h"

#include <filesystem>

namespace warplint {

namespace fs = std::filesystem;

FileSettingsResolver::FileSettingsResolver(const CheckOptions &cli, std::vector<std::string> knownRules)
    : cli_(cli), known_(std::move(knownRules)) {}

bool FileSettingsResolver::init(std::string &error) {
  if (!cli_.configFile.empty() && !settingsFor(cli_.configFile, error))
    return false;
  return cli_.profile.empty() || profile(cli_.profile, error);
}

const HardwareProfile *FileSettingsResolver::profile(const std::string &nameOrPath, std::string &error) {
  auto it = profiles_.find(nameOrPath);
  if (it == profiles_.end()) {
    std::optional<HardwareProfile> p;
    try {
      p = nameOrPath.empty() ? HardwareProfile::defaultProfile() : HardwareProfile::load(nameOrPath);
    } catch (const ProfileError &e) {
      error = "invalid profile '" + nameOrPath + "': " + e.what();
      return nullptr;
    }
    it = profiles_.emplace(nameOrPath, std::move(p)).first;
  }
  // No profile at all (a build without the bundled one) is not an error:
  // messages then carry no measured cost.
  return it->second ? &*it->second : nullptr;
}

const FileSettings *FileSettingsResolver::settingsFor(const std::string &configPath, std::string &error) {
  auto found = settings_.find(configPath);
  if (found != settings_.end())
    return found->second.get();
  auto s = std::make_unique<FileSettings>();
  std::string profileName = cli_.profile;
  if (!configPath.empty()) {
    auto config = std::make_unique<ProjectConfig>();
    if (!loadProjectConfig(configPath, known_, *config, error))
      return nullptr;
    s->config = config.get();
    configs_[configPath] = std::move(config);
    if (profileName.empty())
      profileName = s->config->profile;
  }
  // The command line wins over the file, flag by flag.
  const ProjectConfig *c = s->config;
  if (!cli_.rules.empty()) {
    s->rules.enabled = cli_.rules;
  } else if (c && (c->enable || !c->disable.empty())) {
    s->rules.enabled = c->enabledRules(known_);
    s->rules.enabledGiven = true;
  }
  if (cli_.allWarningsAsErrors || !cli_.warningsAsErrors.empty()) {
    s->rules.allWarningsAsErrors = cli_.allWarningsAsErrors;
    s->rules.warningsAsErrors = cli_.warningsAsErrors;
  } else if (c) {
    s->rules.allWarningsAsErrors = c->allWarningsAsErrors;
    s->rules.warningsAsErrors = c->warningsAsErrors;
  }
  s->ctx.assumeNoAlias = cli_.assumeNoAlias || (c && c->assumeNoAlias.value_or(false));
  // No --min-gain and no min-gain: nothing is hidden, a predicted loss included.
  s->minGain = cli_.minGain ? *cli_.minGain : c && c->minGain ? *c->minGain : -1e300;
  s->failMinGain = cli_.failMinGain ? *cli_.failMinGain : c && c->failMinGain ? *c->failMinGain : kDefaultFailMinGain;
  std::string profileError;
  s->ctx.profile = profile(profileName, profileError);
  if (!profileError.empty()) {
    error = (c && cli_.profile.empty() ? c->path + ": " : std::string()) + profileError;
    return nullptr;
  }
  return (settings_[configPath] = std::move(s)).get();
}

const FileSettings *FileSettingsResolver::forFile(const std::string &file, std::string &error) {
  if (!cli_.configFile.empty())
    return settingsFor(cli_.configFile, error);
  std::error_code ec;
  std::string dir = fs::absolute(file, ec).parent_path().string();
  auto it = configOfDirectory_.find(dir);
  if (it == configOfDirectory_.end())
    it = configOfDirectory_.emplace(dir, findProjectConfig(file)).first;
  return settingsFor(it->second, error);
}

} // namespace warplint

// Tests for analyzer/HardwareProfile: every bundled profile validates against
// probes/profile.schema.json and through the loader; malformed or
// incompatible profiles are rejected with messages that name the field.
#include "analyzer/profile/HardwareProfile.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <regex>

namespace fs = std::filesystem;
using nlohmann::json;
using warplint::HardwareProfile;
using warplint::ProfileError;

namespace {

fs::path sourceRoot() { return fs::path(__FILE__).parent_path().parent_path().parent_path(); }

json readJson(const fs::path& p) {
  std::ifstream in(p);
  return json::parse(in);
}

// The subset of JSON Schema (2020-12) that profile.schema.json uses: type,
// required, properties, const, enum, minimum, minLength, minItems, pattern,
// items and local $ref. Appends one message per violation.
class SchemaCheck {
 public:
  explicit SchemaCheck(json schema) : root_(std::move(schema)) {}
  std::vector<std::string> validate(const json& doc) {
    errors_.clear();
    check(root_, doc, "$");
    return errors_;
  }

 private:
  void check(const json& s, const json& v, const std::string& path) {
    if (s.contains("$ref")) {
      std::string ref = s["$ref"];  // "#/$defs/name"
      check(root_["$defs"][ref.substr(ref.rfind('/') + 1)], v, path);
      return;
    }
    if (s.contains("const") && v != s["const"]) errors_.push_back(path + ": not " + s["const"].dump());
    if (s.contains("enum") && std::find(s["enum"].begin(), s["enum"].end(), v) == s["enum"].end())
      errors_.push_back(path + ": not one of " + s["enum"].dump());
    if (s.contains("type") && !typeMatches(s["type"], v)) {
      errors_.push_back(path + ": not of type " + s["type"].dump());
      return;
    }
    if (v.is_number() && s.contains("minimum") && v.get<double>() < s["minimum"].get<double>())
      errors_.push_back(path + ": below minimum");
    if (v.is_string() && s.contains("minLength") && v.get<std::string>().size() < s["minLength"])
      errors_.push_back(path + ": too short");
    if (v.is_string() && s.contains("pattern") &&
        !std::regex_search(v.get<std::string>(), std::regex(s["pattern"].get<std::string>())))
      errors_.push_back(path + ": does not match " + s["pattern"].get<std::string>());
    if (v.is_object()) {
      const json required = s.value("required", json::array());  // copies: value() returns by value
      const json properties = s.value("properties", json::object());
      for (const auto& r : required)
        if (!v.contains(r)) errors_.push_back(path + "." + r.get<std::string>() + ": missing");
      for (const auto& [k, sub] : properties.items())
        if (v.contains(k)) check(sub, v[k], path + "." + k);
    }
    if (v.is_array()) {
      if (s.contains("minItems") && v.size() < s["minItems"]) errors_.push_back(path + ": too few items");
      if (s.contains("items"))
        for (size_t i = 0; i < v.size(); ++i) check(s["items"], v[i], path + "[" + std::to_string(i) + "]");
    }
  }
  static bool typeMatches(const json& t, const json& v) {
    std::string type = t;
    if (type == "object") return v.is_object();
    if (type == "array") return v.is_array();
    if (type == "string") return v.is_string();
    if (type == "integer") return v.is_number_integer();
    if (type == "number") return v.is_number();
    if (type == "boolean") return v.is_boolean();
    return true;
  }
  json root_;
  std::vector<std::string> errors_;
};

SchemaCheck schemaCheck() { return SchemaCheck(readJson(sourceRoot() / "probes/profile.schema.json")); }

// A small profile that satisfies the schema; the negative tests break one thing each.
json minimalProfile() {
  json value = {{"name", "latency_cycles"},
                {"params", {{"degree", 32}, {"width_bytes", 4}}},
                {"unit", "cycles"},
                {"median", 91.35},
                {"min", 91.3},
                {"max", 91.4},
                {"q1", 91.35},
                {"q3", 91.35},
                {"runs", 7},
                {"probe", "shared_bank_conflicts"},
                {"method", "test value"},
                {"samples", {91.3, 91.35, 91.35, 91.35, 91.35, 91.35, 91.4}}};
  return {{"schema", "warplint-hardware-profile"},
          {"schema_version", 1},
          {"profile_id", "test"},
          {"device",
           {{"name", "Test GPU"},
            {"compute_capability", "9.0"},
            {"sm_count", 132},
            {"l2_bytes", 52428800},
            {"theoretical_dram_bandwidth_gbps", 3352.0}}},
          {"clocks", {{"sm_mhz", {{"source", "nvml"}, {"median", 1980.0}, {"min", 1980.0}, {"max", 1980.0}, {"runs", 9}}},
                      {"memory_mhz", {{"source", "none"}}}}},
          {"software", {{"driver_version", "580"}, {"cuda_runtime_version", "13.0"}, {"cuda_driver_api_version", "13.0"}}},
          {"provenance", {{"date", "2026-11-22T00:00:00Z"}, {"command", "warplint-probe"}, {"tool", "warplint-probe 0.1.0"},
                          {"runs", 7}, {"wall_seconds", 1.0}}},
          {"probes", {{{"id", "shared_bank_conflicts"}, {"title", "t"}, {"method", "m"}, {"values", {value}}}}}};
}

std::string rejectionMessage(const json& doc) {
  try {
    HardwareProfile::fromJson(doc.dump(), "test.json");
  } catch (const ProfileError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(HardwareProfile, SchemaDeclaresTheVersionTheLoaderReads) {
  json schema = readJson(sourceRoot() / "probes/profile.schema.json");
  EXPECT_EQ(schema["properties"]["schema_version"]["const"], HardwareProfile::kSchemaVersion);
  EXPECT_EQ(schema["$defs"]["value"]["properties"]["runs"]["minimum"], HardwareProfile::kMinRuns);
}

TEST(HardwareProfile, EveryProfileFileMatchesSchemaAndLoads) {
  auto check = schemaCheck();
  int files = 0;
  for (const auto& entry : fs::directory_iterator(sourceRoot() / "probes/profiles")) {
    if (entry.path().extension() != ".json") continue;
    ++files;
    auto errors = check.validate(readJson(entry.path()));
    EXPECT_TRUE(errors.empty()) << entry.path() << ": " << (errors.empty() ? "" : errors.front());
    HardwareProfile p = HardwareProfile::fromFile(entry.path().string());
    EXPECT_GT(p.valueCount(), 100u) << entry.path();
    EXPECT_FALSE(p.deviceName().empty());
  }
  if (files == 0) GTEST_SKIP() << "no measured profile under probes/profiles yet";
}

TEST(HardwareProfile, BundledProfilesLoadByName) {
  bool haveH100File = fs::exists(sourceRoot() / "probes/profiles/h100.json");
  auto names = HardwareProfile::bundledNames();
  for (const auto& n : names) EXPECT_NO_THROW(HardwareProfile::bundled(n)) << n;
  if (haveH100File) {
    EXPECT_NE(std::find(names.begin(), names.end(), "h100"), names.end());
    ASSERT_TRUE(HardwareProfile::defaultProfile().has_value());
    EXPECT_NE(HardwareProfile::defaultProfile()->deviceName().find("H100"), std::string::npos);
  }
}

TEST(HardwareProfile, LookupsOnTheMeasuredH100) {
  if (!fs::exists(sourceRoot() / "probes/profiles/h100.json")) GTEST_SKIP() << "no H100 profile";
  HardwareProfile p = HardwareProfile::load((sourceRoot() / "probes/profiles/h100.json").string());
  ASSERT_TRUE(p.sharedLoadLatencyCycles(1) && p.sharedLoadLatencyCycles(32));
  EXPECT_GT(*p.sharedLoadLatencyCycles(32), 2 * *p.sharedLoadLatencyCycles(1));
  ASSERT_TRUE(p.sharedThroughputBytesPerClk(1) && p.sharedThroughputBytesPerClk(32));
  EXPECT_GT(*p.sharedThroughputBytesPerClk(1) / *p.sharedThroughputBytesPerClk(32), 20.0);
  EXPECT_TRUE(p.sharedWideThroughputBytesPerClk(16, 1).has_value());
  ASSERT_TRUE(p.constantLatencyCycles(1) && p.constantLatencyCycles(32));
  EXPECT_GT(*p.constantLatencyCycles(32), *p.constantLatencyCycles(1));
  ASSERT_TRUE(p.latencyCycles("dram") && p.latencyCycles("l2_near") && p.latencyCycles("l1_hit"));
  EXPECT_GT(*p.latencyCycles("dram"), *p.latencyCycles("l2_near"));
  EXPECT_GT(*p.latencyCycles("l2_near"), *p.latencyCycles("l1_hit"));
  EXPECT_TRUE(p.latencyNs("dram").has_value());
  EXPECT_TRUE(p.dramBandwidthGBps() && p.memcpyBandwidthGBps());
  EXPECT_TRUE(p.globalBandwidthByTypeGBps("char") && p.globalBandwidthByTypeGBps("float4"));
  EXPECT_GT(*p.globalBandwidthByStrideGBps(1), *p.globalBandwidthByStrideGBps(32));
  EXPECT_TRUE(p.globalBandwidthByOffsetGBps(1).has_value());
  EXPECT_EQ(p.sectorSizeBytes(), 32.0);
  EXPECT_TRUE(p.smClockMHz().has_value());
  EXPECT_EQ(p.supportsParallel("constant"), false);
  EXPECT_EQ(p.supportsBroadcast("shared"), true);
  EXPECT_TRUE(p.largestRegisterArray("sm_90", "vector_add").has_value());
  // Absent values are nullopt, never a guess.
  EXPECT_FALSE(p.sharedLoadLatencyCycles(33).has_value());
  EXPECT_FALSE(p.latencyCycles("no_such_level").has_value());
  EXPECT_FALSE(p.globalBandwidthByTypeGBps("half8").has_value());
  EXPECT_FALSE(p.largestRegisterArray("sm_70", "vector_add").has_value());
}

TEST(HardwareProfile, MinimalProfileIsAcceptedByLoaderAndSchema) {
  json doc = minimalProfile();
  EXPECT_TRUE(schemaCheck().validate(doc).empty());
  HardwareProfile p = HardwareProfile::fromJson(doc.dump());
  EXPECT_EQ(p.deviceName(), "Test GPU");
  EXPECT_EQ(p.smClockMHz(), 1980.0);
  EXPECT_EQ(p.sharedLoadLatencyCycles(32), 91.35);
  EXPECT_FALSE(p.sharedLoadLatencyCycles(1).has_value());
  EXPECT_FALSE(p.dramBandwidthGBps().has_value());
}

TEST(HardwareProfile, RejectsMalformedAndIncompatibleProfiles) {
  auto check = schemaCheck();
  struct Case {
    const char* what;
    void (*mutate)(json&);
    const char* message;
  };
  const Case cases[] = {
      {"newer schema", [](json& d) { d["schema_version"] = 2; }, "unsupported version 2"},
      {"other document", [](json& d) { d["schema"] = "something-else"; }, "not a warplint hardware profile"},
      {"no device", [](json& d) { d.erase("device"); }, "$.device: missing required field"},
      {"no device name", [](json& d) { d["device"].erase("name"); }, "$.device.name: missing"},
      {"too few runs", [](json& d) { d["provenance"]["runs"] = 3; }, "$.provenance.runs: fewer than 7"},
      {"value without median", [](json& d) { d["probes"][0]["values"][0].erase("median"); }, ".median: missing"},
      {"value without unit", [](json& d) { d["probes"][0]["values"][0].erase("unit"); }, ".unit: missing"},
      {"value without probe", [](json& d) { d["probes"][0]["values"][0].erase("probe"); }, ".probe: missing"},
      {"value with 5 runs", [](json& d) { d["probes"][0]["values"][0]["runs"] = 5; }, ".runs: fewer than 7"},
      {"median as text", [](json& d) { d["probes"][0]["values"][0]["median"] = "91"; }, ".median: expected a number"},
  };
  for (const auto& c : cases) {
    json doc = minimalProfile();
    c.mutate(doc);
    std::string msg = rejectionMessage(doc);
    EXPECT_NE(msg.find(c.message), std::string::npos) << c.what << ": got '" << msg << "'";
    EXPECT_NE(msg.find("test.json"), std::string::npos) << c.what << ": message names no origin";
    EXPECT_FALSE(check.validate(doc).empty()) << c.what << ": the schema accepts it";
  }
  // Checks the loader makes beyond the schema.
  json doc = minimalProfile();
  doc["probes"][0]["values"][0]["median"] = 1000.0;
  EXPECT_NE(rejectionMessage(doc).find("median outside [min, max]"), std::string::npos);
  doc = minimalProfile();
  doc["probes"][0]["values"][0]["probe"] = "other_probe";
  EXPECT_NE(rejectionMessage(doc).find("not its probe"), std::string::npos);
  EXPECT_NE(rejectionMessage(json::parse("[1]")).find("expected an object"), std::string::npos);
  try {
    HardwareProfile::fromJson("{not json", "broken.json");
    FAIL() << "accepted broken JSON";
  } catch (const ProfileError& e) {
    EXPECT_NE(std::string(e.what()).find("broken.json: not valid JSON"), std::string::npos);
  }
}

TEST(HardwareProfile, UnknownNamesAndMissingFilesAreClearErrors) {
  try {
    HardwareProfile::load("a100");
    FAIL() << "loaded an unknown name";
  } catch (const ProfileError& e) {
    EXPECT_NE(std::string(e.what()).find("no bundled profile named 'a100'"), std::string::npos);
  }
  try {
    HardwareProfile::load("/nonexistent/profile.json");
    FAIL() << "loaded a missing file";
  } catch (const ProfileError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot open file"), std::string::npos);
  }
}

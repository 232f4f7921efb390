// Tests for analyzer/HardwareProfile: every bundled profile validates against
// probes/profile.schema.json and through the loader; malformed or
// incompatible profiles are rejected with messages that name the field.
#include "analyzer/profile/HardwareProfile.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
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

// A value of `probe` with seven equal samples.
json measured(const std::string& probe, const std::string& name, json params, const std::string& unit,
              double median) {
  return {{"name", name}, {"params", std::move(params)}, {"unit", unit}, {"median", median},
          {"min", median}, {"max", median}, {"runs", 7}, {"probe", probe}, {"method", "test value"},
          {"samples", std::vector<double>(7, median)}};
}

// minimalProfile() plus the cost-model probes, with made-up round numbers
// (this tests the loader's arithmetic, not the GPU).
json throughputProfile() {
  json doc = minimalProfile();
  auto probe = [](const std::string& id, json values) {
    return json{{"id", id}, {"title", "t"}, {"method", "m"}, {"values", std::move(values)}};
  };
  const std::string inst = "inst_throughput_vs_warps", shared = "shared_throughput_vs_warps";
  const std::string l2 = "l2_bandwidth_vs_config", dram = "dram_bandwidth_vs_config";
  auto ipc = [&](const char* cls, const char* sass, int w, double v) {
    return measured(inst, "warp_instructions_per_clk_per_sm",
                    {{"class", cls}, {"sass", sass}, {"warps_per_sm", w}}, "warp-inst/clk/SM", v);
  };
  auto bw = [&](const std::string& id, const char* name, int bps, int tpb, int m, double v) {
    return measured(id, name,
                    {{"blocks_per_sm", bps}, {"threads_per_block", tpb}, {"loads_in_flight_per_thread", m},
                     {"bytes_in_flight_per_sm", bps * tpb * m * 16}},
                    "GB/s", v);
  };
  doc["probes"].push_back(probe(inst, {ipc("ffma", "FFMA", 1, 0.9), ipc("ffma", "FFMA", 2, 1.8),
                                       ipc("ffma", "FFMA", 4, 3.5), ipc("mufu", "MUFU.RSQ", 1, 0.25)}));
  doc["probes"].push_back(probe(
      shared, {measured(shared, "throughput_bytes_per_clk_per_sm", {{"warps_per_sm", 1}}, "B/clk/SM", 26.0),
               measured(shared, "throughput_bytes_per_clk_per_sm", {{"warps_per_sm", 4}}, "B/clk/SM", 104.0),
               measured(shared, "wavefronts_per_clk_per_sm", {{"degree", 1}, {"warps_per_sm", 1}},
                        "wavefronts/clk/SM", 0.2),
               measured(shared, "throughput_bytes_per_clk_per_sm", {{"degree", 2}, {"warps_per_sm", 1}},
                        "B/clk/SM", 20.0),
               measured(shared, "throughput_bytes_per_clk_per_sm", {{"degree", 2}, {"warps_per_sm", 4}},
                        "B/clk/SM", 60.0),
               measured(shared, "wavefronts_per_clk_per_sm", {{"degree", 2}, {"warps_per_sm", 4}},
                        "wavefronts/clk/SM", 0.9375)}));
  doc["probes"].push_back(probe(
      "l1_bandwidth",
      {measured("l1_bandwidth", "l1_hit_bytes_per_clk_per_sm", {{"width_bytes", 16}, {"warps_per_sm", 16}},
                "B/clk/SM", 100.0),
       measured("l1_bandwidth", "l1_hit_bytes_per_clk_per_sm", {{"width_bytes", 16}, {"warps_per_sm", 32}},
                "B/clk/SM", 120.0)}));
  doc["probes"].push_back(probe(
      "constant_throughput_vs_addresses",
      {measured("constant_throughput_vs_addresses", "warp_requests_per_clk_per_sm",
                {{"distinct_addresses", 1}, {"warps_per_sm", 64}}, "requests/clk/SM", 1.0),
       measured("constant_throughput_vs_addresses", "warp_requests_per_clk_per_sm",
                {{"distinct_addresses", 32}, {"warps_per_sm", 64}}, "requests/clk/SM", 0.03)}));
  // Two shapes at 2 KiB in flight (median 650), one at 4 KiB.
  doc["probes"].push_back(probe(l2, {bw(l2, "read_bandwidth_gbps", 1, 128, 1, 600.0),
                                     bw(l2, "read_bandwidth_gbps", 1, 128, 1, 700.0),
                                     bw(l2, "read_bandwidth_gbps", 1, 256, 1, 1200.0),
                                     bw(l2, "write_bandwidth_gbps", 1, 256, 1, 900.0)}));
  doc["probes"].push_back(probe(dram, {bw(dram, "read_bandwidth_gbps", 1, 128, 1, 660.0),
                                       bw(dram, "read_bandwidth_gbps", 2, 1024, 4, 3100.0)}));
  auto local = [](const char* name, int kib, const char* access, double v) {
    return measured("local_memory_bandwidth", name,
                    {{"array_bytes_per_thread", kib / 2}, {"access", access}, {"footprint_kib_per_sm", kib}},
                    std::string(name) == "local_bandwidth_gbps" ? "GB/s" : "B/clk/SM", v);
  };
  doc["probes"].push_back(probe("local_memory_bandwidth",
                                {local("local_bandwidth_gbps", 128, "load_store", 9000.0),
                                 local("local_bandwidth_gbps", 512, "load_store", 3000.0),
                                 local("local_bytes_per_clk_per_sm", 128, "load_store", 34.0),
                                 local("local_bandwidth_gbps", 128, "load", 20000.0)}));
  return doc;
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

TEST(HardwareProfile, ThroughputAccessorsInterpolateBetweenMeasuredPointsOnly) {
  json doc = throughputProfile();
  EXPECT_TRUE(schemaCheck().validate(doc).empty()) << schemaCheck().validate(doc).front();
  HardwareProfile p = HardwareProfile::fromJson(doc.dump());
  // Measured points exactly; linear in warps between them.
  EXPECT_EQ(p.instThroughputPerClk("ffma", 2), 1.8);
  EXPECT_NEAR(*p.instThroughputPerClk("ffma", 3), 2.65, 1e-12);
  EXPECT_EQ(p.instThroughputPerClk("mufu", 1), 0.25);
  EXPECT_EQ(p.instSassOpcode("mufu"), std::string("MUFU.RSQ"));
  // Outside the measured warps, other classes, absent probes: nullopt.
  EXPECT_FALSE(p.instThroughputPerClk("ffma", 8).has_value());
  EXPECT_FALSE(p.instThroughputPerClk("ffma", 0.5).has_value());
  EXPECT_FALSE(p.instThroughputPerClk("mufu", 2).has_value());
  EXPECT_FALSE(p.instThroughputPerClk("dfma", 1).has_value());
  EXPECT_FALSE(p.instSassOpcode("dfma").has_value());
  // Shared: degree 1 is the series without a degree parameter.
  EXPECT_EQ(p.sharedThroughputVsWarpsBytesPerClk(1, 4), 104.0);
  EXPECT_NEAR(*p.sharedThroughputVsWarpsBytesPerClk(1, 2), 52.0, 1e-12);
  EXPECT_EQ(p.sharedThroughputVsWarpsBytesPerClk(2, 4), 60.0);
  EXPECT_FALSE(p.sharedThroughputVsWarpsBytesPerClk(4, 4).has_value());
  EXPECT_EQ(p.sharedWavefrontsPerClk(2, 4), 0.9375);
  EXPECT_FALSE(p.sharedWavefrontsPerClk(2, 1).has_value());  // one point: no range below 4
  EXPECT_EQ(p.l1BandwidthBytesPerClk(), 120.0);              // 32 warps, 16-byte lanes
  EXPECT_NEAR(*p.l1BandwidthBytesPerClk(24, 16), 110.0, 1e-12);
  EXPECT_FALSE(p.l1BandwidthBytesPerClk(32, 4).has_value());
  EXPECT_EQ(p.constantRequestsPerClk(32), 0.03);
  EXPECT_FALSE(p.constantRequestsPerClk(3).has_value());
  // Bandwidth by bytes in flight: the median of shapes at a point, log2 between.
  EXPECT_EQ(p.l2BandwidthGBps(2048), 650.0);
  EXPECT_NEAR(*p.l2BandwidthGBps(2048 * std::sqrt(2.0)), 925.0, 1e-9);
  EXPECT_FALSE(p.l2BandwidthGBps(8192).has_value());
  EXPECT_FALSE(p.l2BandwidthGBps(1024).has_value());
  EXPECT_EQ(p.l2WriteBandwidthGBps(4096), 900.0);
  EXPECT_EQ(p.l2ReadBandwidthGBps(1, 256, 1), 1200.0);
  EXPECT_EQ(p.dramReadBandwidthGBps(2, 1024, 4), 3100.0);
  EXPECT_NEAR(*p.dramReadBandwidthGBps(double(1 << 14)), 660.0 + (3100.0 - 660.0) * 3.0 / 6.0, 1e-9);
  EXPECT_EQ(p.localBandwidthGBps(128), 9000.0);
  EXPECT_NEAR(*p.localBandwidthGBps(256), 6000.0, 1e-9);  // halfway in log2(footprint)
  EXPECT_EQ(p.localBandwidthBytesPerClk(128), 34.0);
  EXPECT_EQ(p.localBandwidthGBps(128, "load"), 20000.0);
  EXPECT_FALSE(p.localBandwidthBytesPerClk(128, "load").has_value());
  EXPECT_FALSE(p.localBandwidthGBps(1024).has_value());
  EXPECT_FALSE(p.localBandwidthGBps(64).has_value());
  // A profile without these probes answers nullopt everywhere.
  HardwareProfile bare = HardwareProfile::fromJson(minimalProfile().dump());
  EXPECT_FALSE(bare.instThroughputPerClk("ffma", 4).has_value());
  EXPECT_FALSE(bare.l2BandwidthGBps(4096).has_value());
  EXPECT_FALSE(bare.localBandwidthGBps(128).has_value());
  EXPECT_FALSE(bare.constantRequestsPerClk(1).has_value());
}

// The bundled H100 profile holds every cost-model probe; the H200 profile
// holds them where it was measured with them (README: probes/).
TEST(HardwareProfile, CostModelValuesOnTheMeasuredProfiles) {
  for (const char* name : {"h100.json", "h200.json"}) {
    fs::path file = sourceRoot() / "probes/profiles" / name;
    if (!fs::exists(file)) continue;
    HardwareProfile p = HardwareProfile::fromFile(file.string());
    bool isH100 = std::string(name) == "h100.json";
    if (!isH100 && !p.find("inst_throughput_vs_warps", "warp_instructions_per_clk_per_sm")) continue;
    SCOPED_TRACE(name);
    for (const char* cls : {"ffma", "imad", "iadd", "iadd3", "lop3", "mufu", "dfma", "f2i", "i2f"}) {
      SCOPED_TRACE(cls);
      for (int w : {1, 2, 4, 8, 16, 32, 64}) ASSERT_TRUE(p.instThroughputPerClk(cls, w).has_value()) << w;
      ASSERT_TRUE(p.instSassOpcode(cls).has_value());
      // Saturates: more warps never issue much less (5% for noise), and 64
      // warps reach at least three times the 1-warp rate or the 1-warp rate
      // is already near the ceiling.
      EXPECT_GE(*p.instThroughputPerClk(cls, 64), 0.95 * *p.instThroughputPerClk(cls, 8));
      EXPECT_GT(*p.instThroughputPerClk(cls, 64), *p.instThroughputPerClk(cls, 1));
      EXPECT_LE(*p.instThroughputPerClk(cls, 64), 4.05);  // 4 schedulers, one warp-instruction each a clock
    }
    EXPECT_EQ(p.instSassOpcode("ffma"), std::string("FFMA"));
    EXPECT_EQ(p.instSassOpcode("dfma"), std::string("DFMA"));
    EXPECT_NE(p.instSassOpcode("mufu")->find("MUFU"), std::string::npos);
    for (int d : {1, 2, 4, 8, 32})
      for (int w : {1, 2, 4, 8, 16, 32, 64}) {
        ASSERT_TRUE(p.sharedWavefrontsPerClk(d, w).has_value()) << d << " " << w;
        ASSERT_TRUE(p.sharedThroughputVsWarpsBytesPerClk(d, w).has_value()) << d << " " << w;
      }
    // A degree-d load moves 128/d bytes a wavefront: at 64 warps the rate falls with the degree.
    EXPECT_GT(*p.sharedThroughputVsWarpsBytesPerClk(1, 64), 3 * *p.sharedThroughputVsWarpsBytesPerClk(8, 64));
    ASSERT_TRUE(p.l1BandwidthBytesPerClk().has_value());
    ASSERT_TRUE(p.l1BandwidthBytesPerClk(64, 4).has_value());
    EXPECT_GT(*p.l1BandwidthBytesPerClk(), 16.0);
    EXPECT_LE(*p.l1BandwidthBytesPerClk(), 260.0);
    for (int n : {1, 2, 4, 8, 16, 32}) ASSERT_TRUE(p.constantRequestsPerClk(n).has_value()) << n;
    EXPECT_GT(*p.constantRequestsPerClk(1), *p.constantRequestsPerClk(32));
    // L2 above DRAM where both are saturated; both grow with bytes in flight.
    ASSERT_TRUE(p.l2BandwidthGBps(2048) && p.l2BandwidthGBps(131072) && p.dramReadBandwidthGBps(131072));
    EXPECT_GT(*p.l2BandwidthGBps(131072), *p.dramReadBandwidthGBps(131072));
    EXPECT_GT(*p.l2BandwidthGBps(131072), *p.l2BandwidthGBps(2048));
    EXPECT_TRUE(p.l2WriteBandwidthGBps(16384).has_value());
    EXPECT_TRUE(p.l2ReadBandwidthGBps(2, 1024, 4).has_value());
    // 64 KiB to 2 MiB an SM: inside L1 and past L2.
    for (double kib : {64.0, 128.0, 256.0, 384.0, 512.0, 2048.0})
      for (const char* access : {"load_store", "load"}) {
        ASSERT_TRUE(p.localBandwidthGBps(kib, access).has_value()) << kib << " " << access;
        ASSERT_TRUE(p.localBandwidthBytesPerClk(kib, access).has_value()) << kib << " " << access;
      }
    EXPECT_GT(*p.localBandwidthGBps(64), *p.localBandwidthGBps(2048));
    EXPECT_GT(*p.localBandwidthGBps(64, "load"), *p.localBandwidthGBps(2048, "load"));
  }
}

// A bundled profile is parsed from a compact text (probes/scripts/
// compact_profile.py drops what fromJson never reads): it must be the same
// profile as its file, value for value; and a changed value must show.
TEST(HardwareProfile, BundledCompactTextIsTheFilesProfile) {
  int compared = 0;
  for (const auto& name : HardwareProfile::bundledNames()) {
    fs::path file = sourceRoot() / "probes/profiles" / (name + ".json");
    if (!fs::exists(file)) continue;
    HardwareProfile fromFile = HardwareProfile::fromFile(file.string());
    HardwareProfile bundled = HardwareProfile::bundled(name);
    EXPECT_TRUE(bundled == fromFile) << name;
    EXPECT_EQ(bundled.valueCount(), fromFile.valueCount()) << name;
    // The full text (reports) is the file's, not the compact one.
    EXPECT_GT(HardwareProfile::loadText(name).size(), fs::file_size(file) / 2) << name;
    ++compared;
  }
  if (compared == 0) GTEST_SKIP() << "no bundled profile";
  // The comparison sees one changed median.
  std::string text = HardwareProfile::loadText(HardwareProfile::bundledNames()[0]);
  auto at = text.find("\"median\": ");
  ASSERT_NE(at, std::string::npos);
  text.insert(at + 10, "1");
  HardwareProfile changed = HardwareProfile::fromJson(text);
  EXPECT_FALSE(changed == HardwareProfile::bundled(HardwareProfile::bundledNames()[0]));
}

// SPDX-License-Identifier: Apache-2.0
// Work score, device / host thresholds and their precedence, the calibration file.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <string>

#include "hamon/policies/env.hpp"
#include "hamon/policies/thresholds.hpp"
#include "policy_env_fixture.hpp"

namespace {

using hamon::CalibrationValues;
using hamon::Threshold;
using hamon::ThresholdSource;
using hamon::test::contains_all;
namespace env = hamon::env;
namespace fs = std::filesystem;

template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::exception& error) {
    return error.what();
  }
  ADD_FAILURE() << "did not throw";
  return {};
}

// ---- work_score --------------------------------------------------------------------------

TEST(ThresholdWorkScore, IsChainsTimesFreeNodes) {
  EXPECT_EQ(hamon::work_score(8, 512), 4096);
  EXPECT_EQ(hamon::work_score(0, 512), 0);
  EXPECT_EQ(hamon::work_score(32, 0), 0);
  EXPECT_EQ(hamon::work_score(1, 1), 1);
}

TEST(ThresholdWorkScore, Is64Bit) {
  // 2^20 chains x 2^40 nodes: far past 32 bits, inside 64.
  EXPECT_EQ(hamon::work_score(std::int64_t{1} << 20, std::int64_t{1} << 40), std::int64_t{1} << 60);
  const std::int64_t max = std::numeric_limits<std::int64_t>::max();
  EXPECT_EQ(hamon::work_score(1, max), max);
  EXPECT_EQ(hamon::work_score(max, 1), max);
}

TEST(ThresholdWorkScore, ThrowsInsteadOfWrapping) {
  const std::int64_t max = std::numeric_limits<std::int64_t>::max();
  EXPECT_THROW(hamon::work_score(2, max), std::overflow_error);
  EXPECT_THROW(hamon::work_score(std::int64_t{1} << 32, std::int64_t{1} << 32),
               std::overflow_error);
  EXPECT_THROW(hamon::work_score(-1, 4), std::invalid_argument);
  EXPECT_THROW(hamon::work_score(4, -1), std::invalid_argument);
}

// ---- thresholds --------------------------------------------------------------------------

using ThresholdPrecedence = hamon::test::PolicyEnvTest;

TEST_F(ThresholdPrecedence, DefaultsWhenNothingIsSet) {
  const Threshold device = hamon::device_threshold();
  EXPECT_EQ(device.value, 4096.0);
  EXPECT_EQ(device.source, ThresholdSource::default_value);
  const Threshold host = hamon::host_threshold();
  EXPECT_EQ(host.value, hamon::kDefaultHostThreshold);
  EXPECT_EQ(host.source, ThresholdSource::default_value);
}

TEST_F(ThresholdPrecedence, ArgumentBeatsEnvBeatsFileBeatsDefault) {
  write_text(calibration_path(), "device_threshold: 300\nhost_threshold: 30\n");
  env::set_env("HAMON_DEVICE_THRESHOLD", "200");
  env::set_env("HAMON_HOST_THRESHOLD", "20");

  Threshold device = hamon::device_threshold(100.0);
  EXPECT_EQ(device.value, 100.0);
  EXPECT_EQ(device.source, ThresholdSource::argument);
  Threshold host = hamon::host_threshold(10.0);
  EXPECT_EQ(host.value, 10.0);
  EXPECT_EQ(host.source, ThresholdSource::argument);

  device = hamon::device_threshold();
  EXPECT_EQ(device.value, 200.0);
  EXPECT_EQ(device.source, ThresholdSource::environment);
  EXPECT_EQ(device.origin, "HAMON_DEVICE_THRESHOLD");
  host = hamon::host_threshold();
  EXPECT_EQ(host.value, 20.0);
  EXPECT_EQ(host.source, ThresholdSource::environment);
  EXPECT_EQ(host.origin, "HAMON_HOST_THRESHOLD");

  env::unset_env("HAMON_DEVICE_THRESHOLD");
  env::unset_env("HAMON_HOST_THRESHOLD");
  device = hamon::device_threshold();
  EXPECT_EQ(device.value, 300.0);
  EXPECT_EQ(device.source, ThresholdSource::calibration_file);
  EXPECT_EQ(device.origin, calibration_path());
  host = hamon::host_threshold();
  EXPECT_EQ(host.value, 30.0);
  EXPECT_EQ(host.source, ThresholdSource::calibration_file);

  fs::remove(calibration_path());
  EXPECT_EQ(hamon::device_threshold().source, ThresholdSource::default_value);
  EXPECT_EQ(hamon::host_threshold().source, ThresholdSource::default_value);
}

TEST_F(ThresholdPrecedence, DeviceAndHostReadTheirOwnKeys) {
  write_text(calibration_path(), "host_threshold: 64\n");
  EXPECT_EQ(hamon::device_threshold().source, ThresholdSource::default_value);
  EXPECT_EQ(hamon::host_threshold().value, 64.0);
  env::set_env("HAMON_DEVICE_THRESHOLD", "512");
  EXPECT_EQ(hamon::host_threshold().value, 64.0);  // the device variable is not the host one
}

TEST_F(ThresholdPrecedence, AcceptsNumberSpellings) {
  for (const auto& [text, value] :
       std::initializer_list<std::pair<const char*, double>>{{"2048", 2048.0},
                                                             {" 2048 ", 2048.0},
                                                             {"4e3", 4000.0},
                                                             {"+16", 16.0},
                                                             {"0", 0.0},
                                                             {"1024.5", 1024.5}}) {
    env::set_env("HAMON_DEVICE_THRESHOLD", text);
    EXPECT_EQ(hamon::device_threshold().value, value) << text;
  }
  env::set_env("HAMON_DEVICE_THRESHOLD", "inf");
  EXPECT_TRUE(std::isinf(hamon::device_threshold().value));
}

TEST_F(ThresholdPrecedence, BadEnvValueNamesVariableAndValue) {
  for (const char* bad : {"abc", "", "-1", "nan", "12abc", "4096 8192", "0x"}) {
    env::set_env("HAMON_DEVICE_THRESHOLD", bad);
    EXPECT_THROW(hamon::device_threshold(), std::invalid_argument) << bad;
    EXPECT_TRUE(contains_all(error_of([] { hamon::device_threshold(); }), "HAMON_DEVICE_THRESHOLD",
                             std::string("'") + bad + "'"));
    env::unset_env("HAMON_DEVICE_THRESHOLD");

    env::set_env("HAMON_HOST_THRESHOLD", bad);
    EXPECT_THROW(hamon::host_threshold(), std::invalid_argument) << bad;
    EXPECT_TRUE(contains_all(error_of([] { hamon::host_threshold(); }), "HAMON_HOST_THRESHOLD",
                             std::string("'") + bad + "'"));
    env::unset_env("HAMON_HOST_THRESHOLD");
  }
}

TEST_F(ThresholdPrecedence, ArgumentWinsOverBadEnvAndBadArgumentIsRejected) {
  env::set_env("HAMON_DEVICE_THRESHOLD", "garbage");
  EXPECT_EQ(hamon::device_threshold(8.0).value, 8.0);
  EXPECT_THROW(hamon::device_threshold(-1.0), std::invalid_argument);
  EXPECT_THROW(hamon::device_threshold(std::nan("")), std::invalid_argument);
  EXPECT_THROW(hamon::host_threshold(-0.5), std::invalid_argument);
}

TEST_F(ThresholdPrecedence, EnvWinsWithoutReadingAMalformedFile) {
  write_text(calibration_path(), "this is not a calibration file\n");
  env::set_env("HAMON_DEVICE_THRESHOLD", "128");
  EXPECT_EQ(hamon::device_threshold().value, 128.0);
  env::unset_env("HAMON_DEVICE_THRESHOLD");
  EXPECT_THROW(hamon::device_threshold(), std::runtime_error);
}

// ---- calibration file --------------------------------------------------------------------

using ThresholdCalibrationFile = hamon::test::PolicyEnvTest;

TEST_F(ThresholdCalibrationFile, PathFollowsHamonCalibrationThenXdgThenHome) {
  EXPECT_EQ(hamon::calibration_file_path(), calibration_path());

  env::unset_env("HAMON_CALIBRATION");
  EXPECT_EQ(hamon::calibration_file_path(),
            (dir() / "config" / "hamon" / "calibration.yaml").string());

  env::set_env("XDG_CONFIG_HOME", "");  // empty counts as unset
  env::set_env("HOME", (dir() / "home").string());
  EXPECT_EQ(hamon::calibration_file_path(),
            (dir() / "home" / ".config" / "hamon" / "calibration.yaml").string());

  env::unset_env("XDG_CONFIG_HOME");
  env::unset_env("HOME");
  EXPECT_EQ(hamon::calibration_file_path(), std::nullopt);
  EXPECT_EQ(hamon::device_threshold().source, ThresholdSource::default_value);
}

TEST_F(ThresholdCalibrationFile, DefaultLocationIsRead) {
  env::unset_env("HAMON_CALIBRATION");
  write_text(dir() / "config" / "hamon" / "calibration.yaml", "device_threshold: 1024\n");
  const Threshold t = hamon::device_threshold();
  EXPECT_EQ(t.value, 1024.0);
  EXPECT_EQ(t.source, ThresholdSource::calibration_file);
}

TEST_F(ThresholdCalibrationFile, EmptyHamonCalibrationDisablesTheFile) {
  write_text(dir() / "config" / "hamon" / "calibration.yaml", "device_threshold: 1024\n");
  env::set_env("HAMON_CALIBRATION", "");
  EXPECT_EQ(hamon::calibration_file_path(), std::nullopt);
  EXPECT_EQ(hamon::device_threshold().source, ThresholdSource::default_value);
}

TEST_F(ThresholdCalibrationFile, MissingFileGivesEmptyValues) {
  const CalibrationValues values = hamon::read_calibration((dir() / "nope.yaml").string());
  EXPECT_FALSE(values.device_threshold);
  EXPECT_FALSE(values.host_threshold);
}

TEST_F(ThresholdCalibrationFile, RoundTrips) {
  const std::string path = (dir() / "sub" / "dir" / "calibration.yaml").string();
  hamon::write_calibration(path, {8192.0, 2048.0});
  CalibrationValues back = hamon::read_calibration(path);
  EXPECT_EQ(back.device_threshold, 8192.0);
  EXPECT_EQ(back.host_threshold, 2048.0);

  hamon::write_calibration(path, {1536.25, std::nullopt});  // overwrites, leaves host out
  back = hamon::read_calibration(path);
  EXPECT_EQ(back.device_threshold, 1536.25);
  EXPECT_FALSE(back.host_threshold);

  hamon::write_calibration(path, {});
  back = hamon::read_calibration(path);
  EXPECT_FALSE(back.device_threshold);
  EXPECT_FALSE(back.host_threshold);

  // Nothing but the file itself is left behind (the temporary was renamed).
  int entries = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(path).parent_path())) {
    (void)entry;
    ++entries;
  }
  EXPECT_EQ(entries, 1);
}

TEST_F(ThresholdCalibrationFile, WrittenFileFeedsTheThresholds) {
  hamon::write_calibration(calibration_path(), {512.0, 64.0});
  EXPECT_EQ(hamon::device_threshold().value, 512.0);
  EXPECT_EQ(hamon::host_threshold().value, 64.0);
  EXPECT_THROW(hamon::write_calibration(calibration_path(), {-1.0, std::nullopt}),
               std::invalid_argument);
}

TEST_F(ThresholdCalibrationFile, ToleratesCommentsQuotesAndUnknownKeys) {
  write_text(calibration_path(),
             "# written by perf/device_crossover\n"
             "\n"
             "   # indented comment\n"
             "machine: h200-node-3   # metadata is ignored\n"
             "device_threshold: 16384  # measured\n"
             "host_threshold: \"1024\"\n");
  const CalibrationValues values = hamon::read_calibration(calibration_path());
  EXPECT_EQ(values.device_threshold, 16384.0);
  EXPECT_EQ(values.host_threshold, 1024.0);
}

TEST_F(ThresholdCalibrationFile, MalformedFileNamesPathAndLine) {
  const std::string path = calibration_path();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"# ok\ndevice_threshold: 1\njust words\n", ":3"},
      {"device_threshold: lots\n", ":1"},
      {"\nhost_threshold: -4\n", ":2"},
      {"device_threshold: nan\n", ":1"},
      {"device_threshold: 1\ndevice_threshold: 2\n", ":2"},
      {"host_threshold:\n", ":1"},
      {": 12\n", ":1"}};
  for (const auto& [text, line] : cases) {
    write_text(path, text);
    EXPECT_THROW(hamon::read_calibration(path), std::runtime_error) << text;
    EXPECT_TRUE(contains_all(error_of([&path] { hamon::read_calibration(path); }), path + line))
        << text;
  }
}

TEST_F(ThresholdCalibrationFile, DirectoryInsteadOfFileIsAnError) {
  fs::create_directories(calibration_path());
  EXPECT_THROW(hamon::read_calibration(calibration_path()), std::runtime_error);
}

TEST(ThresholdNames, SourcesHaveNames) {
  EXPECT_EQ(hamon::to_string(ThresholdSource::argument), "argument");
  EXPECT_EQ(hamon::to_string(ThresholdSource::environment), "environment");
  EXPECT_EQ(hamon::to_string(ThresholdSource::calibration_file), "calibration file");
  EXPECT_EQ(hamon::to_string(ThresholdSource::default_value), "default");
}

}  // namespace

// SPDX-License-Identifier: Apache-2.0
// The text helpers every layer shares: the number formats (each read back to the same
// double where it promises to), and the enum name tables (to_string, parsing and "did you
// mean" from one table).
#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "hamon/core/analysis/health.hpp"
#include "hamon/core/train/training_options.hpp"
#include "hamon/core/util/enum_names.hpp"
#include "hamon/core/util/text.hpp"
#include "hamon/policies/placement.hpp"

namespace {

using namespace hamon;

const std::vector<double> kValues = {
    0.0,  -0.0,  1.0,    -2.0,    0.1, 1.0 / 3.0, 100000.,   1e15,
    1e16, 1e300, 5e-324, -1.5e-7, 0.5, 2.0 / 3,   12345.678, std::numeric_limits<double>::max()};

double read_back(const std::string& text) {
  double value = 0.0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  EXPECT_EQ(ec, std::errc()) << text;
  EXPECT_EQ(ptr, text.data() + text.size()) << text;
  return value;
}

bool same_double(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

TEST(Text, format_value_and_format_number_round_trip) {
  for (double x : kValues) {
    EXPECT_TRUE(same_double(read_back(format_value(x)), x)) << format_value(x);
    // Equal values; integral text has no negative zero ("0" for -0.0).
    EXPECT_EQ(read_back(format_number(x)), x) << format_number(x);
  }
  EXPECT_EQ(format_number(-0.0), "0");
}

TEST(Text, format_number_writes_integers_in_full_and_lower_case_specials) {
  EXPECT_EQ(format_number(100000.0), "100000");
  EXPECT_EQ(format_value(100000.0), "1e+05");  // the shortest form, for messages
  EXPECT_EQ(format_number(-3.0), "-3");
  EXPECT_EQ(format_number(0.25), "0.25");
  EXPECT_EQ(format_number(1e16), "1e+16");  // past 2^53: no longer integral text
  EXPECT_EQ(format_number(std::nan("")), "nan");
  EXPECT_EQ(format_number(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(format_value(std::nan("")), "NaN");
  EXPECT_EQ(format_value(std::numeric_limits<double>::infinity()), "Inf");
}

TEST(Text, format_significant_rounds_to_the_digits_asked) {
  EXPECT_EQ(format_significant(2.0 / 3.0, 3), "0.667");
  EXPECT_EQ(format_significant(2.0 / 3.0, 4), "0.6667");
  EXPECT_EQ(format_significant(12345.0, 3), "1.23e+04");
  EXPECT_EQ(format_significant(0.5, 3), "0.5");
}

TEST(Text, hex_float_is_exact) {
  EXPECT_EQ(hex_float(3.0), "0x1.8p+1");
  for (double x : kValues) {
    const std::string text = hex_float(x);
    EXPECT_TRUE(same_double(std::strtod(text.c_str(), nullptr), x)) << text;
  }
}

TEST(Text, parse_real_reads_the_non_finite_spellings_of_yaml_and_of_from_chars_alike) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(parse_real("+1.5"), 1.5);
  EXPECT_EQ(parse_real("-2e3"), -2000.0);
  for (const char* text : {"inf", "+inf", ".inf", "+.inf", ".Inf", ".INF"}) {
    EXPECT_EQ(parse_real(text), inf) << text;
  }
  for (const char* text : {"-inf", "-.inf", "-.Inf"}) EXPECT_EQ(parse_real(text), -inf) << text;
  for (const char* text : {"nan", ".nan", ".NaN", ".NAN"}) {
    const auto value = parse_real(text);
    EXPECT_TRUE(value && std::isnan(*value)) << text;
  }
  for (const char* text : {"", "+", "++1", "+-1", "1.5x", "abc", ".na", "-.nan", "..inf", " 1"}) {
    EXPECT_FALSE(parse_real(text).has_value()) << "'" << text << "'";
  }
}

TEST(Text, closest_match_suggests_plausible_typos_only) {
  const std::vector<std::string> words = {"linear", "geometric"};
  EXPECT_EQ(closest_match("geomtric", words), "geometric");
  EXPECT_EQ(closest_match("LINAER", words), "linear");  // case ignored, a swap costs 1
  EXPECT_FALSE(closest_match("banana", words).has_value());
  EXPECT_EQ(join(words), "linear, geometric");
}

enum class Colour { red, green, blue };
constexpr EnumNames<Colour, 3> kColourNames{{
    {Colour::red, "red"},
    {Colour::green, "green"},
    {Colour::blue, "blue"},
}};

TEST(EnumNames, names_parse_back_to_their_enumerators) {
  for (const auto& entry : kColourNames) {
    EXPECT_STREQ(name_of(kColourNames, entry.value), entry.name);
    EXPECT_EQ(parse_name(kColourNames, entry.name), entry.value);
  }
  static_assert(*parse_name(kColourNames, "blue") == Colour::blue);
  static_assert(name_of(kColourNames, Colour::green)[0] == 'g');
  EXPECT_EQ(names_of(kColourNames), (std::vector<std::string>{"red", "green", "blue"}));
  EXPECT_STREQ(name_of(kColourNames, static_cast<Colour>(7)), "unknown");
}

TEST(EnumNames, an_unknown_name_parses_to_nothing_and_gets_a_suggestion) {
  EXPECT_FALSE(parse_name(kColourNames, "gren").has_value());
  EXPECT_FALSE(parse_name(kColourNames, "Red").has_value());  // names are case-sensitive
  EXPECT_EQ(closest_match("gren", names_of(kColourNames)), "green");
  EXPECT_FALSE(closest_match("purple", names_of(kColourNames)).has_value());
}

// Every table of the library: distinct names, and to_string is the table.
template <class Enum, std::size_t N>
void expect_a_table(const EnumNames<Enum, N>& table) {
  std::set<std::string> seen;
  for (const auto& entry : table) {
    EXPECT_TRUE(seen.insert(entry.name).second) << entry.name << " twice";
    EXPECT_EQ(std::string(to_string(entry.value)), entry.name);
    EXPECT_EQ(parse_name(table, entry.name), entry.value);
  }
}

TEST(EnumNames, the_library_tables_are_what_to_string_writes) {
  expect_a_table(kOptimiserNames);
  expect_a_table(kSweepPathNames);
  expect_a_table(kPositivePhaseNames);
  expect_a_table(kRateScheduleNames);
  expect_a_table(kDecisionReasonNames);
  expect_a_table(kHostRuleNames);
  EXPECT_EQ(to_string(HealthStatus::warn), "warn");
  EXPECT_STREQ(to_string(RateSchedule::exponential), "exponential");
}

}  // namespace

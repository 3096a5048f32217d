// SPDX-License-Identifier: Apache-2.0
#pragma once
// Small text helpers for messages, files and line-oriented readers, shared by every layer:
// the number formats (one function per format), trimming, and "did you mean ...?" for
// misspelt keys and names (enum_names.hpp builds its parsers on it).

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace hamon {

/// The shortest form of a value that round-trips ("1", "-0.5", "0.1"), so two values that
/// differ never print the same in a message; "NaN", "Inf", "-Inf" otherwise.
std::string format_value(double value);

/// A value written to a file that is read back: integral values below 2^53 in full
/// ("100000", never "1e+05"; -0.0 as "0"), others in the shortest form that round-trips;
/// "nan", "inf", "-inf" (what std::from_chars reads back).
std::string format_number(double value);

/// `value` rounded to `significant_digits` for a person to read (printf's %.Ng: "0.0123",
/// "1.23e+04").
std::string format_significant(double value, int significant_digits);

/// The exact bits of a value in C's hexadecimal float form (printf's %a: "0x1.8p+1"), for
/// keys and files compared as text.
std::string hex_float(double value);

/// A number as written in a file hamon reads (YAML values, graph and weights files):
/// std::from_chars's forms (locale-free) with an optional leading '+', and YAML's
/// spellings of the non-finite values (.nan, .inf, +.inf, -.inf in any case), so every
/// reader says the same of ".nan" as of "nan". Non-finite values are returned (the caller
/// says "is not finite"); nullopt when `text` is not a number at all.
std::optional<double> parse_real(const std::string& text);

/// `text` without leading and trailing whitespace (" \t\r\n\f\v").
std::string trim(const std::string& text);

/// Optimal-string-alignment distance (insertions, deletions, substitutions and swaps of
/// two neighbouring characters each cost 1), ignoring ASCII case.
std::size_t edit_distance(const std::string& a, const std::string& b);

/// The candidate closest to `word` when it is close enough to be a plausible typo
/// (distance <= 2, or <= a third of the word's length for long words); nullopt otherwise.
std::optional<std::string> closest_match(const std::string& word,
                                         const std::vector<std::string>& candidates);

/// "a, b, c".
std::string join(const std::vector<std::string>& words, const std::string& separator = ", ");

}  // namespace hamon

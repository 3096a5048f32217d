// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/util/text.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string_view>

namespace hamon {

namespace {

char lower(char c) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

std::string shortest(double value) {
  std::array<char, 32> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  return std::string(buffer.data(), result.ptr);
}

}  // namespace

std::string format_value(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Inf" : "-Inf";
  return shortest(value);
}

std::string format_number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (value == std::trunc(value) && std::fabs(value) < 9.007199254740992e15) {
    return std::to_string(static_cast<std::int64_t>(value));
  }
  return shortest(value);
}

std::string format_significant(double value, int significant_digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*g", significant_digits, value);
  return buffer;
}

std::string hex_float(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%a", value);
  return buffer;
}

std::optional<double> parse_real(const std::string& text) {
  std::string_view view(text);
  if (view.size() > 1 && view[0] == '+' && view[1] != '+' && view[1] != '-') view.remove_prefix(1);
  // YAML 1.2's .nan / .inf: the same values as from_chars's nan / inf.
  const bool negative = !view.empty() && view[0] == '-';
  const std::string_view magnitude = negative ? view.substr(1) : view;
  if (magnitude.size() == 4 && magnitude[0] == '.') {
    std::string word(magnitude.substr(1));
    for (char& c : word) c = lower(c);
    const double infinity = std::numeric_limits<double>::infinity();
    if (word == "inf") return negative ? -infinity : infinity;
    if (word == "nan" && !negative) return std::numeric_limits<double>::quiet_NaN();
  }
  double value = 0.0;
  const auto [end, error] = std::from_chars(view.data(), view.data() + view.size(), value);
  if (error != std::errc() || end != view.data() + view.size()) return std::nullopt;
  return value;
}

std::string trim(const std::string& text) {
  const char* space = " \t\r\n\f\v";
  const auto first = text.find_first_not_of(space);
  if (first == std::string::npos) {
    return {};
  }
  const auto last = text.find_last_not_of(space);
  return text.substr(first, last - first + 1);
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  const std::size_t n = a.size();
  const std::size_t m = b.size();
  // d[i][j]: distance between the first i characters of a and the first j of b.
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1, 0));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
          lower(a[i - 2]) == lower(b[j - 1])) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[n][m];
}

std::optional<std::string> closest_match(const std::string& word,
                                         const std::vector<std::string>& candidates) {
  // Long garbage keys are not worth comparing (and would cost n*m).
  if (word.empty() || word.size() > 64) return std::nullopt;
  std::optional<std::string> best;
  std::size_t best_distance = 0;
  for (const std::string& candidate : candidates) {
    const std::size_t distance = edit_distance(word, candidate);
    if (!best || distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  const std::size_t allowed = std::max<std::size_t>(2, word.size() / 3);
  if (best && best_distance <= allowed && best_distance < word.size()) return best;
  return std::nullopt;
}

std::string join(const std::vector<std::string>& words, const std::string& separator) {
  std::string text;
  for (std::size_t k = 0; k < words.size(); ++k) {
    if (k > 0) text += separator;
    text += words[k];
  }
  return text;
}

}  // namespace hamon

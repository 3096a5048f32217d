// SPDX-License-Identifier: Apache-2.0
#pragma once
// "Did you mean ...?" for misspelt keys and words.

#include <optional>
#include <string>
#include <vector>

namespace hamon::cli {

/// Optimal-string-alignment distance (insertions, deletions, substitutions and swaps of
/// two neighbouring characters each cost 1), ignoring ASCII case.
std::size_t edit_distance(const std::string& a, const std::string& b);

/// The candidate closest to `word` when it is close enough to be a plausible typo
/// (distance <= 2, or <= a third of the word's length for long words); nullopt otherwise.
std::optional<std::string> closest_match(const std::string& word,
                                         const std::vector<std::string>& candidates);

/// "a, b, c".
std::string join(const std::vector<std::string>& words, const std::string& separator = ", ");

}  // namespace hamon::cli

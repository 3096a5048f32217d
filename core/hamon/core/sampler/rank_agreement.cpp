// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/sampler/rank_agreement.hpp"

#include <cstddef>
#include <stdexcept>
#include <type_traits>

#include "hamon/core/model/fingerprint.hpp"
#include "hamon/core/util/field_list.hpp"

namespace hamon {

namespace {

/// "rank 2", "ranks 1 and 3", "ranks 1, 2, 3, 4, 5, 6, 7, 8 and 12 more".
std::string rank_list(const std::vector<int>& ranks) {
  constexpr std::size_t kNamed = 8;
  std::string text = ranks.size() == 1 ? "rank " : "ranks ";
  const std::size_t named = ranks.size() > kNamed + 1 ? kNamed : ranks.size();
  for (std::size_t k = 0; k < named; ++k) {
    if (k > 0) text += k + 1 == named && named == ranks.size() ? " and " : ", ";
    text += std::to_string(ranks[k]);
  }
  if (named < ranks.size()) text += " and " + std::to_string(ranks.size() - named) + " more";
  return text;
}

template <class T>
void add_value(Fingerprint& f, const T& value) {
  if constexpr (has_field_list_v<T>) {
    for_each_field(value, [&f](const auto& field) {
      f.add(std::string(field.name));
      add_value(f, field.value);
    });
  } else if constexpr (std::is_arithmetic_v<T>) {
    f.add_bytes(&value, sizeof value);
  } else {  // a std::vector of numbers
    f.add(static_cast<std::uint64_t>(value.size()));
    if (!value.empty()) f.add_bytes(value.data(), value.size() * sizeof(value[0]));
  }
}

}  // namespace

std::string rank_differences(const std::vector<std::string>& what,
                             const std::vector<std::vector<std::uint64_t>>& per_rank) {
  std::string text;
  for (std::size_t k = 0; k < what.size(); ++k) {
    std::vector<int> differing;
    for (std::size_t r = 1; r < per_rank.size(); ++r) {
      if (per_rank[r].at(k) != per_rank[0].at(k)) differing.push_back(static_cast<int>(r));
    }
    if (differing.empty()) continue;
    const std::string verb = differing.size() == 1 ? " differs" : " differ";
    text += text.empty() ? rank_list(differing) + verb + " from rank 0 in the " + what[k]
                         : "; " + rank_list(differing) + " in the " + what[k];
  }
  return text;
}

void require_same_on_every_rank(MachineExchange* exchange, const std::vector<RankInput>& inputs) {
  if (exchange == nullptr || exchange->n_ranks() == 1 || inputs.empty()) return;
  const auto width = static_cast<std::int64_t>(inputs.size());
  std::vector<std::int64_t> mine;
  for (const RankInput& input : inputs)
    mine.push_back(static_cast<std::int64_t>(input.fingerprint));
  std::vector<std::int64_t> all(static_cast<std::size_t>(width * exchange->n_ranks()));
  exchange->all_gather(
      mine.data(), all.data(),
      std::vector<std::int64_t>(static_cast<std::size_t>(exchange->n_ranks()), width));
  std::vector<std::string> what;
  for (const RankInput& input : inputs) what.push_back(input.what);
  std::vector<std::vector<std::uint64_t>> per_rank;
  for (int r = 0; r < exchange->n_ranks(); ++r) {
    std::vector<std::uint64_t> row;
    for (std::int64_t k = 0; k < width; ++k) {
      row.push_back(static_cast<std::uint64_t>(all[static_cast<std::size_t>(r * width + k)]));
    }
    per_rank.push_back(std::move(row));
  }
  const std::string differences = rank_differences(what, per_rank);
  if (!differences.empty()) {
    throw std::invalid_argument("the ranks of this run did not read the same inputs: " +
                                differences + "; start every rank from the same files");
  }
}

std::uint64_t state_fingerprint(const SamplerState& state) {
  Fingerprint f;
  f.add(std::string("hamon::SamplerState"));
  add_value(f, state);
  return f.value();
}

std::uint64_t state_fingerprint(const SamplerStateOf<double>& state) {
  Fingerprint f;
  f.add(std::string("hamon::SamplerStateOf<double>"));
  add_value(f, state);
  return f.value();
}

}  // namespace hamon

// SPDX-License-Identifier: Apache-2.0
#pragma once
// The sampler's link to the other ranks of a run (machine_exchange.hpp): which block of
// the machines each rank holds, the one message of a round (every machine's energy and
// every rank's vote to stop), the sums and gathers that bring traces, moments and the
// state to rank 0, and the comparison of the ranks' inputs before the first round. Without an
// exchange it is one block of every machine and every call is the identity. It keeps no state of
// the run: nothing of it is saved.

#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "hamon/core/sampler/machine_exchange.hpp"
#include "hamon/core/sampler/rank_agreement.hpp"

namespace hamon::detail {

class RankLink {
 public:
  RankLink(MachineExchange* exchange, std::int32_t n_machines)
      : exchange_(exchange),
        blocks_(machine_blocks(n_machines, exchange != nullptr ? exchange->n_ranks() : 1)),
        all_energies_(static_cast<std::size_t>(n_machines)),
        gather_buffer_(static_cast<std::size_t>(n_machines) + blocks_.size()) {
    for (const MachineBlock& b : blocks_) {
      words_with_energies_.push_back(b.count + 1);
      words_votes_only_.push_back(1);
    }
  }

  bool distributed() const { return exchange_ != nullptr; }
  /// Rank 0 (or the only process) keeps and hands over the traces.
  bool is_root() const { return exchange_ == nullptr || exchange_->is_root(); }
  const std::vector<MachineBlock>& blocks() const { return blocks_; }
  MachineBlock my_block() const {
    return blocks_[static_cast<std::size_t>(exchange_ != nullptr ? exchange_->rank() : 0)];
  }

  /// Returns when every rank holds this rank's `inputs`; throws std::invalid_argument on
  /// every rank otherwise (rank_agreement.hpp). Collective.
  void require_same_inputs(const std::vector<RankInput>& inputs) const {
    require_same_on_every_rank(exchange_, inputs);
  }

  /// The one message of a round: this rank's machines' energies (`mine`, when given) go to
  /// every rank, returned for every machine; `vote` is this rank's wish to stop. Sets
  /// `any_vote` to whether a rank voted so. Without an exchange, returns `mine` itself.
  std::vector<std::int64_t> exchange_round(std::vector<std::int64_t> mine, bool energies, bool vote,
                                           bool& any_vote) {
    any_vote = vote;
    if (exchange_ == nullptr) return mine;
    mine.push_back(vote ? 1 : 0);
    exchange_->all_gather(mine.data(), gather_buffer_.data(),
                          energies ? words_with_energies_ : words_votes_only_);
    any_vote = false;
    std::size_t at = 0;
    for (const MachineBlock& b : blocks_) {
      if (energies) {
        for (std::int32_t k = 0; k < b.count; ++k) {
          all_energies_[static_cast<std::size_t>(b.first + k)] = gather_buffer_[at++];
        }
      }
      if (gather_buffer_[at++] != 0) any_vote = true;
    }
    return energies ? all_energies_ : std::vector<std::int64_t>{};
  }

  /// An integer buffer summed over the ranks (complete on rank 0).
  template <class T>
  std::vector<T> summed_over_ranks(std::vector<T> values) const {
    if (exchange_ != nullptr) {
      exchange_->sum_to_root(values.data(), static_cast<std::int64_t>(values.size()));
    }
    return values;
  }

  /// Sums over ranks live on rank 0: the others restore zeros, so the sums add up again.
  template <class T>
  std::vector<T> own_share(const std::vector<T>& sums) const {
    return is_root() ? sums : std::vector<T>(sums.size(), T(0));
  }

  /// Rows that one rank holds and the others hold as zeros, complete on rank 0: their bytes
  /// are summed (a byte plus zero bytes is that byte), so a value of any type travels as
  /// the bytes of its storage, exactly.
  template <class T>
  std::vector<T> from_holder(std::vector<T> values) const {
    static_assert(std::is_trivially_copyable_v<T>, "variables travel as bytes");
    if (exchange_ != nullptr) {
      exchange_->sum_to_root(reinterpret_cast<std::int8_t*>(values.data()),
                             static_cast<std::int64_t>(values.size() * sizeof(T)));
    }
    return values;
  }

  /// Every machine's rows (`per_machine` values each) on rank 0, from each rank's block;
  /// the exchange moves the bytes of the values.
  template <class T>
  std::vector<T> gathered_machines(std::vector<T> mine, std::int64_t per_machine) const {
    static_assert(std::is_trivially_copyable_v<T>, "variables travel as bytes");
    if (exchange_ == nullptr) return mine;
    std::int64_t n_machines = 0;
    for (const MachineBlock& b : blocks_) n_machines += b.count;
    std::vector<T> all(static_cast<std::size_t>(n_machines * per_machine));
    exchange_->gather_machines_to_root(reinterpret_cast<const std::int8_t*>(mine.data()),
                                       reinterpret_cast<std::int8_t*>(all.data()), blocks_,
                                       per_machine * static_cast<std::int64_t>(sizeof(T)));
    return all;
  }

 private:
  MachineExchange* exchange_;
  std::vector<MachineBlock> blocks_;
  std::vector<std::int64_t> all_energies_;
  std::vector<std::int64_t> gather_buffer_;
  // Words per rank in a round's message: with the energies (the block's count + 1 vote)
  // and without them (the vote only).
  std::vector<std::int64_t> words_with_energies_, words_votes_only_;
};

}  // namespace hamon::detail

// SPDX-License-Identifier: Apache-2.0
// rank_agreement.hpp without MPI: the message that names the ranks whose inputs differ from
// rank 0's, the fingerprint of a saved state (any field's change changes it), and one
// process, which has nobody to disagree with. (tests/mpi runs the comparison over ranks.)
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "hamon/core/sampler/rank_agreement.hpp"

namespace {

using Rows = std::vector<std::vector<std::uint64_t>>;

TEST(RankAgreement, says_nothing_when_every_rank_holds_rank_0s_inputs) {
  EXPECT_EQ(hamon::rank_differences({"model", "options"}, Rows{{1, 2}, {1, 2}, {1, 2}}), "");
  EXPECT_EQ(hamon::rank_differences({"model"}, Rows{{7}}), "");
}

TEST(RankAgreement, names_the_ranks_that_differ_and_in_what) {
  EXPECT_EQ(hamon::rank_differences({"model", "options"}, Rows{{1, 2}, {1, 3}}),
            "rank 1 differs from rank 0 in the options");
  EXPECT_EQ(hamon::rank_differences({"model", "options", "state"},
                                    Rows{{1, 2, 0}, {9, 2, 0}, {1, 2, 5}, {9, 2, 0}}),
            "ranks 1 and 3 differ from rank 0 in the model; rank 2 in the state");
  // Many ranks: eight named, the rest counted.
  Rows many(21, std::vector<std::uint64_t>{4});
  for (std::size_t r = 1; r < many.size(); ++r) many[r][0] = 5;
  EXPECT_EQ(hamon::rank_differences({"checkpoint"}, many),
            "ranks 1, 2, 3, 4, 5, 6, 7, 8 and 12 more differ from rank 0 in the checkpoint");
  Rows nine(10, std::vector<std::uint64_t>{4});
  for (std::size_t r = 1; r < nine.size(); ++r) nine[r][0] = 5;
  EXPECT_EQ(hamon::rank_differences({"checkpoint"}, nine),
            "ranks 1, 2, 3, 4, 5, 6, 7, 8 and 9 differ from rank 0 in the checkpoint");
}

TEST(RankAgreement, one_process_has_nothing_to_compare) {
  EXPECT_NO_THROW(hamon::require_same_on_every_rank(nullptr, {{"model", 1}}));
}

hamon::SamplerState a_state() {
  hamon::SamplerState s;
  s.rounds_done = 12;
  s.n_machines = 2;
  s.n_nodes = 3;
  s.betas = {0.0, 1.0};
  s.spins = {1, -1, 1, -1, -1, 1};
  s.chain_of_machine = {1, 0};
  s.machine_of_chain = {1, 0};
  s.energy_fixed = {5, -7};
  s.traces.energy_rows = 1;
  s.traces.energies = {0.5, -0.5};
  return s;
}

TEST(RankAgreement, a_state_fingerprint_sees_every_field) {
  const std::uint64_t base = hamon::state_fingerprint(a_state());
  EXPECT_EQ(hamon::state_fingerprint(a_state()), base);
  std::vector<hamon::SamplerState> changed(6, a_state());
  changed[0].rounds_done = 13;
  changed[1].spins[4] = 1;
  changed[2].machine_of_chain = {0, 1};
  changed[3].energy_fixed[1] = -8;
  changed[4].traces.energies[1] = -0.25;
  changed[5].moments.counts = {0};
  for (std::size_t k = 0; k < changed.size(); ++k) {
    EXPECT_NE(hamon::state_fingerprint(changed[k]), base) << "change " << k;
  }
}

}  // namespace

// SPDX-License-Identifier: Apache-2.0
#pragma once
// The run the bit-identity tests compare (across spaces, thread counts, rank counts):
// everything such a comparison should cover, i.e. ladder adaptation in the burn-in, then
// measurement with every observer on. A test changes only what it is about.
#include "hamon/core/sampler/nrpt.hpp"

namespace hamon_test {

inline hamon::NrptOptions observed_run(int n_chains) {
  hamon::NrptOptions o;
  o.n_chains = n_chains;
  o.beta_max = 1.5;
  o.burn_in = 120;
  o.n_rounds = 300;
  o.n_expl = 2;
  o.seed = 31;
  o.adapt_schedule = true;
  o.adapt_phases = 3;
  o.observers.samples_every = 3;
  o.observers.energies = true;
  o.observers.index_process = true;
  o.observers.moments = true;
  o.observers.edge_moments = true;
  o.observers.moment_batches = 4;
  return o;
}

}  // namespace hamon_test

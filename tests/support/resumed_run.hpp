// SPDX-License-Identifier: Apache-2.0
#pragma once
// A run saved after some rounds through the checkpoint format (bytes written and read back)
// and continued to its end in another Sampler, maybe on another space: what a resumed run
// gives, to compare with a run that never stopped.
#include <cstdint>
#include <sstream>

#include "hamon/core/sampler/checkpoint.hpp"
#include "hamon/core/sampler/sampler.hpp"

namespace hamon_test {

template <class From, class To>
hamon::NrptResult resumed_through_checkpoint(const hamon::SpinModel& model,
                                             const hamon::NrptOptions& o, std::int64_t rounds) {
  hamon::Checkpoint c;
  {
    hamon::Sampler<From> before(From(), model, o);
    before.run(rounds);
    c.identity = before.identity();
    c.state = before.state();
  }
  std::stringstream bytes;
  hamon::write_checkpoint(bytes, c);
  const hamon::Checkpoint back = hamon::read_checkpoint(bytes, "in memory");
  hamon::Sampler<To> after(To(), model, o, back);
  after.run(o.burn_in + o.n_rounds - rounds);
  return after.result();
}

}  // namespace hamon_test

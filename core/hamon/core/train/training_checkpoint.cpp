// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/train/training_checkpoint.hpp"

#include "hamon/core/model/fingerprint.hpp"
#include "hamon/core/sampler/byte_codec.hpp"
#include "hamon/core/util/counter_rng.hpp"
#include "hamon/version.hpp"

namespace hamon {

namespace {

constexpr std::uint32_t kTrainingStateVersion = 1;

}  // namespace

std::uint64_t training_options_fingerprint(const TrainingOptions& o) {
  Fingerprint f;
  f.add(std::string("hamon::TrainingOptions"));
  f.add(o.epochs).add(o.batch).add(o.learning_rate).add(static_cast<std::int64_t>(o.schedule));
  f.add(o.final_rate_factor).add(static_cast<std::int64_t>(o.optimiser)).add(o.momentum);
  f.add(o.adam_beta1).add(o.adam_beta2).add(o.adam_epsilon).add(o.weight_decay);
  f.add(static_cast<std::int64_t>(o.positive_phase)).add(o.negative_chains).add(o.sweeps);
  f.add(static_cast<std::int64_t>(o.ladder.size()));
  for (const double beta : o.ladder) f.add(beta);
  f.add(static_cast<std::int64_t>(o.sweep_path)).add(o.initial_weight_scale).add(o.seed);
  return f.value();
}

std::uint64_t training_data_fingerprint(const TrainingData& train, std::int64_t n_hidden) {
  Fingerprint f;
  f.add(std::string("hamon::TrainingData"));
  f.add(train.n_visible).add(train.n_labels).add(n_hidden);
  f.add_bytes(train.rows.data(), train.rows.size());
  f.add_bytes(train.labels.data(), train.labels.size() * sizeof(std::int32_t));
  return f.value();
}

CheckpointIdentity training_identity(const TrainingData& train, std::int64_t n_hidden,
                                     const TrainingOptions& options) {
  return CheckpointIdentity{version, detail::kRandomStreamVersion,
                            training_data_fingerprint(train, n_hidden),
                            training_options_fingerprint(options)};
}

std::string training_state_bytes(const RbmTrainingState& s) {
  detail::ByteWriter w;
  w.u32(kTrainingStateVersion);
  detail::write_fields(w, s);
  return w.bytes();
}

RbmTrainingState read_training_state(const std::string& bytes, const std::string& where) {
  detail::ByteReader r(bytes, where + ": the training state");
  if (r.u32() != kTrainingStateVersion) r.fail("has an unknown version");
  RbmTrainingState s;
  detail::read_fields(r, s);
  r.finish();
  return s;
}

}  // namespace hamon

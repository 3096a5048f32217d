// SPDX-License-Identifier: Apache-2.0
#pragma once
// A training run's YAML file (`hamon train CONFIG.yaml`), checked and located like an
// experiment file: every error names file:line:column and the key.
//
//   train:
//     data: {files: [a.npy, b.npy], labels: true, heldout_fraction: 0.2, rows_per_file: N}
//     model: {kind: rbm, hidden: 500}
//     epochs, batch, learning_rate, schedule: {kind: constant|linear|exponential,
//     final_factor}, optimiser: {kind: adam|sgd, momentum, beta1, beta2, epsilon},
//     weight_decay, positive_phase: expectation|sample, negative_chains, sweeps,
//     ladder: [betas ending at 1], sweep_path: dense|csr, initial_weight_scale, seed
//     monitor: {every, log_likelihood_every, samples, log_z: {rungs, rounds, burn_in, sweeps}}
//   device: auto | serial | openmp | cuda | ...
//   output: {dir: runs/NAME, checkpoint_every: EPOCHS}
//
// data.files: .npy arrays (bool, uint8 or int8; rows x units) of one class each; with
// labels, class k (file k) gets one-hot label units appended (+1 for k, -1 for the others).
// Within each file the first floor((1 - heldout_fraction) n) rows train, the rest are held out.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "config/config_error.hpp"
#include "hamon/core/train/rbm_trainer.hpp"

namespace hamon::cli {

struct TrainingDataSpec {
  std::vector<std::string> files;  // resolved against the config file's directory
  bool labels = true;
  double heldout_fraction = 0.2;
  std::int64_t rows_per_file = 0;  // 0: every row
};

struct MonitorSpec {
  std::int64_t every = 1;                 // held-out evaluation every this many epochs
  std::int64_t log_likelihood_every = 0;  // log Z every this many epochs (0: at the end only)
  std::int32_t samples = 64;              // cold negative chains written as samples
  LogZOptions log_z;
};

struct TrainingConfig {
  std::string file;
  std::map<std::string, Location> locations;
  TrainingDataSpec data;
  std::int64_t hidden = 0;
  TrainingOptions options;
  MonitorSpec monitor;
  std::string device = "auto";
  std::string output_dir;
  std::int64_t checkpoint_every = 1;  // epochs
  std::string text;                   // the file as read (kept in the run directory)

  [[noreturn]] void fail(const std::string& key, const std::string& message) const;
};

TrainingConfig parse_training_text(const std::string& text, const std::string& name,
                                   const std::string& base_dir);
TrainingConfig parse_training_file(const std::string& path);

}  // namespace hamon::cli

// SPDX-License-Identifier: Apache-2.0
#pragma once
// A training run (`hamon train`, `hamon resume` of a training directory): the data, the
// device, the trainer, the epochs with their monitoring, checkpoints and the run directory.
//
// The run directory (DIR.partial while it runs, DIR when done; run_directory.hpp):
//   training.yaml      the training file as given
//   checkpoint.bin     the training state (every output.checkpoint_every epochs, on a stop
//                      signal, and at the end)
//   curves.csv         one row per monitored epoch: held-out free energy, accuracy,
//                      reconstruction error, log-likelihood with log Z and their errors
//                      (train_* on the training rows when none are held out,
//                      training_curves.hpp)
//   weights.npy        float64 V x H, visible-major; visible_bias.npy (V); hidden_bias.npy (H)
//   samples.npy        int8 +-1, the visible units of cold negative chains (monitor.samples)
//   summary.yaml       training.* (heldout_accuracy, heldout_log_likelihood, ...)
// tools/plot_run.py DIR draws learning_curves.png and samples.png from them.

#include <ostream>
#include <string>

#include "config/training_config.hpp"
#include "output/run_files.hpp"

namespace hamon::cli {

struct TrainingRunFlags {
  std::string out;     // overrides output.dir (empty: keep)
  std::string device;  // overrides device (empty: keep)
  bool overwrite = false;
  bool speak = true;  // progress on stderr, the report on stdout
};

/// `hamon train CONFIG`: a new run. Throws ConfigError / UsageError for bad input (nothing
/// created), RunStopped when a stop signal ended it (DIR.partial resumable).
int train_new(const std::string& config_file, const TrainingRunFlags& flags);

/// `hamon validate CONFIG` of a training file: every check train_new makes before it
/// creates anything (the file, the data, the model's shape, the device, the run
/// directory), then what would run on `out`. Throws as train_new.
void validate_training(const std::string& config_file, const TrainingRunFlags& flags,
                       std::ostream& out);

/// `hamon resume DIR` of a training run (DIR.partial/training.yaml exists).
int train_resume(const std::string& dir, const TrainingRunFlags& flags);

}  // namespace hamon::cli

// SPDX-License-Identifier: Apache-2.0
// `hamon train CONFIG.yaml`: maximum-likelihood training of an RBM (run/execute_training.hpp).
#include <memory>

#include "commands/commands.hpp"
#include "commands/config_subcommand.hpp"
#include "commands/option_values.hpp"
#include "run/execute_training.hpp"

namespace hamon::cli {

namespace {

struct TrainState {
  std::string config;
  TrainingRunFlags flags;
  bool quiet = false;
};

}  // namespace

Command add_train_command(CLI::App& app) {
  auto state = std::make_shared<TrainState>();
  CLI::App* sub =
      add_config_subcommand(app, "train", "Train an RBM on data (a YAML training file)",
                            state->config, "training file (see examples/mnist_rbm.yaml)");
  sub->add_option("--out", state->flags.out, "the run directory (overrides output.dir)")
      ->type_name("DIR");
  sub->add_option("--device", state->flags.device,
                  device_option_help("overrides device; same bits on each"))
      ->type_name("SPEC");
  sub->add_flag("--overwrite", state->flags.overwrite,
                "replace an earlier hamon run in DIR (or discard DIR.partial); hamon's "
                "files only: a directory holding others is refused");
  sub->add_flag("--quiet,-q", state->quiet,
                "no progress on stderr (shown only on a terminal) and no report on stdout");
  sub->footer(
      "Writes DIR (output.dir, or --out) with weights.npy (float64, V x H, visible-major),\n"
      "visible_bias.npy, hidden_bias.npy, samples.npy, curves.csv, summary.yaml\n"
      "(training.heldout_accuracy, training.heldout_log_likelihood, ...), training.yaml and\n"
      "checkpoint.bin; DIR.partial while it runs. `hamon run` samples the trained model\n"
      "(model: {kind: rbm, weights: {file: DIR/weights.npy}, ...}); tools/plot_run.py DIR\n"
      "draws the learning curves and the samples. SIGTERM, SIGINT or SIGUSR1 (from the\n"
      "start, data loading included) finish the update, write a checkpoint and exit 3:\n"
      "`hamon resume DIR` continues, bit-identically; a second one ends it at once.\n"
      "Exit status: 0 done, 1 failed, 2 bad input (nothing created), 3 stopped, resumable.");
  return {sub,
          [state]() {
            state->flags.speak = !state->quiet;
            return train_new(state->config, state->flags);
          },
          false, true};
}

}  // namespace hamon::cli

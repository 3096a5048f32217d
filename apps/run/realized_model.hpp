// SPDX-License-Identifier: Apache-2.0
#pragma once
// The realized model of a run: every number the run sampled with (drawn couplings and
// fields included), written into the run directory's model/ at the run's start, so that
// another code can read the model and `model: DIR/model/model.yaml` in an experiment
// re-creates it bit for bit (same seed, same samples).
//
// model/model.yaml holds a `model` section naming the files beside it (paths relative to
// it): a lattice stays a lattice (kind lattice, gaussian or double_well with its shape,
// `file: model.graph`), so its colouring and sweep order, and with them the draws of the
// run, are the original's; a graph is `kind: graph` (or a continuous kind) with `file:
// model.graph`; an RBM is `kind: rbm` with weights.npy, visible_bias.npy and
// hidden_bias.npy (and its clamped_visible inline). model.graph is the graph text format
// (hamon::write_graph_file), numbers with 17 significant digits.

#include <filesystem>

#include "config/experiment_config.hpp"
#include "hamon/core/model/spin_model.hpp"

namespace hamon::cli {

/// Writes `run_dir`/model/ for `model` (built from `spec`): into model.partial-XXXXXX
/// first, renamed to model/ when every file is written (replacing an earlier model/), so
/// model/ is whole or absent. Throws std::runtime_error naming the file that failed; the
/// temporary directory is removed then.
void write_realized_model(const std::filesystem::path& run_dir, const SpinModel& model,
                          const ModelSpec& spec);

}  // namespace hamon::cli

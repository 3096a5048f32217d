// SPDX-License-Identifier: Apache-2.0
#pragma once
// ModelSpec -> hamon::SpinModel through the core builders (make_lattice,
// SpinModel::from_edges, read_graph_file, make_rbm of an RbmParameters, random_rbm). Every
// builder error comes back as a ConfigError at the key that described the offending part.

#include "config/experiment_config.hpp"
#include "hamon/core/model/spin_model.hpp"

namespace hamon::cli {

SpinModel build_model(const ExperimentConfig& config);

}  // namespace hamon::cli

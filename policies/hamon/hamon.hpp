// SPDX-License-Identifier: Apache-2.0
#pragma once
// Everything of hamon's API in one include: models, the sampler and its state, checkpoints,
// statistics and diagnostics, training, and the routing of calls between execution spaces.
// Implementation headers (any detail/ folder of hamon/core) are not part of it.
// It lives with policies/ because the routing is the top of the library: core never
// includes policies, and this header includes both.

#include "hamon/mpi_config.hpp"
#include "hamon/version.hpp"

// Models and their building blocks.
#include "hamon/core/model/colouring.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/model/lattice_geometry.hpp"
#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/model/model_from_views.hpp"
#include "hamon/core/model/rbm.hpp"
#include "hamon/core/model/spin_model.hpp"

// Sampling: one call, or a resumable sampler with a portable state and checkpoints.
#include "hamon/core/sampler/checkpoint.hpp"
#include "hamon/core/sampler/machine_exchange.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/core/sampler/run_phases.hpp"
#include "hamon/core/sampler/sampler.hpp"
#include "hamon/core/state/sampler_state.hpp"
#include "hamon/core/tempering/schedule.hpp"

// Kernels a caller may drive itself.
#include "hamon/core/families/energy.hpp"
#include "hamon/core/families/gibbs_sweep.hpp"
#include "hamon/core/sampler/make_chain_state.hpp"
#include "hamon/core/tempering/swap.hpp"
#include "hamon/core/util/host_kernel.hpp"

// Statistics, diagnostics and tuning.
#include "hamon/core/analysis/diagnostics.hpp"
#include "hamon/core/analysis/health.hpp"
#include "hamon/core/analysis/log_partition.hpp"
#include "hamon/core/analysis/swap_batches.hpp"
#include "hamon/core/stats/ess.hpp"
#include "hamon/core/stats/rhat.hpp"
#include "hamon/core/stats/statistics.hpp"
#include "hamon/core/tuning/tuning.hpp"

// Training restricted Boltzmann machines.
#include "hamon/core/train/rbm_parameters.hpp"
#include "hamon/core/train/rbm_trainer.hpp"
#include "hamon/core/train/training_checkpoint.hpp"
#include "hamon/core/train/training_data.hpp"
#include "hamon/core/train/training_options.hpp"

// Where each call runs.
#include "hamon/policies/accelerator.hpp"
#include "hamon/policies/autotune.hpp"
#include "hamon/policies/backends.hpp"
#include "hamon/policies/calibrate.hpp"
#include "hamon/policies/device_spec.hpp"
#include "hamon/policies/dispatch.hpp"
#include "hamon/policies/placement.hpp"
#include "hamon/policies/resolve_device.hpp"
#include "hamon/policies/thresholds.hpp"
#include "hamon/policies/tuning_cache.hpp"
#if HAMON_ENABLE_MPI
#include "hamon/policies/mpi_exchange.hpp"
#endif

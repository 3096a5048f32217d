# SPDX-License-Identifier: Apache-2.0
# core's sources, relative to core/: the one list that core/CMakeLists.txt builds hamon::core
# from and that the fuzz harnesses (tests/fuzz) take the readers they compile from.
set(HAMON_CORE_SOURCES
  src/spin_model.cpp
  src/model_validation.cpp
  src/potts_model.cpp
  src/text.cpp
  src/model_builders.cpp
  src/graph_file.cpp
  src/colouring.cpp
  src/schedule.cpp
  src/statistics.cpp
  src/nrpt_options.cpp
  src/run_phases.cpp
  src/checkpoint.cpp
  src/memory_limit.cpp
  src/device_model.cpp
  src/lattice_geometry.cpp
  src/fingerprint.cpp
  src/ess.cpp
  src/rhat.cpp
  src/log_partition.cpp
  src/log_z_checks.cpp
  src/health.cpp
  src/diagnostics.cpp
  src/swap_batches.cpp
  src/tune_schedule.cpp
  src/tune_chains.cpp
  src/tune_exploration.cpp
  src/machine_blocks.cpp
  src/rank_agreement.cpp
  src/train/rbm_parameters.cpp
  src/train/training_options.cpp
  src/train/training_data.cpp
  src/train/rbm_trainer.cpp
  src/train/training_checkpoint.cpp)

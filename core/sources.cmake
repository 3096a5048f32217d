# SPDX-License-Identifier: Apache-2.0
# core's sources, relative to core/, area by area (docs/architecture.md): the one list that core/CMakeLists.txt builds hamon::core
# from and that the fuzz harnesses (tests/fuzz) take the readers they compile from.
set(HAMON_CORE_SOURCES
  hamon/core/util/memory_limit.cpp
  hamon/core/util/text.cpp
  hamon/core/model/colouring.cpp
  hamon/core/model/device_model.cpp
  hamon/core/model/device_model_tables.cpp
  hamon/core/model/reference_log_z.cpp
  hamon/core/model/excitation_costs.cpp
  hamon/core/model/fingerprint.cpp
  hamon/core/model/graph_file.cpp
  hamon/core/model/lattice_geometry.cpp
  hamon/core/model/model_builders.cpp
  hamon/core/model/model_validation.cpp
  hamon/core/model/normalising_range.cpp
  hamon/core/model/spin_model.cpp
  hamon/core/model/spin_model_continuous.cpp
  hamon/core/model/spin_model_potts.cpp
  hamon/core/stats/ess.cpp
  hamon/core/stats/magnetization_statistics.cpp
  hamon/core/stats/moments.cpp
  hamon/core/stats/overlap_statistics.cpp
  hamon/core/stats/rhat.cpp
  hamon/core/stats/statistics.cpp
  hamon/core/families/family_facts.cpp
  hamon/core/families/multispin/multispin_ensemble.cpp
  hamon/core/families/multispin/multispin_index_process.cpp
  hamon/core/families/multispin/multispin_overlaps.cpp
  hamon/core/families/multispin/multispin_sweep.cpp
  hamon/core/tempering/schedule.cpp
  hamon/core/sampler/checkpoint.cpp
  hamon/core/sampler/machine_exchange.cpp
  hamon/core/sampler/nrpt.cpp
  hamon/core/sampler/rank_agreement.cpp
  hamon/core/sampler/run_phases.cpp
  hamon/core/analysis/diagnostics.cpp
  hamon/core/analysis/health.cpp
  hamon/core/analysis/log_partition.cpp
  hamon/core/analysis/log_z_checks.cpp
  hamon/core/analysis/node_error_checks.cpp
  hamon/core/analysis/swap_batches.cpp
  hamon/core/tuning/beta_max_estimate.cpp
  hamon/core/tuning/search_diagnosis.cpp
  hamon/core/tuning/tuning_chains.cpp
  hamon/core/tuning/tuning_exploration.cpp
  hamon/core/tuning/tuning_schedule.cpp
  hamon/core/train/rbm_parameters.cpp
  hamon/core/train/rbm_trainer.cpp
  hamon/core/train/training_checkpoint.cpp
  hamon/core/train/training_data.cpp
  hamon/core/train/training_options.cpp)

# The host kernels' vector sources (Highway, one build per instruction set), built where
# HAMON_HOST_SIMD is on (cmake/HamonDependencies.cmake).
set(HAMON_CORE_VECTOR_SOURCES
  hamon/core/families/detail/host_vectors.cpp
  hamon/core/families/multispin/detail/multispin_registers.cpp
  hamon/core/families/potts/detail/potts_registers.cpp
  hamon/core/families/real/detail/real_registers.cpp
  hamon/core/families/spin/detail/energy_registers.cpp
  hamon/core/families/spin/detail/spin_registers.cpp)

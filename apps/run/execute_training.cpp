// SPDX-License-Identifier: Apache-2.0
#include "run/execute_training.hpp"

#include <yaml-cpp/yaml.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include "config/yaml_document.hpp"
#include "hamon/core/train/training_checkpoint.hpp"
#include "hamon/policies/dispatch.hpp"
#include "hamon/policies/resolve_device.hpp"
#include "output/npy.hpp"
#include "output/progress_display.hpp"
#include "output/run_directory.hpp"
#include "run/execute_run.hpp"
#include "run/exit_status.hpp"
#include "run/kokkos_session.hpp"
#include "run/stop_signals.hpp"
#include "run/training_data_files.hpp"

namespace hamon::cli {

namespace {

namespace fs = std::filesystem;

constexpr const char* kCurvesFile = "curves.csv";
constexpr const char* kCurvesAttachment = "training.curves";
constexpr const char* kSecondsAttachment = "training.seconds";
constexpr const char* kBaseDirAttachment = "training.base_dir";
constexpr const char* kCurvesHeader =
    "epoch,updates,seconds,heldout_free_energy,heldout_accuracy,reconstruction_error,"
    "heldout_log_likelihood,log_likelihood_error,log_z,log_z_error,min_swap_acceptance\n";

/// What an epoch's monitoring found (NaN where not measured).
struct EpochRecord {
  std::int64_t epoch = 0;
  std::int64_t updates = 0;
  double seconds = 0.0;
  RbmEvaluation heldout;
  double log_likelihood = std::nan("");
  double log_likelihood_error = std::nan("");
  RbmLogPartition log_z;
  bool has_log_z = false;
};

std::string csv_number(double x) {
  if (std::isnan(x)) return "";
  std::ostringstream s;
  s << std::setprecision(10) << x;
  return s.str();
}

std::string curve_row(const EpochRecord& r, const std::vector<double>& acceptance) {
  double min_acceptance = std::nan("");
  for (double a : acceptance)
    min_acceptance = std::isnan(min_acceptance) ? a : std::min(min_acceptance, a);
  const LogZEstimate& z = r.log_z.estimate.stepping_stone;
  std::ostringstream s;
  s << r.epoch << ',' << r.updates << ',' << csv_number(r.seconds) << ','
    << csv_number(r.heldout.mean_free_energy) << ','
    << csv_number(r.heldout.accuracy ? *r.heldout.accuracy : std::nan("")) << ','
    << csv_number(r.heldout.reconstruction_error) << ',' << csv_number(r.log_likelihood) << ','
    << csv_number(r.log_likelihood_error) << ',' << csv_number(r.has_log_z ? z.value : std::nan(""))
    << ',' << csv_number(r.has_log_z ? z.error() : std::nan("")) << ','
    << csv_number(min_acceptance) << '\n';
  return s.str();
}

/// Everything a run needs, from its training file (and, resuming, its checkpoint).
struct TrainingRun {
  TrainingConfig config;
  TrainingSplit data;
  DeviceDecision decision;
  std::unique_ptr<RbmTrainerBase> trainer;
  std::string curves = kCurvesHeader;
  double seconds_before = 0.0;  // of earlier segments (resumed runs)
  std::string base_dir;         // the training file's directory, absolute
};

/// Frees the trainer's Views while Kokkos still runs (declared after the KokkosSession).
struct TrainerRelease {
  TrainingRun& run;
  ~TrainerRelease() { run.trainer.reset(); }
};

DeviceDecision decide(const TrainingConfig& config, const RbmParameters& shape,
                      const std::string& device) {
  try {
    return resolve_device(parse_device_spec(device.empty() ? config.device : device),
                          training_work_score(shape, config.options));
  } catch (const DeviceUnavailable& e) {
    throw UsageError(std::string("device: ") + e.what());
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("device: ") + e.what());
  }
}

void save(const TrainingRun& run, const RunDirectory& dir, double seconds) {
  Checkpoint c;
  c.identity = training_identity(run.data.train, run.config.hidden, run.config.options);
  c.attachments[kTrainingStateAttachment] = training_state_bytes(run.trainer->state());
  c.attachments[kCurvesAttachment] = run.curves;
  c.attachments[kSecondsAttachment] = csv_number(seconds);
  c.attachments[kBaseDirAttachment] = run.base_dir;
  save_checkpoint(dir.file(kCheckpointFile), c);
}

EpochRecord monitor(const TrainingRun& run, std::int64_t epoch, bool with_log_z, double seconds) {
  EpochRecord r;
  r.epoch = epoch;
  r.updates = run.trainer->updates_done();
  r.seconds = seconds;
  const TrainingData& heldout = run.data.heldout.n_rows() > 0 ? run.data.heldout : run.data.train;
  r.heldout = run.trainer->evaluate(heldout);
  if (with_log_z) {
    LogZOptions z = run.config.monitor.log_z;
    z.seed = z.seed != 0 ? z.seed : run.config.options.seed + static_cast<std::uint64_t>(epoch);
    r.log_z = run.trainer->log_partition(z);
    r.has_log_z = true;
    const LogZEstimate& ss = r.log_z.estimate.stepping_stone;
    r.log_likelihood = mean_log_likelihood(run.trainer->free_energies(heldout), ss.value);
    r.log_likelihood_error = ss.error();  // log Z's error shifts every row's log p alike
  }
  return r;
}

void print_epoch(const EpochRecord& r, std::int64_t epochs) {
  std::cerr << "hamon: epoch " << r.epoch << "/" << epochs << " (" << std::fixed
            << std::setprecision(1) << r.seconds << " s): held-out free energy "
            << std::setprecision(3) << r.heldout.mean_free_energy;
  if (r.heldout.accuracy) std::cerr << ", accuracy " << std::setprecision(4) << *r.heldout.accuracy;
  std::cerr << ", reconstruction error " << std::setprecision(4) << r.heldout.reconstruction_error;
  if (r.has_log_z) {
    std::cerr << ", log-likelihood " << std::setprecision(3) << r.log_likelihood << " +- "
              << r.log_likelihood_error;
  }
  std::cerr << std::defaultfloat << "\n";
}

void write_outputs(const TrainingRun& run, const RunDirectory& dir, const EpochRecord& last,
                   double seconds) {
  const RbmParameters p = run.trainer->parameters();
  const auto v = static_cast<std::size_t>(p.n_visible);
  const auto h = static_cast<std::size_t>(p.n_hidden);
  dir.write("weights.npy", [&](std::ostream& out) { write_npy(out, p.weights, {v, h}); });
  dir.write("visible_bias.npy", [&](std::ostream& out) { write_npy(out, p.visible_bias, {v}); });
  dir.write("hidden_bias.npy", [&](std::ostream& out) { write_npy(out, p.hidden_bias, {h}); });
  const std::vector<std::int8_t> samples =
      run.trainer->negative_samples(run.config.monitor.samples);
  dir.write("samples.npy", [&](std::ostream& out) {
    write_npy(out, samples, {samples.size() / v, v});
  });
  dir.write(kCurvesFile, [&](std::ostream& out) { out << run.curves; });
  const TrainingOptions& o = run.config.options;
  YAML::Emitter y;
  y << YAML::BeginMap << YAML::Key << "training" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "execution_space" << YAML::Value << run.trainer->execution_space();
  y << YAML::Key << "sweep_path" << YAML::Value << to_string(o.sweep_path);
  y << YAML::Key << "visible" << YAML::Value << p.n_visible;
  y << YAML::Key << "hidden" << YAML::Value << p.n_hidden;
  y << YAML::Key << "labels" << YAML::Value << run.data.train.n_labels;
  y << YAML::Key << "train_rows" << YAML::Value << run.data.train.n_rows();
  y << YAML::Key << "heldout_rows" << YAML::Value << run.data.heldout.n_rows();
  y << YAML::Key << "epochs" << YAML::Value << o.epochs;
  y << YAML::Key << "updates" << YAML::Value << run.trainer->updates_done();
  y << YAML::Key << "seconds" << YAML::Value << seconds;
  y << YAML::Key << "seconds_per_epoch" << YAML::Value << seconds / static_cast<double>(o.epochs);
  if (last.heldout.accuracy) {
    y << YAML::Key << "heldout_accuracy" << YAML::Value << *last.heldout.accuracy;
  }
  y << YAML::Key << "heldout_free_energy" << YAML::Value << last.heldout.mean_free_energy;
  y << YAML::Key << "reconstruction_error" << YAML::Value << last.heldout.reconstruction_error;
  if (last.has_log_z) {
    const LogPartition& z = last.log_z.estimate;
    y << YAML::Key << "heldout_log_likelihood" << YAML::Value << last.log_likelihood;
    y << YAML::Key << "heldout_log_likelihood_error" << YAML::Value << last.log_likelihood_error;
    y << YAML::Key << "log_z" << YAML::Value << YAML::BeginMap;
    y << YAML::Key << "method" << YAML::Value << "stepping_stone";
    y << YAML::Key << "value" << YAML::Value << z.stepping_stone.value;
    y << YAML::Key << "standard_error" << YAML::Value << z.stepping_stone.standard_error;
    y << YAML::Key << "thermodynamic_integration" << YAML::Value
      << z.thermodynamic_integration.value;
    y << YAML::Key << "rungs" << YAML::Value << run.config.monitor.log_z.rungs;
    y << YAML::Key << "rounds" << YAML::Value << run.config.monitor.log_z.rounds;
    y << YAML::Key << "warnings" << YAML::Value << z.warnings;
    y << YAML::EndMap;
  }
  const std::vector<double> acceptance = run.trainer->swap_acceptance();
  if (!acceptance.empty()) {
    y << YAML::Key << "swap_acceptance" << YAML::Value << YAML::Flow << acceptance;
  }
  y << YAML::EndMap;
  y << YAML::Key << "device" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "placement" << YAML::Value << to_string(run.decision.placement);
  y << YAML::Key << "reason" << YAML::Value << to_string(run.decision.reason);
  y << YAML::EndMap << YAML::EndMap;
  dir.write("summary.yaml", [&](std::ostream& out) { out << y.c_str() << "\n"; });
}

/// The epochs from where the trainer stands to the end. The epoch lines are progress, for a
/// terminal only (as `run`'s display): a job log gets errors and warnings, and curves.csv
/// has every monitored epoch anyway.
void train_epochs(TrainingRun& run, RunDirectory& dir, bool replace_run, bool speak) {
  const bool progress = speak && stderr_is_terminal();
  const StopSignals signals;
  const auto started = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return run.seconds_before +
           std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  };
  RbmTrainerBase& trainer = *run.trainer;
  const TrainingConfig& c = run.config;
  const std::int64_t per_epoch = trainer.updates_per_epoch();
  const std::int64_t epochs = c.options.epochs;
  EpochRecord last;
  bool have_last = false;
  while (trainer.updates_done() < per_epoch * epochs) {
    const std::int64_t left_in_epoch = per_epoch - trainer.updates_done() % per_epoch;
    trainer.train(left_in_epoch, [] { return StopSignals::requested(); });
    if (StopSignals::requested()) {
      save(run, dir, elapsed());
      throw RunStopped(std::string(StopSignals::which()) + ": stopped after update " +
                       std::to_string(trainer.updates_done()) + ", saved; `hamon resume " +
                       dir.final_dir().string() + "` continues");
    }
    const std::int64_t epoch = trainer.updates_done() / per_epoch;
    const bool final_epoch = epoch == epochs;
    if (final_epoch || epoch % c.monitor.every == 0) {
      const bool log_z = final_epoch || (c.monitor.log_likelihood_every > 0 &&
                                         epoch % c.monitor.log_likelihood_every == 0);
      last = monitor(run, epoch, log_z, elapsed());
      have_last = true;
      run.curves += curve_row(last, trainer.swap_acceptance());
      if (progress) print_epoch(last, epochs);
    }
    if (final_epoch || epoch % c.checkpoint_every == 0) save(run, dir, elapsed());
  }
  if (!have_last) last = monitor(run, epochs, true, elapsed());  // resumed after the end
  write_outputs(run, dir, last, elapsed());
  std::error_code ignored;  // the final checkpoint stays (for resume), not its predecessor
  fs::remove(dir.file(std::string(kCheckpointFile) + ".prev"), ignored);
  dir.commit(replace_run);
  if (speak) {
    std::cout << "hamon: trained " << c.hidden << " hidden units for " << epochs << " epochs ("
              << trainer.updates_done() << " updates) on " << trainer.execution_space() << " in "
              << std::fixed << std::setprecision(1) << elapsed() << " s; wrote "
              << dir.final_dir().string() << "\n"
              << std::defaultfloat;
  }
}

}  // namespace

int train_new(const std::string& config_file, const TrainingRunFlags& flags) {
  TrainingRun run;
  run.config = parse_training_file(config_file);
  run.base_dir = fs::absolute(config_base_dir(config_file)).string();
  if (!flags.out.empty()) run.config.output_dir = flags.out;
  run.data = load_training_data(run.config);
  RbmParameters initial;
  try {
    initial = initial_parameters(run.data.train, run.config.hidden, run.config.options);
    if (run.data.train.n_rows() < run.config.options.batch) {
      run.config.fail("train.batch", std::to_string(run.config.options.batch) +
                                         " rows per batch, but the training data has " +
                                         std::to_string(run.data.train.n_rows()) + " rows");
    }
  } catch (const ModelError& e) {
    run.config.fail("train.model", e.what());
  }
  run.decision = decide(run.config, initial, flags.device);
  const fs::path final_dir = normalised_run_dir(run.config.output_dir);
  std::error_code ec;
  if (fs::exists(final_dir, ec) && !fs::is_empty(final_dir, ec) &&
      !(flags.overwrite && fs::is_regular_file(final_dir / "summary.yaml", ec))) {
    throw UsageError(final_dir.string() +
                     " exists and is not empty (--overwrite replaces an earlier hamon run)");
  }
  if (fs::exists(partial_dir_of(final_dir), ec) && !flags.overwrite) {
    throw UsageError("an interrupted run is in " + partial_dir_of(final_dir).string() +
                     ": `hamon resume " + final_dir.string() +
                     "` continues it (--overwrite "
                     "discards it)");
  }
  const KokkosSession kokkos;
  const TrainerRelease release{run};
  run.trainer = make_rbm_trainer(run.decision, run.data.train, initial, run.config.options);
  RunDirectory dir = RunDirectory::create(final_dir, flags.overwrite);
  dir.write(kTrainingConfigFile, [&](std::ostream& out) { out << run.config.text; });
  if (flags.speak && stderr_is_terminal()) {
    std::cerr << "hamon: training a " << initial.n_visible << " x " << initial.n_hidden
              << " RBM on " << run.data.train.n_rows() << " rows (" << run.data.heldout.n_rows()
              << " held out), " << run.trainer->updates_per_epoch() << " updates per epoch, on "
              << run.trainer->execution_space() << "\n";
  }
  train_epochs(run, dir, flags.overwrite, flags.speak);
  return 0;
}

int train_resume(const std::string& dir_text, const TrainingRunFlags& flags) {
  const fs::path final_dir = normalised_run_dir(dir_text);
  RunDirectory dir = RunDirectory::open(final_dir);
  const LoadedCheckpoint loaded = load_checkpoint(dir.file(kCheckpointFile));
  const auto& attachments = loaded.checkpoint.attachments;
  TrainingRun run;
  // Relative data paths resolve against the directory the training file was in.
  const auto base = attachments.find(kBaseDirAttachment);
  const fs::path config_file = dir.file(kTrainingConfigFile);
  run.config =
      parse_training_text(read_config_file(config_file.string(), "training file"),
                          config_file.string(), base != attachments.end() ? base->second : ".");
  run.config.output_dir = final_dir.string();
  run.base_dir = base != attachments.end() ? base->second : ".";
  run.data = load_training_data(run.config);
  check_identity(loaded.checkpoint.identity,
                 training_identity(run.data.train, run.config.hidden, run.config.options),
                 loaded.file.string());
  const auto state_bytes = attachments.find(kTrainingStateAttachment);
  if (state_bytes == attachments.end()) {
    throw CheckpointError(loaded.file.string() + ": holds no training state");
  }
  const RbmTrainingState state = read_training_state(state_bytes->second, loaded.file.string());
  if (attachments.count(kCurvesAttachment) != 0) run.curves = attachments.at(kCurvesAttachment);
  if (attachments.count(kSecondsAttachment) != 0) {
    run.seconds_before = std::stod(attachments.at(kSecondsAttachment));
  }
  run.decision = decide(run.config, state.parameters, flags.device);
  const KokkosSession kokkos;
  const TrainerRelease release{run};
  run.trainer =
      make_rbm_trainer(run.decision, run.data.train, state.parameters, run.config.options, &state);
  if (flags.speak && stderr_is_terminal()) {
    std::cerr << "hamon: continuing " << final_dir.string() << " from " << loaded.file.string()
              << " at update " << state.updates_done << "\n";
  }
  if (flags.speak) {  // a warning, wherever stderr goes
    for (const std::string& skipped : loaded.skipped)
      std::cerr << "hamon: warning: skipped " << skipped << "\n";
  }
  train_epochs(run, dir, false, flags.speak);
  return 0;
}

}  // namespace hamon::cli

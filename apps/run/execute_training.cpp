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
#include "run/options_record.hpp"
#include "run/stop_signals.hpp"
#include "run/summary.hpp"
#include "run/training_curves.hpp"
#include "run/training_data_files.hpp"

namespace hamon::cli {

namespace {

namespace fs = std::filesystem;

constexpr const char* kCurvesAttachment = "training.curves";
constexpr const char* kSecondsAttachment = "training.seconds";
constexpr const char* kBaseDirAttachment = "training.base_dir";

/// Everything a run needs, from its training file (and, resuming, its checkpoint).
struct TrainingRun {
  TrainingConfig config;
  TrainingSplit data;
  DeviceDecision decision;
  std::unique_ptr<RbmTrainerBase> trainer;
  std::string curves;           // curves.csv so far (curves_header, then a row per epoch)
  double seconds_before = 0.0;  // of earlier segments (resumed runs)
  std::string base_dir;         // the training file's directory, absolute
};

/// Frees the trainer's Views while Kokkos still runs (declared after the KokkosSession).
struct TrainerRelease {
  TrainingRun& run;
  ~TrainerRelease() { run.trainer.reset(); }
};

/// A device that cannot be had, blamed on --device or on the file's `device` key as a
/// run's is.
[[noreturn]] void device_error(const TrainingConfig& config, const std::string& device,
                               const std::string& message) {
  if (!device.empty()) throw ConfigError(Location{kCommandLine, 0, 0, "--device"}, message);
  config.fail("device", message);
}

DeviceDecision decide(const TrainingConfig& config, const RbmParameters& shape,
                      const std::string& device) {
  DeviceSpec spec;
  try {
    spec = parse_device_spec(device.empty() ? config.device : device);
    return resolve_device(spec, training_work_score(shape, config.options));
  } catch (const DeviceUnavailable& e) {
    if (device_forced_by_env(spec)) {
      throw UsageError(e.what());  // HAMON_DEVICE's choice: no place in the file
    }
    device_error(config, device, e.what());
  } catch (const std::invalid_argument& e) {
    device_error(config, device, e.what());
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
  const TrainingData& rows = run.data.heldout.n_rows() > 0 ? run.data.heldout : run.data.train;
  r.evaluation = run.trainer->evaluate(rows);
  if (with_log_z) {
    LogZOptions z = run.config.monitor.log_z;
    z.seed = z.seed != 0 ? z.seed : run.config.options.seed + static_cast<std::uint64_t>(epoch);
    r.log_z = run.trainer->log_partition(z);
    r.has_log_z = true;
    const LogZEstimate& ss = r.log_z.estimate.stepping_stone;
    r.log_likelihood = mean_log_likelihood(run.trainer->free_energies(rows), ss.value);
    r.log_likelihood_error = ss.error();  // log Z's error shifts every row's log p alike
  }
  return r;
}

void print_epoch(const EpochRecord& r, std::int64_t epochs, bool has_heldout_rows) {
  const RbmEvaluation& e = r.evaluation;
  std::cerr << "hamon: epoch " << r.epoch << "/" << epochs << " (" << std::fixed
            << std::setprecision(1) << r.seconds
            << " s): " << (has_heldout_rows ? "held-out" : "training-set") << " free energy "
            << std::setprecision(3) << e.mean_free_energy;
  if (e.accuracy) std::cerr << ", accuracy " << std::setprecision(4) << *e.accuracy;
  std::cerr << ", reconstruction error " << std::setprecision(4) << e.reconstruction_error;
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
  dir.write(kWeightsFile, [&](std::ostream& out) { write_npy(out, p.weights, {v, h}); });
  dir.write(kVisibleBiasFile, [&](std::ostream& out) { write_npy(out, p.visible_bias, {v}); });
  dir.write(kHiddenBiasFile, [&](std::ostream& out) { write_npy(out, p.hidden_bias, {h}); });
  const std::vector<std::int8_t> samples =
      run.trainer->negative_samples(run.config.monitor.samples);
  dir.write(kSamplesFile, [&](std::ostream& out) {
    write_npy(out, samples, {samples.size() / v, v});
  });
  dir.write(kCurvesFile, [&](std::ostream& out) { out << run.curves; });
  const TrainingOptions& o = run.config.options;
  YAML::Emitter y;
  y << YAML::BeginMap;
  emit_hamon_block(y);
  y << YAML::Key << "training" << YAML::Value << YAML::BeginMap;
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
  const std::string rows = monitored_prefix(run.data.heldout.n_rows() > 0);
  const RbmEvaluation& e = last.evaluation;
  if (e.accuracy) y << YAML::Key << rows + "accuracy" << YAML::Value << *e.accuracy;
  y << YAML::Key << rows + "free_energy" << YAML::Value << e.mean_free_energy;
  y << YAML::Key << "reconstruction_error" << YAML::Value << e.reconstruction_error;
  if (last.has_log_z) {
    const LogPartition& z = last.log_z.estimate;
    y << YAML::Key << rows + "log_likelihood" << YAML::Value << last.log_likelihood;
    y << YAML::Key << rows + "log_likelihood_error" << YAML::Value << last.log_likelihood_error;
    y << YAML::Key << "log_z" << YAML::Value << YAML::BeginMap;
    y << YAML::Key << "method" << YAML::Value << "stepping_stone";
    y << YAML::Key << "value" << YAML::Value << z.stepping_stone.value;
    y << YAML::Key << "standard_error" << YAML::Value << z.stepping_stone.standard_error;
    y << YAML::Key << "trusted" << YAML::Value << z.stepping_stone.trusted;
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
  dir.write(kSummaryFile, [&](std::ostream& out) { out << y.c_str() << "\n"; });
}

/// The epochs from where the trainer stands to the end. The epoch lines are progress, for a
/// terminal only (as `run`'s display): a job log gets errors and warnings, and curves.csv
/// has every monitored epoch anyway.
void train_epochs(TrainingRun& run, RunDirectory& dir, bool replace_run, bool speak) {
  const bool progress = speak && stderr_is_terminal();
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
  const auto monitored = [&](std::int64_t epoch) {
    return epoch == epochs || epoch % c.monitor.every == 0;
  };
  // The end of an epoch: its curves row when it is monitored, a checkpoint when one is due.
  const auto end_epoch = [&](std::int64_t epoch) {
    const bool final_epoch = epoch == epochs;
    if (monitored(epoch)) {
      const bool log_z = final_epoch || (c.monitor.log_likelihood_every > 0 &&
                                         epoch % c.monitor.log_likelihood_every == 0);
      last = monitor(run, epoch, log_z, elapsed());
      have_last = true;
      run.curves += curve_row(last, trainer.swap_acceptance());
      if (progress) print_epoch(last, epochs, run.data.heldout.n_rows() > 0);
    }
    if (final_epoch || epoch % c.checkpoint_every == 0) save(run, dir, elapsed());
  };
  // A stop during an epoch's last update saved the epoch's end without its row (stopping
  // does not wait for the monitoring): write it now, from the same trainer state.
  if (const std::int64_t done = trainer.updates_done();
      done > 0 && done % per_epoch == 0 && monitored(done / per_epoch) &&
      last_curve_epoch(run.curves) < done / per_epoch) {
    end_epoch(done / per_epoch);
  }
  while (trainer.updates_done() < per_epoch * epochs) {
    const std::int64_t left_in_epoch = per_epoch - trainer.updates_done() % per_epoch;
    trainer.train(left_in_epoch, [] { return StopSignals::requested(); });
    if (StopSignals::requested()) {
      save(run, dir, elapsed());
      throw RunStopped(std::string(StopSignals::which()) + ": stopped after update " +
                       std::to_string(trainer.updates_done()) + ", saved; `hamon resume " +
                       dir.final_dir().string() + "` continues");
    }
    end_epoch(trainer.updates_done() / per_epoch);
  }
  if (!have_last) last = monitor(run, epochs, true, elapsed());  // resumed after the end
  write_outputs(run, dir, last, elapsed());
  dir.commit(replace_run);
  if (speak) {
    std::cout << "hamon: trained " << c.hidden << " hidden units for " << epochs << " epochs ("
              << trainer.updates_done() << " updates) on " << trainer.execution_space() << " in "
              << std::fixed << std::setprecision(1) << elapsed() << " s; wrote "
              << dir.final_dir().string() << "\n"
              << std::defaultfloat;
  }
}

/// A new run, checked as far as can be without creating anything: the file, the data, the
/// model's shape, the device and the run directory.
struct NewTraining {
  TrainingRun run;
  RbmParameters initial;
  fs::path final_dir;
};

void prepare_new(NewTraining& t, const std::string& config_file, const TrainingRunFlags& flags) {
  TrainingRun& run = t.run;
  RbmParameters& initial = t.initial;
  run.config = parse_training_file(config_file);
  run.base_dir = fs::absolute(config_base_dir(config_file)).string();
  if (!flags.out.empty()) run.config.output_dir = flags.out;
  // Before the data loads: a refusal should not wait for it.
  if (const auto problem = output_directory_problem(run.config.output_dir, flags.overwrite)) {
    throw UsageError(*problem);
  }
  run.data = load_training_data(run.config);
  run.curves = curves_header(run.data.heldout.n_rows() > 0);
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
  t.final_dir = normalised_run_dir(run.config.output_dir);
}

}  // namespace

int train_new(const std::string& config_file, const TrainingRunFlags& flags) {
  NewTraining t;
  prepare_new(t, config_file, flags);
  TrainingRun& run = t.run;
  const RbmParameters& initial = t.initial;
  const fs::path& final_dir = t.final_dir;
  fit_to_machine(run.decision);
  const KokkosSession kokkos(host_threads_for(run.decision));
  const TrainerRelease release{run};
  run.trainer = make_rbm_trainer(run.decision, run.data.train, initial, run.config.options);
  RunDirectory dir = RunDirectory::create(final_dir, flags.overwrite);
  dir.write(kTrainingConfigFile, [&](std::ostream& out) { out << run.config.text; });
  // Update 0 at once: a stop that came while the data loaded (the handlers are in place
  // from the command's start) leaves a directory that `hamon resume` continues.
  save(run, dir, 0.0);
  if (flags.speak && stderr_is_terminal()) {
    std::cerr << "hamon: training a " << initial.n_visible << " x " << initial.n_hidden
              << " RBM on " << run.data.train.n_rows() << " training rows (+ "
              << run.data.heldout.n_rows() << " held out), " << run.trainer->updates_per_epoch()
              << " updates per epoch, on " << run.trainer->execution_space() << "\n";
  }
  train_epochs(run, dir, flags.overwrite, flags.speak);
  return 0;
}

void validate_training(const std::string& config_file, const TrainingRunFlags& flags,
                       std::ostream& out) {
  NewTraining t;
  prepare_new(t, config_file, flags);
  const TrainingRun& run = t.run;
  const TrainingOptions& o = run.config.options;
  const std::string device = flags.device.empty() ? run.config.device : flags.device;
  out << config_file << ": ok (a training file)\n";
  out << "  model    rbm, " << t.initial.n_visible << " visible x " << t.initial.n_hidden
      << " hidden\n";
  out << "  data     " << run.data.train.n_rows() << " training rows (+ "
      << run.data.heldout.n_rows() << " held out), " << o.epochs << " epochs of batches of "
      << o.batch << "\n";
  out << "  device   " << device << " -> " << to_string(run.decision.placement) << " ("
      << to_string(run.decision.reason) << ")\n";
  out << "  output   " << run.config.output_dir << "\n";
}

int train_resume(const std::string& dir_text, const TrainingRunFlags& flags) {
  const fs::path final_dir = normalised_run_dir(dir_text);
  RunDirectory dir = RunDirectory::open(final_dir);
  if (!has_checkpoint_files(dir.partial_dir())) {
    // Only a kill between creating the directory and its first checkpoint leaves this.
    throw UsageError(dir.partial_dir().string() +
                     " holds no checkpoint: the training never got to its first one; start it "
                     "again with `hamon train FILE --out " +
                     final_dir.string() + " --overwrite`");
  }
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
  run.curves = attachments.count(kCurvesAttachment) != 0
                   ? attachments.at(kCurvesAttachment)
                   : curves_header(run.data.heldout.n_rows() > 0);
  if (attachments.count(kSecondsAttachment) != 0) {
    run.seconds_before = std::stod(attachments.at(kSecondsAttachment));
  }
  run.decision = decide(run.config, state.parameters, flags.device);
  fit_to_machine(run.decision);
  const KokkosSession kokkos(host_threads_for(run.decision));
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
    const std::string note = other_version_note(loaded.checkpoint.identity, loaded.file.string());
    if (!note.empty()) std::cerr << "hamon: note: " << note << "\n";
  }
  train_epochs(run, dir, flags.overwrite, flags.speak);
  return 0;
}

}  // namespace hamon::cli

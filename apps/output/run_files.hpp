// SPDX-License-Identifier: Apache-2.0
#pragma once
// What hamon writes into a run directory, in one place: the writers take their file names
// from here, and `--overwrite` removes exactly these names and nothing else. A directory
// is an earlier hamon run when hamon's marks are there: summary.yaml opening with hamon's
// own block ("hamon:" then its version) beside the run's config (config.yaml of a sampling
// run, training.yaml of a training run). Any other entry (a user's notes, a subdirectory,
// a file named like hamon's that is not a file; a DIR.partial/before-extend holding anything
// but an extension's record; an instances/ holding anything but instance run directories)
// is foreign: a directory holding one is
// never removed, whatever the flags.

#include <filesystem>
#include <string>
#include <vector>

namespace hamon::cli {

inline constexpr const char* kSummaryFile = "summary.yaml";
inline constexpr const char* kConfigFile = "config.yaml";            // sampling: the experiment
inline constexpr const char* kTrainingConfigFile = "training.yaml";  // training: the file given
inline constexpr const char* kCheckpointFile = "checkpoint.bin";     // with .new and .prev
inline constexpr const char* kBetasFile = "betas.npy";
inline constexpr const char* kSamplesFile = "samples.npy";
inline constexpr const char* kEnergiesFile = "energies.npy";
inline constexpr const char* kIndexProcessFile = "index_process.npy";
inline constexpr const char* kBestStateFile = "best_state.npy";
// model.kind qubo / maxcut: the best state in the problem's variables (run/objective_model).
inline constexpr const char* kBestAssignmentFile = "best_assignment.npy";
inline constexpr const char* kOverlapHistogramsFile = "overlap_histograms.npy";
inline constexpr const char* kWeightsFile = "weights.npy";
inline constexpr const char* kVisibleBiasFile = "visible_bias.npy";
inline constexpr const char* kHiddenBiasFile = "hidden_bias.npy";
inline constexpr const char* kCurvesFile = "curves.csv";
// In the DIR.partial of an extension (`hamon extend`): what it changed in the complete run,
// so that `hamon extend DIR --abandon` (or a failure) puts the complete run back.
inline constexpr const char* kBeforeExtendDir = "before-extend";
// The realized model (run/realized_model.hpp): model/ holds model.yaml, a model section
// naming the files beside it, and the numbers: model.graph (the graph text format) or, for
// an RBM, weights.npy, visible_bias.npy and hidden_bias.npy. Written whole at the run's
// start (as model.partial-XXXXXX, renamed), so a model/ that is there is complete.
inline constexpr const char* kModelDir = "model";
inline constexpr const char* kModelFile = "model.yaml";
inline constexpr const char* kModelGraphFile = "model.graph";
// An ensemble's tables: each instance's energy per node, and each per-temperature list of
// the overlap: section (in the order they are written) in overlap_KEY.npy.
inline constexpr const char* kEnsembleEnergyFile = "energy_per_node.npy";
inline constexpr const char* kEnsembleOverlapKeys[] = {
    "q2",     "q2_stderr",     "q4",     "q4_stderr", "abs_q", "abs_q_stderr",
    "binder", "binder_stderr", "chi_sg", "chi_kmin",  "xi",    "link_overlap"};
inline std::string ensemble_overlap_file(const std::string& key) {
  return "overlap_" + key + ".npy";
}
// An ensemble's runs: instances/k (k.partial while instance k runs), each a run directory.
inline constexpr const char* kInstancesDir = "instances";
// In before-extend/, beside the complete run's replaced files and the traces' NAME.header /
// NAME.cut.
inline constexpr const char* kExtensionRecordFile = "record";

/// Whether `name` is one hamon writes into a run directory (the files above, the
/// checkpoint's .new / .prev, the temporaries of atomic writes, tools/plot_run.py's PNGs).
bool is_hamon_file_name(const std::string& name);

/// Whether `name` is a temporary of an atomic write ("NAME.partial-XXXXXX", NAME hamon's).
bool is_atomic_temporary(const std::string& name);

/// The entries of `dir` that hamon did not write, sorted (none when `dir` does not exist).
std::vector<std::string> foreign_entries(const std::filesystem::path& dir);

/// `names` as "a, b, c" (the first few, then how many more).
std::string listed(const std::vector<std::string>& names);

/// Whether `dir` bears hamon's marks of a complete run (see above).
bool is_hamon_run(const std::filesystem::path& dir);

/// Whether any of checkpoint.bin, .new, .prev is in `dir`.
bool has_checkpoint_files(const std::filesystem::path& dir);

/// Whether `partial` is a sampling run that stopped before sampling: its config.yaml, and
/// neither a checkpoint nor a trace. Starting it from the beginning loses nothing.
bool is_unstarted_run(const std::filesystem::path& partial);

/// Removes an extension's record (DIR.partial/before-extend): its files, `record` last (a
/// record is whole until it is gone), then the directory when that left it empty.
void remove_extension_record(const std::filesystem::path& record_dir);

/// Removes a run directory's model/ (or a model.partial-XXXXXX a kill left): its model
/// files, then the directory when that left it empty.
void remove_model_dir(const std::filesystem::path& dir);

/// Removes hamon's files from `dir` (an extension's record among them), then `dir` itself when that
/// left it empty. Returns the foreign entries it left (then `dir` stays).
std::vector<std::string> remove_hamon_files(const std::filesystem::path& dir);

}  // namespace hamon::cli

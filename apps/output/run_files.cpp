// SPDX-License-Identifier: Apache-2.0
#include "output/run_files.hpp"

#include <algorithm>
#include <fstream>

#include "hamon/core/sampler/checkpoint.hpp"

namespace hamon::cli {

namespace {

namespace fs = std::filesystem;

constexpr const char* kWrittenFiles[] = {
    kSummaryFile, kConfigFile, kTrainingConfigFile, kCheckpointFile, kBetasFile, kSamplesFile,
    kEnergiesFile, kIndexProcessFile, kBestStateFile, kBestAssignmentFile, kOverlapHistogramsFile,
    kWeightsFile, kVisibleBiasFile, kHiddenBiasFile, kCurvesFile,
    // tools/plot_run.py draws into the run directory.
    "ladder.png", "acceptance.png", "index_process.png", "energies.png", "magnetization.png",
    "order_parameter.png", "learning_curves.png", "samples.png", "binder.png", "xi_over_l.png"};

bool is_ensemble_table(const std::string& name) {
  return name == kEnsembleEnergyFile ||
         std::any_of(std::begin(kEnsembleOverlapKeys), std::end(kEnsembleOverlapKeys),
                     [&](const char* key) { return name == ensemble_overlap_file(key); });
}

bool is_written_name(const std::string& name) {
  const CheckpointFiles checkpoint = checkpoint_files(kCheckpointFile);
  return std::any_of(std::begin(kWrittenFiles), std::end(kWrittenFiles),
                     [&](const char* written) { return name == written; }) ||
         name == checkpoint.fresh.string() || name == checkpoint.previous.string() ||
         is_ensemble_table(name);
}

std::string first_line(std::istream& in) {
  std::string line;
  std::getline(in, line);
  return line;
}

}  // namespace

// "NAME.partial-XXXXXX": a write in progress (output/atomic_file.hpp) that a kill left.
bool is_atomic_temporary(const std::string& name) {
  const std::string::size_type at = name.rfind(".partial-");
  return at != std::string::npos && name.size() == at + 9 + 6 &&
         is_written_name(name.substr(0, at));
}

bool is_hamon_file_name(const std::string& name) {
  return is_written_name(name) || is_atomic_temporary(name);
}

namespace {

bool ends_with(const std::string& name, const std::string& suffix) {
  return name.size() > suffix.size() &&
         name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// A name in an extension's record: the record, a kept file, a trace's kept bytes.
bool is_record_name(const std::string& name) {
  if (name == kExtensionRecordFile || is_hamon_file_name(name)) return true;
  for (const std::string suffix : {".header", ".cut"}) {
    if (ends_with(name, suffix) && is_written_name(name.substr(0, name.size() - suffix.size()))) {
      return true;
    }
  }
  return false;
}

/// An extension's record: a directory of record names only.
bool is_extension_record(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(dir, ec))) return false;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (!is_record_name(it->path().filename().string()) ||
        fs::is_directory(it->symlink_status(ec))) {
      return false;
    }
  }
  return !ec;
}

bool is_plain_directory(const fs::directory_entry& entry) {
  std::error_code ec;
  return fs::is_directory(entry.symlink_status(ec));
}

/// "k" or "k.partial", k a number: an ensemble's instance run directory.
bool is_instance_name(const std::string& name) {
  const std::string k = ends_with(name, ".partial") ? name.substr(0, name.size() - 8) : name;
  return !k.empty() && k.find_first_not_of("0123456789") == std::string::npos;
}

/// An ensemble's instances/: instance run directories holding hamon's entries only.
bool is_instances_dir(const fs::directory_entry& instances) {
  if (!is_plain_directory(instances)) return false;
  std::error_code ec;
  for (fs::directory_iterator it(instances.path(), ec), end; !ec && it != end; it.increment(ec)) {
    if (!is_instance_name(it->path().filename().string()) || !is_plain_directory(*it) ||
        !foreign_entries(it->path()).empty()) {
      return false;
    }
  }
  return !ec;
}

/// model/ or a model.partial-XXXXXX (its write, which a kill interrupted).
bool is_model_dir_name(const std::string& name) {
  const std::string temporary = std::string(kModelDir) + ".partial-";
  return name == kModelDir ||
         (name.size() == temporary.size() + 6 && name.compare(0, temporary.size(), temporary) == 0);
}

/// A file of model/, or the temporary of its atomic write.
bool is_model_file_name(std::string name) {
  const std::string::size_type at = name.rfind(".partial-");
  if (at != std::string::npos && name.size() == at + 9 + 6) name.resize(at);
  return name == kModelFile || name == kModelGraphFile || name == kWeightsFile ||
         name == kVisibleBiasFile || name == kHiddenBiasFile;
}

/// A realized model's directory: model files only.
bool is_model_dir(const fs::directory_entry& model) {
  if (!is_plain_directory(model)) return false;
  std::error_code ec;
  for (fs::directory_iterator it(model.path(), ec), end; !ec && it != end; it.increment(ec)) {
    if (!is_model_file_name(it->path().filename().string()) || is_plain_directory(*it)) {
      return false;
    }
  }
  return !ec;
}

/// A directory under one of hamon's file names is not hamon's: hamon writes files only,
/// but for an extension's record, an ensemble's instances and the realized model.
bool is_hamon_entry(const fs::directory_entry& entry) {
  std::error_code ec;
  const std::string name = entry.path().filename().string();
  if (name == kBeforeExtendDir) return is_extension_record(entry.path());
  if (name == kInstancesDir) return is_instances_dir(entry);
  if (is_model_dir_name(name)) return is_model_dir(entry);
  return is_hamon_file_name(name) && !fs::is_directory(entry.symlink_status(ec));
}

}  // namespace

std::vector<std::string> foreign_entries(const fs::path& dir) {
  std::vector<std::string> foreign;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (!is_hamon_entry(*it)) foreign.push_back(it->path().filename().string());
  }
  std::sort(foreign.begin(), foreign.end());
  return foreign;
}

std::string listed(const std::vector<std::string>& names) {
  constexpr std::size_t kShown = 8;
  std::string text;
  for (std::size_t k = 0; k < names.size() && k < kShown; ++k) {
    text += (k == 0 ? "" : ", ") + names[k];
  }
  if (names.size() > kShown) text += " and " + std::to_string(names.size() - kShown) + " more";
  return text;
}

bool is_hamon_run(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_regular_file(dir / kConfigFile, ec) &&
      !fs::is_regular_file(dir / kTrainingConfigFile, ec)) {
    return false;
  }
  std::ifstream summary(dir / kSummaryFile);
  if (!summary) return false;
  const std::string block = first_line(summary);
  const std::string version = first_line(summary);
  return block == "hamon:" && version.rfind("  version: ", 0) == 0;
}

bool has_checkpoint_files(const fs::path& dir) {
  std::error_code ec;
  const CheckpointFiles files = checkpoint_files(dir / kCheckpointFile);
  return fs::exists(files.current, ec) || fs::exists(files.fresh, ec) ||
         fs::exists(files.previous, ec);
}

bool is_unstarted_run(const fs::path& partial) {
  std::error_code ec;
  if (!fs::is_regular_file(partial / kConfigFile, ec) || has_checkpoint_files(partial)) {
    return false;
  }
  for (const char* trace : {kSamplesFile, kEnergiesFile, kIndexProcessFile}) {
    if (fs::exists(partial / trace, ec)) return false;
  }
  return true;
}

void remove_extension_record(const fs::path& record_dir) {
  std::error_code ec;
  for (fs::directory_iterator it(record_dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::error_code ignored;
    if (name != kExtensionRecordFile && is_record_name(name)) fs::remove(it->path(), ignored);
  }
  fs::remove(record_dir / kExtensionRecordFile, ec);
  fs::remove(record_dir, ec);
}

void remove_model_dir(const fs::path& dir) {
  std::vector<fs::path> files;  // listed first: removing while listing skips some
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (is_model_file_name(it->path().filename().string())) files.push_back(it->path());
  }
  std::error_code ignored;
  for (const fs::path& file : files) fs::remove(file, ignored);
  fs::remove(dir, ignored);  // fails, harmlessly, when something else is in it
}

std::vector<std::string> remove_hamon_files(const fs::path& dir) {
  std::vector<fs::path> hamons;
  std::vector<std::string> foreign;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (is_hamon_entry(*it)) {
      hamons.push_back(it->path());
    } else {
      foreign.push_back(it->path().filename().string());
    }
  }
  std::error_code ignored;
  for (const fs::path& file : hamons) {
    if (file.filename() == kBeforeExtendDir) {
      remove_extension_record(file);
    } else if (is_model_dir_name(file.filename().string())) {
      remove_model_dir(file);
    } else if (file.filename() == kInstancesDir) {
      std::vector<fs::path> instances;  // listed first: removing while listing skips some
      std::error_code listing;
      for (fs::directory_iterator it(file, listing), end; !listing && it != end;
           it.increment(listing)) {
        instances.push_back(it->path());
      }
      for (const fs::path& instance : instances) remove_hamon_files(instance);
      fs::remove(file, ignored);
    } else {
      fs::remove(file, ignored);
    }
  }
  // Fails, harmlessly, when an entry appeared since: the directory stays with it.
  if (foreign.empty()) fs::remove(dir, ignored);
  std::sort(foreign.begin(), foreign.end());
  return foreign;
}

}  // namespace hamon::cli

// SPDX-License-Identifier: Apache-2.0
#include "hamon/policies/tuning_cache.hpp"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "hamon/core/model/fingerprint.hpp"
#include "hamon/core/tempering/schedule.hpp"
#include "hamon/core/util/text.hpp"
#include "hamon/policies/env.hpp"

namespace hamon {

namespace {

constexpr const char* kHeader = "hamon-tuning-plan 1";

// Why an entry is unusable.
struct BadEntry : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string tristate(const std::optional<bool>& value) {
  return value ? (*value ? "true" : "false") : "unknown";
}

std::uint64_t checksum_of(const std::string& text) {
  return Fingerprint().add_bytes(text.data(), text.size()).value();
}

double parse_double(const std::string& token, const char* field) {
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(token.c_str(), &end);
  if (token.empty() || end != token.c_str() + token.size() || errno == ERANGE ||
      !std::isfinite(value)) {
    throw BadEntry(std::string("bad number '") + token + "' for " + field);
  }
  return value;
}

std::int32_t parse_count(const std::string& token, const char* field) {
  const double value = parse_double(token, field);
  if (value != std::floor(value) || value < 1.0 || value > 1e9) {
    throw BadEntry(std::string("bad count '") + token + "' for " + field);
  }
  return static_cast<std::int32_t>(value);
}

std::optional<bool> parse_tristate(const std::string& token, const char* field) {
  if (token == "true") return true;
  if (token == "false") return false;
  if (token == "unknown") return std::nullopt;
  throw BadEntry(std::string("bad value '") + token + "' for " + field);
}

// Reads the lines of an entry's body in order.
class Lines {
 public:
  explicit Lines(const std::string& body) {
    std::istringstream in(body);
    for (std::string line; std::getline(in, line);) lines_.push_back(line);
  }
  bool next_starts_with(const std::string& prefix) const {
    return at_ < lines_.size() && lines_[at_].compare(0, prefix.size(), prefix) == 0;
  }
  // The rest of the next line after "<name> ", which it must start with.
  std::string field(const std::string& name) {
    const std::string prefix = name + " ";
    if (!next_starts_with(prefix)) throw BadEntry("expected a '" + name + "' line");
    return lines_[at_++].substr(prefix.size());
  }
  void expect(const std::string& line) {
    if (at_ >= lines_.size() || lines_[at_] != line) throw BadEntry("expected '" + line + "'");
    ++at_;
  }
  bool done() const { return at_ == lines_.size(); }

 private:
  std::vector<std::string> lines_;
  std::size_t at_ = 0;
};

TunedPlanRecord parse_entry(const std::string& text, const std::string& key) {
  // The checksum line closes the file and covers every byte before it.
  if (text.empty() || text.back() != '\n') throw BadEntry("truncated (no final newline)");
  const std::size_t last = text.rfind('\n', text.size() - 2);
  const std::size_t start = last == std::string::npos ? 0 : last + 1;
  const std::string checksum_line = text.substr(start, text.size() - 1 - start);
  const std::string body = text.substr(0, start);
  if (checksum_line != "checksum " + to_hex(checksum_of(body))) {
    throw BadEntry("checksum mismatch (corrupt or truncated)");
  }
  Lines lines(body);
  lines.expect(kHeader);
  lines.expect("fingerprint " + to_hex(TuningCache::fingerprint(key)));
  std::string stored_key;
  bool first = true;
  while (lines.next_starts_with("key ")) {
    stored_key += (first ? "" : "\n") + lines.field("key");
    first = false;
  }
  if (stored_key != key) throw BadEntry("stored key differs from this run's key");
  TunedPlanRecord record;
  record.n_chains = parse_count(lines.field("n_chains"), "n_chains");
  record.n_expl = parse_count(lines.field("n_expl"), "n_expl");
  std::istringstream betas(lines.field("betas"));
  for (std::string token; betas >> token;) record.betas.push_back(parse_double(token, "betas"));
  record.Lambda = parse_double(lines.field("lambda"), "lambda");
  record.barrier_identified =
      parse_tristate(lines.field("barrier_identified"), "barrier_identified");
  record.conveyor_alive = parse_tristate(lines.field("conveyor_alive"), "conveyor_alive");
  record.tuning_seconds = parse_double(lines.field("tuning_seconds"), "tuning_seconds");
  if (!lines.done()) throw BadEntry("unexpected lines after the plan");
  if (record.betas.size() != static_cast<std::size_t>(record.n_chains)) {
    throw BadEntry("n_chains " + std::to_string(record.n_chains) + " but " +
                   std::to_string(record.betas.size()) + " betas");
  }
  try {
    validate_ladder(record.betas);
  } catch (const std::invalid_argument& e) {
    throw BadEntry(std::string("invalid ladder: ") + e.what());
  }
  if (record.Lambda < 0.0 || record.tuning_seconds < 0.0) throw BadEntry("negative value");
  return record;
}

void warn(const std::filesystem::path& path, const std::string& why) {
  std::cerr << "hamon: warning: ignoring tuning cache entry " << path.string() << ": " << why
            << "\n";
}

}  // namespace

std::optional<std::filesystem::path> tuning_cache_directory() {
  if (const auto dir = env::get_env(kTuningCacheDirEnv)) {
    if (dir->empty()) return std::nullopt;
    return std::filesystem::path(*dir);
  }
  if (const auto xdg = env::get_env("XDG_CACHE_HOME"); xdg && !xdg->empty()) {
    return std::filesystem::path(*xdg) / "hamon" / "tuning";
  }
  if (const auto home = env::get_env("HOME"); home && !home->empty()) {
    return std::filesystem::path(*home) / ".cache" / "hamon" / "tuning";
  }
  return std::nullopt;
}

std::uint64_t TuningCache::fingerprint(const std::string& key) {
  return Fingerprint().add(std::string("hamon tuning key")).add(key).value();
}

std::filesystem::path TuningCache::entry_path(const std::string& key) const {
  return directory_ / (to_hex(fingerprint(key)) + ".plan");
}

std::string TuningCache::serialize(const std::string& key, const TunedPlanRecord& record) {
  std::string body = std::string(kHeader) + "\n";
  body += "fingerprint " + to_hex(fingerprint(key)) + "\n";
  std::istringstream lines(key);
  for (std::string line; std::getline(lines, line);) body += "key " + line + "\n";
  body += "n_chains " + std::to_string(record.n_chains) + "\n";
  body += "n_expl " + std::to_string(record.n_expl) + "\n";
  body += "betas";
  for (double beta : record.betas) body += " " + hex_float(beta);
  body += "\n";
  body += "lambda " + hex_float(record.Lambda) + "\n";
  body += "barrier_identified " + tristate(record.barrier_identified) + "\n";
  body += "conveyor_alive " + tristate(record.conveyor_alive) + "\n";
  body += "tuning_seconds " + hex_float(record.tuning_seconds) + "\n";
  return body + "checksum " + to_hex(checksum_of(body)) + "\n";
}

std::optional<TunedPlanRecord> TuningCache::load(const std::string& key) const {
  const std::filesystem::path path = entry_path(key);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    warn(path, "cannot be opened");
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  try {
    return parse_entry(text.str(), key);
  } catch (const BadEntry& e) {
    warn(path, e.what());
    return std::nullopt;
  }
}

bool TuningCache::store(const std::string& key, const TunedPlanRecord& record) const {
  static std::atomic<unsigned> counter{0};
  const std::filesystem::path path = entry_path(key);
  const std::filesystem::path temporary =
      path.string() + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
  auto fail = [&](const std::string& why) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    std::cerr << "hamon: warning: cannot write tuning cache entry " << path.string() << ": " << why
              << "\n";
    return false;
  };
  std::error_code ec;
  std::filesystem::create_directories(directory_, ec);
  if (ec) return fail("cannot create the directory: " + ec.message());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << serialize(key, record);
    out.flush();
    if (!out) return fail("cannot write " + temporary.string());
  }
  std::filesystem::rename(temporary, path, ec);  // atomic within one directory (POSIX)
  if (ec) return fail("cannot rename the temporary file: " + ec.message());
  return true;
}

}  // namespace hamon

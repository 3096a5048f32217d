// SPDX-License-Identifier: Apache-2.0
#include "run/plan_record.hpp"

#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace hamon::cli {

namespace {

std::string exact(double value) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  return buffer;
}

std::string optional_bool(const std::optional<bool>& value) {
  return value ? (*value ? "1" : "0") : "-";
}

std::optional<bool> read_optional_bool(const std::string& word) {
  if (word == "-") return std::nullopt;
  if (word == "1") return true;
  if (word == "0") return false;
  throw std::runtime_error("plan record: bad flag '" + word + "'");
}

}  // namespace

std::string plan_record(const Plan& plan) {
  std::ostringstream out;
  out << "n_expl " << plan.n_expl << "\n";
  out << "seed " << plan.seed << "\n";
  out << "seconds " << exact(plan.seconds) << "\n";
  out << "cache_hit " << (plan.cache_hit ? 1 : 0) << "\n";
  out << "lambda " << exact(plan.tuning.Lambda) << "\n";
  out << "barrier " << optional_bool(plan.tuning.barrier_identified) << "\n";
  out << "conveyor " << optional_bool(plan.tuning.conveyor_alive) << "\n";
  out << "tuned_seconds " << exact(plan.tuning.tuned_seconds) << "\n";
  out << "betas " << plan.betas.size();
  for (double beta : plan.betas) out << " " << exact(beta);
  out << "\n";
  out << "cache_entry " << plan.cache_entry << "\n";
  return out.str();
}

Plan plan_from_record(const std::string& record) {
  std::istringstream in(record);
  Plan plan;
  std::string key;
  auto expect = [&](const char* wanted) {
    if (!(in >> key) || key != wanted) {
      throw std::runtime_error(std::string("plan record: expected '") + wanted + "'");
    }
  };
  std::string word;
  expect("n_expl");
  in >> plan.n_expl;
  expect("seed");
  in >> plan.seed;
  expect("seconds");
  in >> word;
  plan.seconds = std::stod(word);
  expect("cache_hit");
  in >> word;
  plan.cache_hit = word == "1";
  expect("lambda");
  in >> word;
  plan.tuning.Lambda = std::stod(word);
  expect("barrier");
  in >> word;
  plan.tuning.barrier_identified = read_optional_bool(word);
  expect("conveyor");
  in >> word;
  plan.tuning.conveyor_alive = read_optional_bool(word);
  expect("tuned_seconds");
  in >> word;
  plan.tuning.tuned_seconds = std::stod(word);
  expect("betas");
  std::size_t n = 0;
  in >> n;
  for (std::size_t k = 0; k < n && in >> word; ++k) plan.betas.push_back(std::stod(word));
  if (!in || plan.betas.size() != n || n == 0) throw std::runtime_error("plan record: bad ladder");
  plan.n_chains = static_cast<std::int32_t>(n);
  expect("cache_entry");
  std::getline(in, word);
  plan.cache_entry = word.empty() ? word : word.substr(1);
  return plan;
}

}  // namespace hamon::cli

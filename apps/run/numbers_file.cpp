// SPDX-License-Identifier: Apache-2.0
#include "run/numbers_file.hpp"

#include <cmath>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "hamon/core/util/text.hpp"
#include "run/npy_file.hpp"

namespace hamon::cli {

std::vector<double> read_numbers_file(const std::string& path) {
  const std::string npy = ".npy";
  if (path.size() >= npy.size() && path.compare(path.size() - npy.size(), npy.size(), npy) == 0) {
    return npy_doubles(read_npy(path), path);  // e.g. the weights.npy of `hamon train`
  }
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open");
  std::vector<double> values;
  std::string line;
  std::size_t line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    std::istringstream tokens(line.substr(0, line.find('#')));
    std::string token;
    while (tokens >> token) {
      const std::optional<double> value = parse_real(token);
      const std::string at = path + ":" + std::to_string(line_number) + ": '" + token + "'";
      if (!value) throw std::runtime_error(at + " is not a number");
      if (!std::isfinite(*value)) throw std::runtime_error(at + " is not finite");
      values.push_back(*value);
    }
  }
  if (in.bad()) throw std::runtime_error(path + ": cannot read");
  return values;
}

}  // namespace hamon::cli

// SPDX-License-Identifier: Apache-2.0
#include "run/numbers_file.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string_view>

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
      std::string_view view(token);
      if (view.size() > 1 && view[0] == '+') view.remove_prefix(1);
      double value = 0.0;
      const auto [end, error] = std::from_chars(view.data(), view.data() + view.size(), value);
      if (error != std::errc() || end != view.data() + view.size() || !std::isfinite(value)) {
        throw std::runtime_error(path + ":" + std::to_string(line_number) + ": '" + token +
                                 "' is not a finite number");
      }
      values.push_back(value);
    }
  }
  if (in.bad()) throw std::runtime_error(path + ": cannot read");
  return values;
}

}  // namespace hamon::cli

// SPDX-License-Identifier: Apache-2.0
#include "config/unclosed_flow.hpp"

#include <vector>

namespace hamon::cli {

std::optional<FlowOpener> unclosed_flow(const std::string& text) {
  std::vector<FlowOpener> open;
  int line = 1;
  int column = 0;
  char quote = 0;        // inside '...' or "..." when non-zero
  char previous = '\n';  // the last character that was not a space or tab
  bool comment = false;
  for (std::size_t k = 0; k < text.size(); ++k) {
    const char c = text[k];
    ++column;
    if (c == '\n') {
      ++line;
      column = 0;
      comment = false;
      if (quote == 0) previous = '\n';
      continue;
    }
    if (comment) continue;
    if (quote != 0) {
      if (c == '\\' && quote == '"') {
        ++k;
        ++column;
      } else if (c == quote) {
        quote = 0;
        previous = c;
      }
      continue;
    }
    const bool value_starts = previous == '\n' || previous == ':' || previous == '-' ||
                              previous == ',' || previous == '[' || previous == '{' ||
                              previous == '?';
    if (c == ' ' || c == '\t' || c == '\r') continue;
    if (c == '#' && (k == 0 || text[k - 1] == ' ' || text[k - 1] == '\t' || text[k - 1] == '\n')) {
      comment = true;
      continue;
    }
    if ((c == '"' || c == '\'') && (value_starts || !open.empty())) {
      quote = c;
    } else if ((c == '[' || c == '{') && (value_starts || !open.empty())) {
      open.push_back(FlowOpener{c, line, column});
    } else if ((c == ']' || c == '}') && !open.empty() &&
               open.back().bracket == (c == ']' ? '[' : '{')) {
      open.pop_back();
    }
    previous = c;
  }
  if (open.empty()) return std::nullopt;
  return open.back();
}

}  // namespace hamon::cli

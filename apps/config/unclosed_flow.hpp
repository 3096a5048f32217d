// SPDX-License-Identifier: Apache-2.0
#pragma once
// Where an unclosed YAML flow collection ('[' or '{') opened. yaml-cpp reports a missing
// ']' or '}' at the end of the file, far from the mistake; this scan finds the opener that
// is still open at the end (the innermost), so the error can point at it.

#include <optional>
#include <string>

namespace hamon::cli {

struct FlowOpener {
  char bracket = '[';
  int line = 0;    // 1-based
  int column = 0;  // 1-based
};

/// The innermost flow opener of `text` that is never closed, or nullopt. Brackets inside
/// quoted scalars and comments do not count, nor '[' / '{' inside a plain block scalar
/// (a flow opens only where a value starts: after ':', '-', ',', another opener, or at
/// the start of a line).
std::optional<FlowOpener> unclosed_flow(const std::string& text);

}  // namespace hamon::cli

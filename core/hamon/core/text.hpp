// SPDX-License-Identifier: Apache-2.0
#pragma once
// Small text helpers for messages and line-oriented readers, shared by every layer.

#include <string>

namespace hamon {

/// The shortest form of a value that round-trips ("1", "-0.5", "0.1"), so two values that
/// differ never print the same in a message; "NaN", "Inf", "-Inf" otherwise.
std::string format_value(double value);

/// `text` without leading and trailing whitespace (" \t\r\n\f\v").
std::string trim(const std::string& text);

}  // namespace hamon

// SPDX-License-Identifier: Apache-2.0
#pragma once
// The model tests' check of a refused model: a ModelError whose message names the
// offending entry (every fragment appears in it).
#include <gtest/gtest.h>

#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "hamon/core/model/spin_model.hpp"

namespace hamon_test {

inline void expect_model_error(const std::function<void()>& make,
                               const std::vector<std::string>& fragments) {
  try {
    make();
  } catch (const hamon::ModelError& e) {
    const std::string message = e.what();
    for (const std::string& fragment : fragments) {
      EXPECT_NE(message.find(fragment), std::string::npos)
          << "message \"" << message << "\" lacks \"" << fragment << "\"";
    }
    return;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected ModelError, got another exception: " << e.what();
    return;
  }
  ADD_FAILURE() << "expected ModelError, nothing was thrown";
}

}  // namespace hamon_test

// SPDX-License-Identifier: Apache-2.0
// The instruction sets the vector-vs-portable tests of this binary run on (each test
// restricts the dispatch to each of them in turn, tests/support/vector_targets.hpp), named in
// the test's output so that a record of the run says which code was checked.
#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <string>

#include "hamon/core/families/detail/host_vectors.hpp"

TEST(VectorTargets, every_dispatched_target_has_a_name) {
  const auto targets = hamon::detail::host_vector_targets();
  ASSERT_FALSE(targets.empty());
  std::string names;
  for (const std::int64_t target : targets) {
    const std::string name = hamon::detail::host_vector_target_name(target);
    EXPECT_FALSE(name.empty()) << "target bit " << target;
    names += " " + name;
  }
  std::cout << "vector targets checked:" << names << "\n";
  RecordProperty("vector_targets", names);
}

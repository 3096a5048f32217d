// SPDX-License-Identifier: Apache-2.0
// One byte per update (families/spin/heat_bath.hpp, random stream version 2): the decision from the
// top byte of a word, refined by its 24 low bits only on a tie, is exactly the decision of
// the whole 32-bit word, for the threshold test and for the floating-point test; bytes are
// read from a draw least significant first. With real local fields the byte is decided by
// the chain's field boundaries (families/spin/field_boundaries.hpp), which gives the same decisions
// as the floating-point test, checked on random fields and on every boundary and its
// neighbouring doubles.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "hamon/core/families/spin/field_boundaries.hpp"
#include "hamon/core/families/spin/heat_bath.hpp"

namespace {

using namespace hamon::detail;

std::int8_t threshold_by_byte(std::uint32_t word, std::uint32_t limit, bool possible) {
  const std::int8_t d = byte_threshold_decision(word >> 24, limit, possible);
  return d != 0 ? d : tie_threshold_decision(word & 0xFFFFFFu, limit);
}

std::int8_t heat_bath_by_byte(std::uint32_t word, double factor) {
  const std::int8_t d = byte_heat_bath_decision(word >> 24, factor);
  return d != 0 ? d : tie_heat_bath_decision(word >> 24, word & 0xFFFFFFu, factor);
}

TEST(ByteDecisions, threshold_by_byte_is_the_32_bit_test) {
  std::mt19937_64 rng(3);
  std::vector<std::uint32_t> limits = {0u,          1u,          0xFFFFFFu,   0x1000000u,
                                       0x1FFFFFFu,  0x7FFFFFFFu, 0x80000000u, 0xFEFFFFFFu,
                                       0xFF000000u, 0xFFFFFFFFu};
  for (int k = 0; k < 200; ++k) limits.push_back(static_cast<std::uint32_t>(rng()));
  for (const std::uint32_t limit : limits) {
    std::vector<std::uint32_t> words = {
        0u, 0xFFFFFFFFu, limit, limit + 1, limit - 1, limit & 0xFF000000u, limit | 0xFFFFFFu};
    for (int k = 0; k < 200; ++k) words.push_back(static_cast<std::uint32_t>(rng()));
    // Same top byte as the limit: the ties.
    for (int k = 0; k < 50; ++k) {
      words.push_back((limit & 0xFF000000u) | (static_cast<std::uint32_t>(rng()) & 0xFFFFFFu));
    }
    for (const std::uint32_t w : words) {
      for (const bool possible : {true, false}) {
        ASSERT_EQ(threshold_by_byte(w, limit, possible), threshold_decision(w, limit, possible))
            << "word " << w << " limit " << limit << " possible " << possible;
      }
    }
  }
}

TEST(ByteDecisions, heat_bath_by_byte_is_the_32_bit_test) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> field(-6.0, 6.0);
  std::vector<double> factors = {1.0, 1.0 + 1e-300, 2.0, 4294967296.0, 1e30};
  for (int k = 0; k < 300; ++k) factors.push_back(heat_bath_factor(0.8, field(rng)));
  for (const double factor : factors) {
    const std::uint64_t t = heat_bath_threshold(factor);
    std::vector<std::uint32_t> words = {0u, 0xFFFFFFFFu};
    for (std::int64_t dw = -3; dw <= 3; ++dw) {
      const std::int64_t w = static_cast<std::int64_t>(t) + dw;
      if (w >= 0 && w <= 0xFFFFFFFFll) words.push_back(static_cast<std::uint32_t>(w));
    }
    for (int k = 0; k < 200; ++k) words.push_back(static_cast<std::uint32_t>(rng()));
    for (const std::uint32_t w : words) {
      ASSERT_EQ(heat_bath_by_byte(w, factor), heat_bath_decision(factor, to_unit_interval(w)))
          << "word " << w << " factor " << factor;
    }
  }
}

TEST(ByteDecisions, a_tie_has_probability_one_in_256) {
  // For any boundary exactly one of the 256 bytes ties (or none, when the boundary sits
  // on a byte edge).
  for (const double factor : {1.5, 2.0, 3.7, 1e5}) {
    int ties = 0;
    for (std::uint32_t b = 0; b < 256; ++b) ties += byte_heat_bath_decision(b, factor) == 0;
    EXPECT_LE(ties, 1) << factor;
  }
}

TEST(ByteDecisions, bytes_of_a_draw_are_read_least_significant_first) {
  const Philox4 draw{{0x03020100u, 0x07060504u, 0x0B0A0908u, 0x0F0E0D0Cu}};
  for (std::int32_t j = 0; j < kUpdatesPerDraw; ++j) {
    EXPECT_EQ(draw_byte(draw, j), static_cast<std::uint32_t>(j));
  }
}

std::int8_t boundaries_by_byte(std::uint32_t word, double beta, double phi, const double* row) {
  const std::int8_t d = byte_boundary_decision(word >> 24, phi, row);
  return d != 0 ? d
                : tie_heat_bath_decision(word >> 24, word & 0xFFFFFFu, heat_bath_factor(beta, phi));
}

TEST(ByteDecisions, field_boundaries_give_the_floating_point_test) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> field(-8.0, 8.0);
  for (const double beta : {0.0, 1e-3, 0.05, 0.3, 0.7, 1.0, 2.5, 12.0}) {
    std::vector<double> row(kFieldBoundaries);
    for (std::int32_t k = 0; k < kFieldBoundaries; ++k) {
      row[static_cast<std::size_t>(k)] = field_boundary(beta, boundary_word(k));
      if (k > 0) {
        ASSERT_LE(row[static_cast<std::size_t>(k - 1)], row[static_cast<std::size_t>(k)]);
      }
    }
    std::vector<double> phis;
    for (int k = 0; k < 2000; ++k) phis.push_back(field(rng));
    for (const double b : row) {
      if (!std::isfinite(b)) continue;
      phis.push_back(b);
      phis.push_back(std::nextafter(b, -HUGE_VAL));
      phis.push_back(std::nextafter(b, HUGE_VAL));
    }
    int ties = 0, decisions = 0;
    for (const double phi : phis) {
      const double factor = heat_bath_factor(beta, phi);
      for (int k = 0; k < 64; ++k) {
        const auto w = static_cast<std::uint32_t>(rng());
        ASSERT_EQ(boundaries_by_byte(w, beta, phi, row.data()),
                  heat_bath_decision(factor, to_unit_interval(w)))
            << "beta " << beta << " phi " << phi << " word " << w;
        ties += byte_boundary_decision(w >> 24, phi, row.data()) == 0;
        ++decisions;
      }
    }
    // A tie is 1/256 of the decisions (more near the boundaries, which are in the set).
    EXPECT_LT(ties, decisions / 64) << "beta " << beta;
  }
}

}  // namespace

// SPDX-License-Identifier: Apache-2.0
// The multispin sweep over Highway's vector ops, once for every target (families/detail/
// vector_draws-inl.hpp says how it is compiled): a 512-bit word is 8 / lanes vectors of
// 64-bit lanes (one on AVX-512, two on AVX2, four on SSE4 and NEON), so every target updates
// the same systems with the same draw and the same bit operations as the portable
// MultispinColourSweep (multispin_sweep.hpp), whose comments say what the counter and the
// comparison are.

#if defined(HAMON_MULTISPIN_REGISTERS_INL_HPP_) == defined(HWY_TARGET_TOGGLE)
#ifdef HAMON_MULTISPIN_REGISTERS_INL_HPP_
#undef HAMON_MULTISPIN_REGISTERS_INL_HPP_
#else
#define HAMON_MULTISPIN_REGISTERS_INL_HPP_
#endif

#include <hwy/highway.h>

#include <cstdint>

#include "hamon/core/families/multispin/detail/multispin_registers.hpp"
#include "hamon/core/families/multispin/multispin_ensemble.hpp"
#include "hamon/core/families/multispin/multispin_sweep.hpp"
#include "hamon/core/util/counter_rng.hpp"

HWY_BEFORE_NAMESPACE();
namespace hamon::detail::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <int Planes, bool Diluted>
HWY_NOINLINE void multispin_items(const MultispinColourArgs& a, std::int64_t begin,
                                  std::int64_t end) {
  const hn::CappedTag<std::uint64_t, kMultispinLanes> d;
  using V = hn::Vec<decltype(d)>;
  constexpr std::size_t kLanes = hn::MaxLanes(d);
  constexpr std::size_t kVectors = kMultispinLanes / kLanes;
  static_assert(kVectors * kLanes == kMultispinLanes, "a word is whole vectors");
  const std::int64_t stride = 2 * static_cast<std::int64_t>(a.max_degree) + 1;

  for (std::int64_t t = begin; t < end; ++t) {
    const std::int32_t i = a.colour_nodes[t % a.colour_size];
    const std::int64_t quad = t / a.colour_size;
    const Philox4 draw = philox4(a.seed, static_cast<std::uint32_t>(i),
                                 static_cast<std::uint32_t>(quad), a.sweep_index, a.round);
    const std::int64_t row_begin = a.row_offsets[i], row_end = a.row_offsets[i + 1];
    const auto degree = static_cast<std::int32_t>(row_end - row_begin);
    for (int r = 0; r < 4; ++r) {
      const std::int64_t slot = 4 * quad + r;
      if (slot >= a.n_slots) break;
      const std::int64_t group = slot % a.n_groups;
      const std::int32_t k = multispin_needed_count<Diluted>(a.thresholds + slot * stride,
                                                             a.max_degree, degree, draw.w[r]);
      const std::int64_t base = slot * a.n_nodes;
      V planes[Planes][kVectors];
      for (int p = 0; p < Planes; ++p) {
        for (std::size_t v = 0; v < kVectors; ++v) planes[p][v] = hn::Zero(d);
      }
      const auto add = [&](V(&bits)[kVectors], int from) HWY_ATTR {
        for (int p = from; p < Planes; ++p) {
          for (std::size_t v = 0; v < kVectors; ++v) {
            const V carry = hn::And(planes[p][v], bits[v]);
            planes[p][v] = hn::Xor(planes[p][v], bits[v]);
            bits[v] = carry;
          }
        }
      };
      for (std::int64_t x = row_begin; x < row_end; ++x) {
        const std::int64_t word = (a.edge_of_entry[x] * a.n_groups + group) * kMultispinLanes;
        const std::uint64_t* neighbour = a.spins + (base + a.neighbour[x]) * kMultispinLanes;
        V plus[kVectors];
        for (std::size_t v = 0; v < kVectors; ++v) {
          plus[v] = hn::Xor(hn::LoadU(d, neighbour + v * kLanes),
                            hn::LoadU(d, a.negative + word + v * kLanes));
        }
        if constexpr (Diluted) {
          V absent[kVectors];
          for (std::size_t v = 0; v < kVectors; ++v) {
            const V here = hn::LoadU(d, a.present + word + v * kLanes);
            absent[v] = hn::Not(here);
            plus[v] = hn::And(plus[v], here);
          }
          add(absent, 0);
          add(plus, 1);
        } else {
          add(plus, 0);
        }
      }
      std::uint64_t* out = a.spins + (base + i) * kMultispinLanes;
      if ((k >> Planes) != 0) {  // more than the counter can hold: no system reaches it
        for (std::size_t v = 0; v < kVectors; ++v) hn::StoreU(hn::Zero(d), d, out + v * kLanes);
        continue;
      }
      for (std::size_t v = 0; v < kVectors; ++v) {
        V greater = hn::Zero(d), equal = hn::Not(hn::Zero(d));
        for (int p = Planes - 1; p >= 0; --p) {
          if ((k >> p) & 1) {
            equal = hn::And(equal, planes[p][v]);
          } else {
            greater = hn::Or(greater, hn::And(equal, planes[p][v]));
            equal = hn::AndNot(planes[p][v], equal);
          }
        }
        hn::StoreU(hn::Or(greater, equal), d, out + v * kLanes);
      }
    }
  }
}

inline void multispin_register_items(const MultispinColourArgs& a, std::int64_t begin,
                                     std::int64_t end) {
  const auto run = [&](auto planes) HWY_ATTR {
    constexpr int P = decltype(planes)::value;
    if (a.present != nullptr) {
      multispin_items<P, true>(a, begin, end);
    } else {
      multispin_items<P, false>(a, begin, end);
    }
  };
  with_counter_planes(a.counter_planes, run);
}

}  // namespace hamon::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // toggle guard

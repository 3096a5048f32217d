// SPDX-License-Identifier: Apache-2.0
// The vector path of the host Potts heat bath and energy pass, once for every target
// (families/detail/vector_draws-inl.hpp says how it is compiled). A sweep's work item is a
// run of block nodes in every machine, 32 machines (lanes) at a time, a step of nodes at a
// time:
//
//   1. the step's Philox generators (one per node and group of 4 machines) in vector lanes;
//   2. per node, the local fields relative to h_i(0) in 16-bit lanes (every term is an
//      integer, so the gaps top - phi equal the portable loops' double gaps; |phi| <= 2 x
//      the table's bound <= 8192), one masked add per state and neighbour;
//   3. the weights gathered from the chain's table row and summed in state order in doubles;
//      the state as the count of cumulative weights <= the target, as the portable loops
//      count it.
//
// The energy pass forms each machine's node terms with the portable loops' operations in
// their order (h_i(x_i), then J where a counted bond's states agree, then the rounding to
// fixed point), so both give the same bits on every target (tests/backend/tstHostKernels,
// tstPotts).

#if defined(HAMON_POTTS_REGISTERS_INL_HPP_) == defined(HWY_TARGET_TOGGLE)
#ifdef HAMON_POTTS_REGISTERS_INL_HPP_
#undef HAMON_POTTS_REGISTERS_INL_HPP_
#else
#define HAMON_POTTS_REGISTERS_INL_HPP_
#endif

#include <hwy/highway.h>

#include <cstdint>
#include <cstring>

#include "hamon/core/families/detail/counted_bonds.hpp"
#include "hamon/core/families/detail/vector_draws-inl.hpp"
#include "hamon/core/families/potts/detail/potts_registers.hpp"
#include "hamon/core/families/potts/potts_update.hpp"

HWY_BEFORE_NAMESPACE();
namespace hamon::detail::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

/// `lanes` bytes (at most 32), from[0, lanes), to `to`, in pieces of fixed sizes: no library
/// call, whose clobbered registers would keep the callers' vectors in memory.
HWY_INLINE void copy_machine_bytes(std::int8_t* to, const std::int8_t* from, std::int32_t lanes) {
  if (lanes == 32) {
    std::memcpy(to, from, 32);
    return;
  }
  std::int32_t at = 0;
  if ((lanes & 16) != 0) {
    std::memcpy(to + at, from + at, 16);
    at += 16;
  }
  if ((lanes & 8) != 0) {
    std::memcpy(to + at, from + at, 8);
    at += 8;
  }
  if ((lanes & 4) != 0) {
    std::memcpy(to + at, from + at, 4);
    at += 4;
  }
  if ((lanes & 2) != 0) {
    std::memcpy(to + at, from + at, 2);
    at += 2;
  }
  if ((lanes & 1) != 0) to[at] = from[at];
}

/// The `kCap` spin bytes at s, or, where they would run past `end` (the spins' last byte),
/// those before it and zeros: no load leaves the spins.
template <std::size_t kCap>
HWY_INLINE const std::int8_t* machine_bytes(const std::int8_t* s, const std::int8_t* end,
                                            std::int8_t* padded) {
  static_assert(kCap <= 32, "copy_machine_bytes copies at most 32");
  if (HWY_LIKELY(s + kCap <= end)) return s;
  std::memset(padded, 0, kCap);
  copy_machine_bytes(padded, s, static_cast<std::int32_t>(end - s));
  return padded;
}

/// The bits of a mask of d, lane l at bit l.
template <class D>
HWY_INLINE std::uint64_t mask_bits(D d, hn::Mask<D> m) {
  alignas(8) std::uint8_t bytes[8] = {};
  hn::StoreMaskBits(d, m, bytes);
  std::uint64_t bits;
  std::memcpy(&bits, bytes, 8);  // little-endian: bit k of byte 0 first
  return bits;
}

/// Mask of lanes [0, MaxLanes(d)) of d from bits first_bit.. of `bits`.
template <class D>
HWY_INLINE hn::Mask<D> mask_from_bits(D d, std::uint64_t bits, std::size_t first_bit) {
  alignas(8) std::uint8_t bytes[8];
  const std::uint64_t shifted = bits >> first_bit;
  std::memcpy(bytes, &shifted, 8);  // little-endian: bit k of byte 0 first
  return hn::LoadMaskBits(d, bytes);
}

/// The sweep of one work item on one target.
template <class Block>
class PottsRegisterRun {
 public:
  using Args = PottsRegisterArgs<Block>;
  static constexpr std::int32_t kStepGenerators = 64;  // Philox generators per step

  PottsRegisterRun(const Args& args, std::int32_t first)
      : a_(args),
        first_(first),
        lanes_(args.n_machines - first < kHostLanes ? args.n_machines - first : kHostLanes),
        per_node_((lanes_ + kPottsMachinesPerDraw - 1) / kPottsMachinesPerDraw),
        step_nodes_(kStepGenerators / per_node_) {}

  /// Block nodes [begin, begin + nodes). `Q`: q when fixed at compile time (the loops over
  /// states unroll and the fields stay in registers), else 0.
  template <int Q>
  HWY_INLINE void run(std::int64_t begin, std::int32_t nodes) {
    if (lanes_ <= 8) {
      run_steps<Q, 8>(begin, nodes);
    } else if (lanes_ <= 16) {
      run_steps<Q, 16>(begin, nodes);
    } else {
      run_steps<Q, 32>(begin, nodes);
    }
  }

 private:
  template <int Q, std::size_t kCap>
  HWY_INLINE void run_steps(std::int64_t begin, std::int32_t nodes) {
    // Each lane's table row; lanes past the machines read row 0 (every gap of any bytes
    // is within the table: the bound covers every subset of the couplings).
    const auto width = static_cast<std::int64_t>(a_.weight.extent(1));
    for (std::int32_t l = 0; l < kHostLanes; ++l) {
      row_[l] = l < lanes_ ? a_.chain_of_machine(first_ + l) * width : 0;
    }
    // Generator k of a node: group first / 4 + k (the pattern repeats node by node).
    for (std::int32_t g = 0; g < kStepGenerators; ++g) {
      group_counter_[g] = a_.first_group + static_cast<std::uint32_t>(
                                               first_ / kPottsMachinesPerDraw + g % per_node_);
    }
    typename Block::Cursor walk = a_.block.cursor(begin);
    for (std::int32_t done = 0; done < nodes; done += step_nodes_) {
      const std::int32_t in_step = nodes - done < step_nodes_ ? nodes - done : step_nodes_;
      typename Block::Cursor c = walk;
      draw(walk, in_step, done + in_step < nodes);
      for (std::int32_t n = 0; n < in_step; ++n) {
        if (n > 0) a_.block.advance(c);
        update_node<Q, kCap>(c, words_ + 4 * per_node_ * n);
      }
    }
  }

  /// The step's generators from `walk` (left at the next step's first node when `more`):
  /// node n's generator k is (node, first_group + first / 4 + k), so lane l of node n
  /// reads words_[4 per_node n + l], word l % 4 of its generator l / 4.
  HWY_INLINE void draw(typename Block::Cursor& walk, std::int32_t in_step, bool more) {
    std::size_t g = 0;
    for (std::int32_t n = 0; n < in_step; ++n) {
      for (std::int32_t k = 0; k < per_node_; ++k, ++g) {
        node_counter_[g] = static_cast<std::uint32_t>(walk.node);
      }
      if (n + 1 < in_step || more) a_.block.advance(walk);
    }
    for (std::size_t k = g; k < whole_generator_batches(g); ++k)
      node_counter_[k] = node_counter_[0];
    philox_generators(a_.seed, node_counter_, group_counter_, a_.sweep | kPottsSweep, a_.round, g,
                      words_);
  }

  /// One node in the lanes: `words`, lane l's draw at words[l].
  template <int Q, std::size_t kCap>
  HWY_INLINE void update_node(const typename Block::Cursor& c, const std::uint32_t* words) {
    const std::int32_t states = Q > 0 ? Q : a_.q;
    alignas(64) std::int16_t gap[kPottsRegisterStates][kCap];
    fields<Q, kCap>(c, gap);

    const hn::ScalableTag<double> d;
    const hn::RebindToSigned<decltype(d)> di;
    const hn::RebindToUnsigned<decltype(d)> du;
    const hn::Rebind<std::int32_t, decltype(d)> d32;
    const hn::Rebind<std::int16_t, decltype(d)> d16;
    const hn::Rebind<std::uint32_t, decltype(d)> dw;
    constexpr std::size_t kLanes = hn::MaxLanes(d);
    static_assert(kCap % kLanes == 0, "whole vectors of doubles per node");
    const double* table = a_.weight.data();
    // at_or_below[s]: bit l set where lane l's cumulative weight of s is <= its target.
    std::uint64_t at_or_below[kPottsRegisterStates] = {};
    for (std::size_t o = 0; o < kCap; o += kLanes) {
      if (o >= static_cast<std::size_t>(lanes_)) break;
      const auto row = hn::Load(di, row_ + o);
      // Cumulative weights in state order.
      auto total = hn::Zero(d);
      hn::Vec<decltype(d)> cumulative[kPottsRegisterStates];
      for (std::int32_t s = 0; s < states; ++s) {
        const auto index =
            hn::Add(row, hn::PromoteTo(di, hn::PromoteTo(d32, hn::Load(d16, gap[s] + o))));
        total = hn::Add(total, hn::GatherIndex(d, table, index));
        cumulative[s] = total;
      }
      const auto word = hn::BitCast(di, hn::PromoteTo(du, hn::LoadU(dw, words + o)));
      const auto target = hn::Mul(unit_interval_lanes(d, word), total);
      for (std::int32_t s = 0; s + 1 < states; ++s) {
        at_or_below[s] |= mask_bits(d, hn::Le(cumulative[s], target)) << o;
      }
    }
    // The state: how many of the first q - 1 cumulative weights are <= the target.
    const hn::CappedTag<std::int8_t, kCap> d8;
    constexpr std::size_t kByteLanes = hn::MaxLanes(d8);
    std::int8_t* out = &a_.spins(first_, c.node);
    alignas(64) std::int8_t partial[kHostLanes];
    const bool whole = lanes_ == static_cast<std::int32_t>(kCap);
    for (std::size_t v = 0; v < kCap; v += kByteLanes) {
      auto state = hn::Zero(d8);
      for (std::int32_t s = 0; s + 1 < states; ++s) {
        state = hn::Add(state, hn::IfThenElseZero(mask_from_bits(d8, at_or_below[s], v),
                                                  hn::Set(d8, std::int8_t{1})));
      }
      hn::StoreU(state, d8, (whole ? out : partial) + v);
    }
    if (!whole) copy_machine_bytes(out, partial, lanes_);
  }

  /// gap[s][l] = max_t phi(t) - phi(s) of lane l, s < states: phi relative to h_i(0),
  /// neighbour by neighbour in the block's order.
  template <int Q, std::size_t kCap>
  HWY_INLINE void fields(const typename Block::Cursor& c,
                         std::int16_t (&gap)[kPottsRegisterStates][kCap]) const {
    const std::int32_t states = Q > 0 ? Q : a_.q;
    const hn::CappedTag<std::int16_t, kCap> d;
    const hn::Rebind<std::int8_t, decltype(d)> d8;
    using V = hn::Vec<decltype(d)>;
    constexpr std::size_t kLanes = hn::MaxLanes(d);
    constexpr std::size_t kVectors = kCap / kLanes;
    const double* h = a_.state_fields.data() + c.node * a_.q;
    V phi[kPottsRegisterStates][kVectors];
    for (std::int32_t s = 0; s < states; ++s) {
      const V relative = hn::Set(d, static_cast<std::int16_t>(h[s] - h[0]));
      for (std::size_t v = 0; v < kVectors; ++v) phi[s][v] = relative;
    }
    const std::int8_t* column = &a_.spins(first_, 0);
    const auto column_stride = static_cast<std::int64_t>(a_.spins.stride(1));
    const std::int8_t* end = a_.spins.data() + a_.spins.span();
    visit_neighbours(a_.block, c, [&](std::int64_t j, auto coupling) HWY_ATTR {
      alignas(64) std::int8_t padded[kHostLanes];
      const std::int8_t* x = machine_bytes<kCap>(column + j * column_stride, end, padded);
      const V J = hn::Set(d, static_cast<std::int16_t>(coupling));
      V in[kVectors];
      for (std::size_t v = 0; v < kVectors; ++v)
        in[v] = hn::PromoteTo(d, hn::LoadU(d8, x + v * kLanes));
      for (std::int32_t s = 0; s < states; ++s) {
        const V state = hn::Set(d, static_cast<std::int16_t>(s));
        for (std::size_t v = 0; v < kVectors; ++v) {
          phi[s][v] = hn::Add(phi[s][v], hn::IfThenElseZero(hn::Eq(in[v], state), J));
        }
      }
    });
    for (std::size_t v = 0; v < kVectors; ++v) {
      V top = phi[0][v];
      for (std::int32_t s = 1; s < states; ++s) top = hn::Max(top, phi[s][v]);
      for (std::int32_t s = 0; s < states; ++s) {
        hn::Store(hn::Sub(top, phi[s][v]), d, gap[s] + v * kLanes);
      }
    }
  }

  const Args& a_;
  std::int32_t first_;
  std::int32_t lanes_;
  std::int32_t per_node_;    // generators per node: 1 to 8
  std::int32_t step_nodes_;  // nodes per step
  alignas(64) std::int64_t row_[kHostLanes];
  alignas(64) std::uint32_t node_counter_[kStepGenerators];
  alignas(64) std::uint32_t group_counter_[kStepGenerators];
  alignas(64) std::uint32_t words_[4 * kStepGenerators];
};

template <class Block>
HWY_NOINLINE void potts_register_item(const PottsRegisterArgs<Block>& args, std::int64_t item) {
  const std::int64_t begin = item * args.nodes_per_item;
  const std::int32_t nodes = args.n_block - begin < args.nodes_per_item
                                 ? static_cast<std::int32_t>(args.n_block - begin)
                                 : args.nodes_per_item;
  for (std::int32_t first = 0; first < args.n_machines; first += kHostLanes) {
    PottsRegisterRun<Block> run(args, first);
    if (args.q == 3) {
      run.template run<3>(begin, nodes);  // measured 1.26x faster than with a run-time q
    } else {
      run.template run<0>(begin, nodes);
    }
  }
}

/// Bit l set where a[l] == b(l)'s byte, l < 32; b(v) gives the bytes [v, v + lanes).
template <class D, class B>
HWY_INLINE std::uint64_t equal_bits(D d, const std::int8_t* a, B&& b) {
  constexpr std::size_t kLanes = hn::MaxLanes(d);
  std::uint64_t bits = 0;
  for (std::size_t v = 0; v < static_cast<std::size_t>(kHostLanes); v += kLanes) {
    alignas(8) std::uint8_t bytes[8] = {};
    hn::StoreMaskBits(d, hn::Eq(hn::LoadU(d, a + v), b(v)), bytes);
    std::uint64_t part = 0;
    std::memcpy(&part, bytes, 8);
    bits |= part << v;
  }
  return bits;
}

/// The energy terms of nodes [begin, end) in 32 machines at a time. `LatticeDims`: the
/// lattice's dimension, or -1 for the CSR bonds with j > i (families/detail/counted_bonds.hpp,
/// walked here so that the bond code inlines).
template <int LatticeDims>
HWY_NOINLINE void potts_energy_lanes(const PottsEnergyArgs<Kokkos::HostSpace>& a,
                                     std::int64_t begin, std::int64_t end) {
  const auto& model = a.model;
  const std::int32_t q = model.n_states;
  const hn::ScalableTag<double> d;
  const hn::RebindToSigned<decltype(d)> di;
  const hn::CappedTag<std::int8_t, kHostLanes> d8;
  constexpr std::size_t kLanes = hn::MaxLanes(d);
  constexpr std::size_t kVectors = kHostLanes / kLanes;
  const auto minus_scale = hn::Set(d, -a.scale);
  const auto half = hn::Set(d, 0.5);
  const std::int8_t* spins_end = a.spins.data() + a.spins.span();
  const auto column_stride = static_cast<std::int64_t>(a.spins.stride(1));
  for (std::int32_t first = 0; first < a.n_machines; first += kHostLanes) {
    const std::int32_t lanes =
        a.n_machines - first < kHostLanes ? a.n_machines - first : kHostLanes;
    const std::int8_t* column = &a.spins(first, 0);
    hn::Vec<decltype(di)> total[kVectors];
    for (std::size_t v = 0; v < kVectors; ++v) total[v] = hn::Zero(di);
    auto c = CountedBonds<Kokkos::HostSpace>::first(model, begin);
    for (std::int64_t i = begin; i < end; ++i) {
      alignas(64) std::int8_t own_padded[kHostLanes], other_padded[kHostLanes];
      const std::int8_t* own =
          machine_bytes<kHostLanes>(column + i * column_stride, spins_end, own_padded);
      // h_i(x_i): h_i(0), replaced where the state is s.
      const double* h = model.state_fields.data() + i * q;
      hn::Vec<decltype(d)> sum[kVectors];
      for (std::size_t v = 0; v < kVectors; ++v) sum[v] = hn::Set(d, h[0]);
      for (std::int32_t s = 1; s < q; ++s) {
        const auto state = hn::Set(d8, static_cast<std::int8_t>(s));
        const std::uint64_t in_s = equal_bits(d8, own, [&](std::size_t) HWY_ATTR { return state; });
        if (in_s == 0) continue;
        const auto hs = hn::Set(d, h[s]);
        for (std::size_t v = 0; v < kVectors; ++v) {
          sum[v] = hn::IfThenElse(mask_from_bits(d, in_s, v * kLanes), hs, sum[v]);
        }
      }
      // + J where the bond's states agree (the portable loops add J or 0.0: the same sums
      // up to the sign of a zero, which the rounding to fixed point drops).
      const auto bond = [&](std::int64_t j, double coupling) HWY_ATTR {
        const std::int8_t* other =
            machine_bytes<kHostLanes>(column + j * column_stride, spins_end, other_padded);
        const std::uint64_t agree =
            equal_bits(d8, own, [&](std::size_t v) HWY_ATTR { return hn::LoadU(d8, other + v); });
        const auto J = hn::Set(d, coupling);
        for (std::size_t v = 0; v < kVectors; ++v) {
          sum[v] = hn::IfThenElse(mask_from_bits(d, agree, v * kLanes), hn::Add(sum[v], J), sum[v]);
        }
      };
      if constexpr (LatticeDims > 0) {
        const auto& g = model.lattice;
        for (std::int32_t k = LatticeDims - 1; k >= 0; --k) {
          const std::uint32_t x = c.coordinate[k];
          const std::int64_t up = i + (x + 1 < static_cast<std::uint32_t>(g.extent[k])
                                           ? g.stride[k]
                                           : -(g.extent[k] - 1) * g.stride[k]);
          bond(up, static_cast<double>(g.coupling_up(k, i)));
        }
        g.template step<LatticeDims>(c);
      } else {
        for (std::int64_t e = model.row_offsets(i); e < model.row_offsets(i + 1); ++e) {
          const std::int64_t j = model.columns(e);
          if (j > i) bond(j, model.couplings(e));
        }
      }
      // floor(-sum scale + 1/2): -sum scale is (-sum) scale exactly (rounding is symmetric).
      for (std::size_t v = 0; v < kVectors; ++v) {
        const auto scaled = hn::Add(hn::Mul(sum[v], minus_scale), half);
        total[v] = hn::Add(total[v], hn::ConvertTo(di, hn::Floor(scaled)));
      }
    }
    alignas(64) std::int64_t lane_total[kHostLanes];
    for (std::size_t v = 0; v < kVectors; ++v) hn::Store(total[v], di, lane_total + v * kLanes);
    for (std::int32_t lane = 0; lane < lanes; ++lane) {
      Kokkos::atomic_add(&a.energy_fixed(first + lane), lane_total[lane]);
    }
  }
}

}  // namespace hamon::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // HAMON_POTTS_REGISTERS_INL_HPP_

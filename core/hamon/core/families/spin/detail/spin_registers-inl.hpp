// SPDX-License-Identifier: Apache-2.0
// The vector path of the host spin sweep, once for every target (families/detail/
// vector_draws-inl.hpp says how it is compiled): a work item is a run of block nodes in the
// machines [first, first + lanes), lanes <= 32, taken a step of nodes at a time:
//
//   1. the step's Philox generators (one per node and group of 16 machines) in vector lanes;
//   2. each node's local fields in the machines' lanes, neighbour by neighbour in the block's
//      order (16-bit integers, or doubles for real couplings), into a flat list of
//      (node, machine) entries;
//   3. the byte decisions of the whole list at full vector width, whatever the number of
//      machines (with one machine, a vector holds 4 to 16 nodes' decisions);
//   4. the stores, and the ties' low bits drawn and settled together.
//
// Every decision is the one families/spin/spin_decision.hpp makes from the same byte and tie
// bits, so the bits equal the portable loops' on every target (tests/backend/tstHostKernels).

#if defined(HAMON_SPIN_REGISTERS_INL_HPP_) == defined(HWY_TARGET_TOGGLE)
#ifdef HAMON_SPIN_REGISTERS_INL_HPP_
#undef HAMON_SPIN_REGISTERS_INL_HPP_
#else
#define HAMON_SPIN_REGISTERS_INL_HPP_
#endif

#include <hwy/highway.h>

#include <cstdint>
#include <cstring>

#include "hamon/core/families/detail/sweep_args.hpp"
#include "hamon/core/families/detail/vector_draws-inl.hpp"
#include "hamon/core/families/spin/detail/spin_registers.hpp"
#include "hamon/core/families/spin/field_boundaries.hpp"
#include "hamon/core/families/spin/heat_bath.hpp"
#include "hamon/core/util/deterministic_math.hpp"

HWY_BEFORE_NAMESPACE();
namespace hamon::detail::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

/// The (node, machine) entries of one step: entry k is node k / lanes, machine
/// first + k % lanes.
struct StepEntries {
  static constexpr std::int32_t kGenerators = 32;  // per step
  static constexpr std::int32_t kCapacity = kGenerators * kMachinesPerDraw;
  static constexpr std::int32_t kSlack = 64;  // whole vectors past the last entry

  alignas(64) std::uint32_t node_counter[kGeneratorBatch];
  alignas(64) std::uint32_t group_counter[kGeneratorBatch];
  alignas(64) std::uint32_t words[4 * kGeneratorBatch];
  alignas(64) std::uint8_t bytes[kCapacity + kSlack];
  alignas(64) std::int8_t decided[kCapacity + kSlack];
  std::int64_t node[kGenerators];
};

/// Per entry of a step, what the decision reads of the entry's chain (the pattern of the
/// first machines' rows repeated node by node).
struct IntegerRows {
  alignas(64) std::int32_t row[StepEntries::kCapacity + StepEntries::kSlack];     // up_limit at 0
  alignas(64) std::int32_t lowest[StepEntries::kCapacity + StepEntries::kSlack];  // can be +1
};

struct RealRows {
  alignas(64) double minus_two_beta[StepEntries::kCapacity + StepEntries::kSlack];
  alignas(64) std::int32_t boundary_row[StepEntries::kCapacity + StepEntries::kSlack];
};

/// One node's local fields in `lanes` machines, T = int16_t (integer fields, as the
/// portable loops' integer sums) or double (neighbour by neighbour: the same sums in the
/// same order), written to out[0, kCap) (lanes past the machines hold anything). `column`:
/// the spins of node 0 at the first machine; `column_stride`: between nodes; `end`: past
/// the spins' last byte, which no load crosses.
template <class T, std::size_t kCap, class Block>
HWY_INLINE void node_sums(const Block& block, const typename Block::Cursor& c,
                          const std::int8_t* column, std::int64_t column_stride,
                          const std::int8_t* end, T* out) {
  const hn::CappedTag<T, kCap> d;
  const hn::Rebind<std::int8_t, decltype(d)> d8;
  using V = hn::Vec<decltype(d)>;
  constexpr std::size_t kLanes = hn::MaxLanes(d);
  constexpr std::size_t kVectors = (kCap + kLanes - 1) / kLanes;
  const auto spins_of = [&](const std::int8_t* s) HWY_ATTR {
    if constexpr (sizeof(T) == 2) {
      return hn::PromoteTo(d, hn::LoadU(d8, s));
    } else {
      const hn::Rebind<std::int32_t, decltype(d)> d32;
      return hn::PromoteTo(d, hn::PromoteTo(d32, hn::LoadU(d8, s)));
    }
  };
  V sum[kVectors];
  for (std::size_t v = 0; v < kVectors; ++v) sum[v] = hn::Set(d, static_cast<T>(block.field(c)));
  const auto add = [&](const std::int8_t* s, const V J) HWY_ATTR {
    for (std::size_t v = 0; v < kVectors; ++v) {
      sum[v] = hn::Add(sum[v], hn::Mul(spins_of(s + v * kLanes), J));
    }
  };
  visit_neighbours(block, c, [&](std::int64_t j, auto coupling) HWY_ATTR {
    const std::int8_t* s = column + j * column_stride;
    const V J = hn::Set(d, static_cast<T>(coupling));
    if (HWY_UNLIKELY(s + kVectors * kLanes > end)) {  // the spins' last bytes: no load past them
      alignas(64) std::int8_t padded[kVectors * kLanes] = {};
      std::memcpy(padded, s, static_cast<std::size_t>(end - s));
      add(padded, J);
    } else {
      add(s, J);
    }
  });
  for (std::size_t v = 0; v < kVectors; ++v) hn::StoreU(sum[v], d, out + v * kLanes);
}

/// The run of one work item on one target. `Args`: SweepArgs<Kokkos::HostSpace, Block>.
template <class Block>
class SpinRegisterRun {
 public:
  using Args = SweepArgs<Kokkos::HostSpace, Block>;

  SpinRegisterRun(const Args& args, std::int32_t first)
      : a_(args),
        first_(first),
        lanes_(args.n_machines - first < kHostLanes ? args.n_machines - first : kHostLanes),
        per_node_((lanes_ + kMachinesPerDraw - 1) / kMachinesPerDraw),
        step_nodes_(StepEntries::kGenerators / per_node_) {}

  HWY_INLINE void run(std::int64_t begin, std::int32_t nodes) {
    if (a_.bound >= 0) {
      run_steps<std::int16_t>(begin, nodes);
    } else {
      run_steps<double>(begin, nodes);
    }
  }

 private:
  template <class T>
  HWY_INLINE void run_steps(std::int64_t begin, std::int32_t nodes) {
    const std::int32_t filled = (nodes < step_nodes_ ? nodes : step_nodes_) * lanes_;
    if constexpr (sizeof(T) == 2) {
      fill_integer_rows(filled);
    } else {
      fill_real_rows(filled);
    }
    typename Block::Cursor walk = a_.block.cursor(begin);
    for (std::int32_t done = 0; done < nodes; done += step_nodes_) {
      const std::int32_t in_step = nodes - done < step_nodes_ ? nodes - done : step_nodes_;
      const typename Block::Cursor step_start = walk;
      draw(walk, in_step, done + in_step < nodes);
      alignas(64) T phi[StepEntries::kCapacity + StepEntries::kSlack];
      local_fields(step_start, in_step, phi);
      if constexpr (sizeof(T) == 2) {
        decide_integer(in_step * lanes_, phi);
      } else {
        decide_real(in_step * lanes_, phi);
      }
      for (std::int32_t n = 0; n < in_step; ++n) {
        copy_lanes(&a_.spins(first_, step_.node[n]), step_.decided + n * lanes_);
      }
      if constexpr (sizeof(T) == 2) {
        settle_integer_ties();
      } else {
        settle_real_ties();
      }
    }
  }

  /// The step's nodes from `walk` (left at the next step's first node when `more`), their
  /// generators, and every entry's byte.
  HWY_INLINE void draw(typename Block::Cursor& walk, std::int32_t in_step, bool more) {
    std::int32_t g = 0;
    for (std::int32_t n = 0; n < in_step; ++n) {
      step_.node[n] = walk.node;
      for (std::int32_t k = 0; k < per_node_; ++k, ++g) {
        step_.node_counter[g] = static_cast<std::uint32_t>(walk.node);
        step_.group_counter[g] = a_.group_counter(first_ / kMachinesPerDraw + k);
      }
      if (n + 1 < in_step || more) a_.block.advance(walk);
    }
    const auto generators = static_cast<std::size_t>(g);
    for (std::size_t k = generators; k < whole_generator_batches(generators); ++k) {
      step_.node_counter[k] = step_.node_counter[0];
      step_.group_counter[k] = step_.group_counter[0];
    }
    philox_generators(a_.seed, step_.node_counter, step_.group_counter, a_.sweep, a_.round,
                      generators, step_.words);
    // Node n's machine l draws byte l of the node's generators (16 machines each): the
    // generated bytes themselves when the machines fill the generators.
    const auto* generated = reinterpret_cast<const std::uint8_t*>(step_.words);
    const std::int32_t stride = kMachinesPerDraw * per_node_;
    if (lanes_ == stride) {
      bytes_ = generated;
      return;
    }
    for (std::int32_t n = 0; n < in_step; ++n) {
      copy_lanes(step_.bytes + n * lanes_, generated + n * stride);
    }
    bytes_ = step_.bytes;
  }

  /// Copies one node's `lanes` bytes (fixed sizes for the usual counts: no library call).
  template <class T>
  HWY_INLINE void copy_lanes(T* to, const T* from) const {
    static_assert(sizeof(T) == 1, "one byte per machine");
    switch (lanes_) {
      case 32:
        std::memcpy(to, from, 32);
        break;
      case 16:
        std::memcpy(to, from, 16);
        break;
      case 8:
        std::memcpy(to, from, 8);
        break;
      case 4:
        std::memcpy(to, from, 4);
        break;
      default:
        for (std::int32_t l = 0; l < lanes_; ++l) to[l] = from[l];
    }
  }

  template <class T>
  HWY_INLINE void local_fields(typename Block::Cursor c, std::int32_t in_step, T* phi) const {
    if (lanes_ <= 8) {
      node_fields<T, 8>(c, in_step, phi);
    } else if (lanes_ <= 16) {
      node_fields<T, 16>(c, in_step, phi);
    } else {
      node_fields<T, 32>(c, in_step, phi);
    }
  }

  template <class T, std::size_t kCap>
  HWY_INLINE void node_fields(typename Block::Cursor c, std::int32_t in_step, T* phi) const {
    const std::int8_t* column = &a_.spins(first_, 0);
    const auto column_stride = static_cast<std::int64_t>(a_.spins.stride(1));
    const std::int8_t* end = a_.spins.data() + a_.spins.span();
    for (std::int32_t n = 0; n < in_step; ++n) {
      if (n > 0) a_.block.advance(c);
      node_sums<T, kCap>(a_.block, c, column, column_stride, end, phi + n * lanes_);
    }
  }

  HWY_INLINE void fill_integer_rows(std::int32_t filled) {
    const std::int32_t width = 2 * a_.bound + 1;
    for (std::int32_t l = 0; l < lanes_; ++l) {
      const std::int32_t chain = a_.chain_of_machine(first_ + l);
      integer_.row[l] = chain * width + a_.bound;
      integer_.lowest[l] = chain * width + a_.up_floor(chain);
    }
    for (std::int32_t k = lanes_; k < filled; ++k) {
      integer_.row[k] = integer_.row[k - lanes_];
      integer_.lowest[k] = integer_.lowest[k - lanes_];
    }
  }

  HWY_INLINE void fill_real_rows(std::int32_t filled) {
    for (std::int32_t l = 0; l < lanes_; ++l) {
      const std::int32_t chain = a_.chain_of_machine(first_ + l);
      real_.minus_two_beta[l] = -2.0 * a_.betas(chain);
      real_.boundary_row[l] = chain * kFieldBoundaries;
    }
    for (std::int32_t k = lanes_; k < filled; ++k) {
      real_.minus_two_beta[k] = real_.minus_two_beta[k - lanes_];
      real_.boundary_row[k] = real_.boundary_row[k - lanes_];
    }
  }

  /// byte_threshold_decision on entries [0, count): +1 iff the index of phi in its chain's
  /// up_limit row can decide +1 and the byte is below the limit's top byte; a tie (-1 for
  /// now) where they are equal.
  HWY_INLINE void decide_integer(std::int32_t count, const std::int16_t* phi) {
    const hn::ScalableTag<std::int32_t> d32;
    const hn::RebindToUnsigned<decltype(d32)> du32;
    const hn::Rebind<std::int16_t, decltype(d32)> d16;
    const hn::Rebind<std::uint8_t, decltype(d32)> d8;
    const hn::Rebind<std::int8_t, decltype(d32)> ds8;
    const auto* limits = reinterpret_cast<const std::int32_t*>(a_.up_limit.data());
    const auto n = static_cast<std::int32_t>(hn::Lanes(d32));
    for (std::int32_t k = 0; k < count; k += n) {
      const auto live = hn::FirstN(d32, static_cast<std::size_t>(count - k));
      const auto index =
          hn::Add(hn::PromoteTo(d32, hn::LoadU(d16, phi + k)), hn::Load(d32, integer_.row + k));
      const auto possible = hn::AndNot(hn::Lt(index, hn::Load(d32, integer_.lowest + k)), live);
      const auto limit = hn::IfThenElseZero(
          possible, hn::GatherIndex(d32, limits, hn::IfThenElseZero(possible, index)));
      const auto top = hn::BitCast(d32, hn::ShiftRight<24>(hn::BitCast(du32, limit)));
      const auto byte = hn::PromoteTo(d32, hn::LoadU(d8, bytes_ + k));
      const auto up = hn::And(possible, hn::Lt(byte, top));
      const auto tie = hn::And(possible, hn::Eq(byte, top));
      hn::StoreU(hn::DemoteTo(ds8, hn::IfThenElse(up, hn::Set(d32, 1), hn::Set(d32, -1))), ds8,
                 step_.decided + k);
      if (HWY_UNLIKELY(!hn::AllFalse(d32, tie))) {
        alignas(8) std::uint8_t tie_bits[8] = {};
        hn::StoreMaskBits(d32, tie, tie_bits);
        alignas(64) std::int32_t limit_of[hn::MaxLanes(d32)];
        hn::Store(limit, d32, limit_of);
        for (std::int32_t i = 0; i < n; ++i) {
          if (((tie_bits[i / 8] >> (i % 8)) & 1) != 0) {
            add_tie(k + i, static_cast<std::uint32_t>(limit_of[i]));
          }
        }
      }
    }
  }

  /// byte_heat_bath_decision on entries [0, count), from the chain's field boundaries or
  /// from exp: +1 when every word with the byte decides +1; a tie (-1 for now) when some do.
  HWY_INLINE void decide_real(std::int32_t count, const double* phi) {
    const hn::ScalableTag<double> d;
    const hn::RebindToSigned<decltype(d)> di64;
    const hn::Rebind<std::int32_t, decltype(d)> d32;
    const hn::Rebind<std::uint8_t, decltype(d)> d8;
    const auto n = static_cast<std::int32_t>(hn::Lanes(d));
    const double* boundaries = a_.field_boundary.data();
    const bool use_boundaries = a_.field_boundary.extent(0) > 0;
    for (std::int32_t k = 0; k < count; k += n) {
      const auto live = hn::FirstN(d, static_cast<std::size_t>(count - k));
      const auto p = hn::LoadU(d, phi + k);
      const auto byte32 = hn::PromoteTo(d32, hn::LoadU(d8, bytes_ + k));
      hn::Mask<decltype(d)> surely, maybe;
      if (use_boundaries) {
        // phi against the chain's boundaries B[byte] and B[byte + 1].
        const auto index =
            hn::PromoteTo(di64, hn::Add(byte32, hn::Load(d32, real_.boundary_row + k)));
        const auto live_index = hn::IfThenElseZero(hn::RebindMask(di64, live), index);
        surely = hn::Ge(p, hn::GatherIndex(d, boundaries + 1, live_index));
        maybe = hn::Ge(p, hn::GatherIndex(d, boundaries, live_index));
      } else {
        const auto factor = hn::Add(
            hn::Set(d, 1.0), exp_lanes(d, hn::Mul(hn::Load(d, real_.minus_two_beta + k), p)));
        // The smallest and the largest word with this top byte.
        const auto low = hn::ShiftLeft<24>(hn::PromoteTo(di64, byte32));
        const auto high = hn::Or(low, hn::Set(di64, 0xFFFFFF));
        const auto one = hn::Set(d, 1.0);
        surely = hn::Lt(hn::Mul(unit_interval_lanes(d, high), factor), one);
        maybe = hn::Lt(hn::Mul(unit_interval_lanes(d, low), factor), one);
      }
      const auto up = hn::And(live, surely);
      const auto tie = hn::AndNot(surely, hn::And(live, maybe));
      alignas(8) std::uint8_t up_bits[8] = {};
      hn::StoreMaskBits(d, up, up_bits);
      for (std::int32_t i = 0; i < n; ++i) {
        step_.decided[k + i] = ((up_bits[i / 8] >> (i % 8)) & 1) != 0 ? 1 : -1;
      }
      if (HWY_UNLIKELY(!hn::AllFalse(d, tie))) {
        alignas(8) std::uint8_t tie_bits[8] = {};
        hn::StoreMaskBits(d, tie, tie_bits);
        alignas(64) double phi_of[hn::MaxLanes(d)];
        hn::Store(p, d, phi_of);
        for (std::int32_t i = 0; i < n; ++i) {
          if (((tie_bits[i / 8] >> (i % 8)) & 1) != 0) add_tie(k + i, 0, phi_of[i]);
        }
      }
    }
  }

  /// Ties of a step: drawn and settled after its stores (no node of a colour block reads
  /// another's spin, so the order does not matter).
  struct Ties {
    alignas(64) std::uint32_t node[StepEntries::kCapacity + kGeneratorBatch];
    alignas(64) std::uint32_t machine[StepEntries::kCapacity + kGeneratorBatch];
    alignas(64) std::uint32_t words[4 * (StepEntries::kCapacity + kGeneratorBatch)];
    std::uint32_t limit[StepEntries::kCapacity];
    std::uint32_t byte[StepEntries::kCapacity];
    double phi[StepEntries::kCapacity];
    double minus_two_beta[StepEntries::kCapacity];
    std::int32_t count = 0;
  };

  HWY_INLINE void add_tie(std::int32_t entry, std::uint32_t limit, double phi = 0.0) {
    const std::int32_t t = ties_.count++;
    const std::int32_t l = entry % lanes_;
    ties_.node[t] = static_cast<std::uint32_t>(step_.node[entry / lanes_]);
    ties_.machine[t] = static_cast<std::uint32_t>(first_ + l);
    ties_.limit[t] = limit;
    ties_.byte[t] = bytes_[entry];
    ties_.phi[t] = phi;
    ties_.minus_two_beta[t] = a_.bound >= 0 ? 0.0 : real_.minus_two_beta[entry];
  }

  /// The ties' 24 low bits (tie_bits: the counter (node, machine, sweep | kTieSweep, round)).
  HWY_INLINE void draw_ties() {
    const auto count = static_cast<std::size_t>(ties_.count);
    const std::uint32_t first_machine = a_.machine_counter(0);
    for (std::size_t t = 0; t < count; ++t) ties_.machine[t] += first_machine;
    for (std::size_t t = count; t < whole_generator_batches(count); ++t) {
      ties_.node[t] = ties_.node[0];
      ties_.machine[t] = ties_.machine[0];
    }
    philox_generators(a_.seed, ties_.node, ties_.machine, a_.sweep | kTieSweep, a_.round, count,
                      ties_.words);
    for (std::size_t t = 0; t < count; ++t) ties_.machine[t] -= first_machine;
  }

  HWY_INLINE void settle_integer_ties() {
    if (ties_.count == 0) return;
    draw_ties();
    for (std::int32_t t = 0; t < ties_.count; ++t) {
      const std::uint32_t low_bits = ties_.words[4 * t] >> 8;
      if (tie_threshold_decision(low_bits, ties_.limit[t]) > 0) {
        a_.spins(static_cast<std::int32_t>(ties_.machine[t]), ties_.node[t]) = 1;
      }
    }
    ties_.count = 0;
  }

  HWY_INLINE void settle_real_ties() {
    if (ties_.count == 0) return;
    draw_ties();
    for (std::int32_t t = 0; t < ties_.count; ++t) {
      const std::uint32_t low_bits = ties_.words[4 * t] >> 8;
      const double factor = 1.0 + deterministic_exp(ties_.minus_two_beta[t] * ties_.phi[t]);
      if (tie_heat_bath_decision(ties_.byte[t], low_bits, factor) > 0) {
        a_.spins(static_cast<std::int32_t>(ties_.machine[t]), ties_.node[t]) = 1;
      }
    }
    ties_.count = 0;
  }

  const Args& a_;
  std::int32_t first_;
  std::int32_t lanes_;
  std::int32_t per_node_;                // generators per node: 1 or 2
  std::int32_t step_nodes_;              // nodes per step
  const std::uint8_t* bytes_ = nullptr;  // of the step's entries
  StepEntries step_;
  IntegerRows integer_;
  RealRows real_;
  Ties ties_;
};

template <class Block>
HWY_NOINLINE void spin_register_run(const SweepArgs<Kokkos::HostSpace, Block>& args,
                                    std::int64_t begin, std::int32_t nodes, std::int32_t first) {
  SpinRegisterRun<Block>(args, first).run(begin, nodes);
}

}  // namespace hamon::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // HAMON_SPIN_REGISTERS_INL_HPP_

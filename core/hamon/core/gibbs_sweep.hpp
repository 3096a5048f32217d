// SPDX-License-Identifier: Apache-2.0
#pragma once
// Block-Gibbs (heat-bath) sweep over every machine at once.
//
// A sweep updates the colour classes in turn; within a class no two nodes are
// neighbours, so all of its nodes (times all machines) update in parallel. Node i of
// machine m at inverse temperature beta draws s_i = +1 with probability
// 1 / (1 + exp(-2 beta phi_i)), phi_i = h_i + sum_j J_ij s_j.
//
// The random byte for (round, sweep, node, machine) is byte (machine % 16) of Philox4x32-10
// at counter (node, machine / 16, sweep, round): one generator call serves sixteen
// machines (random stream version 2), and the number never depends on which thread draws
// it. The byte is the top of a 32-bit word whose 24 low bits are drawn only on a tie
// (impl/heat_bath.hpp), from counter (node, machine, sweep | kTieSweep, round).
//
// Spins are (machine, node) with machines adjacent for a node (ChainState). A GPU thread
// updates one node in one group of 16 machines (each 32-bit word serves 4 of them); a host
// work item updates nodes in every machine, 32 at a time in plain loops over machines that
// the compiler vectorises (generators, fields, exp and the decision: the portable path).
// Where the host compiler targets AVX-512, a work item is a run of up to kRegisterRun nodes
// instead, with three batches of 16 generators in registers at a time (the register path,
// impl/host_simd.hpp).
//
// With integer local fields the decision is an integer comparison of the byte with the
// top byte of a threshold tabulated per (chain, phi) (impl/heat_bath.hpp), exactly
// equivalent to the floating-point test; with real ones, a comparison of phi with the
// chain's boundaries for that byte (impl/field_boundaries.hpp), exp only on ties (or per
// update when a state has no boundary table). Every path evaluates the same decisions from the same
// bytes and tie bits, so they all give the same bits; the device style also runs on host spaces
// (HostKernel::device) so the tests check it there.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

#include "hamon/core/chain_state.hpp"
#include "hamon/core/device_model.hpp"
#include "hamon/core/impl/counter_rng.hpp"
#include "hamon/core/impl/exp.hpp"
#include "hamon/core/impl/field_boundaries.hpp"
#include "hamon/core/impl/heat_bath.hpp"
#include "hamon/core/impl/host_simd.hpp"
#include "hamon/core/impl/launch.hpp"

namespace hamon {

namespace detail {

inline constexpr std::int32_t kMachinesPerDraw = kUpdatesPerDraw;  // 16
inline constexpr std::int32_t kHostLanes = 32;                     // machines per host chunk
inline constexpr std::int32_t kHostDraws = kHostLanes / kMachinesPerDraw;  // per node and chunk
inline constexpr std::int32_t kHostNodes = 8;     // nodes per portable work item (16 generators)
inline constexpr std::int32_t kRegisterRun = 48;  // most block nodes per AVX-512 work item

/// Which implementation runs a sweep on a host space: the best available (AVX-512
/// registers where compiled in), the portable loops, or the device kernel's style (one
/// work item per node and group of 16 machines, as on a GPU). All give the same bits;
/// the tests compare them. On a device space every choice runs the device style.
enum class HostKernel { best, portable, device };

/// A colour block of the general CSR graph: nodes listed in DeviceModel::block_nodes,
/// neighbours and couplings read from the CRS arrays.
template <class MemorySpace>
struct CsrBlock {
  static constexpr const char* label = "hamon::gibbs_sweep";
  DeviceModel<MemorySpace> model;
  std::int64_t block_begin;

  KOKKOS_INLINE_FUNCTION std::int64_t node(std::int64_t k) const {
    return model.block_nodes(block_begin + k);
  }

  /// phi_i = h_i + sum_j J_ij s_j for machines [first, first + lanes), summed in CRS order.
  template <class Spins>
  KOKKOS_INLINE_FUNCTION void local_fields(std::int64_t i, const Spins& spins, std::int32_t first,
                                           std::int32_t lanes, double* phi) const {
    const double h = model.fields(i);
    for (std::int32_t lane = 0; lane < lanes; ++lane) phi[lane] = h;
    for (std::int64_t e = model.row_offsets(i); e < model.row_offsets(i + 1); ++e) {
      const double coupling = model.couplings(e);
      const std::int8_t* neighbour = &spins(first, model.columns(e));
      HAMON_SIMD
      for (std::int32_t lane = 0; lane < lanes; ++lane) phi[lane] += coupling * neighbour[lane];
    }
  }

  /// A walk through the block, for the register path: nodes, fields and couplings.
  struct Cursor {
    std::int64_t k;
    std::int64_t node;
  };
  KOKKOS_INLINE_FUNCTION Cursor cursor(std::int64_t k) const { return Cursor{k, node(k)}; }
  KOKKOS_INLINE_FUNCTION void advance(Cursor& c) const {
    ++c.k;
    c.node = node(c.k);
  }
  KOKKOS_INLINE_FUNCTION double field(const Cursor& c) const { return model.fields(c.node); }
  /// Calls f(neighbour, J) in CRS order.
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_each_neighbour(const Cursor& c, F&& f) const {
    for (std::int64_t e = model.row_offsets(c.node); e < model.row_offsets(c.node + 1); ++e) {
      f(static_cast<std::int64_t>(model.columns(e)), model.couplings(e));
    }
  }
};

/// A checkerboard colour of the lattice fast path: implicit neighbours, integer fields.
template <class MemorySpace>
struct LatticeBlock {
  static constexpr const char* label = "hamon::lattice_sweep";
  LatticeGeometry<MemorySpace> lattice;
  std::int32_t colour;

  KOKKOS_INLINE_FUNCTION std::int64_t node(std::int64_t k) const {
    return lattice.node_of(colour, k);
  }

  template <class Spins>
  KOKKOS_INLINE_FUNCTION void local_fields(std::int64_t i, const Spins& spins, std::int32_t first,
                                           std::int32_t lanes, double* phi) const {
    std::int32_t integer_phi[kHostLanes];
    lattice.local_fields(i, spins, first, lanes, integer_phi);
    for (std::int32_t lane = 0; lane < lanes; ++lane) phi[lane] = integer_phi[lane];
  }

  using Cursor = typename LatticeGeometry<MemorySpace>::Cursor;
  KOKKOS_INLINE_FUNCTION Cursor cursor(std::int64_t k) const { return lattice.cursor(colour, k); }
  KOKKOS_INLINE_FUNCTION void advance(Cursor& c) const { lattice.advance(c); }
  KOKKOS_INLINE_FUNCTION std::int32_t field(const Cursor& c) const { return lattice.field(c.node); }
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_each_neighbour(const Cursor& c, F&& f) const {
    lattice.for_each_neighbour(c, static_cast<F&&>(f));
  }
};

/// Heat-bath updates of one colour block (`Block`: CsrBlock or LatticeBlock), in the host
/// style (runs of nodes in every machine) or the device style (a node in 16 machines).
template <class ExecutionSpace, class Block, bool HostStyle = host_style<ExecutionSpace>>
struct BlockUpdate {
  using state_type = ChainState<ExecutionSpace>;

  Block block;
  typename state_type::spin_view spins;
  typename state_type::template view<double> betas;
  typename state_type::template view<std::int32_t> chain_of_machine;
  Kokkos::View<std::uint32_t**, Kokkos::LayoutRight, typename ExecutionSpace::memory_space>
      up_limit;
  typename state_type::template view<std::int32_t> up_floor;
  std::int32_t bound;  // integer_field_bound, -1 without thresholds
  std::int64_t n_block;
  std::int64_t n_groups;
  std::int32_t n_machines;
  std::uint64_t seed;
  std::uint32_t sweep;
  std::uint32_t round;
  bool simd;                    // host: registers (impl/host_simd.hpp) instead of loops
  std::int32_t nodes_per_item;  // host: block nodes per work item
  Kokkos::View<double**, Kokkos::LayoutRight, typename ExecutionSpace::memory_space>
      field_boundary;  // real fields: empty, or (chain, 257) boundaries

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t idx) const {
    if constexpr (HostStyle) {
      const std::int64_t begin = idx * nodes_per_item;
      const std::int32_t nodes = n_block - begin < nodes_per_item
                                     ? static_cast<std::int32_t>(n_block - begin)
                                     : nodes_per_item;
      for (std::int32_t first = 0; first < n_machines; first += kHostLanes) {
        if (simd) {
          update_registers(begin, nodes, first);
        } else {
          update_lanes(begin, nodes, first);
        }
      }
    } else {
      update_group(block.node(idx / n_groups), static_cast<std::int32_t>(idx % n_groups));
    }
  }

  /// The 24 low bits of the word of a tie of machine m at `node`.
  KOKKOS_INLINE_FUNCTION std::uint32_t tie(std::int64_t node, std::int32_t m) const {
    return tie_bits(seed, static_cast<std::uint32_t>(node), static_cast<std::uint32_t>(m), sweep,
                    round);
  }

  /// Device path: one node in the machines of one group of 16, 4 per 32-bit word.
  KOKKOS_INLINE_FUNCTION void update_group(std::int64_t node, std::int32_t group) const {
    const Philox4 draw = philox4(seed, static_cast<std::uint32_t>(node),
                                 static_cast<std::uint32_t>(group), sweep, round);
    const std::int32_t first = group * kMachinesPerDraw;
    const std::int32_t lanes =
        n_machines - first < kMachinesPerDraw ? n_machines - first : kMachinesPerDraw;
    double phi[kMachinesPerDraw];
    block.local_fields(node, spins, first, lanes, phi);
    for (std::int32_t lane = 0; lane < lanes; ++lane) {
      const std::int32_t m = first + lane;
      const std::int32_t chain = chain_of_machine(m);
      const std::uint32_t byte = draw_byte(draw, lane);
      std::int8_t s;
      if (bound >= 0) {
        const std::int32_t k = static_cast<std::int32_t>(phi[lane]) + bound;
        const std::uint32_t limit = up_limit(chain, k);
        s = byte_threshold_decision(byte, limit, k >= up_floor(chain));
        if (s == 0) s = tie_threshold_decision(tie(node, m), limit);
      } else if (field_boundary.extent(0) > 0) {
        s = byte_boundary_decision(byte, phi[lane], &field_boundary(chain, 0));
        if (s == 0) {
          s = tie_heat_bath_decision(byte, tie(node, m), heat_bath_factor(betas(chain), phi[lane]));
        }
      } else {
        const double factor = heat_bath_factor(betas(chain), phi[lane]);
        s = byte_heat_bath_decision(byte, factor);
        if (s == 0) s = tie_heat_bath_decision(byte, tie(node, m), factor);
      }
      spins(m, node) = s;
    }
  }

  /// Portable host path: block nodes [begin, begin + nodes) in machines [first, first + 32),
  /// as loops over machines.
  KOKKOS_INLINE_FUNCTION void update_lanes(std::int64_t begin, std::int32_t nodes,
                                           std::int32_t first) const {
    const std::int32_t lanes = n_machines - first < kHostLanes ? n_machines - first : kHostLanes;
    std::int64_t node_index[kHostNodes];
    for (std::int32_t n = 0; n < kHostNodes; ++n)
      node_index[n] = block.node(begin + (n < nodes ? n : 0));
    constexpr std::int32_t kDraws = kHostNodes * kHostDraws;
    constexpr std::int32_t kWordsPerNode = kHostLanes / 4;  // of `words`, 4 bytes each
    std::uint32_t node_counter[kDraws], group_counter[kDraws];
    for (std::int32_t g = 0; g < kDraws; ++g) {
      node_counter[g] = static_cast<std::uint32_t>(node_index[g / kHostDraws]);
      group_counter[g] = static_cast<std::uint32_t>(first / kMachinesPerDraw + g % kHostDraws);
    }
    std::uint32_t words[4 * kDraws];
    philox4_lanes<kDraws>(seed, node_counter, group_counter, sweep, round, words);

    double beta[kHostLanes];
    std::int64_t row[kHostLanes];     // offset of the machine's up_limit row at phi = 0, or
                                      // of its field_boundary row
    std::int32_t lowest[kHostLanes];  // the lowest phi that can decide +1
    for (std::int32_t lane = 0; lane < lanes; ++lane) {
      const std::int32_t chain = chain_of_machine(first + lane);
      beta[lane] = betas(chain);
      row[lane] = bound >= 0 ? &up_limit(chain, bound) - up_limit.data()
                             : static_cast<std::int64_t>(chain) * kFieldBoundaries;
      lowest[lane] = bound >= 0 ? up_floor(chain) - bound : 0;
    }
    for (std::int32_t n = 0; n < nodes; ++n) {
      const std::int64_t node = node_index[n];
      double phi[kHostLanes];
      block.local_fields(node, spins, first, lanes, phi);
      // Lane l's byte: byte l % 16 of generator 2 n + l / 16 = byte l % 4 of word l / 4.
      const std::uint32_t* word = &words[n * kWordsPerNode];
      std::uint32_t byte[kHostLanes];
      HAMON_SIMD
      for (std::int32_t lane = 0; lane < kHostLanes; ++lane) {
        byte[lane] = (word[lane / 4] >> (8 * (lane % 4))) & 0xFFu;
      }
      std::int8_t* out = &spins(first, node);
      std::int8_t decided[kHostLanes];
      bool any_tie = false;
      if (bound >= 0) {
        const std::uint32_t* limits = up_limit.data();
        HAMON_SIMD
        for (std::int32_t lane = 0; lane < lanes; ++lane) {
          const auto field = static_cast<std::int32_t>(phi[lane]);
          decided[lane] =
              byte_threshold_decision(byte[lane], limits[row[lane] + field], field >= lowest[lane]);
          any_tie |= decided[lane] == 0;
        }
        for (std::int32_t lane = 0; any_tie && lane < lanes; ++lane) {
          if (decided[lane] != 0) continue;
          const auto field = static_cast<std::int32_t>(phi[lane]);
          decided[lane] =
              tie_threshold_decision(tie(node, first + lane), limits[row[lane] + field]);
        }
      } else if (field_boundary.extent(0) > 0) {
        const double* boundaries = field_boundary.data();
        HAMON_SIMD
        for (std::int32_t lane = 0; lane < lanes; ++lane) {
          decided[lane] = byte_boundary_decision(byte[lane], phi[lane], boundaries + row[lane]);
          any_tie |= decided[lane] == 0;
        }
        for (std::int32_t lane = 0; any_tie && lane < lanes; ++lane) {
          if (decided[lane] != 0) continue;
          decided[lane] = tie_heat_bath_decision(byte[lane], tie(node, first + lane),
                                                 heat_bath_factor(beta[lane], phi[lane]));
        }
      } else {
        double factor[kHostLanes];
        HAMON_SIMD
        for (std::int32_t lane = 0; lane < lanes; ++lane) {
          factor[lane] = heat_bath_factor(beta[lane], phi[lane]);
          decided[lane] = byte_heat_bath_decision(byte[lane], factor[lane]);
          any_tie |= decided[lane] == 0;
        }
        for (std::int32_t lane = 0; any_tie && lane < lanes; ++lane) {
          if (decided[lane] != 0) continue;
          decided[lane] = tie_heat_bath_decision(byte[lane], tie(node, first + lane), factor[lane]);
        }
      }
      for (std::int32_t lane = 0; lane < lanes; ++lane) out[lane] = decided[lane];
    }
  }

#if defined(HAMON_HOST_AVX512) && !defined(__CUDA_ARCH__)
  /// Per lane of a 32-machine chunk: the index of its chain's up_limit entry at phi = 0
  /// and the lowest index that can decide +1 (inactive lanes: chain 0, never read).
  struct LaneRows {
    __mmask32 active;
    __mmask16 active_lo, active_hi;
    __m512i row_lo, row_hi, floor_lo, floor_hi;
  };

  [[gnu::always_inline]] HAMON_AVX512 LaneRows lane_rows(std::int32_t first,
                                                         std::int32_t lanes) const {
    LaneRows r;
    r.active = simd::lane_mask(lanes);
    r.active_lo = static_cast<__mmask16>(r.active);
    r.active_hi = static_cast<__mmask16>(r.active >> 16);
    const __m512i width = _mm512_set1_epi32(2 * bound + 1);
    const std::int32_t* chains = &chain_of_machine(first);
    const __m512i chain_lo = _mm512_maskz_loadu_epi32(r.active_lo, chains);
    const __m512i chain_hi = _mm512_maskz_loadu_epi32(r.active_hi, chains + 16);
    const __m512i start_lo = _mm512_mullo_epi32(chain_lo, width);
    const __m512i start_hi = _mm512_mullo_epi32(chain_hi, width);
    r.row_lo = _mm512_add_epi32(start_lo, _mm512_set1_epi32(bound));
    r.row_hi = _mm512_add_epi32(start_hi, _mm512_set1_epi32(bound));
    const __m512i zero = _mm512_setzero_si512();
    r.floor_lo = _mm512_add_epi32(
        start_lo, _mm512_mask_i32gather_epi32(zero, r.active_lo, chain_lo, up_floor.data(), 4));
    r.floor_hi = _mm512_add_epi32(
        start_hi, _mm512_mask_i32gather_epi32(zero, r.active_hi, chain_hi, up_floor.data(), 4));
    return r;
  }

  /// Ties of the integer register path, settled together: a tie's spin is
  /// stored as -1 first and turned to +1 when its low bits say so, before the
  /// colour block ends (no node of the block reads another's spin, so the order
  /// does not matter).
  struct TieList {
    static constexpr int kCapacity = 64;
    alignas(64) std::uint32_t node[kCapacity];
    alignas(64) std::uint32_t machine[kCapacity];
    alignas(64) std::uint32_t limit[kCapacity];
    int count = 0;
  };

  /// Appends lanes `ties` (bit l: machine first + l) of `node`, limits limit_lo
  /// (lanes 0..15) and limit_hi; settles the list first when it could overflow.
  [[gnu::noinline, gnu::cold]] HAMON_AVX512 void defer_ties(TieList& list, std::int64_t node,
                                                            std::int32_t first, std::uint32_t ties,
                                                            __m512i limit_lo,
                                                            __m512i limit_hi) const {
    if (list.count > TieList::kCapacity - 32) settle_ties(list);
    alignas(64) std::uint32_t limit[32];
    _mm512_store_si512(limit, limit_lo);
    _mm512_store_si512(limit + 16, limit_hi);
    for (; ties != 0; ties &= ties - 1) {
      const int l = __builtin_ctz(ties);
      list.node[list.count] = static_cast<std::uint32_t>(node);
      list.machine[list.count] = static_cast<std::uint32_t>(first + l);
      list.limit[list.count] = limit[l];
      ++list.count;
    }
  }

  /// Draws the low bits of every listed tie (16 generators at a time: tie_bits)
  /// and sets the spins that turn up; empties the list.
  HAMON_AVX512 void settle_ties(TieList& list) const {
    for (int t = 0; t < list.count; t += 16) {
      const __mmask16 live =
          static_cast<__mmask16>(list.count - t >= 16 ? 0xFFFFu : (1u << (list.count - t)) - 1u);
      const __m512i node[1] = {_mm512_maskz_loadu_epi32(live, list.node + t)};
      const __m512i machine = _mm512_maskz_loadu_epi32(live, list.machine + t);
      simd::PhiloxWords16 draw[1];
      simd::philox16<1>(seed, node, machine, sweep | kTieSweep, round, draw);
      const __m512i low_bits = _mm512_srli_epi32(draw[0].words[0], 8);
      const __m512i limit_low = _mm512_and_si512(_mm512_maskz_loadu_epi32(live, list.limit + t),
                                                 _mm512_set1_epi32(0xFFFFFF));
      // tie_threshold_decision
      for (auto up =
               static_cast<std::uint32_t>(_mm512_mask_cmple_epu32_mask(live, low_bits, limit_low));
           up != 0; up &= up - 1) {
        const int k = t + __builtin_ctz(up);
        spins(static_cast<std::int32_t>(list.machine[k]), list.node[k]) = 1;
      }
    }
    list.count = 0;
  }

  /// One node in machines [first, first + lanes), its bytes from generators
  /// first_generator.. of `by_generator` (simd::store_by_generator): local fields in 16-bit
  /// lanes, thresholds, ties, the store.
  [[gnu::always_inline]] HAMON_AVX512 void update_node(
      const typename Block::Cursor& c, std::int32_t first, std::int32_t lanes, const LaneRows& r,
      const std::uint32_t* by_generator, std::int32_t first_generator, TieList& ties_left) const {
    const std::uint32_t* limits = up_limit.data();
    const auto h = static_cast<short>(block.field(c));
    if (lanes > 16) {
      __m512i phi = _mm512_set1_epi16(h);
      block.for_each_neighbour(c, [&](std::int64_t j, auto coupling) HAMON_AVX512 {
        const __m512i s = _mm512_cvtepi8_epi16(_mm256_maskz_loadu_epi8(r.active, &spins(first, j)));
        phi = _mm512_add_epi16(
            phi, _mm512_mullo_epi16(s, _mm512_set1_epi16(static_cast<short>(coupling))));
      });
      const __m512i index_lo =
          _mm512_add_epi32(_mm512_cvtepi16_epi32(_mm512_castsi512_si256(phi)), r.row_lo);
      const __m512i index_hi =
          _mm512_add_epi32(_mm512_cvtepi16_epi32(_mm512_extracti64x4_epi64(phi, 1)), r.row_hi);
      const simd::ByteDecisions16 lo =
          simd::decide_bytes16(r.active_lo, index_lo, r.floor_lo,
                               simd::generator_bytes(by_generator, first_generator), limits);
      const simd::ByteDecisions16 hi =
          simd::decide_bytes16(r.active_hi, index_hi, r.floor_hi,
                               simd::generator_bytes(by_generator, first_generator + 1), limits);
      const std::uint32_t up = _mm512_kunpackw(hi.up, lo.up);
      const std::uint32_t ties = _mm512_kunpackw(hi.tie, lo.tie);
      if (__builtin_expect(ties != 0, 0)) {
        defer_ties(ties_left, c.node, first, ties, lo.limit, hi.limit);
      }
      const __m256i decided =
          _mm256_mask_blend_epi8(__mmask32(up), _mm256_set1_epi8(-1), _mm256_set1_epi8(1));
      _mm256_mask_storeu_epi8(&spins(first, c.node), r.active, decided);
    } else {
      // At most 16 machines: half-width registers, no idle lanes.
      __m256i phi = _mm256_set1_epi16(h);
      block.for_each_neighbour(c, [&](std::int64_t j, auto coupling) HAMON_AVX512 {
        const __m256i s = _mm256_cvtepi8_epi16(_mm_maskz_loadu_epi8(r.active_lo, &spins(first, j)));
        phi = _mm256_add_epi16(
            phi, _mm256_mullo_epi16(s, _mm256_set1_epi16(static_cast<short>(coupling))));
      });
      const __m512i index = _mm512_add_epi32(_mm512_cvtepi16_epi32(phi), r.row_lo);
      const simd::ByteDecisions16 d =
          simd::decide_bytes16(r.active_lo, index, r.floor_lo,
                               simd::generator_bytes(by_generator, first_generator), limits);
      const std::uint32_t up = d.up;
      if (__builtin_expect(d.tie != 0, 0)) {
        defer_ties(ties_left, c.node, first, d.tie, d.limit, d.limit);
      }
      const __m128i decided =
          _mm_mask_blend_epi8(__mmask16(up), _mm_set1_epi8(-1), _mm_set1_epi8(1));
      _mm_mask_storeu_epi8(&spins(first, c.node), r.active_lo, decided);
    }
  }
#endif

  /// AVX-512 host path: block nodes [begin, begin + nodes) in machines [first, first + 32).
  /// A node needs ceil(lanes / 16) generators, so a batch of 16 serves 16 / that many
  /// nodes; three batches run side by side, because one Philox round is a multiply ->
  /// swap -> xor chain the multiplier would otherwise wait on.
  KOKKOS_INLINE_FUNCTION void update_registers(std::int64_t begin, std::int32_t nodes,
                                               std::int32_t first) const {
#if defined(HAMON_HOST_AVX512) && !defined(__CUDA_ARCH__)
    if (bound >= 0) {
      update_registers_integer(begin, nodes, first);
    } else {
      update_registers_real(begin, nodes, first);
    }
#else
    update_lanes(begin, nodes, first);
#endif
  }

#if defined(HAMON_HOST_AVX512) && !defined(__CUDA_ARCH__)
  // The two register paths are separate functions so each gets its own register
  // allocation (one function holding both measured 5-14 % slower on the integer path).
  [[gnu::noinline]] HAMON_AVX512 void update_registers_integer(std::int64_t begin,
                                                               std::int32_t nodes,
                                                               std::int32_t first) const {
    const std::int32_t lanes = n_machines - first < kHostLanes ? n_machines - first : kHostLanes;
    const LaneRows rows = lane_rows(first, lanes);
    TieList ties;
    walk_registers(
        begin, nodes, first, lanes,
        [&](const auto& c, const auto* bytes, auto gen) __attribute__((always_inline))
        HAMON_AVX512 { update_node(c, first, lanes, rows, bytes, gen, ties); });
    settle_ties(ties);
  }

  [[gnu::noinline]] HAMON_AVX512 void update_registers_real(std::int64_t begin, std::int32_t nodes,
                                                            std::int32_t first) const {
    const std::int32_t lanes = n_machines - first < kHostLanes ? n_machines - first : kHostLanes;
    const LaneBetas lane_betas = betas_of_lanes(first, lanes);
    walk_registers(
        begin, nodes, first, lanes,
        [&](const auto& c, const auto* bytes, auto gen) __attribute__((always_inline))
        HAMON_AVX512 { update_node_real(c, first, lanes, lane_betas, bytes, gen); });
  }

  /// Runs the Philox batches for the nodes and calls update(cursor, by_generator,
  /// first_generator) for each node in order.
  template <class Update>
  [[gnu::always_inline]] HAMON_AVX512 void walk_registers(std::int64_t begin, std::int32_t nodes,
                                                          std::int32_t first, std::int32_t lanes,
                                                          Update&& update) const {
    constexpr int kBatches = 3;
    const std::int32_t per_node = (lanes + kMachinesPerDraw - 1) / kMachinesPerDraw;  // 1 or 2
    const std::int32_t per_batch = 16 / per_node;  // nodes that share one batch
    const std::int32_t per_step = kBatches * per_batch;
    // Generator g of a batch: node slot g / per_node, group first / 4 + g % per_node.
    alignas(64) std::uint32_t slot_of[16], group_of[16];
    for (std::int32_t g = 0, n = 0; g < 16; ++n) {
      for (std::int32_t k = 0; k < per_node && g < 16; ++k, ++g) {
        slot_of[g] = static_cast<std::uint32_t>(n);
        group_of[g] = static_cast<std::uint32_t>(first / kMachinesPerDraw + k);
      }
    }
    const __m512i slot = _mm512_load_si512(slot_of);
    const __m512i group_counter = _mm512_load_si512(group_of);

    typename Block::Cursor walk = block.cursor(begin);
    for (std::int32_t done = 0; done < nodes; done += per_step) {
      const std::int32_t in_step = nodes - done < per_step ? nodes - done : per_step;
      // Counters: each batch's node slots, unused slots repeating the step's first node.
      const typename Block::Cursor step_start = walk;
      alignas(64) std::uint32_t batch_nodes[16 * kBatches];
      const auto filler = static_cast<std::uint32_t>(walk.node);
      for (std::int32_t k = 0; k < 16 * kBatches; ++k) batch_nodes[k] = filler;
      for (std::int32_t n = 0, b = 0, in_batch = 0; n < in_step; ++n) {
        batch_nodes[16 * b + in_batch] = static_cast<std::uint32_t>(walk.node);
        if (done + n + 1 < nodes) block.advance(walk);
        if (++in_batch == per_batch) {
          in_batch = 0;
          ++b;
        }
      }
      __m512i node_counter[kBatches];
      for (int b = 0; b < kBatches; ++b) {
        node_counter[b] = _mm512_permutexvar_epi32(slot, _mm512_load_si512(batch_nodes + 16 * b));
      }
      simd::PhiloxWords16 draws[kBatches];
      simd::philox16<kBatches>(seed, node_counter, group_counter, sweep, round, draws);
      alignas(64) std::uint32_t by_generator[kBatches][64];
      for (int b = 0; b < kBatches; ++b) simd::store_by_generator(draws[b], by_generator[b]);

      typename Block::Cursor c = step_start;
      for (std::int32_t n = 0, b = 0, in_batch = 0; n < in_step; ++n) {
        if (n > 0) block.advance(c);
        update(c, by_generator[b], in_batch * per_node);
        if (++in_batch == per_batch) {
          in_batch = 0;
          ++b;
        }
      }
    }
  }

  /// settle_ties for real local fields: 8 lanes from machine `first`, their bytes, local
  /// fields and -2 beta (the factor as heat_bath_factor forms it).
  [[gnu::noinline, gnu::cold]] HAMON_AVX512 std::uint32_t settle_real_ties(
      std::int64_t node, std::int32_t first, std::uint32_t ties, std::uint32_t up, __m256i bytes,
      __m512d phis, __m512d minus_two_betas) const {
    alignas(64) std::uint32_t byte[8];
    alignas(64) double phi[8], minus_two_beta[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(byte), bytes);
    _mm512_store_pd(phi, phis);
    _mm512_store_pd(minus_two_beta, minus_two_betas);
    for (; ties != 0; ties &= ties - 1) {
      const int l = __builtin_ctz(ties);
      const double factor = 1.0 + deterministic_exp(minus_two_beta[l] * phi[l]);
      if (tie_heat_bath_decision(byte[l], tie(node, first + l), factor) > 0) up |= 1u << l;
    }
    return up;
  }

  /// -2 beta of each lane's chain, 8 lanes per register (real local fields).
  struct LaneBetas {
    __mmask32 active;
    __m512d minus_two_beta[4];
    __m256i boundary_row[4];  // chain * kFieldBoundaries
  };

  [[gnu::always_inline]] HAMON_AVX512 LaneBetas betas_of_lanes(std::int32_t first,
                                                               std::int32_t lanes) const {
    LaneBetas r;
    r.active = simd::lane_mask(lanes);
    for (int q = 0; q < 4; ++q) {
      const auto mask = static_cast<__mmask8>(r.active >> (8 * q));
      const __m256i chains = _mm256_maskz_loadu_epi32(mask, &chain_of_machine(first) + 8 * q);
      const __m512d beta =
          _mm512_mask_i32gather_pd(_mm512_setzero_pd(), mask, chains, betas.data(), 8);
      r.minus_two_beta[q] = _mm512_mul_pd(_mm512_set1_pd(-2.0), beta);
      r.boundary_row[q] = _mm256_mullo_epi32(chains, _mm256_set1_epi32(kFieldBoundaries));
    }
    return r;
  }

  /// One node, real local fields: phi = h + sum_j J s_j in CRS order, then
  /// byte_heat_bath_decision and its ties, every operation as the portable loops do it.
  [[gnu::always_inline]] HAMON_AVX512 void update_node_real(const typename Block::Cursor& c,
                                                            std::int32_t first, std::int32_t lanes,
                                                            const LaneBetas& r,
                                                            const std::uint32_t* by_generator,
                                                            std::int32_t first_generator) const {
    const int groups = (lanes + 7) / 8;
    __m512d phi[4];
    for (int q = 0; q < 4; ++q) phi[q] = _mm512_set1_pd(static_cast<double>(block.field(c)));
    block.for_each_neighbour(c, [&](std::int64_t j, auto coupling) HAMON_AVX512 {
      const __m256i s8 = _mm256_maskz_loadu_epi8(r.active, &spins(first, j));
      const __m512i s_lo = _mm512_cvtepi8_epi32(_mm256_castsi256_si128(s8));
      const __m512i s_hi = _mm512_cvtepi8_epi32(_mm256_extracti128_si256(s8, 1));
      const __m512d J = _mm512_set1_pd(static_cast<double>(coupling));
      for (int q = 0; q < groups; ++q) {
        const __m512i s32 = q < 2 ? s_lo : s_hi;
        const __m256i s =
            q % 2 == 0 ? _mm512_castsi512_si256(s32) : _mm512_extracti64x4_epi64(s32, 1);
        phi[q] = _mm512_add_pd(phi[q], _mm512_mul_pd(J, _mm512_cvtepi32_pd(s)));
      }
    });
    std::uint32_t up = 0;
    for (int q = 0; q < groups; ++q) {
      const __m512i bytes = simd::generator_bytes(by_generator, first_generator + q / 2);
      const __m256i b =
          q % 2 == 0 ? _mm512_castsi512_si256(bytes) : _mm512_extracti64x4_epi64(bytes, 1);
      __mmask8 surely_up, maybe_up;
      if (field_boundary.extent(0) > 0) {
        // phi against the chain's boundaries B[b] and B[b + 1].
        const __m256i index = _mm256_add_epi32(r.boundary_row[q], b);
        const double* boundaries = field_boundary.data();
        const __m512d upper =
            _mm512_i32gather_pd(_mm256_add_epi32(index, _mm256_set1_epi32(1)), boundaries, 8);
        const __m512d lower = _mm512_i32gather_pd(index, boundaries, 8);
        surely_up = _mm512_cmp_pd_mask(phi[q], upper, _CMP_GE_OQ);
        maybe_up = _mm512_cmp_pd_mask(phi[q], lower, _CMP_GE_OQ);
      } else {
        const __m512d factor = _mm512_add_pd(
            _mm512_set1_pd(1.0), simd::exp8(_mm512_mul_pd(r.minus_two_beta[q], phi[q])));
        // The largest and the smallest word with this top byte.
        const __m256i w_low = _mm256_slli_epi32(b, 24);
        const __m256i w_high = _mm256_or_si256(w_low, _mm256_set1_epi32(0xFFFFFF));
        surely_up = _mm512_cmp_pd_mask(_mm512_mul_pd(simd::unit_interval8(w_high), factor),
                                       _mm512_set1_pd(1.0), _CMP_LT_OQ);
        maybe_up = _mm512_cmp_pd_mask(_mm512_mul_pd(simd::unit_interval8(w_low), factor),
                                      _mm512_set1_pd(1.0), _CMP_LT_OQ);
      }
      std::uint32_t decided = surely_up;
      const auto ties = static_cast<std::uint32_t>(maybe_up & ~surely_up) &
                        static_cast<std::uint32_t>(r.active >> (8 * q)) & 0xFFu;
      if (__builtin_expect(ties != 0, 0)) {
        decided =
            settle_real_ties(c.node, first + 8 * q, ties, decided, b, phi[q], r.minus_two_beta[q]);
      }
      up |= decided << (8 * q);
    }
    const __m256i decided =
        _mm256_mask_blend_epi8(__mmask32(up), _mm256_set1_epi8(-1), _mm256_set1_epi8(1));
    _mm256_mask_storeu_epi8(&spins(first, c.node), r.active, decided);
  }
#endif
};

/// Whether the host sweep runs in AVX-512 registers (compiled in, host space, not asked
/// for the portable loops).
template <class ExecutionSpace>
bool use_host_registers(HostKernel kernel) {
#ifdef HAMON_HOST_AVX512
  return host_style<ExecutionSpace> && kernel == HostKernel::best && simd::cpu_has_avx512();
#else
  (void)kernel;
  return false;
#endif
}

/// One colour block in the host style (`HostStyle`, `simd`: in registers) or the device
/// style.
template <bool HostStyle, class ExecutionSpace, class Block>
void update_block_in_style(const ExecutionSpace& space, const ChainState<ExecutionSpace>& state,
                           std::int32_t bound, const Block& block, std::int64_t n_block,
                           std::uint64_t seed, std::uint32_t round, std::uint32_t sweep,
                           bool simd) {
  const std::int32_t n_machines = state.n_machines();
  const std::int64_t n_groups = (n_machines + kMachinesPerDraw - 1) / kMachinesPerDraw;
  // Register runs: at most kRegisterRun nodes (three generator batches in flight), and a
  // whole number of runs per thread so no thread waits for another's extra run.
  const std::int64_t threads = space.concurrency();
  const std::int64_t rounds_of_runs =
      (n_block + kRegisterRun * threads - 1) / (kRegisterRun * threads);
  const std::int64_t run = (n_block + rounds_of_runs * threads - 1) / (rounds_of_runs * threads);
  const std::int32_t nodes_per_item =
      simd ? static_cast<std::int32_t>(run < 1 ? 1 : run) : kHostNodes;
  const BlockUpdate<ExecutionSpace, Block, HostStyle> update{
      block,          state.spins,    state.betas,    state.chain_of_machine,
      state.up_limit, state.up_floor, bound,          n_block,
      n_groups,       n_machines,     seed,           sweep,
      round,          simd,           nodes_per_item, state.field_boundary};
  const std::int64_t items =
      HostStyle ? (n_block + nodes_per_item - 1) / nodes_per_item : n_block * n_groups;
  // Host cost grows with register lanes (16 per node at least), not machines.
  launch(space, Block::label, items, n_block * host_lane_slots(n_machines), update);
}

template <class ExecutionSpace, class Block>
void update_block(const ExecutionSpace& space, const ChainState<ExecutionSpace>& state,
                  std::int32_t bound, const Block& block, std::int64_t n_block, std::uint64_t seed,
                  std::uint32_t round, std::uint32_t sweep, HostKernel kernel) {
  if constexpr (host_style<ExecutionSpace>) {
    if (kernel == HostKernel::device) {
      update_block_in_style<false>(space, state, bound, block, n_block, seed, round, sweep, false);
      return;
    }
  }
  update_block_in_style<host_style<ExecutionSpace>>(space, state, bound, block, n_block, seed,
                                                    round, sweep,
                                                    use_host_registers<ExecutionSpace>(kernel));
}

}  // namespace detail

/// The boundaries of real local fields (impl/field_boundaries.hpp) for the ladder, in
/// state.field_boundary (allocated here when missing).
template <class ExecutionSpace>
void refresh_field_boundaries(const ExecutionSpace& space, ChainState<ExecutionSpace>& state) {
  const auto n_chains = static_cast<std::int64_t>(state.betas.extent(0));
  if (static_cast<std::int64_t>(state.field_boundary.extent(0)) != n_chains) {
    state.field_boundary =
        decltype(state.field_boundary)(Kokkos::view_alloc(space, Kokkos::WithoutInitializing,
                                                          std::string("hamon::field_boundary")),
                                       n_chains, detail::kFieldBoundaries);
  }
  const auto boundary = state.field_boundary;
  const auto betas = state.betas;
  Kokkos::parallel_for(
      "hamon::field_boundaries",
      Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(
          space, 0, n_chains * detail::kFieldBoundaries),
      KOKKOS_LAMBDA(const std::int64_t i) {
        const std::int64_t chain = i / detail::kFieldBoundaries;
        const auto k = static_cast<std::int32_t>(i % detail::kFieldBoundaries);
        boundary(chain, k) = detail::field_boundary(betas(chain), detail::boundary_word(k));
      });
}

/// Fills the decision tables from the ladder: state.up_limit / up_floor with integer local
/// fields, state.field_boundary otherwise (allocated here). Call after creating the state
/// and whenever `betas` change.
template <class ExecutionSpace>
void refresh_acceptance_thresholds(const ExecutionSpace& space,
                                   const DeviceModel<typename ExecutionSpace::memory_space>& model,
                                   ChainState<ExecutionSpace>& state) {
  const std::int32_t bound = model.integer_field_bound;
  if (bound < 0) {
    refresh_field_boundaries(space, state);
    return;
  }
  if (state.up_limit.extent(0) == 0) return;
  const auto up_limit = state.up_limit;
  const auto up_floor = state.up_floor;
  const auto betas = state.betas;
  const std::int32_t width = 2 * bound + 1;
  // One chain per work item: the floor needs the chain's whole row.
  Kokkos::parallel_for(
      "hamon::acceptance_thresholds",
      Kokkos::RangePolicy<ExecutionSpace>(space, 0, static_cast<std::int32_t>(betas.extent(0))),
      KOKKOS_LAMBDA(const std::int32_t chain) {
        std::int32_t floor = 0;
        for (std::int32_t k = 0; k < width; ++k) {
          const std::uint64_t t = detail::heat_bath_threshold(
              detail::heat_bath_factor(betas(chain), static_cast<double>(k - bound)));
          up_limit(chain, k) = detail::threshold_limit(t);
          if (t == 0) floor = k + 1;
        }
        up_floor(chain) = floor;
      });
}

/// One block-Gibbs sweep of every machine: each colour class in turn. Periodic lattices
/// with integer local fields take the lattice fast path (DeviceModel::lattice), which
/// gives the same bits as the general path. `kernel` chooses the host implementation
/// (same bits either way).
template <class ExecutionSpace>
void gibbs_sweep(const ExecutionSpace& space,
                 const DeviceModel<typename ExecutionSpace::memory_space>& model,
                 const ChainState<ExecutionSpace>& state, std::uint64_t seed, std::uint32_t round,
                 std::uint32_t sweep, detail::HostKernel kernel = detail::HostKernel::best) {
  using memory_space = typename ExecutionSpace::memory_space;
  const std::int32_t bound = state.up_limit.extent(0) > 0 ? model.integer_field_bound : -1;
  if (model.lattice.enabled && bound >= 0) {
    for (std::int32_t colour = 0; colour < 2; ++colour) {
      detail::update_block(space, state, bound,
                           detail::LatticeBlock<memory_space>{model.lattice, colour},
                           model.lattice.n_nodes / 2, seed, round, sweep, kernel);
    }
    return;
  }
  const std::size_t n_colours = model.block_offsets.empty() ? 0 : model.block_offsets.size() - 1;
  for (std::size_t c = 0; c < n_colours; ++c) {
    const std::int64_t begin = model.block_offsets[c];
    const std::int64_t n_block = model.block_offsets[c + 1] - begin;
    if (n_block == 0) continue;
    detail::update_block(space, state, bound, detail::CsrBlock<memory_space>{model, begin}, n_block,
                         seed, round, sweep, kernel);
  }
}

}  // namespace hamon

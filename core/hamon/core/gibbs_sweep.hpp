#pragma once
// Block-Gibbs (heat-bath) sweep over every machine at once.
//
// A sweep updates the colour classes in turn; within a class no two nodes are
// neighbours, so all of its nodes (times all machines) update in parallel. Node i of
// machine m at inverse temperature beta draws s_i = +1 with probability
// 1 / (1 + exp(-2 beta phi_i)), phi_i = h_i + sum_j J_ij s_j.
//
// The uniform for (round, sweep, node, machine) is word (machine % 4) of Philox4x32-10 at
// counter (node, machine / 4, sweep, round): one generator call serves four machines, and
// the number never depends on which thread draws it.
//
// Spins are (machine, node) with machines adjacent for a node (ChainState). A GPU thread
// updates one node in one group of 4 machines (a warp reads coalesced bytes); a host work
// item updates one node in every machine, 32 at a time in plain loops over machines that
// the compiler vectorises (generators, fields, exp and the decision: the portable path).
// Where the host compiler targets AVX-512 and local fields are integers, a work item is a
// run of up to kRegisterRun nodes instead, with three batches of 16 generators in
// registers at a time (the register path, impl/host_simd.hpp): measured 2.3 updates/ns on
// 2 cores against 0.7 for the portable loops (perf/results/kernels_host.md).
//
// With integer local fields the decision is an integer comparison of the word with a
// threshold tabulated per (chain, phi) (impl/heat_bath.hpp), exactly equivalent to the
// floating-point test; otherwise 1 + exp(-2 beta phi) is evaluated per update. Every path
// evaluates the same decisions from the same words, so they all give the same bits.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

#include "hamon/core/chain_state.hpp"
#include "hamon/core/device_model.hpp"
#include "hamon/core/impl/counter_rng.hpp"
#include "hamon/core/impl/exp.hpp"
#include "hamon/core/impl/heat_bath.hpp"
#include "hamon/core/impl/host_simd.hpp"
#include "hamon/core/impl/launch.hpp"

namespace hamon {

namespace detail {

inline constexpr std::int32_t kMachinesPerDraw = 4;
inline constexpr std::int32_t kHostDraws = 8;  // generators per node and host chunk
inline constexpr std::int32_t kHostLanes = kHostDraws * kMachinesPerDraw;  // machines
inline constexpr std::int32_t kHostNodes = 2;     // nodes per host work item (generators in flight)
inline constexpr std::int32_t kRegisterRun = 48;  // most block nodes per AVX-512 work item

/// Which host implementation runs a sweep: the best available (AVX-512 registers where
/// compiled in and local fields are integers), or the portable loops (tests compare them).
enum class HostKernel { best, portable };

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

/// Heat-bath updates of one colour block (`Block`: CsrBlock or LatticeBlock).
template <class ExecutionSpace, class Block>
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

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t idx) const {
    if constexpr (host_style<ExecutionSpace>) {
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

  /// Device path: one node in the machines of one group of 4.
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
      if (bound >= 0) {
        const std::int32_t k = static_cast<std::int32_t>(phi[lane]) + bound;
        spins(m, node) = threshold_decision(draw.w[lane], up_limit(chain, k), k >= up_floor(chain));
      } else {
        spins(m, node) = heat_bath_decision(heat_bath_factor(betas(chain), phi[lane]),
                                            to_unit_interval(draw.w[lane]));
      }
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
    std::uint32_t node_counter[kDraws], group_counter[kDraws];
    for (std::int32_t g = 0; g < kDraws; ++g) {
      node_counter[g] = static_cast<std::uint32_t>(node_index[g / kHostDraws]);
      group_counter[g] = static_cast<std::uint32_t>(first / kMachinesPerDraw + g % kHostDraws);
    }
    std::uint32_t words[4 * kDraws];
    philox4_lanes<kDraws>(seed, node_counter, group_counter, sweep, round, words);

    double beta[kHostLanes];
    std::int64_t row[kHostLanes];     // offset of the machine's up_limit row at phi = 0
    std::int32_t lowest[kHostLanes];  // the lowest phi that can decide +1
    for (std::int32_t lane = 0; lane < lanes; ++lane) {
      const std::int32_t chain = chain_of_machine(first + lane);
      beta[lane] = betas(chain);
      row[lane] = bound >= 0 ? &up_limit(chain, bound) - up_limit.data() : 0;
      lowest[lane] = bound >= 0 ? up_floor(chain) - bound : 0;
    }
    for (std::int32_t n = 0; n < nodes; ++n) {
      const std::int64_t node = node_index[n];
      double phi[kHostLanes];
      block.local_fields(node, spins, first, lanes, phi);
      const std::uint32_t* word = &words[n * kHostLanes];
      std::int8_t* out = &spins(first, node);
      if (bound >= 0) {
        const std::uint32_t* limits = up_limit.data();
        HAMON_SIMD
        for (std::int32_t lane = 0; lane < lanes; ++lane) {
          const auto field = static_cast<std::int32_t>(phi[lane]);
          out[lane] =
              threshold_decision(word[lane], limits[row[lane] + field], field >= lowest[lane]);
        }
      } else {
        HAMON_SIMD
        for (std::int32_t lane = 0; lane < lanes; ++lane) {
          out[lane] = heat_bath_decision(heat_bath_factor(beta[lane], phi[lane]),
                                         to_unit_interval(word[lane]));
        }
      }
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

  [[gnu::always_inline]] LaneRows lane_rows(std::int32_t first, std::int32_t lanes) const {
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

  /// One node in machines [first, first + lanes), its words from generators
  /// first_generator.. of `draw`: local fields in 16-bit lanes, thresholds, the store.
  [[gnu::always_inline]] void update_node(const typename Block::Cursor& c, std::int32_t first,
                                          std::int32_t lanes, const LaneRows& r,
                                          const simd::PhiloxWords16& draw,
                                          std::int32_t first_generator) const {
    const std::uint32_t* limits = up_limit.data();
    const auto h = static_cast<short>(block.field(c));
    if (lanes > 16) {
      __m512i phi = _mm512_set1_epi16(h);
      block.for_each_neighbour(c, [&](std::int64_t j, auto coupling) {
        const __m512i s = _mm512_cvtepi8_epi16(_mm256_maskz_loadu_epi8(r.active, &spins(first, j)));
        phi = _mm512_add_epi16(
            phi, _mm512_mullo_epi16(s, _mm512_set1_epi16(static_cast<short>(coupling))));
      });
      const __m512i index_lo =
          _mm512_add_epi32(_mm512_cvtepi16_epi32(_mm512_castsi512_si256(phi)), r.row_lo);
      const __m512i index_hi =
          _mm512_add_epi32(_mm512_cvtepi16_epi32(_mm512_extracti64x4_epi64(phi, 1)), r.row_hi);
      const __mmask16 up_lo = simd::decide16(r.active_lo, index_lo, r.floor_lo,
                                             simd::machine_words(draw, first_generator, 0), limits);
      const __mmask16 up_hi = simd::decide16(r.active_hi, index_hi, r.floor_hi,
                                             simd::machine_words(draw, first_generator, 1), limits);
      const __m256i decided = _mm256_mask_blend_epi8(_mm512_kunpackw(up_hi, up_lo),
                                                     _mm256_set1_epi8(-1), _mm256_set1_epi8(1));
      _mm256_mask_storeu_epi8(&spins(first, c.node), r.active, decided);
    } else {
      // At most 16 machines: half-width registers, no idle lanes.
      __m256i phi = _mm256_set1_epi16(h);
      block.for_each_neighbour(c, [&](std::int64_t j, auto coupling) {
        const __m256i s = _mm256_cvtepi8_epi16(_mm_maskz_loadu_epi8(r.active_lo, &spins(first, j)));
        phi = _mm256_add_epi16(
            phi, _mm256_mullo_epi16(s, _mm256_set1_epi16(static_cast<short>(coupling))));
      });
      const __m512i index = _mm512_add_epi32(_mm512_cvtepi16_epi32(phi), r.row_lo);
      const __mmask16 up = simd::decide16(r.active_lo, index, r.floor_lo,
                                          simd::machine_words(draw, first_generator, 0), limits);
      const __m128i decided = _mm_mask_blend_epi8(up, _mm_set1_epi8(-1), _mm_set1_epi8(1));
      _mm_mask_storeu_epi8(&spins(first, c.node), r.active_lo, decided);
    }
  }
#endif

  /// AVX-512 host path: block nodes [begin, begin + nodes) in machines [first, first + 32).
  /// A node needs ceil(lanes / 4) generators, so a batch of 16 serves 16 / that many
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
  [[gnu::noinline]] void update_registers_integer(std::int64_t begin, std::int32_t nodes,
                                                  std::int32_t first) const {
    const std::int32_t lanes = n_machines - first < kHostLanes ? n_machines - first : kHostLanes;
    const LaneRows rows = lane_rows(first, lanes);
    walk_registers(
        begin, nodes, first,
        lanes, [&](const auto& c, const auto& draw, auto gen) __attribute__((always_inline)) {
          update_node(c, first, lanes, rows, draw, gen);
        });
  }

  [[gnu::noinline]] void update_registers_real(std::int64_t begin, std::int32_t nodes,
                                               std::int32_t first) const {
    const std::int32_t lanes = n_machines - first < kHostLanes ? n_machines - first : kHostLanes;
    const LaneBetas lane_betas = betas_of_lanes(first, lanes);
    walk_registers(
        begin, nodes, first,
        lanes, [&](const auto& c, const auto& draw, auto gen) __attribute__((always_inline)) {
          update_node_real(c, first, lanes, lane_betas, draw, gen);
        });
  }

  /// Runs the Philox batches for the nodes and calls update(cursor, draw, first_generator)
  /// for each node in order.
  template <class Update>
  [[gnu::always_inline]] void walk_registers(std::int64_t begin, std::int32_t nodes,
                                             std::int32_t first, std::int32_t lanes,
                                             Update&& update) const {
    constexpr int kBatches = 3;
    const std::int32_t per_node = (lanes + kMachinesPerDraw - 1) / kMachinesPerDraw;
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

      typename Block::Cursor c = step_start;
      for (std::int32_t n = 0, b = 0, in_batch = 0; n < in_step; ++n) {
        if (n > 0) block.advance(c);
        update(c, draws[b], in_batch * per_node);
        if (++in_batch == per_batch) {
          in_batch = 0;
          ++b;
        }
      }
    }
  }

  /// -2 beta of each lane's chain, 8 lanes per register (real local fields).
  struct LaneBetas {
    __mmask32 active;
    __m512d minus_two_beta[4];
  };

  [[gnu::always_inline]] LaneBetas betas_of_lanes(std::int32_t first, std::int32_t lanes) const {
    LaneBetas r;
    r.active = simd::lane_mask(lanes);
    for (int q = 0; q < 4; ++q) {
      const auto mask = static_cast<__mmask8>(r.active >> (8 * q));
      const __m256i chains = _mm256_maskz_loadu_epi32(mask, &chain_of_machine(first) + 8 * q);
      const __m512d beta =
          _mm512_mask_i32gather_pd(_mm512_setzero_pd(), mask, chains, betas.data(), 8);
      r.minus_two_beta[q] = _mm512_mul_pd(_mm512_set1_pd(-2.0), beta);
    }
    return r;
  }

  /// One node, real local fields: phi = h + sum_j J s_j in CRS order, then
  /// u * (1 + exp(-2 beta phi)) < 1, every operation as the portable loops do it.
  [[gnu::always_inline]] void update_node_real(const typename Block::Cursor& c, std::int32_t first,
                                               std::int32_t lanes, const LaneBetas& r,
                                               const simd::PhiloxWords16& draw,
                                               std::int32_t first_generator) const {
    const int groups = (lanes + 7) / 8;
    __m512d phi[4];
    for (int q = 0; q < 4; ++q) phi[q] = _mm512_set1_pd(static_cast<double>(block.field(c)));
    block.for_each_neighbour(c, [&](std::int64_t j, auto coupling) {
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
      const __m512i words = simd::machine_words(draw, first_generator, q / 2);
      const __m256i w =
          q % 2 == 0 ? _mm512_castsi512_si256(words) : _mm512_extracti64x4_epi64(words, 1);
      const __m512d factor = _mm512_add_pd(_mm512_set1_pd(1.0),
                                           simd::exp8(_mm512_mul_pd(r.minus_two_beta[q], phi[q])));
      const __mmask8 below = _mm512_cmp_pd_mask(_mm512_mul_pd(simd::unit_interval8(w), factor),
                                                _mm512_set1_pd(1.0), _CMP_LT_OQ);
      up |= static_cast<std::uint32_t>(below) << (8 * q);
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
  return host_style<ExecutionSpace> && kernel == HostKernel::best;
#else
  (void)kernel;
  return false;
#endif
}

template <class ExecutionSpace, class Block>
void update_block(const ExecutionSpace& space, const ChainState<ExecutionSpace>& state,
                  std::int32_t bound, const Block& block, std::int64_t n_block, std::uint64_t seed,
                  std::uint32_t round, std::uint32_t sweep, HostKernel kernel) {
  const std::int32_t n_machines = state.n_machines();
  const std::int64_t n_groups = (n_machines + kMachinesPerDraw - 1) / kMachinesPerDraw;
  const bool simd = use_host_registers<ExecutionSpace>(kernel);
  // Register runs: at most kRegisterRun nodes (three generator batches in flight), and a
  // whole number of runs per thread so no thread waits for another's extra run.
  const std::int64_t threads = space.concurrency();
  const std::int64_t rounds_of_runs =
      (n_block + kRegisterRun * threads - 1) / (kRegisterRun * threads);
  const std::int64_t run = (n_block + rounds_of_runs * threads - 1) / (rounds_of_runs * threads);
  const std::int32_t nodes_per_item =
      simd ? static_cast<std::int32_t>(run < 1 ? 1 : run) : kHostNodes;
  const BlockUpdate<ExecutionSpace, Block> update{
      block,          state.spins,    state.betas,   state.chain_of_machine,
      state.up_limit, state.up_floor, bound,         n_block,
      n_groups,       n_machines,     seed,          sweep,
      round,          simd,           nodes_per_item};
  const std::int64_t items = host_style<ExecutionSpace>
                                 ? (n_block + nodes_per_item - 1) / nodes_per_item
                                 : n_block * n_groups;
  // Host cost grows with register lanes (16 per node at least), not machines.
  launch(space, Block::label, items, n_block * host_lane_slots(n_machines), update);
}

}  // namespace detail

/// Fills state.up_limit / up_floor from the ladder: call after creating the
/// state and whenever `betas` change. Nothing to do without integer local fields.
template <class ExecutionSpace>
void refresh_acceptance_thresholds(const ExecutionSpace& space,
                                   const DeviceModel<typename ExecutionSpace::memory_space>& model,
                                   const ChainState<ExecutionSpace>& state) {
  const std::int32_t bound = model.integer_field_bound;
  if (bound < 0 || state.up_limit.extent(0) == 0) return;
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

// SPDX-License-Identifier: Apache-2.0
#pragma once
// A resumable NRPT run: hamon::Sampler owns the model in its execution space, the state of
// every machine (spins, both permutations, trip phases, swap and round-trip counters, the
// round number, the current ladder) and the observer accumulators. nrpt() is
//   Sampler s(space, model, options); s.run(options.burn_in + options.n_rounds);
//   return s.result();
//
// Contracts (tested on every space and thread count):
// - run(a); run(b) gives the same bits as run(a + b);
// - state() -> a Sampler built from that state -> run gives the same bits as never
//   stopping, on any execution space and thread count (SamplerState is portable;
//   checkpoint.hpp writes it to a file).
// The phases (burn-in with adaptation and settling, then measurement) follow the round
// number (run_phases.hpp), so they survive a stop at any round. Measurement has no end:
// run() may continue past options.n_rounds (which only nrpt(), result()'s bookkeeping of
// the planned length and the size of the trace chunks use).
//
// Traces (samples, energies, index process) leave the execution space in chunks of at most
// detail::kTraceChunkRows rows, fewer when the run plans fewer: to a TraceSink when one is
// given (memory O(chunk)), else into host vectors that result() returns and state() carries.
//
// One run over several processes: give every rank's Sampler the same model, options and
// (when resuming) state, and a MachineExchange (machine_exchange.hpp). Each rank then holds
// and sweeps its block of the machines only; the outputs are the bits of one process.
// run(), result() and state() are collective (every rank calls them, with the same
// arguments); result() and state() are complete on rank 0, which alone hands traces to its
// sink (the other ranks' sinks receive nothing; a rank without a sink keeps the energy and
// index-process traces, which every rank has, but no samples).

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

#include "hamon/core/model/device_model.hpp"
#include "hamon/core/model/spin_model.hpp"
#include "hamon/core/sampler/checkpoint.hpp"
#include "hamon/core/sampler/machine_exchange.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/core/state/sampler_state.hpp"

namespace hamon {

/// Receives trace rows in order, as they leave the execution space (row-major blocks).
class TraceSink {
 public:
  virtual ~TraceSink() = default;
  virtual void append_samples(const std::int8_t* rows, std::int64_t n_rows,
                              std::int64_t n_columns) = 0;
  virtual void append_energies(const double* rows, std::int64_t n_rows, std::int64_t n_columns) = 0;
  /// Continuous models' sample rows; a sink that takes none throws std::logic_error.
  virtual void append_real_samples(const double* /*rows*/, std::int64_t /*n_rows*/,
                                   std::int64_t /*n_columns*/) {
    throw std::logic_error("this trace sink takes no real-valued samples");
  }
  virtual void append_index_process(const std::int32_t* rows, std::int64_t n_rows,
                                    std::int64_t n_columns) = 0;
  /// Every row handed over so far must be durable (called before a checkpoint records the
  /// row counts).
  virtual void sync() {}
};

/// The space-independent face of a Sampler (what the dispatcher hands out), for
/// variables stored as `Value` (variable_kind.hpp): SamplerBase for spins and Potts
/// states, SamplerBaseOf<double> for continuous models.
template <class Value>
class SamplerBaseOf {
 public:
  using state_type = SamplerStateOf<Value>;
  virtual ~SamplerBaseOf() = default;
  /// Runs up to `n_rounds` more rounds; after each round `should_stop` (when given) may
  /// end the call early. Returns the rounds run. Throws std::invalid_argument when the
  /// round counter would pass 2^32. Over ranks, every rank's call ends after the same round:
  /// one round after the first rank's should_stop said true (its vote travels with the next
  /// round's energies), or after n_rounds.
  virtual std::int64_t run(std::int64_t n_rounds,
                           const std::function<bool()>& should_stop = {}) = 0;
  virtual std::int64_t rounds_done() const = 0;
  /// Measured rounds so far (rounds after burn-in).
  virtual std::int64_t measured_rounds() const = 0;
  /// The result so far (measured rounds only; flushes the traces first).
  virtual NrptResult result() = 0;
  /// The state to continue from (flushes the traces first; a sink is synced).
  virtual state_type state() = 0;
  virtual const NrptOptions& options() const = 0;
  /// What a checkpoint of this run records and a resumed run checks (checkpoint.hpp):
  /// identity_of(the model, options()).
  virtual CheckpointIdentity identity() const = 0;
  virtual std::string execution_space() const = 0;
  /// Before the first round: replaces the random start with the spins and the permutation
  /// of `configuration` (a state of the same model and chain count, e.g. the end of a
  /// tuning run on this ladder: a warm start). Counters, trip phases and observers start
  /// afresh. Throws std::logic_error after the first round, std::invalid_argument for a
  /// configuration of another shape.
  virtual void start_from(const state_type& configuration) = 0;
};

using SamplerBase = SamplerBaseOf<std::int8_t>;

namespace detail {
template <class ExecutionSpace, class Value = std::int8_t>
struct SamplerCore;
}

/// `Value`: std::int8_t (the default) for Ising, Potts and RBM models, double for
/// continuous models (SpinModel::is_continuous); a model of the other kind throws
/// std::invalid_argument.
template <class ExecutionSpace, class Value = std::int8_t>
class Sampler final : public SamplerBaseOf<Value> {
  using CompiledForThisSpace = require_instantiated_t<ExecutionSpace>;

 public:
  using memory_space = typename ExecutionSpace::memory_space;
  using SamplerState = SamplerStateOf<Value>;
  using Checkpoint = CheckpointOf<Value>;

  /// A new run from uniformly random spins (options.seed). Throws std::invalid_argument
  /// for invalid options. `sink` and `exchange` (optional) must outlive the sampler.
  Sampler(const ExecutionSpace& space, const SpinModel& model, const NrptOptions& options,
          TraceSink* sink = nullptr, MachineExchange* exchange = nullptr);
  Sampler(const ExecutionSpace& space, const DeviceModel<memory_space>& model,
          const NrptOptions& options, TraceSink* sink = nullptr,
          MachineExchange* exchange = nullptr);
  /// Continues from `state` (made by a Sampler of the same model and options, on any space
  /// and any number of ranks). Throws std::invalid_argument when the state's shape does
  /// not fit. A bare state does not say which model and options made it (a checkpoint
  /// does): the constructors from a Checkpoint below also refuse another run's state.
  Sampler(const ExecutionSpace& space, const SpinModel& model, const NrptOptions& options,
          const SamplerState& state, TraceSink* sink = nullptr,
          MachineExchange* exchange = nullptr);
  Sampler(const ExecutionSpace& space, const DeviceModel<memory_space>& model,
          const NrptOptions& options, const SamplerState& state, TraceSink* sink = nullptr,
          MachineExchange* exchange = nullptr);
  /// Continues from `checkpoint.state`, as above, once `checkpoint.identity` is this
  /// run's identity(): a checkpoint of another model, of options that shape other bits, or
  /// of another random stream throws CheckpointError saying which differs.
  Sampler(const ExecutionSpace& space, const SpinModel& model, const NrptOptions& options,
          const Checkpoint& checkpoint, TraceSink* sink = nullptr,
          MachineExchange* exchange = nullptr);
  Sampler(const ExecutionSpace& space, const DeviceModel<memory_space>& model,
          const NrptOptions& options, const Checkpoint& checkpoint, TraceSink* sink = nullptr,
          MachineExchange* exchange = nullptr);
  ~Sampler() override;
  Sampler(const Sampler&) = delete;
  Sampler& operator=(const Sampler&) = delete;

  std::int64_t run(std::int64_t n_rounds, const std::function<bool()>& should_stop = {}) override;
  std::int64_t rounds_done() const override;
  std::int64_t measured_rounds() const override;
  NrptResult result() override;
  SamplerState state() override;
  const NrptOptions& options() const override;
  CheckpointIdentity identity() const override;
  std::string execution_space() const override;
  void start_from(const SamplerState& configuration) override;

 private:
  std::unique_ptr<detail::SamplerCore<ExecutionSpace, Value>> core_;
};

}  // namespace hamon

// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness: what lies behind a checkpoint's checksums. A mutated checkpoint almost
// always fails its CRCs (fuzz_checkpoint stops there), so this harness first recomputes
// every section's CRC-32 in the input (the layout of checkpoint.hpp: "HAMONCKP", u32
// version, u32 section count, then per section a 4-byte tag, u64 payload length, u32 CRC,
// payload), then reads it, and hands what reads to a Sampler (Kokkos::Serial, the round
// loop compiled instrumented) as the state of a small Ising and a small Potts run, and runs
// a few rounds. The state goes in through the constructor from a bare SamplerState: the
// identity check of the Checkpoint constructor (a unit-tested comparison) would stop most
// mutations of the IDNT section before the restore. Every outcome but a clean run or the
// documented refusals (CheckpointError from the reader, std::invalid_argument from the
// sampler's restore checks or its round limit) is a finding: a crash, a sanitizer report
// (a kernel indexing by a saved value out of range), another exception, an absurd
// allocation.
//
// The seeds (corpus/checkpoint_restore/) are checkpoints of these two runs, written by
//   HAMON_FUZZ_WRITE_SEEDS=DIR build-fuzz/fuzz_checkpoint_restore
// (the Ising and Potts runs below, stopped in measurement so every section is populated).
#include <zlib.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "hamon/core/model/spin_model.hpp"
#include "hamon/core/sampler/checkpoint.hpp"
#include "hamon/core/sampler/sampler.hpp"

namespace {

using Space = Kokkos::Serial;

/// A 6-node ring with a chord: small enough for thousands of restores a second.
std::vector<hamon::Edge> ring_edges() {
  std::vector<hamon::Edge> edges;
  for (std::int64_t i = 0; i < 6; ++i) edges.push_back({i, (i + 1) % 6, i % 2 ? 0.7 : -0.4});
  edges.push_back({0, 3, 0.5});
  return edges;
}

const hamon::SpinModel& ising_model() {
  static const hamon::SpinModel model = hamon::SpinModel::from_edges(6, ring_edges());
  return model;
}

const hamon::SpinModel& potts_model() {
  static const hamon::SpinModel model = hamon::SpinModel::potts(6, 3, ring_edges());
  return model;
}

/// Every observer on, so that the moment batches and all three traces are in the state,
/// and two replicas, so that the overlap batches are too.
hamon::NrptOptions run_options() {
  hamon::NrptOptions o;
  o.n_chains = 4;
  o.n_replicas = 2;
  o.beta_max = 1.5;
  o.n_rounds = 40;
  o.burn_in = 8;
  o.n_expl = 1;
  o.seed = 7;
  o.observers.samples_every = 2;
  o.observers.energies = true;
  o.observers.index_process = true;
  o.observers.moments = true;
  o.observers.moment_batches = 2;
  return o;
}

std::uint32_t read_u32(const std::string& s, std::size_t at) {
  std::uint32_t v = 0;
  for (int b = 3; b >= 0; --b) v = v << 8 | static_cast<std::uint8_t>(s[at + std::size_t(b)]);
  return v;
}

std::uint64_t read_u64(const std::string& s, std::size_t at) {
  return std::uint64_t{read_u32(s, at + 4)} << 32 | read_u32(s, at);
}

/// The input with every whole section's CRC-32 recomputed; a truncated tail stays as it is.
std::string with_valid_crcs(std::string s) {
  constexpr std::size_t header = 16, section_header = 16;  // magic+version+count; tag+len+crc
  std::size_t at = header;
  while (at + section_header <= s.size()) {
    const std::uint64_t length = read_u64(s, at + 4);
    const std::size_t payload = at + section_header;
    if (length > s.size() - payload) break;
    const auto* bytes = reinterpret_cast<const Bytef*>(s.data() + payload);
    auto crc = static_cast<std::uint32_t>(crc32(crc32(0L, Z_NULL, 0), bytes, uInt(length)));
    for (std::size_t b = 0; b < 4; ++b, crc >>= 8) s[at + 12 + b] = static_cast<char>(crc & 0xff);
    at = payload + length;
  }
  return s;
}

/// Restores `state` as a run of `model` and runs a few rounds (kernels indexing by every
/// restored value), then takes the state and the result (the trace and moment paths back).
void restore_and_run(const hamon::SpinModel& model, const hamon::SamplerState& state) {
  try {
    hamon::Sampler<Space> sampler(Space(), model, run_options(), state);
    sampler.run(3);
    (void)sampler.state();
    (void)sampler.result();
  } catch (const std::invalid_argument&) {
  }
}

void write_seeds(const char* dir) {
  std::filesystem::create_directories(dir);
  const char* names[] = {"ising.bin", "potts.bin"};
  const hamon::SpinModel* models[] = {&ising_model(), &potts_model()};
  for (int k = 0; k < 2; ++k) {
    hamon::Sampler<Space> sampler(Space(), *models[k], run_options());
    sampler.run(30);  // burn-in (8 rounds) and 22 measured: every section has entries
    hamon::Checkpoint c{sampler.identity(), sampler.state(), {{"note", "fuzz seed"}}};
    std::ofstream out(std::filesystem::path(dir) / names[k], std::ios::binary | std::ios::trunc);
    hamon::write_checkpoint(out, c);
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // The runs are Serial's: the OpenMP backend Kokkos also starts needs no threads here.
  setenv("OMP_NUM_THREADS", "1", 0);
  setenv("OMP_PROC_BIND", "false", 0);
  Kokkos::initialize();
  std::atexit([] { Kokkos::finalize(); });
  if (const char* dir = std::getenv("HAMON_FUZZ_WRITE_SEEDS")) {
    write_seeds(dir);
    std::exit(0);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(with_valid_crcs(std::string(reinterpret_cast<const char*>(data), size)));
  hamon::Checkpoint c;
  try {
    c = hamon::read_checkpoint(in, "fuzz input");
  } catch (const hamon::CheckpointError&) {
    return 0;
  }
  restore_and_run(ising_model(), c.state);
  restore_and_run(potts_model(), c.state);
  return 0;
}

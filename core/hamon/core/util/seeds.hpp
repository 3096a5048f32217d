// SPDX-License-Identifier: Apache-2.0
#pragma once
// Seeds derived from the user's one seed, so every run of a multi-run flow (tuning phases,
// probes, production segments) draws its own random numbers, deterministically.

#include <cstdint>

namespace hamon {

/// The increment of the SplitMix64 generator (the golden ratio in 64 bits).
inline constexpr std::uint64_t kSplitMix64Increment = 0x9e3779b97f4a7c15ULL;

/// The SplitMix64 output function (Steele, Lea & Flood 2014): a bijective 64-bit mix.
constexpr std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// SplitMix64's output for state x: a bijective 64-bit mixer.
constexpr std::uint64_t splitmix64(std::uint64_t x) {
  return mix64(x + kSplitMix64Increment);
}

/// The stages of the tuning flow that run the sampler; each gets its own seed stream.
enum class SeedStream : std::uint64_t {
  chain_pilot = 1,        // tune_chains: the pilot and every iteration's schedule tuning
  schedule = 2,           // tune_schedule: one seed per phase and per pooled extension
  exploration = 3,        // tune_exploration: one seed per candidate
  schedule_polish = 4,    // autotune: the final schedule tuning
  production = 5,         // Plan::sample / Plan::extend
  instance_disorder = 6,  // `instances: K`: instance k's coupling, field and RBM weight seeds
  instance_sampler = 7,   // `instances: K`: instance k's sampler seed
};

/// The seed of run `index` of `stream`, derived from `seed`. Distinct (stream, index)
/// pairs give distinct seeds with overwhelming probability (64-bit hash); the map is
/// fixed, so a flow is reproducible from its seed.
constexpr std::uint64_t derive_seed(std::uint64_t seed, SeedStream stream, std::uint64_t index) {
  const std::uint64_t s = splitmix64(seed ^ splitmix64(static_cast<std::uint64_t>(stream)));
  return splitmix64(s + splitmix64(index + 0x632be59bd9b4e019ULL));
}

}  // namespace hamon

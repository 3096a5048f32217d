// SPDX-License-Identifier: Apache-2.0
// Checkpoint files (hamon/core/sampler/checkpoint.hpp): exact round trip, every corruption caught
// and named, identity checks, atomic replacement that keeps the previous checkpoint, and
// the fall-back to it.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "../support/state_fields.hpp"
#include "hamon/core/model/model_builders.hpp"
#include "hamon/hamon.hpp"  // the umbrella: this test sees the public API only

namespace {

namespace fs = std::filesystem;

hamon::Checkpoint sample_checkpoint(std::int64_t round) {
  hamon::Checkpoint c;
  c.identity = {"9.9.9", 1, 0x0123456789abcdefULL, 0xfedcba9876543210ULL};
  hamon::SamplerState& s = c.state;
  s.rounds_done = round;
  s.n_machines = 3;
  s.n_nodes = 4;
  s.betas = {0.0, 0.1 + 1e-17, std::nextafter(1.0, 2.0)};
  s.spins = {1, -1, 1, 1, -1, -1, 1, -1, 1, 1, 1, -1};
  s.chain_of_machine = {2, 0, 1};
  s.machine_of_chain = {1, 2, 0};
  s.trip_phase = {0, 1, 2};
  s.energy_fixed = {-(std::int64_t{1} << 45), 7, std::numeric_limits<std::int64_t>::min()};
  s.attempted = {10, 11};
  s.accepted = {3, 4};
  s.round_trips = {1, 0, 2};
  s.restarts = {1, 1, 2};
  s.moments.length = 4;
  s.moments.n_batches = 1;
  s.moments.in_batch = 2;
  s.moments.node_sums = {4, -4, 2, 0, 1, 1, 1, 1};  // packed in 1 byte each
  // ... in 8: every width's edge values
  s.moments.edge_sums = {std::numeric_limits<std::int64_t>::min(),
                         std::int64_t{1} << 40,
                         -129,
                         128,
                         -32769,
                         32768,
                         -1,
                         0};
  s.moments.energy_sums = {-1.5, std::ldexp(1.0, -40)};
  s.moments.counts = {4, 2};
  s.traces.energy_rows = 2;
  s.traces.energies = {1.0, -2.0, 3.5, 0.25, -0.0, 1e300};
  c.attachments["plan"] = "n_expl 2\n";
  return c;
}

std::string bytes_of(const hamon::Checkpoint& c) {
  std::ostringstream out;
  hamon::write_checkpoint(out, c);
  return out.str();
}

hamon::Checkpoint parse(const std::string& bytes) {
  std::istringstream in(bytes);
  return hamon::read_checkpoint(in, "test.bin");
}

std::string error_of(const std::string& bytes) {
  try {
    parse(bytes);
  } catch (const hamon::CheckpointError& e) {
    return e.what();
  }
  return "";
}

TEST(Checkpoint, round_trip_is_exact) {
  const hamon::Checkpoint c = sample_checkpoint(12);
  const hamon::Checkpoint back = parse(bytes_of(c));
  EXPECT_EQ(back.identity.hamon_version, "9.9.9");
  EXPECT_EQ(back.identity.model_fingerprint, c.identity.model_fingerprint);
  EXPECT_EQ(back.identity.options_fingerprint, c.identity.options_fingerprint);
  EXPECT_EQ(back.state.betas, c.state.betas);  // bit patterns
  EXPECT_EQ(back.state.spins, c.state.spins);
  EXPECT_EQ(back.state.energy_fixed, c.state.energy_fixed);
  EXPECT_EQ(back.state.trip_phase, c.state.trip_phase);
  EXPECT_EQ(back.state.moments.node_sums, c.state.moments.node_sums);
  EXPECT_EQ(back.state.moments.edge_sums, c.state.moments.edge_sums);
  for (const std::vector<std::int64_t>& values :
       {std::vector<std::int64_t>{-128, 127}, std::vector<std::int64_t>{-32768, 32767, 5},
        std::vector<std::int64_t>{-2147483648LL, 2147483647LL}, std::vector<std::int64_t>{}}) {
    hamon::Checkpoint w = c;
    w.state.moments.node_sums = values;
    EXPECT_EQ(parse(bytes_of(w)).state.moments.node_sums, values);
  }
  EXPECT_EQ(back.state.moments.energy_sums, c.state.moments.energy_sums);
  EXPECT_TRUE(std::signbit(back.state.traces.energies[4]));
  EXPECT_EQ(back.state.traces.energies, c.state.traces.energies);
  EXPECT_EQ(back.attachments, c.attachments);
  EXPECT_EQ(bytes_of(back), bytes_of(c));
}

TEST(Checkpoint, every_field_of_the_state_survives_the_round_trip) {
  // Filled through the state's own field list: a field added to the list is covered here
  // without an edit, and the comparison walks the same list.
  hamon::Checkpoint c;
  std::int64_t next = 0;
  hamon_test::fill_every_field(c.state, next);
  EXPECT_EQ(hamon_test::first_difference(parse(bytes_of(c)).state, c.state), "");
  // The walk sees every field: each one changed alone is noticed, under its name, after
  // the round trip too.
  const int n = hamon_test::count_leaf_fields(c.state);
  EXPECT_EQ(n, 51) << "SamplerState's leaf fields (update when adding one)";
  for (int k = 0; k < n; ++k) {
    hamon::Checkpoint changed = c;
    const std::string name = hamon_test::perturb_leaf_field(changed.state, k);
    const std::string seen = hamon_test::first_difference(parse(bytes_of(changed)).state, c.state);
    EXPECT_FALSE(name.empty());
    EXPECT_NE(seen.find(name), std::string::npos) << "field " << k << " (" << name << ")";
  }
}

TEST(Checkpoint, every_flipped_byte_and_every_truncation_is_caught) {
  const std::string good = bytes_of(sample_checkpoint(12));
  for (std::size_t k = 0; k < good.size(); ++k) {
    std::string bad = good;
    bad[k] = static_cast<char>(bad[k] ^ 0x10);
    EXPECT_NE(error_of(bad), "") << "byte " << k << " flipped and not noticed";
  }
  for (std::size_t n = 0; n < good.size(); n += 7) {
    EXPECT_NE(error_of(good.substr(0, n)), "") << "truncated to " << n;
  }
  EXPECT_NE(error_of(good + "x").find("extra bytes"), std::string::npos);
}

TEST(Checkpoint, errors_name_the_file_and_the_problem) {
  const std::string good = bytes_of(sample_checkpoint(12));
  std::string other_version = good;
  other_version[8] = 7;  // format version, little-endian
  EXPECT_NE(error_of(other_version).find("test.bin has checkpoint format version 7"),
            std::string::npos)
      << error_of(other_version);
  EXPECT_NE(error_of("not a checkpoint at all").find("not a hamon checkpoint"), std::string::npos);
  std::string payload = good;
  payload[payload.size() - 3] ^= 1;  // inside the last section (attachments)
  EXPECT_NE(error_of(payload).find("section ATCH fails its checksum"), std::string::npos)
      << error_of(payload);
  EXPECT_NE(error_of(good.substr(0, good.size() / 2)).find("truncated"), std::string::npos);
}

/// `bytes` as the given format version wrote them without section `tag` (header: magic,
/// u32 version, u32 section count; each section: tag, u64 length, u32 CRC, payload).
std::string without_section(const std::string& bytes, const std::string& tag,
                            std::uint8_t version) {
  std::string out = bytes.substr(0, 16);
  out[8] = static_cast<char>(version);
  out[12] = static_cast<char>(out[12] - 1);
  for (std::size_t at = 16; at < bytes.size();) {
    std::uint64_t length = 0;
    for (int b = 7; b >= 0; --b) {
      length = (length << 8) | static_cast<unsigned char>(bytes[at + 4 + b]);
    }
    const std::size_t end = at + 16 + length;
    if (bytes.compare(at, 4, tag) != 0) out += bytes.substr(at, end - at);
    at = end;
  }
  return out;
}

TEST(Checkpoint, a_format_3_file_without_magnetisation_still_reads) {
  const hamon::Checkpoint c = sample_checkpoint(12);
  ASSERT_TRUE(c.state.magnetization.counts.empty());
  const std::string format3 = without_section(bytes_of(c), "MAGN", 3);
  ASSERT_LT(format3.size(), bytes_of(c).size());
  const hamon::Checkpoint back = parse(format3);
  EXPECT_EQ(hamon_test::first_difference(back.state, c.state), "");
  EXPECT_EQ(bytes_of(back), bytes_of(c));  // written again as the current format
  // Format 3 files without the overlap section are older still (format 2): refused by name.
  const std::string format2 = without_section(format3, "OVLP", 2);
  EXPECT_NE(error_of(format2).find("checkpoint format version 2; this hamon reads 3 to 4"),
            std::string::npos)
      << error_of(format2);
}

TEST(Checkpoint, identity_mismatches_say_what_differs) {
  const auto model = hamon::make_lattice({4, 4}, true);
  hamon::NrptOptions o;
  o.n_chains = 4;
  const hamon::CheckpointIdentity saved = hamon::identity_of(model, o);
  EXPECT_NO_THROW(hamon::check_identity(saved, hamon::identity_of(model, o), "f"));
  hamon::NrptOptions longer = o;
  longer.n_rounds = 99999;  // the planned length is not part of the identity (extend)
  EXPECT_NO_THROW(hamon::check_identity(saved, hamon::identity_of(model, longer), "f"));
  auto message = [&](const hamon::CheckpointIdentity& now) {
    try {
      hamon::check_identity(saved, now, "f.bin");
    } catch (const hamon::CheckpointError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  hamon::NrptOptions other_seed = o;
  other_seed.seed = 5;
  EXPECT_NE(message(hamon::identity_of(model, other_seed)).find("f.bin: the sampling options"),
            std::string::npos);
  hamon::NrptOptions other_observers = o;
  other_observers.observers.energies = true;
  EXPECT_NE(message(hamon::identity_of(model, other_observers)).find("options"), std::string::npos);
  const auto other_model =
      hamon::make_lattice({4, 4}, true, hamon::ValueDistribution::constant(0.5));
  EXPECT_NE(message(hamon::identity_of(other_model, o)).find("the model"), std::string::npos);
  hamon::CheckpointIdentity other_stream = hamon::identity_of(model, o);
  other_stream.stream_version += 1;
  EXPECT_NE(message(other_stream).find("random-stream version"), std::string::npos);
}

class CheckpointFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("hamon-checkpoint-test-" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path file() const { return dir_ / "checkpoint.bin"; }
  static void corrupt(const fs::path& path) {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(40);
    f.put('\x55');
  }
  fs::path dir_;
};

TEST_F(CheckpointFiles, save_keeps_the_previous_and_load_takes_the_newest) {
  hamon::save_checkpoint(file(), sample_checkpoint(10));
  EXPECT_FALSE(fs::exists(dir_ / "checkpoint.bin.prev"));
  hamon::save_checkpoint(file(), sample_checkpoint(20));
  EXPECT_TRUE(fs::exists(dir_ / "checkpoint.bin.prev"));
  EXPECT_FALSE(fs::exists(dir_ / "checkpoint.bin.new"));
  const hamon::LoadedCheckpoint loaded = hamon::load_checkpoint(file());
  EXPECT_EQ(loaded.checkpoint.state.rounds_done, 20);
  EXPECT_EQ(loaded.file, file());
  EXPECT_TRUE(loaded.skipped.empty());
}

TEST_F(CheckpointFiles, a_corrupt_newest_falls_back_and_says_so) {
  hamon::save_checkpoint(file(), sample_checkpoint(10));
  hamon::save_checkpoint(file(), sample_checkpoint(20));
  corrupt(file());
  const hamon::LoadedCheckpoint loaded = hamon::load_checkpoint(file());
  EXPECT_EQ(loaded.checkpoint.state.rounds_done, 10);
  EXPECT_EQ(loaded.file, dir_ / "checkpoint.bin.prev");
  ASSERT_EQ(loaded.skipped.size(), 1u);
  EXPECT_NE(loaded.skipped[0].find("checkpoint.bin"), std::string::npos);
  corrupt(dir_ / "checkpoint.bin.prev");
  try {
    hamon::load_checkpoint(file());
    ADD_FAILURE() << "two corrupt checkpoints loaded";
  } catch (const hamon::CheckpointError& e) {
    EXPECT_NE(std::string(e.what()).find("no usable checkpoint"), std::string::npos);
  }
}

TEST_F(CheckpointFiles, a_complete_new_file_left_by_a_kill_between_renames_is_used) {
  hamon::save_checkpoint(file(), sample_checkpoint(10));
  // As if killed after writing and syncing checkpoint.bin.new, before the renames.
  std::ofstream(dir_ / "checkpoint.bin.new", std::ios::binary) << bytes_of(sample_checkpoint(30));
  EXPECT_EQ(hamon::load_checkpoint(file()).checkpoint.state.rounds_done, 30);
  // A half-written one is skipped (and said).
  const std::string half = bytes_of(sample_checkpoint(40));
  std::ofstream(dir_ / "checkpoint.bin.new", std::ios::binary) << half.substr(0, half.size() / 2);
  const auto loaded = hamon::load_checkpoint(file());
  EXPECT_EQ(loaded.checkpoint.state.rounds_done, 10);
  EXPECT_EQ(loaded.skipped.size(), 1u);
}

TEST_F(CheckpointFiles, none_at_all_is_an_error_naming_the_path) {
  try {
    hamon::load_checkpoint(file());
    ADD_FAILURE();
  } catch (const hamon::CheckpointError& e) {
    EXPECT_NE(std::string(e.what()).find(file().string()), std::string::npos);
  }
}

}  // namespace

namespace {

/// A state whose list forgets one of its two members.
struct ForgetfulState {
  std::int64_t counted = 0;
  std::int64_t forgotten = 0;
  template <class Self>
  static auto fields(Self& s) {
    return std::make_tuple(hamon::field("counted", s.counted));
  }
};

struct CompleteState {
  std::int64_t counted = 0;
  std::vector<double> listed;
  template <class Self>
  static auto fields(Self& s) {
    return std::make_tuple(hamon::field("counted", s.counted), hamon::field("listed", s.listed));
  }
};

}  // namespace

TEST(FieldList, a_list_that_misses_a_member_is_told_apart_from_a_complete_one) {
  // The check every saved state carries as a static_assert (sampler_state.hpp).
  EXPECT_FALSE(hamon::field_list_is_complete<ForgetfulState>());
  EXPECT_TRUE(hamon::field_list_is_complete<CompleteState>());
  EXPECT_TRUE(hamon::field_list_is_complete<hamon::SamplerState>());
  EXPECT_TRUE(hamon::field_list_is_complete<hamon::MomentBatchesState>());
  EXPECT_TRUE(hamon::field_list_is_complete<hamon::TraceState>());
}

// SPDX-License-Identifier: Apache-2.0
#include "run/best_state_output.hpp"

#include <cstdint>

#include "config/yaml_values.hpp"
#include "output/npy.hpp"

namespace hamon::cli {

void emit_best_entries(YAML::Emitter& out, const NrptResult& r, const std::string& ended_by) {
  emit_float_entry(out, "best_energy", r.best_energy);
  out << YAML::Key << "found_round" << YAML::Value << r.best_round;
  emit_float_entry(out, "found_beta", r.best_beta);
  out << YAML::Key << "round_trips_since_improvement" << YAML::Value << r.round_trips_since_best;
  if (!ended_by.empty()) out << YAML::Key << "ended_by" << YAML::Value << ended_by;
}

void write_best_state(std::ostream& out, const NrptResult& r, const SpinModel& model) {
  if (model.is_continuous()) {
    write_npy(out, r.best_real_state, {1, r.best_real_state.size()});
    return;
  }
  // Potts states are the bytes read unsigned, as in samples.npy.
  out << npy_header(model.is_potts() ? npy_descr<std::uint8_t>() : npy_descr<std::int8_t>(),
                    {1, r.best_state.size()});
  out.write(reinterpret_cast<const char*>(r.best_state.data()),
            static_cast<std::streamsize>(r.best_state.size()));
}

}  // namespace hamon::cli

// SPDX-License-Identifier: Apache-2.0
// model.kind: rbm (model_kinds.hpp).
#include <string>

#include "config/model_kinds.hpp"
#include "config/model_values.hpp"

namespace hamon::cli::detail {

RbmSpec parse_rbm(YamlReader& reader, const ModelKeys& keys, const std::string& base_dir) {
  RbmSpec spec;
  for (const char* key : {"visible", "hidden"}) {
    if (keys.count(key) == 0)
      reader.fail("model", std::string("missing required key '") + key + "'");
  }
  spec.visible = reader.integer(keys.at("visible"), "model.visible", 1, kMaxNodes);
  spec.hidden = reader.integer(keys.at("hidden"), "model.hidden", 1, kMaxNodes);
  if (spec.visible + spec.hidden > kMaxNodes) {
    reader.fail("model.hidden",
                std::to_string(spec.visible) + " visible + " + std::to_string(spec.hidden) +
                    " hidden nodes exceed the limit of " + std::to_string(kMaxNodes));
  }
  if (static_cast<double>(spec.visible) * static_cast<double>(spec.hidden) >
      static_cast<double>(kMaxNodes)) {
    reader.fail("model.hidden", std::to_string(spec.visible) + " x " + std::to_string(spec.hidden) +
                                    " weights exceed the limit of " + std::to_string(kMaxNodes));
  }
  if (keys.count("random") != 0) {
    for (const char* other : {"weights", "visible_bias", "hidden_bias"}) {
      if (keys.count(other) != 0) {
        reader.fail(std::string("model.") + other,
                    "cannot be combined with 'random' (random draws weights and biases)");
      }
    }
    const auto random =
        reader.entries(keys.at("random"), "model.random", {"seed", "std", "bias_std"});
    RbmSpec::Random r;
    if (random.count("seed") != 0) r.seed = reader.seed(random.at("seed"), "model.random.seed");
    if (random.count("std") != 0) r.std = reader.number(random.at("std"), "model.random.std", 0.0);
    if (random.count("bias_std") != 0) {
      r.bias_std = reader.number(random.at("bias_std"), "model.random.bias_std", 0.0);
    }
    spec.random = r;
  } else {
    if (keys.count("weights") == 0) {
      reader.fail("model",
                  "missing required key 'weights' (inline, {file: PATH}, or use "
                  "random: {seed, std})");
    }
    spec.weights = parse_values(reader, keys.at("weights"), "model.weights", base_dir, true);
    if (spec.weights.form == ValuesSpec::Form::scalar) {
      reader.fail("model.weights", "give a list of visible x hidden weights (or {file: PATH})");
    }
    check_count(reader, spec.weights, "model.weights", spec.visible * spec.hidden,
                "visible x hidden, visible-major");
    if (keys.count("visible_bias") != 0) {
      spec.visible_bias =
          parse_values(reader, keys.at("visible_bias"), "model.visible_bias", base_dir, false);
      check_count(reader, spec.visible_bias, "model.visible_bias", spec.visible,
                  "one per visible node");
    }
    if (keys.count("hidden_bias") != 0) {
      spec.hidden_bias =
          parse_values(reader, keys.at("hidden_bias"), "model.hidden_bias", base_dir, false);
      check_count(reader, spec.hidden_bias, "model.hidden_bias", spec.hidden,
                  "one per hidden node");
    }
  }
  if (keys.count("clamped_visible") != 0) {
    const auto items = reader.elements(keys.at("clamped_visible"), "model.clamped_visible");
    if (static_cast<std::int64_t>(items.size()) != spec.visible) {
      reader.fail("model.clamped_visible", "has " + std::to_string(items.size()) +
                                               " values, expected " + std::to_string(spec.visible) +
                                               " (one +1 or -1 per visible node)");
    }
    for (std::size_t k = 0; k < items.size(); ++k) {
      const std::int64_t v = reader.integer(items[k], index_key("model.clamped_visible", k));
      if (v != 1 && v != -1) {
        reader.fail(index_key("model.clamped_visible", k),
                    "a clamp value is +1 or -1, got " + std::to_string(v));
      }
      spec.clamped_visible.push_back(static_cast<int>(v));
    }
  }
  return spec;
}

}  // namespace hamon::cli::detail

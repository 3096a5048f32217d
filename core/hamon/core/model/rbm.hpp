// SPDX-License-Identifier: Apache-2.0
#pragma once
// A restricted Boltzmann machine with +-1 units: the one RBM type of hamon. Sampling builds
// its SpinModel from it (make_rbm, model_builders.hpp: visible nodes 0 .. V-1, hidden
// V .. V+H-1); training learns it (train/rbm_parameters.hpp adds the grid training keeps
// it on).
//
//   E(v, h) = -( sum_v b_v v + sum_h c_h h + sum_{v,h} W_vh v h ),   v, h in {-1, +1}.

#include <cstdint>
#include <tuple>
#include <vector>

#include "hamon/core/util/field_list.hpp"

namespace hamon {

struct RbmParameters {
  std::int64_t n_visible = 0;
  std::int64_t n_hidden = 0;
  std::vector<double> weights;       // V x H, visible-major: W_vh at [v * H + h]
  std::vector<double> visible_bias;  // V (make_rbm also takes none: all zero)
  std::vector<double> hidden_bias;   // H (likewise)

  template <class Self>
  static auto fields(Self& p) {
    return std::make_tuple(field("n_visible", p.n_visible), field("n_hidden", p.n_hidden),
                           field("weights", p.weights), field("visible_bias", p.visible_bias),
                           field("hidden_bias", p.hidden_bias));
  }
};
static_assert(field_list_is_complete<RbmParameters>());

}  // namespace hamon

// SPDX-License-Identifier: Apache-2.0
#pragma once
// Explicit instantiation of RbmTrainer for one execution space, for the dispatcher's backend
// sources (policies/), which are the only translation units that include this: everyone
// else uses the instantiations through rbm_trainer.hpp.

#include "hamon/core/train/detail/rbm_trainer_impl.hpp"

#define HAMON_INSTANTIATE_TRAINER(SPACE) template class ::hamon::RbmTrainer<SPACE>;

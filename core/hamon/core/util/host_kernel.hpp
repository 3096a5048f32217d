// SPDX-License-Identifier: Apache-2.0
#pragma once
// The choice of implementation for a sweep or an energy pass on a host execution space.

namespace hamon {

/// Which implementation runs a sweep (gibbs_sweep) or an energy pass (compute_energies) on
/// a host space: the best available (AVX-512 registers where compiled in), the portable
/// loops, or the device kernel's style (one work item per node and group of 16 machines,
/// as on a GPU). All give the same bits; the tests compare them. On a device space every
/// choice runs the device style.
enum class HostKernel { best, portable, device };

}  // namespace hamon

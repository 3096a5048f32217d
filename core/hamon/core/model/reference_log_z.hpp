// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <cstdint>

// The log Z of a model's annealing reference (reference_log_z, spin_model.hpp) with what it
// is uncertain by: closed forms for Ising and Gaussian sites, and for double-well sites a
// quadrature with an error estimate.

namespace hamon {

class SpinModel;

/// reference_log_z with its error.
struct ReferenceLogZ {
  double value = 0.0;  // reference_log_z(model, beta)
  double error = 0.0;  // the quadratures' errors summed over sites; 0 for closed forms
  bool exact = true;   // false where a quadrature gives it (a double-well model)
};

/// Throws ModelError as reference_log_z does.
ReferenceLogZ reference_log_z_with_error(const SpinModel& model, double beta);

/// One double-well site's log of int exp(-beta (lambda (x^2 - 1)^2 - h x)) dx over the
/// real line (below).

struct QuadratureLogZ {
  double value = 0.0;       // log of the integral
  double error = 0.0;       // bound on |value - exact| (step halving, cut tails, rounding)
  std::int64_t points = 0;  // integrand evaluations (how hard it was)
};

/// The integrand peaks at the minima of u(x) = lambda (x^2 - 1)^2 - h x (one or two: the
/// roots of 4 lambda x (x^2 - 1) = h), each about 1 / sqrt(beta u''(x*)) wide, which is
/// 1 / sqrt(8 beta lambda) in a deep well: a grid of fixed size misses a narrow well's
/// shape. So each mode gets its own interval, reaching until the exponent has fallen 60
/// below the lower mode's peak (two modes whose intervals meet share one), and the trapezoid
/// rule on it starts from a step of half the mode's width (for a Gaussian that is already
/// exact to 1e-30) and halves the step until two results agree to 1e-13; the last change
/// is the error estimate (the rule converges geometrically on a smooth integrand that
/// vanishes at both ends, so the finer result is far closer than that). The error also
/// bounds what lies outside the intervals (past each outer end the exponent is concave,
/// so its tail is at most the end's value over its slope; between two intervals the
/// integrand is below e^-60 of the peak) and the rounding of the sums. beta > 0 and
/// lambda > 0, finite.
QuadratureLogZ double_well_site_log_z(double beta, double lambda, double h);

}  // namespace hamon

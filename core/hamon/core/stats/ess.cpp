// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/stats/ess.hpp"

#include <algorithm>
#include <cmath>
#include <complex>

namespace hamon {

namespace {

using Complex = std::complex<double>;

// In-place iterative radix-2 FFT; data.size() is a power of two.
void fft(std::vector<Complex>& data, bool inverse) {
  const std::size_t n = data.size();
  for (std::size_t i = 1, j = 0; i < n; ++i) {  // bit-reversal permutation
    std::size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(data[i], data[j]);
  }
  const double pi = std::acos(-1.0);
  for (std::size_t len = 2; len <= n; len <<= 1) {
    const double angle = 2.0 * pi / static_cast<double>(len) * (inverse ? 1.0 : -1.0);
    const Complex step(std::cos(angle), std::sin(angle));
    for (std::size_t start = 0; start < n; start += len) {
      Complex w(1.0, 0.0);
      for (std::size_t k = 0; k < len / 2; ++k) {
        const Complex u = data[start + k];
        const Complex v = data[start + k + len / 2] * w;
        data[start + k] = u + v;
        data[start + k + len / 2] = u - v;
        w *= step;
      }
    }
  }
  if (inverse) {
    for (Complex& z : data) z /= static_cast<double>(n);
  }
}

// Autocorrelation at every lag 0..n-1 (biased autocovariance over n, divided by the
// variance); empty when the series is constant.
std::vector<double> all_lags(const std::vector<double>& series) {
  const std::size_t n = series.size();
  const auto [lo, hi] = std::minmax_element(series.begin(), series.end());
  if (*lo == *hi) return {};  // constant (tested exactly: a rounded mean leaves noise)
  double mean = 0.0;
  for (double v : series) mean += v;
  mean /= static_cast<double>(n);
  std::size_t size = 1;
  while (size < 2 * n) size <<= 1;  // zero padding: no circular wrap-around
  std::vector<Complex> data(size, Complex(0.0, 0.0));
  for (std::size_t t = 0; t < n; ++t) data[t] = Complex(series[t] - mean, 0.0);
  fft(data, false);
  for (Complex& z : data) z = Complex(std::norm(z), 0.0);
  fft(data, true);
  const double c0 = data[0].real();
  if (!(c0 > 0.0)) return {};
  std::vector<double> rho(n);
  for (std::size_t k = 0; k < n; ++k) rho[k] = data[k].real() / c0;
  return rho;
}

}  // namespace

std::vector<double> autocorrelation(const std::vector<double>& series, std::size_t max_lag) {
  if (series.empty()) return {};
  const std::size_t lags = std::min(max_lag, series.size() - 1) + 1;
  std::vector<double> rho = all_lags(series);
  if (rho.empty()) {
    rho.assign(lags, 0.0);
    rho[0] = 1.0;
    return rho;
  }
  rho.resize(lags);
  return rho;
}

EffectiveSampleSize effective_sample_size(const std::vector<double>& series) {
  EffectiveSampleSize out;
  const std::size_t n = series.size();
  if (n < 4) return out;
  const std::vector<double> rho = all_lags(series);
  if (rho.empty()) return out;

  // Pairs (rho(2k), rho(2k+1)) while their sum is positive; monotone by capping.
  double sum = 0.0;
  double previous = 1e300;
  std::size_t lag = 0;
  while (lag + 1 < n) {
    double gamma = rho[lag] + rho[lag + 1];
    if (!(gamma > 0.0)) break;
    lag += 2;
    gamma = std::min(gamma, previous);
    previous = gamma;
    sum += gamma;
  }
  const double n_d = static_cast<double>(n);
  out.tau = std::max(-1.0 + 2.0 * sum, 1.0 / std::log10(n_d));
  out.ess = n_d / out.tau;
  out.lags_used = lag;
  out.defined = true;
  return out;
}

}  // namespace hamon

// SPDX-License-Identifier: Apache-2.0
#include "output/progress_display.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace hamon::cli {

namespace {

std::string duration_text(double seconds) {
  char buffer[32];
  if (seconds < 60.0) {
    std::snprintf(buffer, sizeof buffer, "%.0fs", seconds);
  } else if (seconds < 3600.0) {
    std::snprintf(buffer, sizeof buffer, "%dm%02ds", static_cast<int>(seconds / 60),
                  static_cast<int>(seconds) % 60);
  } else {
    std::snprintf(buffer, sizeof buffer, "%dh%02dm", static_cast<int>(seconds / 3600),
                  static_cast<int>(seconds / 60) % 60);
  }
  return buffer;
}

}  // namespace

bool stderr_is_terminal() {
  return ::isatty(STDERR_FILENO) == 1;
}

ProgressDisplay::ProgressDisplay(bool enabled)
    : enabled_(enabled), start_(clock::now()), last_draw_(start_) {}

std::int64_t ProgressDisplay::report_every(std::int64_t total_rounds) {
  return std::max<std::int64_t>(1, total_rounds / 500);
}

void ProgressDisplay::update(const Progress& p) {
  if (!enabled_) return;
  const auto now = clock::now();
  const bool last = p.rounds_done >= p.rounds_total;
  if (drawn_ && !last && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double rate = elapsed > 0.0 ? static_cast<double>(p.rounds_done) / elapsed : 0.0;
  const double eta = rate > 0.0 ? static_cast<double>(p.rounds_total - p.rounds_done) / rate : 0.0;
  std::fprintf(stderr,
               "\r%s %lld/%lld rounds (%3.0f%%)  %.0f rounds/s  Lambda %.3f  min acc %.3f  "
               "ETA %s\x1b[K",
               p.burning_in ? "burn-in" : "sampling", static_cast<long long>(p.rounds_done),
               static_cast<long long>(p.rounds_total),
               100.0 * static_cast<double>(p.rounds_done) /
                   static_cast<double>(std::max<std::int64_t>(1, p.rounds_total)),
               rate, p.Lambda, p.min_acceptance, duration_text(eta).c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressDisplay::note(const std::string& text) {
  if (!enabled_) return;
  std::fprintf(stderr, "\r%s\x1b[K", text.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressDisplay::finish() {
  if (enabled_ && drawn_) {
    std::fputc('\n', stderr);
    std::fflush(stderr);
  }
  drawn_ = false;
}

}  // namespace hamon::cli

// SPDX-License-Identifier: Apache-2.0
#include "run/stop_signals.hpp"

#include <signal.h>

namespace hamon::cli {

namespace {

volatile sig_atomic_t g_signal = 0;

constexpr int kStopSignals[] = {SIGTERM, SIGINT, SIGUSR1};
struct sigaction g_previous[3];
struct sigaction g_previous_xfsz;

void on_stop_signal(int number) {
  g_signal = number;
}

}  // namespace

StopSignals::StopSignals() {
  g_signal = 0;
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  for (int k = 0; k < 3; ++k) sigaction(kStopSignals[k], &action, &g_previous[k]);
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGXFSZ, &ignore, &g_previous_xfsz);
}

StopSignals::~StopSignals() {
  for (int k = 0; k < 3; ++k) sigaction(kStopSignals[k], &g_previous[k], nullptr);
  sigaction(SIGXFSZ, &g_previous_xfsz, nullptr);
}

bool StopSignals::requested() {
  return g_signal != 0;
}

const char* StopSignals::which() {
  switch (g_signal) {
    case SIGTERM:
      return "SIGTERM";
    case SIGINT:
      return "SIGINT";
    case SIGUSR1:
      return "SIGUSR1";
    default:
      return "";
  }
}

}  // namespace hamon::cli

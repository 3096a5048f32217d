// SPDX-License-Identifier: Apache-2.0
#include "run/stop_signals.hpp"

#include <signal.h>
#include <unistd.h>

namespace hamon::cli {

namespace {

volatile sig_atomic_t g_signal = 0;
volatile sig_atomic_t g_announce = 0;

constexpr int kStopSignals[] = {SIGTERM, SIGINT, SIGUSR1};
struct sigaction g_previous[3];
struct sigaction g_previous_xfsz;

void default_action(int number) {
  struct sigaction action {};
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  sigaction(number, &action, nullptr);
}

// Only async-signal-safe calls here: sigaction and write.
void on_stop_signal(int number) {
  if (g_signal != 0) return;
  g_signal = number;
  default_action(SIGTERM);
  default_action(SIGINT);
  if (g_announce != 0) {
    static const char kLine[] =
        "hamon: stopping at the next checkpoint (SIGINT or SIGTERM again: stop at once)\n";
    const ssize_t ignored = ::write(STDERR_FILENO, kLine, sizeof kLine - 1);
    (void)ignored;
  }
}

}  // namespace

StopSignals::StopSignals(bool announce) {
  g_signal = 0;
  g_announce = announce ? 1 : 0;
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  // Each stop signal is blocked while the handler runs, so two arriving together
  // cannot both take the first-signal path.
  for (int number : kStopSignals) sigaddset(&action.sa_mask, number);
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

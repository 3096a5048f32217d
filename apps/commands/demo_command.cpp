// SPDX-License-Identifier: Apache-2.0
// `hamon demo`: examples/ising2d.yaml (compiled in, see apps/CMakeLists.txt) through the
// same path as `hamon run`, replacing the demo's earlier run so it can be repeated.
#include <chrono>
#include <iostream>
#include <memory>

#include "commands/commands.hpp"
#include "commands/run_flags.hpp"
#include "commands/run_report.hpp"
#include "output/progress_display.hpp"
#include "run/execute_run.hpp"
#include "run/kokkos_session.hpp"
#include "run/prepare_run.hpp"

namespace hamon::cli {

extern const char* const kDemoExperiment;  // generated: the text of examples/ising2d.yaml

Command add_demo_command(CLI::App& app) {
  auto flags = std::make_shared<RunFlags>();
  CLI::App* sub =
      app.add_subcommand("demo", "Run examples/ising2d.yaml (built in); results in runs/ising2d");
  add_run_flags(*sub, *flags, FlagSet::demo);
  sub->footer(
      "The same as `hamon run examples/ising2d.yaml`, except that it replaces its own earlier\n"
      "run (a directory with summary.yaml) so it can be repeated.");
  return {sub,
          [flags]() {
            const auto started = std::chrono::steady_clock::now();
            const PreparedRun run =
                prepare_run_from_text(kDemoExperiment, "examples/ising2d.yaml (built in)",
                                      overrides_of(*flags), OutputPolicy::replace_run);
            const KokkosSession kokkos;
            const RunOutcome outcome =
                start_run(run, !flags->quiet && stderr_is_terminal(), started);
            if (!flags->quiet) {
              print_run_report(std::cout, run, outcome, true);
              std::cout << "  plots        python3 tools/plot_run.py " << outcome.directory << "\n";
            }
            return 0;
          },
          false, true};
}

}  // namespace hamon::cli

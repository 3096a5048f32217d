// SPDX-License-Identifier: Apache-2.0
// `hamon demo`: examples/ising2d.yaml (compiled in, see apps/CMakeLists.txt) through the
// same path as `hamon run`, replacing the demo's own earlier run so it can be repeated,
// and never a run of the user's (run/demo_directory.hpp).
#include <chrono>
#include <iostream>
#include <memory>
#include <sstream>

#include "commands/commands.hpp"
#include "commands/run_flags.hpp"
#include "commands/run_report.hpp"
#include "output/progress_display.hpp"
#include "run/demo_directory.hpp"
#include "run/execute_run.hpp"
#include "run/kokkos_session.hpp"
#include "run/mpi_job.hpp"
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
      "run (one whose config.yaml is this demo's) so it can be repeated. It never replaces\n"
      "another run: without --out it writes to runs/ising2d-2 (-3, ...) instead, and says so.");
  return {
      sub,
      [flags]() {
        const auto started = std::chrono::steady_clock::now();
        const Overrides overrides = overrides_of(*flags);
        // The output directory is checked once chosen.
        PreparedRun run = prepare_run_from_text(kDemoExperiment, "examples/ising2d.yaml (built in)",
                                                overrides, OutputPolicy::continue_run);
        std::ostringstream note;
        choose_demo_directory(run, !overrides.out, note);
        if (MpiJob::current().is_root()) std::cerr << note.str();
        fit_to_machine(run.decision);
        const KokkosSession kokkos(host_threads_for(run.decision));
        const RunOutcome outcome = start_run(run, !flags->quiet && stderr_is_terminal(), started);
        if (!flags->quiet) {
          print_run_report(std::cout, run, outcome, true);
          std::cout << "  plots        python3 tools/plot_run.py " << outcome.directory << "\n";
        }
        return 0;
      },
      false, true};
}

}  // namespace hamon::cli

// SPDX-License-Identifier: Apache-2.0
#include "commands/run_flags.hpp"

#include "commands/option_values.hpp"

namespace hamon::cli {

void add_run_flags(CLI::App& app, RunFlags& flags, FlagSet set) {
  flags.out_option =
      app.add_option("--out", flags.out, "run directory (overrides output.dir)")->type_name("DIR");
  flags.device_option =
      app.add_option("--device", flags.device, device_option_help("overrides device"))
          ->type_name("SPEC");
  flags.seed_option =
      app.add_option("--seed", flags.seed, "random seed (overrides seed)")->type_name("N");
  flags.rounds_option =
      app.add_option("--rounds", flags.rounds, "measured rounds (overrides nrpt.rounds)")
          ->type_name("N");
  flags.burn_in_option =
      app.add_option("--burn-in", flags.burn_in, "burn-in rounds (overrides nrpt.burn_in)")
          ->type_name("N");
  if (set != FlagSet::validate) {
    app.add_flag("--quiet,-q", flags.quiet, "no progress display and no report on stdout");
  }
  if (set == FlagSet::run) {
    app.add_flag("--overwrite", flags.overwrite,
                 "replace an earlier hamon run at the output directory (hamon's files only: "
                 "a directory holding others is refused)");
  }
  // validate's own refusals suggest --overwrite: it checks what `run --overwrite` would.
  if (set == FlagSet::validate) {
    app.add_flag("--overwrite", flags.overwrite,
                 "check as `run --overwrite` (or `train --overwrite`) would: an earlier hamon "
                 "run at the output directory may be replaced");
  }
}

Overrides overrides_of(const RunFlags& flags) {
  Overrides o;
  if (flags.out_option->count() > 0) o.out = flags.out;
  if (flags.device_option->count() > 0) o.device = flags.device;
  if (flags.seed_option->count() > 0) o.seed = parse_seed_option("--seed", flags.seed);
  if (flags.rounds_option->count() > 0) {
    o.rounds = parse_integer_option("--rounds", flags.rounds, 1, kMaxRoundsTotal);
  }
  if (flags.burn_in_option->count() > 0) {
    o.burn_in = parse_integer_option("--burn-in", flags.burn_in, 0, kMaxRoundsTotal);
  }
  return o;
}

}  // namespace hamon::cli

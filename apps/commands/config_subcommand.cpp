// SPDX-License-Identifier: Apache-2.0
#include "commands/config_subcommand.hpp"

namespace hamon::cli {

CLI::App* add_config_subcommand(CLI::App& app, const std::string& name,
                                const std::string& description, std::string& config,
                                const std::string& help) {
  CLI::App* sub = app.add_subcommand(name, description);
  sub->add_option("CONFIG", config, help)->required()->type_name("FILE");
  return sub;
}

}  // namespace hamon::cli

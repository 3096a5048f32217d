// SPDX-License-Identifier: Apache-2.0
#pragma once
// The subcommands that read a configuration file (run, validate, train): each takes it as
// the one required positional argument CONFIG, alike in the help.

#include <CLI/CLI.hpp>
#include <string>

namespace hamon::cli {

/// Adds subcommand `name` (`description`) with its required argument CONFIG, a FILE read
/// into `config`; `help` says which kind of file.
CLI::App* add_config_subcommand(CLI::App& app, const std::string& name,
                                const std::string& description, std::string& config,
                                const std::string& help);

}  // namespace hamon::cli

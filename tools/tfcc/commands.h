// The subcommands of the `tfcc` command line.
//
//   $ tfcc summary /tmp/summaries      # runs, tags, last/min/max and a sparkline per scalar
//   $ tfcc saved-model show /tmp/export  # signatures of an exported model
//
// Adding a subcommand: write `Command <name>_command()` in its own file tools/tfcc/<name>.cc,
// declare it below and add it to the table in main.cc.
#pragma once

#include <string>
#include <vector>

namespace tfcc::tools {

/// One subcommand: `tfcc <name> args...`.
struct Command {
  /// What the user types after `tfcc`.
  std::string name;
  /// Arguments, for the usage line ("LOGDIR").
  std::string arguments;
  /// One line for `tfcc --help`.
  std::string help;
  /// Runs the command with the arguments after its name; returns the exit status.
  int (*run)(const std::vector<std::string>& args);
};

/// `tfcc summary LOGDIR` (summary_command.cc).
Command summary_command();
/// `tfcc saved-model show|run DIR ...` (saved_model_command.cc).
Command saved_model_command();

}  // namespace tfcc::tools

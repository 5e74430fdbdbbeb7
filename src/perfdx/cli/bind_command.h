#pragma once

#include <CLI/CLI.hpp>

namespace perfdx::cli {

// perfdx bind --local-rank N --nproc-per-node K [--policy numa|cores|split]
//             [--membind] [--sysroot DIR] [--print [--json]] -- CMD...
void RegisterBindCommand(CLI::App& app, int* exit_code);

}  // namespace perfdx::cli

// The load's progress on stderr, for loads that take more than a second and
// only when stderr is a terminal: one line, redrawn in place, erased when
// every input is done.
#pragma once

#include "perfdx/cli/terminal.h"
#include "perfdx/formats/trace_loader.h"

namespace perfdx::cli {

// Sets options->progress to draw the bar when stderr is a terminal (and
// TERM is not "dumb"); leaves it unset otherwise.
void AttachProgressBar(const Terminal& terminal, formats::LoadOptions* options);

}  // namespace perfdx::cli

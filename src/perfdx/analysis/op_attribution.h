// Which framework operator launched each piece of device work: the flow from
// the host call to the device slice (Kineto correlation, Ascend
// torch_to_npu / HostToDevice), then up the host call stack to the innermost
// framework operator. Ascend's op->task flows are preferred over its
// API->task flows because CANN's API threads carry no operators.
#pragma once

#include <cstdint>
#include <vector>

#include "perfdx/model/trace.h"

namespace perfdx::analysis {

struct OpAttribution {
  // For each slice: the launching framework-op slice, or -1 (host slices and
  // device work with no traced launcher).
  std::vector<int32_t> launching_op;
};

OpAttribution AttributeDeviceWork(const model::Trace& trace);

// The innermost framework op containing (or being) host slice i, or -1.
int32_t EnclosingFrameworkOp(const model::Trace& trace, model::SliceId i);

}  // namespace perfdx::analysis

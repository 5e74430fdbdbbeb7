// How the rank's process is laid out, as far as the trace shows it: which
// devices ran work, whether the host side was traced, and whether the model
// ran under nn.DataParallel (the configuration rules read these).
#pragma once

#include <cstdint>
#include <vector>

#include "perfdx/model/trace.h"

namespace perfdx::analysis {

struct RankLayout {
  // The device ids of the tracks that ran device work (kernels, copies,
  // sets, collectives), ascending.
  std::vector<int32_t> work_device_ids;
  // A host thread track holds slices (a kernel table alone, or a
  // device-only export, holds none).
  bool host_traced = false;
  // The host holds Python function slices: the profile recorded Python
  // stacks (with_stack=True), so "profile again with stacks" is no advice.
  bool python_stacks = false;
  // The trace holds a "DataParallel.forward" slice: the module's forward as
  // the PyTorch profiler names it (the TensorBoard plugin's rule R2 looks
  // for the same name).
  bool data_parallel_forward = false;
  // The DataLoader iterators the trace names, as the PyTorch profiler
  // writes their __next__: "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"
  // (num_workers=0: the main process loads every batch) and
  // "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__" (worker
  // processes load them). torch.utils.data's own class names, exactly.
  bool dataloader_single_process = false;
  bool dataloader_workers = false;
};

RankLayout AnalyzeRankLayout(const model::Trace& trace);

}  // namespace perfdx::analysis

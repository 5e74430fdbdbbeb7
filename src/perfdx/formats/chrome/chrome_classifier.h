// Translates the spellings of Chrome-trace producers into the model
// vocabulary: which tracks are device streams, what each slice is, what each
// flow links. One classifier serves the three producers, which it tells apart
// from the trace itself:
//   - PyTorch Kineto (CUDA, ROCm, CPU): categories cpu_op, kernel, gpu_memcpy,
//     cuda_runtime, ... (2021 traces capitalise them: Operator, Kernel, ...);
//   - torch.autograd.profiler without Kineto: no categories, pid "CPU functions";
//   - torch_npu / MindSpore trace_view.json: processes "Python", "CANN",
//     "Ascend Hardware" (tasks with a "Task Type"), "HCCL", "Overlap Analysis".
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "perfdx/formats/chrome/chrome_json_parser.h"
#include "perfdx/model/trace_builder.h"

namespace perfdx::formats {

enum class ChromeFlavor { kUnknown, kKineto, kPytorchLegacy, kAscend };

class ChromeClassifier final : public model::Classifier {
 public:
  explicit ChromeClassifier(const TraceEnvelope& envelope) : envelope_(envelope) {}

  void ClassifyTracks(std::vector<model::Track>& tracks, const model::StringPool& strings,
                      const std::vector<std::vector<model::StringId>>& track_categories) override;
  model::EventKind ClassifySlice(const model::Trace& partial, model::SliceId i,
                                 std::optional<int64_t>* step_id) override;
  model::FlowKind ClassifyFlow(std::string_view category, std::string_view name) override;
  void DescribeRank(const model::Trace& trace, model::RankInfo* info) override;

  ChromeFlavor flavor() const { return flavor_; }

 private:
  model::EventKind ClassifyAscendDeviceTask(const model::Trace& partial, model::SliceId i) const;
  model::EventKind ClassifyHostSlice(std::string_view name, std::string_view category,
                                     std::optional<int64_t>* step_id) const;

  // A slice's kind on a host thread or a (non-Ascend) device stream is a
  // function of its interned name and category: remembered in a small
  // direct-mapped cache (bounded memory whatever the number of names), as
  // the string tests were a third of the classification's cost. Emptied by
  // ClassifyTracks, which begins each trace's classification.
  struct CachedKind {
    static constexpr uint8_t kEmpty = 0, kHost = 1, kDevice = 2;
    uint64_t key = 0;  // name id << 32 | category id
    uint8_t track = kEmpty;
    model::EventKind kind = model::EventKind::kOther;
    std::optional<int64_t> step_id;
  };
  static constexpr size_t kCachedKinds = 4096;
  template <typename Classify>
  model::EventKind Cached(model::StringId name, model::StringId category, bool device,
                          std::optional<int64_t>* step_id, Classify&& classify);
  model::EventKind ClassifyDeviceSlice(std::string_view name, std::string_view category) const;

  const TraceEnvelope& envelope_;
  ChromeFlavor flavor_ = ChromeFlavor::kUnknown;
  std::vector<CachedKind> cached_kinds_;
};

// "ProfilerStep#12" (also "ProfilerStep # 12") -> 12.
std::optional<int64_t> ParseProfilerStep(std::string_view name);

// DataLoader / DataPipe iteration, as the TensorBoard plugin recognises it.
bool IsDataLoaderName(std::string_view name);

}  // namespace perfdx::formats

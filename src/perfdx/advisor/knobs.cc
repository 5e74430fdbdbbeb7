#include "perfdx/advisor/knobs.h"

namespace perfdx::advisor {

// Each entry: fix id, framework, what to change, a snippet, the page it comes
// from. Keep docs/recommendations.md in step (knobs_test checks).
const std::vector<Knob>& AllKnobs() {
  static const std::vector<Knob> kKnobs = {
      {"dataloader_parallel", Framework::kPytorchCuda,
       "Load and augment batches in worker processes, keep them alive between epochs and prefetch ahead.",
       "DataLoader(dataset, batch_size=bs, num_workers=8, pin_memory=True,\n"
       "           persistent_workers=True, prefetch_factor=2)",
       "https://pytorch.org/docs/stable/data.html#torch.utils.data.DataLoader"},
      {"mixed_precision", Framework::kPytorchCuda,
       "Run matrix work in bfloat16 (or float16 with a GradScaler) under autocast so it uses tensor cores.",
       "with torch.autocast(device_type=\"cuda\", dtype=torch.bfloat16):\n    loss = model(x).loss",
       "https://pytorch.org/docs/stable/amp.html"},
  };
  return kKnobs;
}

std::vector<Recommendation> RecommendationsFor(std::string_view fix_id) {
  std::vector<Recommendation> out;
  for (const Knob& k : AllKnobs()) {
    if (k.fix_id != fix_id) continue;
    out.push_back({k.framework, std::string(k.text), std::string(k.snippet), std::string(k.doc_url)});
  }
  return out;
}

}  // namespace perfdx::advisor

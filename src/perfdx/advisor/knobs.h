// The catalogue of fixes perfdx recommends: real, documented settings and
// APIs of MindSpore, PyTorch + torch_npu and CUDA PyTorch, each with the
// documentation page it comes from. Rules refer to fixes by id; nothing else
// in perfdx spells a knob. docs/recommendations.md lists the same catalogue
// (a test keeps the two in step and rejects APIs that do not exist).
#pragma once

#include <string_view>
#include <vector>

#include "perfdx/advisor/finding.h"

namespace perfdx::advisor {

struct Knob {
  std::string_view fix_id;  // e.g. "dataloader_workers"
  FixTarget framework;
  std::string_view text;
  std::string_view snippet;
  std::string_view doc_url;
};

// Every knob of the catalogue.
const std::vector<Knob>& AllKnobs();

// The recommendations for one fix, one per framework that has it.
std::vector<Recommendation> RecommendationsFor(std::string_view fix_id);

}  // namespace perfdx::advisor

// The catalogue of fixes perfdx recommends: real, documented settings and
// APIs of MindSpore, PyTorch + torch_npu and stock PyTorch, each with the
// documentation page it comes from and the evidence it needs. It lives in
// one data file, advisor/knobs.toml, compiled in and parsed once at first
// use; docs/recommendations.md is generated from the same file
// (scripts/gen_recommendations.py). Rules refer to fixes by id; nothing else
// in perfdx spells a knob.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "perfdx/advisor/finding.h"
#include "perfdx/base/status.h"

namespace perfdx::advisor {

// One fix for one target. A catalogue entry written for several targets
// gives one Knob per target.
struct Knob {
  std::string fix_id;  // e.g. "dataloader_parallel"
  FixTarget framework;
  std::string text;
  std::string snippet;
  std::string doc_url;
  std::string verified;  // what was checked against doc_url (for the docs)
  // Evidence tags that must all hold; an element "a|b" holds when either does.
  std::vector<std::string> required_tags;
  // Tags of which none may hold (e.g. "compiled").
  std::vector<std::string> excluded_tags;
};

struct Catalogue {
  std::vector<Knob> knobs;
  std::vector<std::string> tags;  // the evidence-tag vocabulary ([tags])
};

// Parses a catalogue in the knobs.toml format; an error names the entry.
Result<Catalogue> ParseCatalogue(std::string_view toml_text);

// The compiled-in catalogue, parsed on first use. Its parse status is a
// test's business (knobs_test): a broken file gives an empty catalogue here.
const Catalogue& CompiledCatalogue();
const Status& CompiledCatalogueStatus();

// Every knob of the compiled-in catalogue.
const std::vector<Knob>& AllKnobs();

// The knob of one fix for one target, or null.
const Knob* FindKnob(std::string_view fix_id, FixTarget target);

// The recommendations for one fix, one per target that has it.
std::vector<Recommendation> RecommendationsFor(std::string_view fix_id);

// Appends the catalogue's recommendations for each fix, in order.
void AppendFixes(std::vector<Recommendation>* out, std::initializer_list<std::string_view> fix_ids);

// Does the evidence a knob needs hold, given the tags that hold?
bool EvidenceHolds(const Knob& knob, const std::vector<std::string>& tags);

}  // namespace perfdx::advisor

#include "perfdx/analysis/copy_names.h"

#include <array>
#include <utility>

namespace perfdx::analysis {
namespace {

// CUPTI's copy kinds as libkineto spells them.
constexpr std::array<std::string_view, 7> kCopyKinds = {"HtoD", "DtoH", "DtoD", "HtoH",
                                                        "PtoP", "HtoA", "AtoH"};

constexpr std::array<std::pair<std::string_view, CopyMemory>, 7> kMemories = {{
    {"Pageable", CopyMemory::kPageable},
    {"Pinned", CopyMemory::kPinned},
    {"Host", CopyMemory::kHost},
    {"Device", CopyMemory::kDevice},
    {"Array", CopyMemory::kArray},
    {"Managed", CopyMemory::kManaged},
    {"Unknown", CopyMemory::kUnknown},
}};

std::optional<CopyMemory> MemoryNamed(std::string_view word) {
  for (const auto& [name, memory] : kMemories) {
    if (name == word) return memory;
  }
  return std::nullopt;
}

// Consumes `prefix` from the front of `s`.
bool Take(std::string_view prefix, std::string_view* s) {
  if (s->substr(0, prefix.size()) != prefix) return false;
  s->remove_prefix(prefix.size());
  return true;
}

}  // namespace

std::optional<CopyEnds> ParseCopyName(std::string_view name) {
  std::string_view s = name;
  if (!Take("Memcpy ", &s)) return std::nullopt;
  const size_t space = s.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  bool known_kind = false;
  for (std::string_view kind : kCopyKinds) known_kind = known_kind || kind == s.substr(0, space);
  if (!known_kind) return std::nullopt;
  s.remove_prefix(space);
  if (!Take(" (", &s) || s.empty() || s.back() != ')') return std::nullopt;
  s.remove_suffix(1);
  const size_t arrow = s.find(" -> ");
  if (arrow == std::string_view::npos) return std::nullopt;
  const auto source = MemoryNamed(s.substr(0, arrow));
  const auto destination = MemoryNamed(s.substr(arrow + 4));
  if (!source || !destination) return std::nullopt;
  return CopyEnds{*source, *destination};
}

bool IsBlockingCopy(std::string_view name) {
  const std::optional<CopyEnds> ends = ParseCopyName(name);
  return ends &&
         (ends->source == CopyMemory::kPageable || ends->destination == CopyMemory::kPageable);
}

}  // namespace perfdx::analysis

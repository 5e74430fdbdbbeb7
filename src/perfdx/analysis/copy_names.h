// What a device copy's name says about its two ends. CUPTI, through
// libkineto, names a copy "Memcpy <kind> (<source> -> <destination>)":
// "Memcpy HtoD (Pageable -> Device)", "Memcpy DtoH (Device -> Pinned)".
// The name is parsed by that grammar, each part from a table, so a name
// that merely contains "Pageable" is no pageable copy.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace perfdx::analysis {

enum class CopyMemory : uint8_t {
  kPageable,  // ordinary host memory
  kPinned,    // page-locked host memory
  kHost,      // host memory of unrecorded kind (older Kineto: "Host")
  kDevice,
  kArray,
  kManaged,
  kUnknown,
};

struct CopyEnds {
  CopyMemory source = CopyMemory::kUnknown;
  CopyMemory destination = CopyMemory::kUnknown;
};

// The two ends, or none when `name` is not a copy name of that grammar.
std::optional<CopyEnds> ParseCopyName(std::string_view name);

// A copy whose host call returns only once the device has reached and run
// it: pageable host memory on either end (CUDA's "API synchronization
// behavior": a stream sync before a copy from pageable memory; a copy to
// pageable memory returns once done). The replay waits for such a copy.
bool IsBlockingCopy(std::string_view name);

}  // namespace perfdx::analysis

// The memory tables: memory_record.csv (the allocators' totals over time),
// operator_memory.csv (each operator's allocations), npu_module_mem.csv
// (each module's reserved memory), and the copy of the framework allocator's
// records into Trace::memory.
#pragma once

#include <filesystem>

#include "perfdx/formats/ascend/side_file.h"
#include "perfdx/model/trace.h"

namespace perfdx::formats {

// Copies the framework allocator's memory records into Trace::memory so that
// the generic memory analysis applies (docs/ascend.md#memory): the first
// component present of PTA (torch_npu's caching allocator), MindSpore's,
// PTA+GE, GE; each record becomes one memory event carrying the allocator's
// totals, sized by the change of its allocated total.
void CopyAscendMemoryToTrace(model::Trace* trace);

namespace side_file {

void ReadMemoryRecords(const std::filesystem::path& path, const AscendSideOptions& options,
                       model::Trace* trace);
void ReadOperatorMemory(const std::filesystem::path& path, const AscendSideOptions& options,
                        model::Trace* trace);
void ReadModuleMemory(const std::filesystem::path& path, const AscendSideOptions& options,
                      model::Trace* trace);

}  // namespace side_file
}  // namespace perfdx::formats

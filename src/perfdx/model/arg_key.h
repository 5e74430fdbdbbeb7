// The event arguments perfdx keeps. Profilers attach dozens of args to each
// event; only these are read (by the builder or an analysis), so only these
// are decoded and stored (typed, in the ArgTable): a key here costs every
// event that carries it, so a key comes with its first reader
// (tests/architecture/arg_keys_read_test.py). Several profilers spell the
// same thing differently; all spellings map to one key.
#pragma once

#include <cstdint>
#include <string_view>

namespace perfdx::model {

// X(enum, canonical name, spelling...)
#define PERFDX_ARG_KEYS(X)                                                \
  X(kExternalId, "external_id", "External id", "external id")             \
  X(kCorrelation, "correlation", "correlation")                           \
  X(kConnectionId, "connection_id", "connection_id")                      \
  X(kStream, "stream", "stream")                                          \
  X(kInputDims, "input_dims", "Input Dims", "Input dims")                 \
  X(kInputType, "input_type", "Input type")                               \
  X(kCollectiveName, "collective_name", "Collective name")                \
  X(kDtype, "dtype", "dtype")                                             \
  X(kInMsgNelems, "in_msg_nelems", "In msg nelems")                       \
  X(kOutMsgNelems, "out_msg_nelems", "Out msg nelems")                    \
  X(kGroupSize, "group_size", "Group size")                               \
  X(kProcessGroupName, "process_group_name", "Process Group Name")        \
  X(kProcessGroupDesc, "process_group_desc", "Process Group Description") \
  X(kSrcRank, "src_rank", "Src Rank", "src rank")                         \
  X(kDstRank, "dst_rank", "Dst Rank", "dst rank")                         \
  X(kMemBytes, "mem_bytes", "Bytes")                                      \
  X(kTotalAllocated, "total_allocated", "Total Allocated")                \
  X(kTotalReserved, "total_reserved", "Total Reserved")                   \
  X(kAddr, "addr", "Addr")                                                \
  X(kDeviceId, "device_id", "Device Id")                                  \
  X(kDeviceType, "device_type", "Device Type")                            \
  X(kTaskType, "task_type", "Task Type", "task type")                     \
  X(kTransportType, "transport_type", "transport type")                   \
  X(kLinkType, "link_type", "link type")                                  \
  X(kSizeBytes, "size_bytes", "size(Byte)")                               \
  X(kDataType, "data_type", "data type", "data_type")                     \
  X(kElementCount, "count", "count")                                      \
  X(kRdmaType, "rdma_type", "rdma type", "rdma_type")

enum class ArgKey : uint8_t {
#define PERFDX_ARG_ENUM(e, canonical, ...) e,
  PERFDX_ARG_KEYS(PERFDX_ARG_ENUM)
#undef PERFDX_ARG_ENUM
      kCount
};
inline constexpr size_t kArgKeyCount = static_cast<size_t>(ArgKey::kCount);

// The canonical (report) name of a key.
std::string_view ArgKeyName(ArgKey key);

// Maps a profiler's spelling to a key; returns false for keys perfdx ignores.
bool LookupArgKey(std::string_view spelling, ArgKey* key);

}  // namespace perfdx::model

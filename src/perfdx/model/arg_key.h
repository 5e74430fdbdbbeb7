// The event arguments perfdx keeps. Profilers attach dozens of args to each
// event; only these are read by analyses, so only these are stored (typed, in
// the ArgTable). Several profilers spell the same thing differently; all
// spellings map to one key.
#pragma once

#include <cstdint>
#include <string_view>

namespace perfdx::model {

// X(enum, canonical name, spelling...)
#define PERFDX_ARG_KEYS(X)                                                    \
  X(kExternalId, "external_id", "External id", "external id")                 \
  X(kCorrelation, "correlation", "correlation")                               \
  X(kCorrelationId, "correlation_id", "correlation_id")                       \
  X(kConnectionId, "connection_id", "connection_id")                          \
  X(kStream, "stream", "stream")                                              \
  X(kDevice, "device", "device")                                              \
  X(kBytes, "bytes", "bytes")                                                 \
  X(kMemoryBandwidthGbps, "memory_bandwidth_gbps", "memory bandwidth (GB/s)") \
  X(kGrid, "grid", "grid")                                                    \
  X(kBlock, "block", "block")                                                 \
  X(kBlocksPerSm, "blocks_per_sm", "blocks per SM")                           \
  X(kWarpsPerSm, "warps_per_sm", "warps per SM")                              \
  X(kOccupancyPct, "est_achieved_occupancy_pct", "est. achieved occupancy %") \
  X(kRegistersPerThread, "registers_per_thread", "registers per thread")      \
  X(kSharedMemoryBytes, "shared_memory", "shared memory")                     \
  X(kInputDims, "input_dims", "Input Dims", "Input dims")                     \
  X(kInputType, "input_type", "Input type")                                   \
  X(kSequenceNumber, "sequence_number", "Sequence number")                    \
  X(kFwdThreadId, "fwd_thread_id", "Fwd thread id")                           \
  X(kPythonId, "python_id", "Python id")                                      \
  X(kPythonParentId, "python_parent_id", "Python parent id")                  \
  X(kCollectiveName, "collective_name", "Collective name")                    \
  X(kDtype, "dtype", "dtype")                                                 \
  X(kInMsgNelems, "in_msg_nelems", "In msg nelems")                           \
  X(kOutMsgNelems, "out_msg_nelems", "Out msg nelems")                        \
  X(kInSplitSize, "in_split_size", "In split size")                           \
  X(kOutSplitSize, "out_split_size", "Out split size")                        \
  X(kGroupSize, "group_size", "Group size")                                   \
  X(kProcessGroupName, "process_group_name", "Process Group Name")            \
  X(kProcessGroupDesc, "process_group_desc", "Process Group Description")     \
  X(kProcessGroupRanks, "process_group_ranks", "Process Group Ranks")         \
  X(kSrcRank, "src_rank", "Src Rank", "src rank")                             \
  X(kDstRank, "dst_rank", "Dst Rank", "dst rank")                             \
  X(kMemBytes, "mem_bytes", "Bytes")                                          \
  X(kTotalAllocated, "total_allocated", "Total Allocated")                    \
  X(kTotalReserved, "total_reserved", "Total Reserved")                       \
  X(kAddr, "addr", "Addr")                                                    \
  X(kDeviceId, "device_id", "Device Id")                                      \
  X(kDeviceType, "device_type", "Device Type")                                \
  X(kTaskType, "task_type", "Task Type", "task type")                         \
  X(kStreamId, "stream_id", "Physic Stream Id", "Stream Id", "stream id")     \
  X(kTaskId, "task_id", "Task Id", "task id")                                 \
  X(kTransportType, "transport_type", "transport type")                       \
  X(kLinkType, "link_type", "link type")                                      \
  X(kSizeBytes, "size_bytes", "size(Byte)")                                   \
  X(kDataType, "data_type", "data type", "data_type")                         \
  X(kBandwidthGbps, "bandwidth_gbps", "bandwidth(GB/s)")                      \
  X(kAlgType, "alg_type", "alg_type")                                         \
  X(kElementCount, "count", "count")                                          \
  X(kApiLevel, "level", "level")                                              \
  X(kFlops, "flops", "flops")                                                 \
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

// The rule registry: every rule, one line each, in report order. A rule is
// one file under advisor/rules/ defining `const Rule& Name()` (or
// `const JobRule& Name()` for a rule over a job's ranks), one line here, and
// its test under tests/advisor/. The build compiles every file of the folder.
#pragma once

#include "perfdx/advisor/rule.h"

// Rules over one rank.
#define PERFDX_RANK_RULES(X)   \
  X(DataLoaderStall)           \
  X(SyncInStep)                \
  X(HostBoundDispatch)         \
  X(RecurringGap)              \
  X(StalledCall)               \
  X(LowDeviceUtilization)      \
  X(StepJitter)                \
  X(SawtoothUtilization)       \
  X(DataParallelSingleProcess) \
  X(CollectiveBackend)         \
  X(Fp32Matrix)                \
  X(MemcpyShare)               \
  X(PageableH2d)               \
  X(AllocationChurn)           \
  X(Fragmentation)             \
  X(MemoryNearCapacity)        \
  X(CommunicationShare)        \
  X(ExposedCommunication)      \
  X(SmallCollectives)          \
  X(LowBusBandwidth)           \
  X(DominantOperator)          \
  X(LayoutConversion)          \
  X(FusionCandidates)          \
  X(HostSyncCopies)            \
  X(ElementwiseChain)          \
  X(AiCpuOperators)            \
  X(DynamicShape)              \
  X(OperatorNoBound)           \
  X(BlockDim)                  \
  X(AiCoreFreqDrop)            \
  X(ByteAlignment)             \
  X(EnvironmentVariables)      \
  X(SynchronizeStream)         \
  X(SyncBatchNormCalls)        \
  X(PythonGc)                  \
  X(MemoryOperators)           \
  X(AffinityApi)

// Rules over the ranks of one job.
#define PERFDX_JOB_RULES(X) \
  X(LateOrSlowRank)         \
  X(SlowLink)

namespace perfdx::advisor {

#define PERFDX_DECLARE_RANK_RULE(name) const Rule& name();
#define PERFDX_DECLARE_JOB_RULE(name) const JobRule& name();
PERFDX_RANK_RULES(PERFDX_DECLARE_RANK_RULE)
PERFDX_JOB_RULES(PERFDX_DECLARE_JOB_RULE)
#undef PERFDX_DECLARE_RANK_RULE
#undef PERFDX_DECLARE_JOB_RULE

}  // namespace perfdx::advisor

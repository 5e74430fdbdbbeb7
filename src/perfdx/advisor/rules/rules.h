// The rule objects; AllRules() (rules.cc) lists them in a fixed order.
#pragma once

#include "perfdx/advisor/rule.h"

namespace perfdx::advisor {

const Rule& DataLoaderStall();
const Rule& SyncInStep();
const Rule& HostBoundDispatch();
const Rule& RecurringGap();
const Rule& LowDeviceUtilization();
const Rule& StepJitter();
const Rule& SawtoothUtilization();
const Rule& DataParallelSingleProcess();
const Rule& CollectiveBackend();

// Memory, communication and operator rules.
const Rule& Fp32Matrix();
const Rule& MemcpyShare();
const Rule& PageableH2d();
const Rule& AllocationChurn();
const Rule& Fragmentation();
const Rule& MemoryNearCapacity();
const Rule& CommunicationShare();
const Rule& ExposedCommunication();
const Rule& SmallCollectives();
const Rule& LowBusBandwidth();
const Rule& DominantOperator();
const Rule& LayoutConversion();
const Rule& FusionCandidates();
const Rule& HostSyncCopies();
const Rule& ElementwiseChain();
const Rule& AiCpuOperators();

// Ascend rules: the msprof-analyze advisor's checks (issue #5;
// ../shared/docs/ascend-advisor_rules.md).
const Rule& DynamicShape();
const Rule& OperatorNoBound();
const Rule& BlockDim();
const Rule& AiCoreFreqDrop();
const Rule& ByteAlignment();
const Rule& EnvironmentVariables();
const Rule& SynchronizeStream();
const Rule& SyncBatchNormCalls();
const Rule& PythonGc();
const Rule& MemoryOperators();
const Rule& AffinityApi();

}  // namespace perfdx::advisor

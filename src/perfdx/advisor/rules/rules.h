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
const Rule& AiCpuOperators();

}  // namespace perfdx::advisor

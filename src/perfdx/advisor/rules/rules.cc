#include "perfdx/advisor/rules/rules.h"

namespace perfdx::advisor {

const std::vector<const Rule*>& AllRules() {
  static const std::vector<const Rule*> kRules = {
      &DataLoaderStall(),      &SyncInStep(),
      &HostBoundDispatch(),    &RecurringGap(),
      &LowDeviceUtilization(), &StepJitter(),
      &SawtoothUtilization(),  &DataParallelSingleProcess(),
      &CollectiveBackend(),    &Fp32Matrix(),
      &MemcpyShare(),          &PageableH2d(),
      &AllocationChurn(),      &Fragmentation(),
      &MemoryNearCapacity(),   &CommunicationShare(),
      &ExposedCommunication(), &SmallCollectives(),
      &LowBusBandwidth(),      &DominantOperator(),
      &LayoutConversion(),     &FusionCandidates(),
      &HostSyncCopies(),       &ElementwiseChain(),
      &AiCpuOperators(),       &DynamicShape(),
      &OperatorNoBound(),      &BlockDim(),
      &AiCoreFreqDrop(),       &ByteAlignment(),
      &EnvironmentVariables(), &SynchronizeStream(),
      &SyncBatchNormCalls(),   &PythonGc(),
      &MemoryOperators(),      &AffinityApi(),
  };
  return kRules;
}

}  // namespace perfdx::advisor

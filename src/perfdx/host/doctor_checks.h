// The doctor's checks, one family per file (doctor_*.cc); each appends its
// checks in a fixed order. Internal to the host module.
#pragma once

#include <string>
#include <vector>

#include "perfdx/host/doctor.h"

namespace perfdx::host::doctor {

void AddCpuChecks(const DoctorInput& input, std::vector<Check>* out);     // cpu.*
void AddMemoryChecks(const DoctorInput& input, std::vector<Check>* out);  // numa.*, mm.*, mem.*
void AddDeviceChecks(const DoctorInput& input, std::vector<Check>* out);  // accel.*, irq.*
void AddLimitChecks(const DoctorInput& input, std::vector<Check>* out);   // ulimit.*
void AddToolChecks(const DoctorInput& input, std::vector<Check>* out);    // tool.*
void AddEnvChecks(const DoctorInput& input, std::vector<Check>* out);     // env.*

// Shared helpers.
Check MakeCheck(std::string id, std::string title);
Check Unknown(std::string id, std::string title, std::string what_is_missing);
std::string GiB(int64_t kb);
// The CPUs each rank gets under `perfdx bind --policy cores` with one rank
// per accelerator (one rank when there is none): the smallest share.
int CpusPerRank(const HostTopology& topology);
bool HasRdmaNic(const HostTopology& topology);

}  // namespace perfdx::host::doctor

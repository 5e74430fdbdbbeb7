// `perfdx doctor`'s output: the checks host::RunDoctor made, as text or JSON.
// The JSON form is a contract (keys other tools read; docs/host.md):
//   {"schema_version", "report": "doctor", "perfdx_version", "root",
//    "checks": [{"id", "title", "level", "known", "value", "recommended", "why",
//    "source", "fix"}], "summary": {"total", "ok", "info", "warning", "critical",
//    "unknown", "text"}}
#pragma once

#include <string>

#include "perfdx/host/doctor.h"

namespace perfdx::report {

// Raised when a key is removed, renamed or changes meaning.
inline constexpr int kDoctorSchemaVersion = 1;

std::string RenderDoctorText(const host::DoctorReport& report);
std::string RenderDoctorJson(const host::DoctorReport& report);

}  // namespace perfdx::report

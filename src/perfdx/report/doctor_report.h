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

// Wrapped to `width` columns (40 at the least) as the analyze report is: a
// check's value under its value column, its details under their text, its
// fix as code that still pastes (WrapCode), its source link never cut.
std::string RenderDoctorText(const host::DoctorReport& report, int width = 100);
std::string RenderDoctorJson(const host::DoctorReport& report);

}  // namespace perfdx::report

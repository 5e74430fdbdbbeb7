// The thresholds configuration file (perfdx.toml): every Band of Thresholds
// is a table with `healthy` and `abnormal`, the scalars are top-level keys.
// Keys a file leaves out keep their defaults; unknown keys and wrong types are
// errors that name the file, so a typo never silently keeps a default.
//
//   min_recurring_gap_ns = 1000000
//   [device_utilization]
//   healthy = 0.85
//   abnormal = 0.6
//
// `perfdx config --defaults` prints the full file with the source of every
// default.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "perfdx/advisor/thresholds.h"
#include "perfdx/base/status.h"

namespace perfdx::advisor {

// The file `perfdx analyze` reads from the working directory when no
// --config is given.
inline constexpr std::string_view kDefaultConfigFile = "perfdx.toml";

// One band of Thresholds as the file names it.
struct BandKey {
  std::string_view name;  // the TOML table, e.g. "device_utilization"
  Band Thresholds::*member;
  std::string_view meaning;  // what the metric is, for the file's comments
  std::string_view source;   // where the default comes from
};

// One scalar of Thresholds, a top-level key of the file.
struct ScalarKey {
  std::string_view name;
  double Thresholds::*member;
  std::string_view meaning;
  std::string_view unit;  // "ns", "bytes", "count", "GB/s", "fraction", "factor"
  std::string_view source;
};

// Every band and every scalar of Thresholds, in file order.
std::span<const BandKey> ThresholdBands();
std::span<const ScalarKey> ThresholdScalars();

// Reads `path`; values it sets replace the defaults.
Result<Thresholds> LoadThresholds(const std::string& path);

// The same from the file's text; `path` names it in errors.
Result<Thresholds> ParseThresholdsToml(std::string_view text, const std::string& path);

// `config_path` if not empty, else ./perfdx.toml if it exists, else the
// defaults.
Result<Thresholds> ResolveThresholds(const std::string& config_path);

// `thresholds` as a complete config file, with a comment per key.
std::string ConfigToml(const Thresholds& thresholds);

// The built-in defaults as a config file: ConfigToml(Thresholds{}).
std::string DefaultConfigToml();

}  // namespace perfdx::advisor

#include "perfdx/advisor/config.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>

#include <fmt/format.h>
// The packaged toml++ is a compiled library built with exceptions, so this
// file uses the throwing API and catches everything at the boundary: no
// exception leaves LoadThresholds.
#include <toml++/toml.h>

namespace perfdx::advisor {
namespace {

// Generated from thresholds.def, in its order.
constexpr std::array kBands = std::to_array<BandKey>({
#define PERFDX_BAND(name, healthy, abnormal, higher_is_better, meaning, source) \
  {#name, &Thresholds::name, meaning, source},
#define PERFDX_SCALAR(name, value, unit, meaning, source)
#include "perfdx/advisor/thresholds.def"
#undef PERFDX_BAND
#undef PERFDX_SCALAR
});

constexpr std::array kScalars = std::to_array<ScalarKey>({
#define PERFDX_BAND(name, healthy, abnormal, higher_is_better, meaning, source)
#define PERFDX_SCALAR(name, value, unit, meaning, source) \
  {#name, &Thresholds::name, meaning, unit, source},
#include "perfdx/advisor/thresholds.def"
#undef PERFDX_BAND
#undef PERFDX_SCALAR
});

constexpr uintmax_t kMaxConfigBytes = uintmax_t{1} << 20;  // a config file is a few KB

std::string_view TypeName(toml::node_type type) {
  switch (type) {
    case toml::node_type::none:
      return "nothing";
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a float";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::date:
      return "a date";
    case toml::node_type::time:
      return "a time";
    case toml::node_type::date_time:
      return "a date-time";
  }
  return "an unknown type";
}

// "path:line: " for messages about one node.
std::string Where(const std::string& path, const toml::node& node) {
  const toml::source_position& begin = node.source().begin;
  if (begin.line == 0) return path + ": ";
  return fmt::format("{}:{}: ", path, begin.line);
}

// A number (integers are accepted too: `healthy = 1` means 1.0).
Result<double> ReadNumber(const std::string& path, std::string_view key, const toml::node& node) {
  double value = 0;
  if (const toml::value<double>* f = node.as_floating_point()) {
    value = f->get();
  } else if (const toml::value<int64_t>* i = node.as_integer()) {
    value = static_cast<double>(i->get());
  } else {
    return InvalidInput(fmt::format("{}{}: expected a number, got {}", Where(path, node), key,
                                    TypeName(node.type())));
  }
  if (!std::isfinite(value) || value < 0) {
    return InvalidInput(
        fmt::format("{}{}: must be a finite number >= 0, got {}", Where(path, node), key, value));
  }
  return value;
}

// Durations, sizes and counts are whole and at most 2^53 (exact as a double;
// the rules convert them to integers and add a few), fractions at most 1.
Status CheckScalarRange(const std::string& path, const ScalarKey& key, const toml::node& node,
                        double value) {
  constexpr double kMaxWhole = 9007199254740992.0;  // 2^53
  if (key.unit == "ns" || key.unit == "bytes" || key.unit == "count") {
    if (value != std::floor(value) || value > kMaxWhole) {
      return InvalidInput(fmt::format("{}{}: must be a whole number of {} up to 2^53, got {}",
                                      Where(path, node), key.name,
                                      key.unit == "count" ? "items" : key.unit, value));
    }
  } else if (key.unit == "fraction" && value > 1) {
    return InvalidInput(fmt::format("{}{}: a fraction, must be at most 1 (0.1 = 10%), got {}",
                                    Where(path, node), key.name, value));
  }
  return Status::Ok();
}

Status ReadBand(const std::string& path, const BandKey& spec, const toml::node& node, Band* band) {
  const toml::table* table = node.as_table();
  if (table == nullptr) {
    return InvalidInput(fmt::format("{}{}: expected a table [{}] with healthy and abnormal, got {}",
                                    Where(path, node), spec.name, spec.name,
                                    TypeName(node.type())));
  }
  for (const auto& [key, value] : *table) {
    const std::string full = fmt::format("{}.{}", spec.name, key.str());
    double* target = key.str() == "healthy"    ? &band->healthy
                     : key.str() == "abnormal" ? &band->abnormal
                                               : nullptr;
    if (target == nullptr) {
      return InvalidInput(fmt::format("{}unknown key '{}' (a band has healthy and abnormal)",
                                      Where(path, value), full));
    }
    Result<double> number = ReadNumber(path, full, value);
    if (!number.ok()) return number.status();
    *target = *number;
  }
  // The two limits must bracket the warning zone on the metric's good side,
  // or Evaluate() would call values healthy and abnormal at the same time.
  const bool ordered =
      band->higher_is_better ? band->abnormal <= band->healthy : band->healthy <= band->abnormal;
  if (!ordered) {
    return InvalidInput(fmt::format(
        "{}[{}]: {} is better, so abnormal ({}) must be {} healthy ({})", Where(path, node),
        spec.name, band->higher_is_better ? "higher" : "lower", band->abnormal,
        band->higher_is_better ? "at most" : "at least", band->healthy));
  }
  return Status::Ok();
}

Result<Thresholds> ParseThresholds(const std::string& path, const toml::table& root) {
  Thresholds t;
  for (const auto& [key, node] : root) {
    const ScalarKey* scalar = nullptr;
    for (const ScalarKey& sk : kScalars) {
      if (sk.name == key.str()) scalar = &sk;
    }
    if (scalar != nullptr) {
      Result<double> value = ReadNumber(path, scalar->name, node);
      if (!value.ok()) return value.status();
      if (Status s = CheckScalarRange(path, *scalar, node, *value); !s.ok()) return s;
      t.*(scalar->member) = *value;
      continue;
    }
    const BandKey* spec = nullptr;
    for (const BandKey& b : kBands) {
      if (b.name == key.str()) spec = &b;
    }
    if (spec == nullptr) {
      return InvalidInput(fmt::format("{}unknown key '{}'", Where(path, node), key.str()));
    }
    if (Status s = ReadBand(path, *spec, node, &(t.*(spec->member))); !s.ok()) return s;
  }
  return t;
}

Result<std::string> ReadSmallFile(const std::string& path) {
  std::error_code ec;
  const std::filesystem::file_status st = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(st)) return NotFound(fmt::format("{}: no such file", path));
  if (!std::filesystem::is_regular_file(st)) {
    return InvalidInput(fmt::format("{}: not a regular file", path));
  }
  const uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) return IoError(fmt::format("{}: {}", path, ec.message()));
  if (size > kMaxConfigBytes) {
    return LimitExceeded(fmt::format("{}: {} bytes, more than a config file can be ({})", path,
                                     size, kMaxConfigBytes));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return IoError(fmt::format("{}: cannot open", path));
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) return IoError(fmt::format("{}: read error", path));
  return content.str();
}

// Shortest text that reads back to the same double; bands always show a
// decimal point so the file reads as the float it is.
std::string FormatDouble(double v) {
  std::string s = fmt::format("{}", v);
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

// Durations, sizes and counts read best as integers; the rest as floats.
std::string FormatScalar(const ScalarKey& key, double v) {
  const bool whole_unit = key.unit == "ns" || key.unit == "bytes" || key.unit == "count";
  if (whole_unit && v == std::floor(v) && v < 9.0e15) {
    return fmt::format("{}", static_cast<int64_t>(v));
  }
  return FormatDouble(v);
}

}  // namespace

std::span<const BandKey> ThresholdBands() {
  return kBands;
}
std::span<const ScalarKey> ThresholdScalars() {
  return kScalars;
}

Result<Thresholds> LoadThresholds(const std::string& path) {
  Result<std::string> content = ReadSmallFile(path);
  if (!content.ok()) return content.status();
  return ParseThresholdsToml(*content, path);
}

Result<Thresholds> ParseThresholdsToml(std::string_view text, const std::string& path) {
  if (text.size() > kMaxConfigBytes) {
    return LimitExceeded(fmt::format("{}: {} bytes, more than a config file can be ({})", path,
                                     text.size(), kMaxConfigBytes));
  }
  try {
    const toml::table root = toml::parse(text, path);
    return ParseThresholds(path, root);
  } catch (const toml::parse_error& e) {
    const toml::source_position& at = e.source().begin;
    return InvalidInput(
        fmt::format("{}:{}:{}: not valid TOML: {}", path, at.line, at.column, e.description()));
  } catch (const std::exception& e) {
    return InvalidInput(fmt::format("{}: {}", path, e.what()));
  }
}

Result<Thresholds> ResolveThresholds(const std::string& config_path) {
  if (!config_path.empty()) return LoadThresholds(config_path);
  std::error_code ec;
  if (std::filesystem::exists(kDefaultConfigFile, ec)) {
    return LoadThresholds(std::string(kDefaultConfigFile));
  }
  return Thresholds{};
}

std::string ConfigToml(const Thresholds& t) {
  std::string out =
      "# perfdx thresholds. `perfdx analyze` reads ./perfdx.toml, or the file given with\n"
      "# --config; keys left out keep these defaults, unknown keys are errors.\n"
      "#\n"
      "# Each table is a band: a metric is healthy on the good side of `healthy`,\n"
      "# abnormal beyond `abnormal`, and a warning in between. Shares are fractions\n"
      "# (0.1 = 10%).\n\n";
  // Scalars first: in TOML a key after a [table] header belongs to the table.
  for (const ScalarKey& sk : kScalars) {
    out += fmt::format("# {} ({}).\n# Default from {}.\n{} = {}\n\n", sk.meaning, sk.unit,
                       sk.source, sk.name, FormatScalar(sk, t.*(sk.member)));
  }
  for (const BandKey& b : kBands) {
    const Band& band = t.*(b.member);
    out += fmt::format(
        "# {} ({} is better).\n# Default from {}.\n[{}]\nhealthy = {}\nabnormal = {}\n\n",
        b.meaning, band.higher_is_better ? "higher" : "lower", b.source, b.name,
        FormatDouble(band.healthy), FormatDouble(band.abnormal));
  }
  return out;
}

std::string DefaultConfigToml() {
  return ConfigToml(Thresholds{});
}

}  // namespace perfdx::advisor

#include "perfdx/host/sysroot.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <system_error>

namespace perfdx::host {
namespace {

constexpr size_t kMaxFileBytes = size_t{16} << 20;

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

}  // namespace

SysRoot::SysRoot(std::string root) : root_(std::move(root)) {
  while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
  if (root_.empty()) root_ = "/";
}

std::string SysRoot::Path(std::string_view abs) const {
  if (live()) return std::string(abs);
  return root_ + std::string(abs);
}

std::optional<std::string> SysRoot::Read(std::string_view abs) const {
  // open/read rather than a stream: sysfs and procfs files report size 0 and
  // some are produced on each read; O_NONBLOCK so that a FIFO in a fixture
  // cannot hang the read.
  const int fd = ::open(Path(abs).c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return std::nullopt;
  std::string out;
  char buffer[65536];
  bool ok = true;
  while (out.size() < kMaxFileBytes) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      ok = false;
      break;
    }
    if (n == 0) break;
    out.append(buffer, static_cast<size_t>(n));
  }
  ::close(fd);
  if (!ok) return std::nullopt;
  return out;
}

std::optional<std::string> SysRoot::ReadLine(std::string_view abs) const {
  auto text = Read(abs);
  if (!text) return std::nullopt;
  std::string_view s = *text;
  s = s.substr(0, s.find('\n'));
  return std::string(Trim(s));
}

std::optional<long long> SysRoot::ReadInt(std::string_view abs) const {
  auto line = ReadLine(abs);
  if (!line || line->empty()) return std::nullopt;
  long long v = 0;
  const auto [end, ec] = std::from_chars(line->data(), line->data() + line->size(), v);
  if (ec != std::errc() || end != line->data() + line->size()) return std::nullopt;
  return v;
}

std::optional<unsigned long> SysRoot::ReadHex(std::string_view abs) const {
  auto line = ReadLine(abs);
  if (!line) return std::nullopt;
  std::string_view s = *line;
  if (s.starts_with("0x") || s.starts_with("0X")) s.remove_prefix(2);
  if (s.empty()) return std::nullopt;
  unsigned long v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 16);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

bool SysRoot::Exists(std::string_view abs) const {
  std::error_code ec;
  return std::filesystem::exists(Path(abs), ec);
}

std::vector<std::string> SysRoot::List(std::string_view abs_dir) const {
  std::vector<std::string> names;
  std::error_code ec;
  std::filesystem::directory_iterator it(Path(abs_dir), ec);
  if (ec) return names;
  for (const auto& entry : it) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

int NumberedName(std::string_view name, std::string_view prefix) {
  if (!name.starts_with(prefix) || name.size() == prefix.size()) return -1;
  name.remove_prefix(prefix.size());
  int v = 0;
  const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), v);
  if (ec != std::errc() || end != name.data() + name.size() || v < 0) return -1;
  return v;
}

}  // namespace perfdx::host

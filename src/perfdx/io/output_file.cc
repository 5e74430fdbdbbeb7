#include "perfdx/io/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <utility>

#include <fmt/format.h>

namespace perfdx::io {
namespace {

// Follows `path` through symlinks to the file it names (which may not exist
// yet), so that -o writes through a link instead of replacing it.
Result<std::string> ResolveOutputPath(const std::string& path) {
  constexpr int kMaxLinks = 40;  // the kernel's own limit (ELOOP)
  std::filesystem::path target(path);
  for (int links = 0;; ++links) {
    struct stat st {};
    if (::lstat(target.c_str(), &st) != 0) {
      if (errno == ENOENT) return target.string();
      return IoError(fmt::format("{}: cannot write: {}", path, std::strerror(errno)));
    }
    if (!S_ISLNK(st.st_mode)) return target.string();
    if (links == kMaxLinks) {
      return InvalidInput(fmt::format("{}: cannot write: too many levels of symbolic links", path));
    }
    std::error_code ec;
    const std::filesystem::path next = std::filesystem::read_symlink(target, ec);
    if (ec) return IoError(fmt::format("{}: cannot write: {}", path, ec.message()));
    target = next.is_absolute() ? next : target.parent_path() / next;
  }
}

Status WriteAll(int fd, std::string_view content, const std::string& name) {
  size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return IoError(fmt::format("{}: write failed: {}", name, std::strerror(errno)));
    done += static_cast<size_t>(n);
  }
  return Status::Ok();
}

}  // namespace

Result<std::unique_ptr<OutputFile>> OutputFile::Open(const std::string& path) {
  if (path.empty() || path == "-") {
    return std::unique_ptr<OutputFile>(new OutputFile(path, "", Kind::kStdout, -1, ""));
  }
  PERFDX_ASSIGN_OR_RETURN(std::string target, ResolveOutputPath(path));
  struct stat st {};
  const bool exists = ::stat(target.c_str(), &st) == 0;
  if (!exists && errno != ENOENT) {
    return IoError(fmt::format("{}: cannot write: {}", path, std::strerror(errno)));
  }
  if (exists && S_ISDIR(st.st_mode)) {
    return InvalidInput(fmt::format("{}: is a folder; -o needs a file name", path));
  }
  if (exists && !S_ISREG(st.st_mode)) {
    const int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) return IoError(fmt::format("{}: cannot write: {}", path, std::strerror(errno)));
    return std::unique_ptr<OutputFile>(
        new OutputFile(path, std::move(target), Kind::kInPlace, fd, ""));
  }
  std::string tmp = fmt::format("{}.tmp.{}", target, ::getpid());
  // O_EXCL: never write through something planted at the temporary name.
  const mode_t mode = exists ? (st.st_mode & 07777) : 0666;
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  if (fd < 0) return IoError(fmt::format("{}: cannot create: {}", tmp, std::strerror(errno)));
  // The umask applied at creation; keep the mode of the file being replaced.
  if (exists) (void)::fchmod(fd, st.st_mode & 07777);
  return std::unique_ptr<OutputFile>(
      new OutputFile(path, std::move(target), Kind::kReplacing, fd, std::move(tmp)));
}

OutputFile::OutputFile(std::string path, std::string target, Kind kind, int fd, std::string tmp)
    : path_(std::move(path)),
      target_(std::move(target)),
      kind_(kind),
      fd_(fd),
      tmp_(std::move(tmp)) {
  buffer_.reserve(kBufferBytes);
}

OutputFile::~OutputFile() {
  if (fd_ >= 0) ::close(fd_);
  if (kind_ == Kind::kReplacing && !committed_) ::unlink(tmp_.c_str());
}

void OutputFile::Fail(Status status) {
  if (status_.ok()) status_ = std::move(status);
}

void OutputFile::Send(std::string_view bytes) {
  if (bytes.empty() || !status_.ok()) return;
  if (kind_ == Kind::kStdout) {
    if (std::fwrite(bytes.data(), 1, bytes.size(), stdout) != bytes.size()) {
      Fail(IoError("cannot write to standard output"));
    }
  } else {
    Fail(WriteAll(fd_, bytes, kind_ == Kind::kReplacing ? tmp_ : path_));
  }
}

void OutputFile::Write(std::string_view text) {
  if (!status_.ok()) return;
  if (buffer_.size() + text.size() <= kBufferBytes) {
    buffer_ += text;
    return;
  }
  Send(buffer_);
  buffer_.clear();
  // A piece as large as the buffer goes straight out.
  if (text.size() >= kBufferBytes) {
    Send(text);
  } else {
    buffer_ += text;
  }
}

Status OutputFile::Commit() {
  Send(buffer_);
  buffer_.clear();
  if (kind_ == Kind::kStdout) {
    if (status_.ok() && std::fflush(stdout) != 0) Fail(IoError("cannot write to standard output"));
    committed_ = status_.ok();
    return status_;
  }
  const std::string& written = kind_ == Kind::kReplacing ? tmp_ : path_;
  if (::close(fd_) != 0)
    Fail(IoError(fmt::format("{}: write failed: {}", written, std::strerror(errno))));
  fd_ = -1;
  if (status_.ok() && kind_ == Kind::kReplacing && ::rename(tmp_.c_str(), target_.c_str()) != 0) {
    Fail(IoError(fmt::format("{}: cannot write: {}", path_, std::strerror(errno))));
  }
  committed_ = status_.ok();
  return status_;
}

Status WriteOutputFile(const std::string& path, std::string_view content) {
  PERFDX_ASSIGN_OR_RETURN(std::unique_ptr<OutputFile> out, OutputFile::Open(path));
  out->Write(content);
  return out->Commit();
}

}  // namespace perfdx::io

#include "perfdx/io/byte_source.h"

#include <fcntl.h>
#include <isa-l/igzip_lib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include <fmt/format.h>
// ZSTD_getFrameHeader, to name the window a refused frame asks for (the
// shared library exports it).
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>
#include <zstd_errors.h>

namespace perfdx::io {
namespace {

// Compressed input is read 128 KiB at a time: larger reads were no faster
// through ISA-L and cost RSS.
constexpr size_t kInputChunk = size_t{128} << 10;
// The first read: discovery's sniff wants 4 KiB of JSON
// and a small rank file is a few KiB of gzip; a whole 1 MiB read (and its
// page faults) for them was most of the sniff's cost.
constexpr size_t kFirstInputChunk = size_t{64} << 10;

size_t InputReadSize(uint64_t bytes_in) {
  return bytes_in == 0 ? kFirstInputChunk : kInputChunk;
}
// The largest zstd window: 2 GiB, what `zstd --long=31` writes.
constexpr int kZstdWindowLogLimit = 31;

// Where compressed input comes from: a file descriptor or memory.
class RawInput {
 public:
  virtual ~RawInput() = default;
  virtual Result<size_t> Read(char* dst, size_t capacity) = 0;
};

class FdInput final : public RawInput {
 public:
  FdInput(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  ~FdInput() override { ::close(fd_); }
  FdInput(const FdInput&) = delete;
  FdInput& operator=(const FdInput&) = delete;

  Result<size_t> Read(char* dst, size_t capacity) override {
    for (;;) {
      const ssize_t n = ::read(fd_, dst, capacity);
      if (n >= 0) return static_cast<size_t>(n);
      if (errno == EINTR) continue;
      return IoError(fmt::format("{}: read failed: {}", path_, std::strerror(errno)));
    }
  }

 private:
  int fd_;
  std::string path_;
};

class MemoryInput final : public RawInput {
 public:
  explicit MemoryInput(std::string data) : data_(std::move(data)) {}
  Result<size_t> Read(char* dst, size_t capacity) override {
    const size_t n = std::min(capacity, data_.size() - pos_);
    std::memcpy(dst, data_.data() + pos_, n);
    pos_ += n;
    return n;
  }

 private:
  std::string data_;
  size_t pos_ = 0;
};

// Bytes sniffed from the start of the input are replayed before the rest.
class PeekedInput {
 public:
  PeekedInput(std::unique_ptr<RawInput> input, std::string head)
      : input_(std::move(input)), head_(std::move(head)) {}
  Result<size_t> Read(char* dst, size_t capacity) {
    if (head_pos_ < head_.size()) {
      const size_t n = std::min(capacity, head_.size() - head_pos_);
      std::memcpy(dst, head_.data() + head_pos_, n);
      head_pos_ += n;
      if (n == capacity) return n;
      // The rest of the first read too: a frame header stays in one buffer.
      PERFDX_ASSIGN_OR_RETURN(size_t more, input_->Read(dst + n, capacity - n));
      return n + more;
    }
    return input_->Read(dst, capacity);
  }

 private:
  std::unique_ptr<RawInput> input_;
  std::string head_;
  size_t head_pos_ = 0;
};

class LimitedSource : public ByteSource {
 protected:
  LimitedSource(std::string path, Compression c, PeekedInput input, const ReadLimits& limits)
      : ByteSource(std::move(path), c), input_(std::move(input)), limits_(limits) {}

  Status CheckLimits() const {
    if (bytes_out_ > limits_.max_decompressed_bytes) {
      return LimitExceeded(fmt::format(
          "{}: more than {} bytes after decompression (raise the limit with --max-decompressed)",
          path_, limits_.max_decompressed_bytes));
    }
    if (compression_ != Compression::kNone && bytes_out_ > limits_.ratio_floor_bytes &&
        static_cast<double>(bytes_out_) >
            limits_.max_compression_ratio * static_cast<double>(std::max<uint64_t>(bytes_in_, 1))) {
      return LimitExceeded(
          fmt::format("{}: compression ratio above {:.0f}:1 at byte {} of the compressed input (a "
                      "decompression bomb? raise the limit with --max-ratio)",
                      path_, limits_.max_compression_ratio, bytes_in_));
    }
    return Status::Ok();
  }

  PeekedInput input_;
  ReadLimits limits_;
};

class PlainSource final : public LimitedSource {
 public:
  PlainSource(std::string path, PeekedInput input, const ReadLimits& limits)
      : LimitedSource(std::move(path), Compression::kNone, std::move(input), limits) {}

  Result<size_t> Read(char* dst, size_t capacity) override {
    PERFDX_ASSIGN_OR_RETURN(size_t n, input_.Read(dst, capacity));
    bytes_out_ += n;
    bytes_in_ += n;
    PERFDX_RETURN_IF_ERROR(CheckLimits());
    return n;
  }
};

// What ISA-L's inflate error codes mean, for the error line.
std::string_view IsalError(int rc) {
  switch (rc) {
    case ISAL_INVALID_BLOCK:
      return "invalid deflate block";
    case ISAL_INVALID_SYMBOL:
      return "invalid deflate symbol";
    case ISAL_INVALID_LOOKBACK:
      return "invalid lookback distance";
    case ISAL_INVALID_WRAPPER:
      return "invalid gzip header";
    case ISAL_UNSUPPORTED_METHOD:
      return "unsupported compression method";
    case ISAL_INCORRECT_CHECKSUM:
      return "incorrect data check";
    default:
      return "inflate error";
  }
}

// gzip through ISA-L's igzip inflate (Debian libisal-dev), several times
// zlib's speed on the same stream; the gzip header and CRC are ISA-L's
// (crc_flag ISAL_GZIP).
class GzipSource final : public LimitedSource {
 public:
  GzipSource(std::string path, PeekedInput input, const ReadLimits& limits)
      : LimitedSource(std::move(path), Compression::kGzip, std::move(input), limits),
        in_buf_(std::make_unique_for_overwrite<char[]>(kInputChunk)) {
    StartMember();
  }

  Result<size_t> Read(char* dst, size_t capacity) override {
    if (done_ || capacity == 0) return size_t{0};
    state_.next_out = reinterpret_cast<uint8_t*>(dst);
    state_.avail_out = static_cast<uint32_t>(std::min<size_t>(capacity, UINT32_MAX));
    while (state_.avail_out > 0) {
      if (state_.avail_in == 0) {
        PERFDX_ASSIGN_OR_RETURN(size_t n, input_.Read(in_buf_.get(), InputReadSize(bytes_in_)));
        if (n == 0) {
          // The input ended. ISA-L may still hold decoded bytes it has not
          // written out: drain them first.
          if (!at_member_boundary_) {
            const uint32_t before = state_.avail_out;
            const int rc = isal_inflate(&state_);
            if (rc < ISAL_DECOMP_OK) return Corrupt(rc);
            if (state_.block_state == ISAL_BLOCK_FINISH) {
              at_member_boundary_ = true;
              continue;
            }
            if (state_.avail_out < before) continue;
          }
          // A complete member would have finished its block.
          if (!at_member_boundary_) {
            if (bytes_out_ + (capacity - state_.avail_out) == 0) {
              return InvalidInput(fmt::format(
                  "{}: at compressed byte {}: gzip stream ends before any data", path_, bytes_in_));
            }
            truncation_ =
                fmt::format("gzip stream ends early (after {} compressed bytes)", bytes_in_);
          }
          done_ = true;
          break;
        }
        bytes_in_ += n;
        state_.next_in = reinterpret_cast<uint8_t*>(in_buf_.get());
        state_.avail_in = static_cast<uint32_t>(n);
      }
      if (at_member_boundary_) {
        // Another gzip member may follow (concatenated .gz files are valid);
        // anything else after a complete member is ignored.
        if (state_.next_in[0] != 0x1f) {
          done_ = true;
          break;
        }
        // A fresh state keeps the buffers it is working on.
        uint8_t* next_in = state_.next_in;
        const uint32_t avail_in = state_.avail_in;
        uint8_t* next_out = state_.next_out;
        const uint32_t avail_out = state_.avail_out;
        StartMember();
        state_.next_in = next_in;
        state_.avail_in = avail_in;
        state_.next_out = next_out;
        state_.avail_out = avail_out;
      }
      const uint32_t in_before = state_.avail_in;
      const uint32_t out_before = state_.avail_out;
      int rc = isal_inflate(&state_);
      if (rc == ISAL_DECOMP_OK || rc == ISAL_END_INPUT || rc == ISAL_OUT_OVERFLOW) {
        if (state_.block_state == ISAL_BLOCK_FINISH) {
          at_member_boundary_ = true;
          continue;
        }
        // Never loop without progress, whatever the input (a hang is worse
        // than an error).
        if (state_.avail_in != in_before || state_.avail_out != out_before) continue;
        rc = ISAL_INVALID_BLOCK;
      }
      return Corrupt(rc);
    }
    const size_t produced = capacity - state_.avail_out;
    bytes_out_ += produced;
    PERFDX_RETURN_IF_ERROR(CheckLimits());
    return produced;
  }

 private:
  // Corrupt data is refused whole, not kept as a truncation (as a cut stream
  // is): on an error igzip may already have counted out bytes it never
  // decoded (what its window held; the fuzzer found them), so nothing of the
  // call that failed, or before it, can be told to be the file's.
  Status Corrupt(int rc) const {
    return InvalidInput(fmt::format("{}: at compressed byte {}: corrupt gzip data ({})", path_,
                                    bytes_in_ - state_.avail_in, IsalError(rc)));
  }

  // A fresh state for the next gzip member (header, deflate data, CRC).
  void StartMember() {
    isal_inflate_init(&state_);
    state_.crc_flag = ISAL_GZIP;
    at_member_boundary_ = false;
  }

  // Value-initialised: igzip's init leaves its buffers as they were, and what
  // a source gives must not depend on what the heap held before.
  inflate_state state_{};
  bool done_ = false;
  bool at_member_boundary_ = false;
  std::unique_ptr<char[]> in_buf_;  // not zero-filled: every byte used was read first
};

std::string BinarySize(uint64_t bytes) {
  if (bytes >= (uint64_t{1} << 30) && bytes % (uint64_t{1} << 30) == 0) {
    return fmt::format("{} GiB", bytes >> 30);
  }
  if (bytes >= (uint64_t{1} << 20) && bytes % (uint64_t{1} << 20) == 0) {
    return fmt::format("{} MiB", bytes >> 20);
  }
  return fmt::format("{} bytes", bytes);
}

class ZstdSource final : public LimitedSource {
 public:
  ZstdSource(std::string path, PeekedInput input, const ReadLimits& limits)
      : LimitedSource(std::move(path), Compression::kZstd, std::move(input), limits),
        in_buf_(std::make_unique_for_overwrite<char[]>(kInputChunk)),
        window_log_max_(ZstdWindowLogMax(limits.max_decompressed_bytes)) {
    dctx_ = ZSTD_createDCtx();
    // The decoder allocates the window a frame declares (pages are touched
    // only as output fills them): bounded by what the output may grow to.
    if (dctx_) ZSTD_DCtx_setParameter(dctx_, ZSTD_d_windowLogMax, window_log_max_);
  }
  ~ZstdSource() override { ZSTD_freeDCtx(dctx_); }
  ZstdSource(const ZstdSource&) = delete;
  ZstdSource& operator=(const ZstdSource&) = delete;

  Result<size_t> Read(char* dst, size_t capacity) override {
    if (!dctx_) return Internal("zstd initialisation failed");
    if (done_ || capacity == 0) return size_t{0};
    ZSTD_outBuffer out{dst, capacity, 0};
    while (out.pos < out.size) {
      if (in_.pos == in_.size && !input_ended_) {
        PERFDX_ASSIGN_OR_RETURN(size_t n, input_.Read(in_buf_.get(), InputReadSize(bytes_in_)));
        if (n == 0) {
          input_ended_ = true;
        } else {
          bytes_in_ += n;
          in_ = ZSTD_inBuffer{in_buf_.get(), n, 0};
        }
      }
      // With the input all read, the decoder may still hold decoded bytes a
      // smaller read had no room for: drained by calls with no input, until
      // one hands out nothing (a frame complete and flushed needs none).
      if (input_ended_ && last_rc_ == 0) {
        done_ = true;
        break;
      }
      const size_t out_before = out.pos;
      const size_t frame_at = in_.pos;
      const size_t rc = ZSTD_decompressStream(dctx_, &out, &in_);
      if (ZSTD_isError(rc)) {
        const uint64_t at = bytes_in_ - (in_.size - in_.pos);
        if (ZSTD_getErrorCode(rc) == ZSTD_error_frameParameter_windowTooLarge) {
          return WindowTooLarge(frame_at);
        }
        if (bytes_out_ + out.pos == 0) {
          return InvalidInput(fmt::format("{}: at compressed byte {}: corrupt zstd data ({})",
                                          path_, at, ZSTD_getErrorName(rc)));
        }
        truncation_ =
            fmt::format("corrupt zstd data at compressed byte {} ({})", at, ZSTD_getErrorName(rc));
        done_ = true;
        break;
      }
      last_rc_ = rc;
      if (input_ended_ && out.pos == out_before) {
        if (last_rc_ != 0) {
          if (bytes_out_ + out.pos == 0) {
            return InvalidInput(fmt::format(
                "{}: at compressed byte {}: zstd stream ends before any data", path_, bytes_in_));
          }
          truncation_ =
              fmt::format("zstd stream ends early (after {} compressed bytes)", bytes_in_);
        }
        done_ = true;
        break;
      }
    }
    bytes_out_ += out.pos;
    PERFDX_RETURN_IF_ERROR(CheckLimits());
    return out.pos;
  }

  // A valid frame whose window is larger than the limits allow: a limit, not
  // corruption, whether or not earlier frames produced data.
  Status WindowTooLarge(size_t frame_at) const {
    const uint64_t allowed = uint64_t{1} << window_log_max_;
    ZSTD_frameHeader header{};
    const char* frame = in_buf_.get() + frame_at;
    if (ZSTD_getFrameHeader(&header, frame, in_.size - frame_at) == 0 &&
        header.windowSize > allowed) {
      return LimitExceeded(fmt::format(
          "{}: the zstd stream needs a {} window to decompress, above the {} perfdx allows{}",
          path_, BinarySize(header.windowSize), BinarySize(allowed),
          window_log_max_ < kZstdWindowLogLimit ? " (raise it with --max-decompressed)" : ""));
    }
    return LimitExceeded(fmt::format(
        "{}: the zstd stream needs a window above the {} perfdx allows{}", path_,
        BinarySize(allowed),
        window_log_max_ < kZstdWindowLogLimit ? " (raise it with --max-decompressed)" : ""));
  }

  ZSTD_DCtx* dctx_ = nullptr;
  bool done_ = false;
  bool input_ended_ = false;  // the compressed input is all read
  size_t last_rc_ = 0;
  std::unique_ptr<char[]> in_buf_;  // not zero-filled: every byte used was read first
  ZSTD_inBuffer in_{nullptr, 0, 0};
  int window_log_max_;
};

Result<std::unique_ptr<ByteSource>> Wrap(std::unique_ptr<RawInput> raw, std::string name,
                                         const ReadLimits& limits) {
  // Sniff the magic number.
  std::string head(4, '\0');
  size_t have = 0;
  while (have < head.size()) {
    PERFDX_ASSIGN_OR_RETURN(size_t n, raw->Read(head.data() + have, head.size() - have));
    if (n == 0) break;
    have += n;
  }
  head.resize(have);
  const auto* u = reinterpret_cast<const unsigned char*>(head.data());
  Compression c = Compression::kNone;
  if (have >= 2 && u[0] == 0x1f && u[1] == 0x8b) c = Compression::kGzip;
  if (have >= 4 && u[0] == 0x28 && u[1] == 0xb5 && u[2] == 0x2f && u[3] == 0xfd) {
    c = Compression::kZstd;
  }
  PeekedInput input(std::move(raw), std::move(head));
  switch (c) {
    case Compression::kGzip:
      return std::unique_ptr<ByteSource>(new GzipSource(std::move(name), std::move(input), limits));
    case Compression::kZstd:
      return std::unique_ptr<ByteSource>(new ZstdSource(std::move(name), std::move(input), limits));
    case Compression::kNone:
      break;
  }
  return std::unique_ptr<ByteSource>(new PlainSource(std::move(name), std::move(input), limits));
}

}  // namespace

int ZstdWindowLogMax(uint64_t max_decompressed_bytes) {
  // A window never needs to exceed the output, but zstd's own default (128
  // MiB) is always allowed.
  int log = 27;
  while (log < kZstdWindowLogLimit && (uint64_t{1} << log) < max_decompressed_bytes) ++log;
  return log;
}

const char* CompressionName(Compression c) {
  switch (c) {
    case Compression::kNone:
      return "none";
    case Compression::kGzip:
      return "gzip";
    case Compression::kZstd:
      return "zstd";
  }
  return "none";
}

namespace {
const char* KindOfMode(mode_t mode) {
  if (S_ISFIFO(mode)) return "a named pipe";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISDIR(mode)) return "a folder";
  return "not a regular file";
}
}  // namespace

const char* SpecialFileKind(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "not a regular file";
  return KindOfMode(st.st_mode);
}

namespace {
// What `read(fd, file_bytes)` makes of `path` when it is a regular file that
// opens; nullopt otherwise. O_NONBLOCK: a named pipe must not block the open.
template <typename ReadFn>
std::optional<uint64_t> ReadRegularFile(const std::string& path, ReadFn read) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  std::optional<uint64_t> result;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) result = read(fd, uint64_t(st.st_size));
  ::close(fd);
  return result;
}
}  // namespace

std::optional<uint64_t> GzipStatedBytes(const std::string& path) {
  return ReadRegularFile(path, [](int fd, uint64_t file_bytes) -> std::optional<uint64_t> {
    unsigned char magic[2] = {};
    unsigned char trailer[4] = {};
    // A header (10 bytes) and a trailer (8) at least.
    if (file_bytes < 18 || ::pread(fd, magic, 2, 0) != 2 ||
        ::pread(fd, trailer, 4, off_t(file_bytes - 4)) != 4 || magic[0] != 0x1f ||
        magic[1] != 0x8b) {
      return std::nullopt;
    }
    return uint64_t{trailer[0]} | uint64_t{trailer[1]} << 8 | uint64_t{trailer[2]} << 16 |
           uint64_t{trailer[3]} << 24;
  });
}

std::optional<uint64_t> ZstdStatedBytes(const std::string& path) {
  return ReadRegularFile(path, [](int fd, uint64_t) -> std::optional<uint64_t> {
    unsigned char header[ZSTD_FRAMEHEADERSIZE_MAX] = {};
    const ssize_t got = ::pread(fd, header, sizeof(header), 0);
    if (got <= 0) return std::nullopt;
    // An error for what is not a frame or a header cut by the file's end; 0
    // for a skippable frame, as for an empty file.
    const unsigned long long size = ZSTD_getFrameContentSize(header, static_cast<size_t>(got));
    if (size == ZSTD_CONTENTSIZE_UNKNOWN || size == ZSTD_CONTENTSIZE_ERROR) return std::nullopt;
    return size;
  });
}

std::optional<uint64_t> StatedBytes(const std::string& path, Compression compression) {
  switch (compression) {
    case Compression::kGzip:
      return GzipStatedBytes(path);
    case Compression::kZstd:
      return ZstdStatedBytes(path);
    case Compression::kNone:
      break;
  }
  return std::nullopt;
}

Result<std::unique_ptr<ByteSource>> OpenByteSource(const std::string& path,
                                                   const ReadLimits& limits) {
  // O_NONBLOCK: opening a pipe with no writer would otherwise wait forever;
  // it is refused below, and a regular file ignores the flag.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    const int err = errno;
    if (err == ENOENT) return NotFound(fmt::format("{}: no such file", path));
    return IoError(fmt::format("{}: cannot open: {}", path, std::strerror(err)));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return IoError(fmt::format("{}: cannot open: {}", path, std::strerror(err)));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    return InvalidInput(fmt::format("{}: is a directory", path));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return InvalidInput(fmt::format("{}: {}, not a file; perfdx reads regular files and folders",
                                    path, KindOfMode(st.st_mode)));
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
#ifdef POSIX_FADV_SEQUENTIAL
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
  return Wrap(std::make_unique<FdInput>(fd, path), path, limits);
}

namespace {

// A copy of standard input's descriptor (a source closes its own, never fd
// 0); a terminal or a folder is refused.
Result<int> DupStdin() {
  if (::isatty(STDIN_FILENO) == 1) {
    return InvalidInput(fmt::format(
        "{}: standard input is a terminal; pipe a trace into it (perfdx analyze - < trace.json)",
        kStdinName));
  }
  const int fd = ::fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0);
  if (fd < 0) {
    return IoError(
        fmt::format("{}: cannot read standard input: {}", kStdinName, std::strerror(errno)));
  }
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd);
    return InvalidInput(fmt::format("{}: is a folder", kStdinName));
  }
  return fd;
}

}  // namespace

Result<std::unique_ptr<ByteSource>> OpenStdinByteSource(const ReadLimits& limits) {
  PERFDX_ASSIGN_OR_RETURN(const int fd, DupStdin());
  return Wrap(std::make_unique<FdInput>(fd, kStdinName), kStdinName, limits);
}

Result<std::string> ReadStdin(uint64_t max_bytes) {
  PERFDX_ASSIGN_OR_RETURN(const int fd, DupStdin());
  FdInput input(fd, kStdinName);
  std::string out;
  constexpr size_t kStep = 1 << 20;
  for (;;) {
    const size_t old = out.size();
    out.resize(old + kStep);
    PERFDX_ASSIGN_OR_RETURN(size_t n, input.Read(out.data() + old, kStep));
    out.resize(old + n);
    if (n == 0) break;
    if (out.size() > max_bytes) {
      return LimitExceeded(
          fmt::format("{}: more than {} bytes (raise the limit with --max-decompressed)",
                      kStdinName, max_bytes));
    }
  }
  return out;
}

Result<std::unique_ptr<ByteSource>> OpenMemoryByteSource(std::string data, std::string name,
                                                         const ReadLimits& limits) {
  return Wrap(std::make_unique<MemoryInput>(std::move(data)), std::move(name), limits);
}

Result<std::string> ReadAll(ByteSource& source, uint64_t max_bytes) {
  std::string out;
  constexpr size_t kStep = 1 << 16;
  for (;;) {
    const size_t old = out.size();
    out.resize(old + kStep);
    PERFDX_ASSIGN_OR_RETURN(size_t n, source.Read(out.data() + old, kStep));
    out.resize(old + n);
    if (n == 0) break;
    if (out.size() > max_bytes) {
      return LimitExceeded(fmt::format("{}: larger than {} bytes", source.path(), max_bytes));
    }
  }
  return out;
}

}  // namespace perfdx::io

// Reading bytes: a file, gzip or zstd (detected by magic number, not name),
// always as a stream of chunks so that no reader holds a whole trace.
//
// Limits guard against decompression bombs: the total decompressed size and,
// past a floor, the ratio of decompressed to compressed bytes. Hitting one is
// an error (kLimitExceeded), not a truncation. A compressed stream that simply
// ends early is a truncation: Read returns what there was, then 0, and
// truncated() says so.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "perfdx/base/status.h"

namespace perfdx::io {

struct ReadLimits {
  uint64_t max_decompressed_bytes = uint64_t{16} << 30;  // 16 GiB
  double max_compression_ratio = 200.0;
  // The ratio is only enforced once this much has been produced: tiny files
  // of repeated events legitimately compress very well.
  uint64_t ratio_floor_bytes = uint64_t{64} << 20;
};

enum class Compression { kNone, kGzip, kZstd };
const char* CompressionName(Compression c);

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Reads up to `capacity` bytes into dst; 0 means the end of the stream.
  virtual Result<size_t> Read(char* dst, size_t capacity) = 0;

  const std::string& path() const { return path_; }
  Compression compression() const { return compression_; }
  // Decompressed bytes returned so far.
  uint64_t bytes_out() const { return bytes_out_; }
  // Bytes read from the file so far (compressed, for gzip and zstd): the
  // load's progress against the file's size.
  uint64_t bytes_in() const { return bytes_in_; }
  // Set when the stream ended before its format said it would.
  bool truncated() const { return !truncation_.empty(); }
  const std::string& truncation() const { return truncation_; }

 protected:
  ByteSource(std::string path, Compression compression)
      : path_(std::move(path)), compression_(compression) {}
  std::string path_;
  Compression compression_;
  uint64_t bytes_out_ = 0;
  uint64_t bytes_in_ = 0;
  std::string truncation_;
};

// `-` as an input path means standard input; its display name is `<stdin>`.
inline constexpr char kStdinPath[] = "-";
inline constexpr char kStdinName[] = "<stdin>";

// Standard input (a pipe or a redirected file), gzip/zstd detected by
// content, under `limits`; a terminal is refused, since nothing would come
// until the user typed a trace.
Result<std::unique_ptr<ByteSource>> OpenStdinByteSource(const ReadLimits& limits = {});

// The raw bytes of standard input (not decompressed), at most `max_bytes`;
// a terminal is refused as above.
Result<std::string> ReadStdin(uint64_t max_bytes);

// Opens a regular file; a pipe, socket or device is refused (never blocks).
Result<std::unique_ptr<ByteSource>> OpenByteSource(const std::string& path,
                                                   const ReadLimits& limits = {});

// The uncompressed size a gzip file states in its trailer (ISIZE, RFC 1952:
// the last member's size mod 2^32), or nullopt when the file is not gzip or
// cannot be read. Exact for the usual file, one member under 4 GiB; a hint
// only, never trusted as a limit.
std::optional<uint64_t> GzipStatedBytes(const std::string& path);

// The uncompressed size a zstd file states in its first frame's header
// (Frame_Content_Size, RFC 8878), or nullopt when the file is not zstd, cannot
// be read or does not say (a stream compressed from a pipe). Exact for the
// usual file, one frame (`zstd` and `zstd -T0` write one); the first frame's
// only for several (pzstd). A hint, as above.
std::optional<uint64_t> ZstdStatedBytes(const std::string& path);

// The one of the two for `compression`; nullopt for kNone.
std::optional<uint64_t> StatedBytes(const std::string& path, Compression compression);

// "a named pipe", "a socket", "a character device", "a block device", "a
// folder", or "not a regular file": what `path` is, for messages.
const char* SpecialFileKind(const std::string& path);

// For tests and in-memory inputs; `data` may itself be gzip/zstd.
Result<std::unique_ptr<ByteSource>> OpenMemoryByteSource(std::string data, std::string name,
                                                         const ReadLimits& limits = {});

// The largest zstd window (log2 bytes) a stream may ask for under
// `max_decompressed_bytes`: 27 (128 MiB, zstd's default) to 31 (2 GiB, the
// format's largest) — the default 16 GiB limit allows 2 GiB. A frame asking
// for more is kLimitExceeded, naming both sizes.
int ZstdWindowLogMax(uint64_t max_decompressed_bytes);

// Reads a whole (small) source into a string, bounded by `max_bytes`.
Result<std::string> ReadAll(ByteSource& source, uint64_t max_bytes);

}  // namespace perfdx::io

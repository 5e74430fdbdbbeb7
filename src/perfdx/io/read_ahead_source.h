// A ByteSource read ahead on a thread of its own: the inner source (a gzip
// or zstd stream) fills a ring of small blocks while the caller parses the
// block before. Inflating ran on the parsing thread; with a core to spare
// this takes it off (a 35 MB Kineto .json.gz loads as fast as its plain JSON
// instead of 1.10x-1.13x slower). The blocks are small so that the copy out
// of them is served from L2: read ahead in 4 MiB blocks was slower than no
// read-ahead at all (docs/PERFORMANCE.md, "gzip through ISA-L").
#pragma once

#include <cstddef>
#include <memory>

#include "perfdx/io/byte_source.h"

namespace perfdx::io {

inline constexpr size_t kReadAheadBlockBytes = size_t{256} << 10;
inline constexpr size_t kReadAheadBlocks = 4;

// `inner` read ahead. What Read returns is exactly what `inner` would: the
// same bytes, an error where inner's came (after every byte before it) and
// on every read after, 0 at the end, the same truncation() once the end is
// reached; bytes_in() follows the thread's reads. Destroying it mid-stream
// stops the thread after its current read of `inner`. Where no thread can
// be started, `inner` itself is returned.
std::unique_ptr<ByteSource> ReadAhead(std::unique_ptr<ByteSource> inner,
                                      size_t block_bytes = kReadAheadBlockBytes,
                                      size_t blocks = kReadAheadBlocks);

}  // namespace perfdx::io

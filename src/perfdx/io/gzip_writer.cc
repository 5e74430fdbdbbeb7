#include "perfdx/io/gzip_writer.h"

#include <algorithm>

#include <climits>
#include <fmt/format.h>
#include <zlib.h>

namespace perfdx::io {

Result<std::string> GzipCompress(std::string_view data) {
  z_stream zs{};
  // 15 + 16: a 32 KiB window with a gzip header and trailer.
  if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
      Z_OK) {
    return Internal("gzip: deflateInit2 failed");
  }
  std::string out;
  out.resize(deflateBound(&zs, static_cast<uLong>(std::min<size_t>(data.size(), UINT_MAX))) + 64);
  size_t written = 0;
  size_t consumed = 0;
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    const size_t in_chunk = std::min<size_t>(data.size() - consumed, UINT_MAX);
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data() + consumed));
    zs.avail_in = static_cast<uInt>(in_chunk);
    if (out.size() - written < 64 * 1024) out.resize(out.size() * 2 + 64 * 1024);
    const size_t out_chunk = std::min<size_t>(out.size() - written, UINT_MAX);
    zs.next_out = reinterpret_cast<Bytef*>(out.data() + written);
    zs.avail_out = static_cast<uInt>(out_chunk);
    const bool last = consumed + in_chunk == data.size();
    rc = deflate(&zs, last ? Z_FINISH : Z_NO_FLUSH);
    if (rc == Z_STREAM_ERROR) {
      deflateEnd(&zs);
      return Internal("gzip: deflate failed");
    }
    consumed += in_chunk - zs.avail_in;
    written += out_chunk - zs.avail_out;
  }
  deflateEnd(&zs);
  out.resize(written);
  return out;
}

}  // namespace perfdx::io

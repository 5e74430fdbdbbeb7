// gzip output (zlib), for what perfdx writes compressed: an annotated trace
// named *.gz.
#pragma once

#include <string>
#include <string_view>

#include "perfdx/base/status.h"

namespace perfdx::io {

// `data` as one gzip member (RFC 1952), at zlib's default level.
Result<std::string> GzipCompress(std::string_view data);

}  // namespace perfdx::io

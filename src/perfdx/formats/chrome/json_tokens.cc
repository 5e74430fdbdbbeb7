#include "perfdx/formats/chrome/json_tokens.h"

namespace perfdx::formats {

simdjson::error_code JsonTokens::Index(const char* buf, size_t len) {
  // On-Demand's limit: offsets are 32-bit.
  if (len > simdjson::SIMDJSON_MAXSIZE_BYTES) return simdjson::CAPACITY;
  if (!stage1_) {
    if (auto e = simdjson::get_active_implementation()->create_dom_parser_implementation(
            len, simdjson::DEFAULT_MAX_DEPTH, stage1_)) {
      return e;
    }
  } else if (len > stage1_->capacity()) {
    if (auto e = stage1_->set_capacity(len)) return e;
  }
  buf_ = buf;
  len_ = len;
  count_ = 0;
  strings_used_ = 0;
  if (len + simdjson::SIMDJSON_PADDING > strings_capacity_) {
    // Allocated when the first escaped string needs it.
    strings_.reset();
    strings_capacity_ = 0;
  }
  if (auto e = stage1_->stage1(reinterpret_cast<const uint8_t*>(buf), len,
                               simdjson::stage1_mode::regular)) {
    return e;
  }
  index_ = stage1_->structural_indexes.get();
  count_ = stage1_->n_structural_indexes;
  return count_ == 0 ? simdjson::EMPTY : simdjson::SUCCESS;
}

simdjson::error_code JsonTokens::Unescape(const char* begin, std::string_view* out) {
  if (!strings_) {
    strings_capacity_ = len_ + simdjson::SIMDJSON_PADDING;
    strings_ = std::make_unique_for_overwrite<char[]>(strings_capacity_);
  }
  // Unescaped, a string is no longer than its text, and the strings of one
  // text fit in its length.
  auto* dst = reinterpret_cast<uint8_t*>(strings_.get() + strings_used_);
  const uint8_t* end = stage1_->parse_string(reinterpret_cast<const uint8_t*>(begin), dst);
  if (end == nullptr) return simdjson::STRING_ERROR;
  const auto n = static_cast<size_t>(end - dst);
  strings_used_ += n;
  *out = {reinterpret_cast<const char*>(dst), n};
  return simdjson::SUCCESS;
}

}  // namespace perfdx::formats

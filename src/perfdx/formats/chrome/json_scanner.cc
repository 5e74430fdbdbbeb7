#include "perfdx/formats/chrome/json_scanner.h"

#include <cstring>

namespace perfdx::formats {
namespace {

bool EndsScalar(char c) {
  return c == ',' || c == ']' || c == '}' || c == ':' || IsJsonSpace(c);
}

}  // namespace

void JsonScanner::Reset() {
  state_ = State::kStart;
  string_return_ = State::kInContainer;
  stack_.clear();
  unchecked_depth_ = 0;
}

JsonScanner::Outcome JsonScanner::Scan(const char* data, size_t size, size_t* consumed) {
  size_t i = *consumed;
  while (i < size) {
    switch (state_) {
      case State::kStart: {
        const char c = data[i];
        if (c == '{' || c == '[') {
          stack_.push_back(c);
          state_ = State::kInContainer;
          ++i;
        } else if (c == '"') {
          string_return_ = State::kStart;  // a top-level string: done at its close
          state_ = State::kInString;
          ++i;
        } else if (IsScalarStart(c)) {
          state_ = State::kInScalar;
          ++i;
        } else {
          *consumed = i;
          return Outcome::kError;
        }
        break;
      }
      case State::kInScalar: {
        while (i < size && !EndsScalar(data[i])) ++i;
        if (i < size) {
          *consumed = i;
          Reset();
          return Outcome::kComplete;
        }
        break;
      }
      case State::kInString: {
        // Skip to the next quote or backslash.
        const char* p = data + i;
        const char* end = data + size;
        while (p < end && *p != '"' && *p != '\\') ++p;
        i = static_cast<size_t>(p - data);
        if (i == size) break;
        if (data[i] == '\\') {
          state_ = State::kEscape;
          ++i;
          break;
        }
        ++i;  // closing quote
        if (string_return_ == State::kStart) {
          *consumed = i;
          Reset();
          return Outcome::kComplete;
        }
        state_ = State::kInContainer;
        break;
      }
      case State::kEscape:
        ++i;
        state_ = State::kInString;
        break;
      case State::kInContainer: {
        const char c = data[i];
        if (c == '"') {
          string_return_ = State::kInContainer;
          state_ = State::kInString;
          ++i;
        } else if (c == '{' || c == '[') {
          if (stack_.size() < max_checked_depth_) {
            stack_.push_back(c);
          } else {
            ++unchecked_depth_;
          }
          ++i;
        } else if (c == '}' || c == ']') {
          if (unchecked_depth_ > 0) {
            --unchecked_depth_;
            ++i;
            break;
          }
          const char open = c == '}' ? '{' : '[';
          if (stack_.back() != open) {
            *consumed = i;
            return Outcome::kError;
          }
          stack_.pop_back();
          ++i;
          if (stack_.empty()) {
            *consumed = i;
            Reset();
            return Outcome::kComplete;
          }
        } else {
          ++i;
        }
        break;
      }
    }
  }
  *consumed = i;
  return Outcome::kNeedMore;
}

}  // namespace perfdx::formats

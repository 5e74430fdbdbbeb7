// Where a renderer's text goes, piece by piece: a string (StringSink), or an
// output file written as the report is rendered (io::OutputFile), so a
// report of many ranks is never whole in memory.
#pragma once

#include <string>
#include <string_view>
#include <utility>

namespace perfdx {

class TextSink {
 public:
  virtual ~TextSink() = default;
  virtual void Write(std::string_view text) = 0;
};

class StringSink final : public TextSink {
 public:
  void Write(std::string_view text) override { text_ += text; }
  std::string Take() { return std::move(text_); }

 private:
  std::string text_;
};

}  // namespace perfdx

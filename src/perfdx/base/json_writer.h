// A small streaming JSON writer for reports: the ValueSink that writes JSON
// text. Keeps comma/nesting state, escapes strings (invalid UTF-8 is
// replaced, control characters escaped), writes non-finite doubles as null
// and doubles in their shortest exact form.
//
//   JsonWriter w;
//   w.BeginObject();
//   w.Key("events").Int(42);
//   w.Key("ranks").BeginArray().EndArray();
//   w.EndObject();
//   std::string text = w.Take();
//
// Given a TextSink, the text goes there as it grows (at each container's
// end, in pieces of kDrainBytes or more), and FinishDocument sends the rest.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "perfdx/base/text_sink.h"
#include "perfdx/base/value_sink.h"

namespace perfdx {

class JsonWriter final : public ValueSink {
 public:
  explicit JsonWriter(int indent = 1) : indent_(indent) {}
  explicit JsonWriter(TextSink* drain, int indent = 1) : drain_(drain), indent_(indent) {}

  static constexpr size_t kDrainBytes = 64 << 10;

  JsonWriter& BeginObject() override;
  JsonWriter& EndObject() override;
  JsonWriter& BeginArray() override;
  JsonWriter& EndArray() override;
  JsonWriter& Key(std::string_view key) override;
  JsonWriter& String(std::string_view value) override;
  JsonWriter& Int(int64_t value) override;
  JsonWriter& Uint(uint64_t value) override;
  JsonWriter& Double(double value) override;
  JsonWriter& Bool(bool value) override;
  JsonWriter& Null() override;
  // A number already formatted, written as it is: exact decimals a double
  // cannot hold (a trace's µs timestamps). The caller vouches for its syntax.
  JsonWriter& Number(std::string_view text);
  // An array of strings.
  JsonWriter& Strings(const std::vector<std::string>& values) {
    ValueSink::Strings(values);
    return *this;
  }

  const std::string& str() const { return out_; }
  std::string Take() { return std::move(out_); }
  // The finished document with its closing newline, as reports write it.
  std::string TakeDocument() {
    out_ += '\n';
    return std::move(out_);
  }
  // The same, ended and sent to the sink given at construction.
  void FinishDocument();

 private:
  void BeforeValue();
  void Newline();
  void Drain();

  TextSink* drain_ = nullptr;
  std::string out_;
  struct Level {
    bool is_object;
    bool empty;
  };
  std::vector<Level> stack_;
  bool after_key_ = false;
  int indent_;
};

// Appends `s` as a JSON string literal (with quotes).
void AppendJsonString(std::string& out, std::string_view s);

}  // namespace perfdx

// The ValueSink that builds Python objects: what the JSON writer would write
// as text, built directly as dicts (of the type the package gives, so that
// keys read as attributes), lists, str, int, float, bool and None. Needs the
// GIL.
#pragma once

#include <pybind11/pybind11.h>

#include <string_view>
#include <vector>

#include "perfdx/base/value_sink.h"

namespace perfdx::python {

class ObjectSink final : public ValueSink {
 public:
  // `object_type`: called with no arguments for each JSON object; a dict or
  // a subclass of dict.
  explicit ObjectSink(pybind11::object object_type) : object_type_(std::move(object_type)) {}

  ObjectSink& BeginObject() override;
  ObjectSink& EndObject() override;
  ObjectSink& BeginArray() override;
  ObjectSink& EndArray() override;
  ObjectSink& Key(std::string_view key) override;
  ObjectSink& String(std::string_view value) override;
  ObjectSink& Int(int64_t value) override;
  ObjectSink& Uint(uint64_t value) override;
  ObjectSink& Double(double value) override;
  ObjectSink& Bool(bool value) override;
  ObjectSink& Null() override;

  // The document's top value, once it is complete.
  pybind11::object Take() { return std::move(root_); }

 private:
  void Add(pybind11::object value);
  void Open(pybind11::object container);

  pybind11::object object_type_;
  pybind11::object root_;
  std::vector<pybind11::object> stack_;  // open dicts and lists
  std::vector<pybind11::object> keys_;   // the pending key of each open dict
};

}  // namespace perfdx::python

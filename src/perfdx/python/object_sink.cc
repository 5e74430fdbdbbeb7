#include "perfdx/python/object_sink.h"

#include <cmath>
#include <string>

#include "perfdx/base/utf8.h"

namespace perfdx::python {

namespace py = pybind11;

namespace {

// As JsonWriter writes them: invalid UTF-8 replaced by '?', so the Python
// objects and the JSON text hold the same strings.
py::str MakeStr(std::string_view s) {
  std::string valid(s);
  ReplaceInvalidUtf8(valid.data(), valid.size(), '?');
  return py::str(valid);
}

}  // namespace

void ObjectSink::Add(py::object value) {
  if (stack_.empty()) {
    root_ = std::move(value);
    return;
  }
  py::object& top = stack_.back();
  if (PyList_Check(top.ptr())) {
    if (PyList_Append(top.ptr(), value.ptr()) != 0) throw py::error_already_set();
    return;
  }
  py::object& key = keys_.back();
  if (PyDict_SetItem(top.ptr(), key.ptr(), value.ptr()) != 0) throw py::error_already_set();
  key = py::object();
}

void ObjectSink::Open(py::object container) {
  Add(container);
  stack_.push_back(std::move(container));
  keys_.emplace_back();
}

ObjectSink& ObjectSink::BeginObject() {
  py::object dict = object_type_();
  if (!PyDict_Check(dict.ptr())) throw py::type_error("perfdx: the object type is not a dict");
  Open(std::move(dict));
  return *this;
}

ObjectSink& ObjectSink::EndObject() {
  stack_.pop_back();
  keys_.pop_back();
  return *this;
}

ObjectSink& ObjectSink::BeginArray() {
  Open(py::list());
  return *this;
}

ObjectSink& ObjectSink::EndArray() {
  return EndObject();
}

ObjectSink& ObjectSink::Key(std::string_view key) {
  keys_.back() = MakeStr(key);
  return *this;
}

ObjectSink& ObjectSink::String(std::string_view value) {
  Add(MakeStr(value));
  return *this;
}

ObjectSink& ObjectSink::Int(int64_t value) {
  Add(py::int_(value));
  return *this;
}

ObjectSink& ObjectSink::Uint(uint64_t value) {
  Add(py::int_(value));
  return *this;
}

ObjectSink& ObjectSink::Double(double value) {
  Add(std::isfinite(value) ? py::object(py::float_(value)) : py::object(py::none()));
  return *this;
}

ObjectSink& ObjectSink::Bool(bool value) {
  Add(py::bool_(value));
  return *this;
}

ObjectSink& ObjectSink::Null() {
  Add(py::none());
  return *this;
}

}  // namespace perfdx::python

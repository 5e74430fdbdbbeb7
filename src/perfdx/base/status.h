// Errors as values: every fallible library function returns Status or
// Result<T>; only the CLI turns them into messages and exit codes.
//
//   Result<Trace> r = LoadTrace(path);
//   if (!r.ok()) return r.status();          // or PERFDX_ASSIGN_OR_RETURN
//   const Trace& trace = *r;
#pragma once

#include <cassert>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace perfdx {

enum class StatusCode {
  kOk = 0,
  kInvalidInput,   // the bytes are not what they claim to be (exit 2)
  kNotFound,       // a path or a required file does not exist (exit 2)
  kIoError,        // the OS refused (exit 2)
  kLimitExceeded,  // a configured resource limit was hit (exit 2)
  kUnsupported,    // recognised but not (yet) handled (exit 2)
  kInternal,       // a broken invariant inside perfdx (exit 3)
  kOutOfMemory,    // an allocation failed (std::bad_alloc caught at a boundary; exit 4)
};

std::string_view StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return {}; }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

  // Prefixes the message with context, e.g. the file being read.
  Status WithContext(std::string_view context) const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

Status InvalidInput(std::string message);
Status NotFound(std::string message);
Status IoError(std::string message);
Status LimitExceeded(std::string message);
Status Unsupported(std::string message);
Status Internal(std::string message);
Status OutOfMemory(std::string message);

// The exception being handled, as the Status of loading `path`: out of memory
// for std::bad_alloc, internal otherwise. Only inside a catch block: where
// an exception would otherwise leave a thread (the loader's workers, the
// gzip read-ahead) it becomes the load's error.
Status LoadingExceptionStatus(std::string_view path);

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : data_(std::move(value)) {}        // NOLINT: implicit by design
  Result(Status status) : data_(std::move(status)) {  // NOLINT: implicit by design
    assert(!std::get<Status>(data_).ok() && "Result built from an OK status");
  }

  bool ok() const { return std::holds_alternative<T>(data_); }
  const Status& status() const {
    static const Status kOkStatus;
    return ok() ? kOkStatus : std::get<Status>(data_);
  }

  T& value() & { return std::get<T>(data_); }
  const T& value() const& { return std::get<T>(data_); }
  T&& value() && { return std::get<T>(std::move(data_)); }

  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Status> data_;
};

}  // namespace perfdx

#define PERFDX_CONCAT_INNER_(a, b) a##b
#define PERFDX_CONCAT_(a, b) PERFDX_CONCAT_INNER_(a, b)

#define PERFDX_RETURN_IF_ERROR(expr)                 \
  do {                                               \
    ::perfdx::Status perfdx_status_ = (expr);        \
    if (!perfdx_status_.ok()) return perfdx_status_; \
  } while (0)

#define PERFDX_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                  \
  if (!tmp.ok()) return tmp.status();                 \
  lhs = std::move(tmp).value()

#define PERFDX_ASSIGN_OR_RETURN(lhs, expr) \
  PERFDX_ASSIGN_OR_RETURN_IMPL_(PERFDX_CONCAT_(perfdx_result_, __LINE__), lhs, expr)

#include "perfdx/base/status.h"

#include <exception>
#include <new>

#include <fmt/format.h>

namespace perfdx {

std::string_view StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk:
      return "ok";
    case StatusCode::kInvalidInput:
      return "invalid input";
    case StatusCode::kNotFound:
      return "not found";
    case StatusCode::kIoError:
      return "i/o error";
    case StatusCode::kLimitExceeded:
      return "limit exceeded";
    case StatusCode::kUnsupported:
      return "unsupported";
    case StatusCode::kInternal:
      return "internal error";
    case StatusCode::kOutOfMemory:
      return "out of memory";
  }
  return "unknown";
}

Status Status::WithContext(std::string_view context) const {
  if (ok()) return *this;
  std::string message(context);
  message += ": ";
  message += message_;
  return {code_, std::move(message)};
}

Status InvalidInput(std::string message) {
  return {StatusCode::kInvalidInput, std::move(message)};
}
Status NotFound(std::string message) {
  return {StatusCode::kNotFound, std::move(message)};
}
Status IoError(std::string message) {
  return {StatusCode::kIoError, std::move(message)};
}
Status LimitExceeded(std::string message) {
  return {StatusCode::kLimitExceeded, std::move(message)};
}
Status Unsupported(std::string message) {
  return {StatusCode::kUnsupported, std::move(message)};
}
Status Internal(std::string message) {
  return {StatusCode::kInternal, std::move(message)};
}
Status OutOfMemory(std::string message) {
  return {StatusCode::kOutOfMemory, std::move(message)};
}

Status LoadingExceptionStatus(std::string_view path) {
  try {
    throw;
  } catch (const std::bad_alloc&) {
    return OutOfMemory(fmt::format("{}: an allocation failed while loading it", path));
  } catch (const std::exception& e) {
    return Internal(fmt::format("{}: unexpected exception while loading it: {}", path, e.what()));
  } catch (...) {
    return Internal(fmt::format("{}: unexpected exception while loading it", path));
  }
}

}  // namespace perfdx

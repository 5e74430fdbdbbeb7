// The file a command writes its report to (-o), written as the report is
// rendered. `path` is followed through symlinks. A regular file (or a new
// one) is written to a temporary name in its folder and renamed by Commit,
// so a failure, or an OutputFile dropped uncommitted, never leaves half a
// report; a device, pipe or socket is written in place, never replaced
// (as root a rename would turn /dev/null into a regular file); "" and "-"
// are standard output; a folder is an error.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "perfdx/base/status.h"
#include "perfdx/base/text_sink.h"

namespace perfdx::io {

class OutputFile final : public TextSink {
 public:
  static Result<std::unique_ptr<OutputFile>> Open(const std::string& path);
  ~OutputFile() override;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Buffered. The first failure is kept, and what follows it dropped; Commit
  // returns it.
  void Write(std::string_view text) override;
  // Everything written is in place at `path`; called once.
  Status Commit();

 private:
  enum class Kind { kStdout, kInPlace, kReplacing };
  OutputFile(std::string path, std::string target, Kind kind, int fd, std::string tmp);
  void Send(std::string_view bytes);
  void Fail(Status status);

  static constexpr size_t kBufferBytes = 256 << 10;
  std::string path_;    // as given, for messages
  std::string target_;  // where the links lead
  Kind kind_;
  int fd_;
  std::string tmp_;  // kReplacing: the temporary name, removed unless renamed
  std::string buffer_;
  Status status_ = Status::Ok();
  bool committed_ = false;
};

// `content` written through an OutputFile.
Status WriteOutputFile(const std::string& path, std::string_view content);

}  // namespace perfdx::io

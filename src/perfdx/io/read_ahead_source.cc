#include "perfdx/io/read_ahead_source.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

namespace perfdx::io {
namespace {

class ReadAheadSource final : public ByteSource {
 public:
  ReadAheadSource(std::unique_ptr<ByteSource> inner, size_t block_bytes, size_t blocks)
      : ByteSource(inner->path(), inner->compression()),
        inner_(std::move(inner)),
        block_bytes_(block_bytes),
        blocks_(blocks) {
    for (Block& b : blocks_) b.data = std::make_unique_for_overwrite<char[]>(block_bytes_);
  }

  ~ReadAheadSource() override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

  // Separate from the constructor: a thread that cannot start leaves the
  // object whole, to be dropped for its inner source.
  void Start() {
    thread_ = std::thread([this] { Fill(); });
  }

  std::unique_ptr<ByteSource> TakeInner() { return std::move(inner_); }

  Result<size_t> Read(char* dst, size_t capacity) override {
    size_t done = 0;
    while (done < capacity) {
      Block& b = blocks_[next_read_];
      {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [&] { return b.full; });
      }
      // The block is the reader's until it is handed back.
      if (b.last) {
        if (done > 0) break;  // the bytes first; the end or the error next time
        if (!b.status.ok()) return b.status;
        truncation_ = b.truncation;
        return size_t{0};
      }
      const size_t n = std::min(capacity - done, b.size - b.pos);
      std::memcpy(dst + done, b.data.get() + b.pos, n);
      b.pos += n;
      done += n;
      if (b.pos == b.size) {
        {
          std::lock_guard<std::mutex> lock(mutex_);
          b.full = false;
        }
        changed_.notify_all();
        next_read_ = (next_read_ + 1) % blocks_.size();
      }
    }
    bytes_out_ += done;
    bytes_in_ = bytes_in_ahead_.load(std::memory_order_relaxed);
    return done;
  }

 private:
  struct Block {
    std::unique_ptr<char[]> data;
    size_t size = 0;  // bytes in data
    size_t pos = 0;   // bytes the reader has taken
    bool full = false;
    bool last = false;  // the end or an error, no data: status and truncation say which
    Status status = Status::Ok();
    std::string truncation;
  };

  // What escapes the inner source's Read on this thread would end the
  // process: it becomes the stream's error, as on the loading thread.
  Result<size_t> ReadInner(char* dst, size_t capacity) {
    try {
      return inner_->Read(dst, capacity);
    } catch (...) {
      return LoadingExceptionStatus(path_);
    }
  }

  void Fill() {
    for (size_t next_fill = 0;; next_fill = (next_fill + 1) % blocks_.size()) {
      Block& b = blocks_[next_fill];
      {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [&] { return !b.full || stopping_; });
        if (stopping_) return;
      }
      size_t have = 0;
      Status status = Status::Ok();
      while (have < block_bytes_) {
        Result<size_t> n = ReadInner(b.data.get() + have, block_bytes_ - have);
        if (!n.ok()) {
          status = n.status();
          break;
        }
        if (*n == 0) break;
        have += *n;
      }
      bytes_in_ahead_.store(inner_->bytes_in(), std::memory_order_relaxed);
      const bool ended = have < block_bytes_;  // the end or an error
      {
        std::lock_guard<std::mutex> lock(mutex_);
        b.size = have;
        b.pos = 0;
        b.last = have == 0;
        b.status = have == 0 ? status : Status::Ok();
        b.truncation = have == 0 ? inner_->truncation() : std::string();
        b.full = true;
      }
      changed_.notify_all();
      if (!ended) continue;
      if (have == 0) return;
      // The bytes before the end or the error went out in this block; the
      // end or the error itself goes in the next.
      next_fill = (next_fill + 1) % blocks_.size();
      Block& end = blocks_[next_fill];
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return !end.full || stopping_; });
      if (stopping_) return;
      end.size = 0;
      end.pos = 0;
      end.last = true;
      end.status = status;
      end.truncation = status.ok() ? inner_->truncation() : std::string();
      end.full = true;
      lock.unlock();
      changed_.notify_all();
      return;
    }
  }

  std::unique_ptr<ByteSource> inner_;
  const size_t block_bytes_;
  std::vector<Block> blocks_;
  size_t next_read_ = 0;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool stopping_ = false;
  std::atomic<uint64_t> bytes_in_ahead_{0};
  std::thread thread_;  // last: started after every member it uses
};

}  // namespace

std::unique_ptr<ByteSource> ReadAhead(std::unique_ptr<ByteSource> inner, size_t block_bytes,
                                      size_t blocks) {
  auto ahead = std::make_unique<ReadAheadSource>(std::move(inner), std::max<size_t>(block_bytes, 1),
                                                 std::max<size_t>(blocks, 2));
  try {
    ahead->Start();
  } catch (const std::system_error&) {
    return ahead->TakeInner();
  }
  return ahead;
}

}  // namespace perfdx::io

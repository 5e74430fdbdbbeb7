#include "perfdx/io/read_ahead_source.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "test_support.h"

namespace perfdx::io {
namespace {

using perfdx::testing::GzipCompress;

// A source of `bytes`, handed out a few at a time (1 to 13, varying), that
// can fail at an offset and can call its end a truncation.
class PatternSource final : public ByteSource {
 public:
  PatternSource(std::string bytes, size_t fail_at = std::string::npos, std::string truncation = "")
      : ByteSource("pattern", Compression::kGzip),
        bytes_(std::move(bytes)),
        fail_at_(fail_at),
        end_truncation_(std::move(truncation)) {}
  Result<size_t> Read(char* dst, size_t capacity) override {
    if (pos_ == fail_at_) return InvalidInput("pattern: at compressed byte 42: broken");
    step_ = step_ % 13 + 1;
    size_t n = std::min({capacity, step_, bytes_.size() - pos_});
    if (fail_at_ != std::string::npos) n = std::min(n, fail_at_ - pos_);
    if (n == 0) {
      truncation_ = end_truncation_;
      return size_t{0};
    }
    bytes_.copy(dst, n, pos_);
    pos_ += n;
    bytes_out_ += n;
    bytes_in_ = pos_ / 2;  // as if compressed 2:1
    return n;
  }

 private:
  std::string bytes_;
  size_t pos_ = 0;
  size_t fail_at_;
  std::string end_truncation_;
  size_t step_ = 0;
};

std::string Pattern(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>('a' + (i * 7 + i / 26) % 26);
  return s;
}

// Everything through `source` in reads of `step`; the error, if one came.
std::pair<std::string, Status> Drain(ByteSource& source, size_t step) {
  std::string out;
  std::string buf(step, '\0');
  for (;;) {
    Result<size_t> n = source.Read(buf.data(), buf.size());
    if (!n.ok()) return {out, n.status()};
    if (*n == 0) return {out, Status::Ok()};
    EXPECT_LE(*n, step);
    out.append(buf.data(), *n);
  }
}

// Small blocks, so that every size crosses blocks and wraps the ring.
TEST(ReadAheadTest, GivesTheSameBytesForEverySizeAndRead) {
  constexpr size_t kBlock = 16;
  for (size_t size : {0, 1, 15, 16, 17, 48, 83, 1000}) {
    for (size_t step : {1, 5, 16, 17, 64, 4096}) {
      const std::string bytes = Pattern(size);
      auto ahead = ReadAhead(std::make_unique<PatternSource>(bytes), kBlock, 3);
      auto [out, status] = Drain(*ahead, step);
      EXPECT_TRUE(status.ok()) << size << "/" << step << ": " << status.message();
      EXPECT_EQ(out, bytes) << size << "/" << step;
      EXPECT_EQ(ahead->bytes_out(), size);
      EXPECT_EQ(ahead->bytes_in(), size / 2);
      EXPECT_FALSE(ahead->truncated());
      Result<size_t> again = ahead->Read(std::string(8, '\0').data(), 8);
      ASSERT_TRUE(again.ok());
      EXPECT_EQ(*again, 0u) << "the end, again";
    }
  }
}

// An error comes where the inner source's came: after every byte before it,
// on the read after them, and on every read after that.
TEST(ReadAheadTest, AnErrorComesAfterTheBytesBeforeItAndStays) {
  for (size_t fail_at : {0, 1, 16, 17, 40}) {
    for (size_t step : {1, 7, 4096}) {
      const std::string bytes = Pattern(100);
      auto ahead = ReadAhead(std::make_unique<PatternSource>(bytes, fail_at), 16, 2);
      auto [out, status] = Drain(*ahead, step);
      EXPECT_EQ(out, bytes.substr(0, fail_at)) << fail_at << "/" << step;
      ASSERT_FALSE(status.ok()) << fail_at << "/" << step;
      EXPECT_EQ(status.message(), "pattern: at compressed byte 42: broken");
      Result<size_t> again = ahead->Read(std::string(8, '\0').data(), 8);
      EXPECT_FALSE(again.ok());
    }
  }
}

TEST(ReadAheadTest, ATruncatedStreamSaysSoAtItsEnd) {
  const std::string bytes = Pattern(50);
  auto ahead =
      ReadAhead(std::make_unique<PatternSource>(bytes, std::string::npos, "cut short"), 16, 2);
  auto [out, status] = Drain(*ahead, 10);
  ASSERT_TRUE(status.ok());
  EXPECT_EQ(out, bytes);
  EXPECT_TRUE(ahead->truncated());
  EXPECT_EQ(ahead->truncation(), "cut short");
}

// Dropped after one read, with the thread blocked on a full ring or still
// reading: nothing hangs, nothing is left running.
TEST(ReadAheadTest, DroppingItMidStreamStopsTheThread) {
  for (int i = 0; i < 50; ++i) {
    auto ahead = ReadAhead(std::make_unique<PatternSource>(Pattern(10000)), 16, 2);
    char c = 0;
    ASSERT_TRUE(ahead->Read(&c, 1).ok());
    EXPECT_EQ(c, 'a');
  }
  // And never read at all.
  auto untouched = ReadAhead(std::make_unique<PatternSource>(Pattern(10000)), 16, 2);
  EXPECT_EQ(untouched->bytes_out(), 0u);
}

// An exception on the reading thread (an allocation failing in the
// inflater) would end the process there: it comes back as the stream's error.
TEST(ReadAheadTest, AnExceptionOnItsThreadIsTheStreamsError) {
  class Throwing final : public ByteSource {
   public:
    Throwing() : ByteSource("big.json.gz", Compression::kGzip) {}
    Result<size_t> Read(char* dst, size_t capacity) override {
      if (served_ >= 40) throw std::bad_alloc();
      const size_t n = std::min<size_t>({capacity, 10, 40 - served_});
      std::memset(dst, 'x', n);
      served_ += n;
      return n;
    }

   private:
    size_t served_ = 0;
  };
  auto ahead = ReadAhead(std::make_unique<Throwing>(), 16, 2);
  auto [out, status] = Drain(*ahead, 7);
  EXPECT_EQ(out, std::string(40, 'x'));
  EXPECT_EQ(status.code(), StatusCode::kOutOfMemory);
  EXPECT_EQ(status.message(), "big.json.gz: an allocation failed while loading it");
}

// A real gzip stream through the default blocks: the same bytes as the
// source read directly, and its compressed progress.
TEST(ReadAheadTest, AGzipStreamReadsAsItself) {
  std::string data;
  for (int i = 0; i < 60000; ++i) data += "{\"ph\": \"X\", \"ts\": " + std::to_string(i) + "}, ";
  const std::string gz = GzipCompress(data);
  auto direct = OpenMemoryByteSource(gz, "t.json.gz");
  ASSERT_TRUE(direct.ok());
  auto ahead = ReadAhead(std::move(*direct));
  EXPECT_EQ(ahead->compression(), Compression::kGzip);
  EXPECT_EQ(ahead->path(), "t.json.gz");
  auto [out, status] = Drain(*ahead, 100000);
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(out, data);
  EXPECT_EQ(ahead->bytes_in(), gz.size());
  EXPECT_EQ(ahead->bytes_out(), data.size());
}

}  // namespace
}  // namespace perfdx::io

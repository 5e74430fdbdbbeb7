// The CSV reader on the details real profiler files have: BOM, CRLF, quoted
// cells with doubled quotes, commas and line breaks, trailing tabs after
// times, N/A, short and long rows, a quote left open at the end, records
// split across read chunks, gzip input and the size limits.
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "perfdx/formats/csv/csv_reader.h"
#include "test_support.h"

namespace perfdx::formats {
namespace {

struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<uint64_t> lines;
  CsvStats stats;
};

Result<Table> Parse(const std::string& text, CsvOptions options = {}) {
  PERFDX_ASSIGN_OR_RETURN(auto source, io::OpenMemoryByteSource(text, "inline.csv"));
  Table t;
  Status s = ReadCsv(
      *source, options,
      [&](const CsvHeader& h, const CsvRow& r) {
        t.header = h.names();
        std::vector<std::string> cells;
        for (size_t c = 0; c < r.size(); ++c) cells.emplace_back(r.Raw(static_cast<int>(c)));
        t.rows.push_back(cells);
        t.lines.push_back(r.line());
      },
      &t.stats);
  if (!s.ok()) return s;
  return t;
}

TEST(CsvReaderTest, BomCrlfQuotesAndEmbeddedLineBreaks) {
  const std::string text =
      "\xEF\xBB\xBF"
      "Name,Input Shapes,Call Stack\r\n"
      "Conv2D,\"\"\"32,1,224,224,8;64\"\"\",\"a.py(1): f;\r\nb.py(2): g\"\r\n"
      "\r\n"
      "plain,,\"say \"\"hi\"\"\"\r\n";
  auto t = Parse(text);
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->header, (std::vector<std::string>{"Name", "Input Shapes", "Call Stack"}));
  ASSERT_EQ(t->rows.size(), 2u);
  EXPECT_EQ(t->rows[0][1], "\"32,1,224,224,8;64\"");
  EXPECT_EQ(t->rows[0][2], "a.py(1): f;\r\nb.py(2): g");
  EXPECT_EQ(t->rows[1][0], "plain");
  EXPECT_EQ(t->rows[1][1], "");
  EXPECT_EQ(t->rows[1][2], "say \"hi\"");
  // The second record starts on line 4 (the first spans lines 2-3), the
  // blank line 4 is skipped, so the third is on line 5.
  EXPECT_EQ(t->lines, (std::vector<uint64_t>{2, 5}));
  EXPECT_EQ(t->stats.blank_lines, 1u);
  EXPECT_EQ(t->stats.records, 2u);
}

TEST(CsvReaderTest, TrailingTabsNotApplicableAndNumbers) {
  const std::string text =
      "Start Time(us),Duration(us),Block Dim,Ratio,Total Reserved(MB),Hit Rate\n"
      "1736408883704643.212\t,53.7410625,32,0.186, 1452.0 ,N/A\n";
  CsvStats stats;
  auto source = io::OpenMemoryByteSource(text, "t.csv");
  ASSERT_TRUE(source.ok());
  int rows = 0;
  ASSERT_TRUE(ReadCsv(
                  **source, {},
                  [&](const CsvHeader& h, const CsvRow& r) {
                    ++rows;
                    EXPECT_EQ(r.MicrosToNanos(h.Find("Start Time(us)")), 1736408883704643212);
                    // Rounded half away from zero, exactly (no double).
                    EXPECT_EQ(r.MicrosToNanos(h.Find("Duration(us)")), 53741);
                    EXPECT_EQ(r.Int(h.Find("Block Dim")), 32);
                    EXPECT_DOUBLE_EQ(r.Double(h.Find("Ratio")).value_or(-1), 0.186);
                    EXPECT_EQ(r.Scaled(h.Find("Total Reserved(MB)"), 1048576.0), 1522532352);
                    EXPECT_EQ(r.Double(h.Find("Hit Rate")), std::nullopt);
                    EXPECT_EQ(r.Text(h.Find("Hit Rate")), "");
                    EXPECT_EQ(r.Text(h.Find("Missing")), "");
                    EXPECT_EQ(r.Int(-1), std::nullopt);
                  },
                  &stats)
                  .ok());
  EXPECT_EQ(rows, 1);
}

TEST(CsvReaderTest, AlternativeSpellingsAndCase) {
  const CsvHeader h({"Step Id", "Block Num", "Mix Block Num", "OP TYPE"});
  EXPECT_EQ(h.Find({"Block Dim", "Block Num"}), 1);
  EXPECT_EQ(h.Find({"Mix Block Dim", "Mix Block Num"}), 2);
  EXPECT_EQ(h.Find({"OP Type"}), 3);  // case-insensitive fallback
  EXPECT_EQ(h.Find({"Block Dim"}), -1);
}

TEST(CsvReaderTest, UnquotedStripsTheExcelQuotes) {
  const std::string text = "Input Shapes,Output Shapes\n\"\"\"32,3,224,224\"\"\",N/A\n";
  auto source = io::OpenMemoryByteSource(text, "t.csv");
  ASSERT_TRUE(source.ok());
  ASSERT_TRUE(ReadCsv(
                  **source, {},
                  [&](const CsvHeader&, const CsvRow& r) {
                    EXPECT_EQ(r.Unquoted(0), "32,3,224,224");
                    EXPECT_EQ(r.Unquoted(1), "");
                  },
                  nullptr)
                  .ok());
}

TEST(CsvReaderTest, ShortAndLongRowsAreCountedNotFatal) {
  auto t = Parse("a,b,c\n1,2\n1,2,3,4\n1,2,3\n");
  ASSERT_TRUE(t.ok());
  ASSERT_EQ(t->rows.size(), 3u);
  EXPECT_EQ(t->stats.short_rows, 1u);
  EXPECT_EQ(t->stats.long_rows, 1u);
  EXPECT_EQ(t->rows[0].size(), 2u);
}

TEST(CsvReaderTest, QuoteOpenAtEndOfFileKeepsTheRecord) {
  auto t = Parse("a,b\n1,\"unterminated\nstill");
  ASSERT_TRUE(t.ok());
  ASSERT_EQ(t->rows.size(), 1u);
  EXPECT_EQ(t->rows[0][1], "unterminated\nstill");
  EXPECT_EQ(t->stats.unterminated, 1u);
}

TEST(CsvReaderTest, NoTrailingNewlineLoneCrAndEmptyFile) {
  auto t = Parse("a,b\r1,2\r3,4");
  ASSERT_TRUE(t.ok());
  ASSERT_EQ(t->rows.size(), 2u);
  EXPECT_EQ(t->rows[1], (std::vector<std::string>{"3", "4"}));
  auto empty = Parse("");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->rows.empty());
  auto bom_only = Parse("\xEF\xBB\xBF");
  ASSERT_TRUE(bom_only.ok());
  EXPECT_TRUE(bom_only->rows.empty());
}

TEST(CsvReaderTest, RecordsAcrossTinyChunksMatchOneChunk) {
  std::string text = "\xEF\xBB\xBFName,Stack,Time\r\n";
  for (int i = 0; i < 50; ++i) {
    text += "op" + std::to_string(i) + ",\"x;\r\ny,\"\"z\"\"\"," + std::to_string(i) + ".5\t\r\n";
  }
  auto whole = Parse(text);
  ASSERT_TRUE(whole.ok());
  for (size_t chunk : {1, 2, 3, 7}) {
    CsvOptions options;
    options.chunk_bytes = chunk;
    auto split = Parse(text, options);
    ASSERT_TRUE(split.ok()) << chunk;
    EXPECT_EQ(split->header, whole->header) << chunk;
    EXPECT_EQ(split->rows, whole->rows) << chunk;
    EXPECT_EQ(split->lines, whole->lines) << chunk;
  }
  EXPECT_EQ(whole->rows.size(), 50u);
  EXPECT_EQ(whole->rows[49][1], "x;\r\ny,\"z\"");
}

TEST(CsvReaderTest, GzipInputAndLimits) {
  const std::string text = "a,b\n1,2\n";
  auto gz = Parse(perfdx::testing::GzipCompress(text));
  ASSERT_TRUE(gz.ok()) << gz.status().message();
  ASSERT_EQ(gz->rows.size(), 1u);

  CsvOptions small;
  small.max_bytes = 4;
  small.chunk_bytes = 2;
  EXPECT_EQ(Parse(text, small).status().code(), StatusCode::kLimitExceeded);

  CsvOptions short_records;
  short_records.max_record_bytes = 8;
  short_records.chunk_bytes = 4;
  EXPECT_EQ(Parse("a\n\"" + std::string(64, 'x') + "\"\n", short_records).status().code(),
            StatusCode::kLimitExceeded);
}

// Issue #17: the record limit named the path twice and gave a line; it names
// the file once and the byte where the record starts (after a BOM too).
TEST(CsvReaderTest, RecordLimitNamesTheFileOnceAndTheByte) {
  perfdx::testing::TempDir dir;
  CsvOptions options;
  options.max_record_bytes = 8;
  options.chunk_bytes = 4;
  for (const auto& [bom, start] :
       {std::pair{std::string(), 8}, {std::string("\xEF\xBB\xBF"), 11}}) {
    const std::string path =
        dir.Write("kernel_details.csv", bom + "a,b\n1,2\n" + std::string(40, 'x'));
    const Status s = ReadCsvFile(
        path, {}, options, [](const CsvHeader&, const CsvRow&) {}, nullptr);
    EXPECT_EQ(s.code(), StatusCode::kLimitExceeded);
    EXPECT_EQ(s.message(), fmt::format("{}: at byte {}: a CSV record longer than 8 bytes starts "
                                       "here (a file without line ends, or a quote never closed?)",
                                       path, start));
  }
}

TEST(CsvReaderTest, MissingFileIsNotFound) {
  const Status s = ReadCsvFile(
      "/nonexistent/kernel_details.csv", {}, {}, [](const CsvHeader&, const CsvRow&) {}, nullptr);
  EXPECT_FALSE(s.ok());
}

}  // namespace
}  // namespace perfdx::formats

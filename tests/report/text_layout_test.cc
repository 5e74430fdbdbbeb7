#include "perfdx/report/text_layout.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "perfdx/report/text_table.h"

namespace perfdx::report {
namespace {

TEST(DisplayWidthTest, CountsColumnsNotBytes) {
  EXPECT_EQ(DisplayWidth(""), 0u);
  EXPECT_EQ(DisplayWidth("abc"), 3u);
  // Box drawing, the ellipsis, the micro sign and the check marks: one each
  // (3, 3, 2 and 3 bytes).
  EXPECT_EQ(DisplayWidth("═══"), 3u);
  EXPECT_EQ(DisplayWidth("…"), 1u);
  EXPECT_EQ(DisplayWidth("12.9 µs"), 7u);
  EXPECT_EQ(DisplayWidth("✓✗"), 2u);
  EXPECT_EQ(DisplayWidth("—"), 1u);
  // Colour takes no room.
  EXPECT_EQ(DisplayWidth("\x1b[1;31m✗\x1b[0m"), 1u);
  EXPECT_EQ(DisplayWidth("\x1b[33m[warning]\x1b[0m x"), 11u);
  // Wide CJK characters take two, a combining accent none.
  EXPECT_EQ(DisplayWidth("漢字"), 4u);
  EXPECT_EQ(DisplayWidth("e\xCC\x81"), 1u);
  // A stray byte is one column, never skipped.
  EXPECT_EQ(DisplayWidth("a\xFF"
                         "b"),
            3u);
}

TEST(DisplayWidthTest, TakeColumnsNeverCutsACodePoint) {
  EXPECT_EQ(TakeColumns("µsµs", 3), "µsµ");
  EXPECT_EQ(TakeColumns("漢字", 3), "漢");
  EXPECT_EQ(TakeLastColumns("abc…def", 4), "…def");
  EXPECT_EQ(TakeColumns("\x1b[1mab\x1b[0m", 1), "\x1b[1ma");
}

TEST(ShortenMiddleTest, KeepsTheStartAndTheEnd) {
  EXPECT_EQ(ShortenMiddle("short", 10), "short");
  const std::string s = ShortenMiddle("abcdefghijklmnopqrstuvwxyz", 11);
  EXPECT_EQ(DisplayWidth(s), 11u);
  // 11 columns: 4 of the end ((11 - 1) * 2 / 5), 6 of the start, "…".
  EXPECT_EQ(s, "abcdef…wxyz");
  EXPECT_EQ(ShortenMiddle("abcdefghijklmnopqrstuvwxyz", 11, 0), "abcdefghij…");
  EXPECT_EQ(ShortenMiddle("abcdefghijklmnopqrstuvwxyz", 11, 10), "…qrstuvwxyz");
}

// Five kernels of the ResNet-50 trace (../shared/traces/kineto/tbp/
// resnet50_num_workers_0, copied from its "name" fields) that read alike for
// their first 60 characters: the old report cut all of them to
// "void at::native::vectorized_elementwise_kernel<4, at::nat...".
const std::vector<std::string> kVectorized = {
    "void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>, "
    "at::detail::Array<char*, 3> >(int, at::native::AddFunctor<float>, at::detail::Array<char*, "
    "3>)",
    "void at::native::vectorized_elementwise_kernel<4, "
    "at::native::threshold_kernel_impl<float>(at::TensorIteratorBase&, float, "
    "float)::{lambda(float, float)#1}, at::detail::Array<char*, 3> >(int, "
    "at::native::threshold_kernel_impl<float>(at::TensorIteratorBase&, float, "
    "float)::{lambda(float, float)#1}, at::detail::Array<char*, 3>)",
    "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous "
    "namespace)::clamp_min_scalar_kernel_impl(at::TensorIterator&, "
    "c10::Scalar)::{lambda()#1}::operator()() const::{lambda()#8}::operator()() "
    "const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::(anonymous "
    "namespace)::clamp_min_scalar_kernel_impl(at::TensorIterator&, "
    "c10::Scalar)::{lambda()#1}::operator()() const::{lambda()#8}::operator()() "
    "const::{lambda(float)#1}, at::detail::Array<char*, 2>)",
    "void at::native::vectorized_elementwise_kernel<4, at::native::MulScalarFunctor<float, "
    "float>, at::detail::Array<char*, 2> >(int, at::native::MulScalarFunctor<float, float>, "
    "at::detail::Array<char*, 2>)",
    "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
    "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, "
    "at::detail::Array<char*, 1>)",
};

TEST(ShortenDistinctTest, RealKernelNamesStayDistinct) {
  // The premise: cut at 60 as before, three or more read the same.
  std::set<std::string> old_cut;
  for (const std::string& n : kVectorized) old_cut.insert(n.substr(0, 57));
  ASSERT_EQ(old_cut.size(), 1u);
  for (size_t width : {24u, 30u, 34u, 40u, 52u, 60u, 80u, 120u}) {
    const std::vector<std::string> out = ShortenDistinct(kVectorized, width);
    ASSERT_EQ(out.size(), kVectorized.size());
    std::set<std::string> distinct(out.begin(), out.end());
    EXPECT_EQ(distinct.size(), kVectorized.size()) << "width " << width;
    for (const std::string& s : out) EXPECT_LE(DisplayWidth(s), width) << s;
  }
  // Wide enough for the functor to show at the end: no numbering needed, and
  // the kept ends tell the kernels apart by a word, not a bracket.
  const std::vector<std::string> out = ShortenDistinct(kVectorized, 80);
  for (const std::string& s : out) EXPECT_EQ(s.find(" #"), std::string::npos) << s;
  EXPECT_NE(out[0].find("AddFunctor<float>, at::detail::Array<char*, 3>)"), std::string::npos)
      << out[0];
  EXPECT_NE(out[4].find("FillFunctor"), std::string::npos) << out[4];
}

TEST(ShortenDistinctTest, NamesAlikeAtBothEndsAreNumbered) {
  const std::vector<std::string> names = {
      "kernel_start_" + std::string(40, 'x') + "A" + std::string(40, 'y') + "_end",
      "kernel_start_" + std::string(40, 'x') + "B" + std::string(40, 'y') + "_end", "other"};
  const std::vector<std::string> out = ShortenDistinct(names, 30);
  EXPECT_NE(out[0], out[1]);
  EXPECT_NE(out[0].find(" #1"), std::string::npos) << out[0];
  EXPECT_NE(out[1].find(" #2"), std::string::npos) << out[1];
  EXPECT_EQ(out[2], "other");
  for (const std::string& s : out) EXPECT_LE(DisplayWidth(s), 30u) << s;
}

// Shortened forms that stay distinct are not numbered, however alike: a
// lone " #1" after each of "Ascend Hardw…Stream 0" and "…Stream 2" (perfdx
// info at 60 columns) told nothing more.
TEST(ShortenDistinctTest, FormsThatStayDistinctAreNotNumbered) {
  const std::vector<std::string> out =
      ShortenDistinct({"Ascend Hardware / Stream 0", "Ascend Hardware / Stream 2"}, 22);
  EXPECT_NE(out[0], out[1]);
  for (const std::string& s : out) {
    EXPECT_EQ(s.find('#'), std::string::npos) << s;
    EXPECT_LE(DisplayWidth(s), 22u) << s;
  }
  EXPECT_TRUE(out[0].ends_with("Stream 0")) << out[0];
  EXPECT_TRUE(out[1].ends_with("Stream 2")) << out[1];
}

TEST(ShortenDistinctTest, TheSameNameTwiceStaysTheSame) {
  const std::string n(100, 'a');
  const std::vector<std::string> out = ShortenDistinct({n, n}, 20);
  EXPECT_EQ(out[0], out[1]);
  EXPECT_EQ(out[0].find('#'), std::string::npos);
}

std::string Join(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

TEST(WrapTest, FitsTheWidthAndKeepsEveryWord) {
  const std::string text =
      "Data loading stalls the device for 33.4% of the step (59.3 ms per step) — saves up to "
      "59.3 ms per step; see https://pytorch.org/docs/stable/generated/"
      "torch.nn.parallel.DistributedDataParallel.html";
  const std::string url =
      "https://pytorch.org/docs/stable/generated/torch.nn.parallel.DistributedDataParallel.html";
  for (size_t width : {40u, 60u, 100u}) {
    const std::vector<std::string> lines = Wrap(text, width, "  1. ", 5);
    std::string words;
    size_t whole_links = 0;
    for (const std::string& l : lines) {
      // The link (88 columns) is never cut: wider than the line, it stands
      // alone on one, the only line past the width.
      if (l.find("https://") != std::string::npos) {
        EXPECT_NE(l.find(url), std::string::npos) << Join(lines);
        ++whole_links;
      }
      if (l == "     " + url) {
        words += url;
        continue;
      }
      EXPECT_LE(DisplayWidth(l), width) << Join(lines);
      words += l;
    }
    EXPECT_EQ(whole_links, 1u) << Join(lines);
    if (width < 100) {
      EXPECT_NE(std::find(lines.begin(), lines.end(), "     " + url), lines.end());
    }
    EXPECT_EQ(lines.front().rfind("  1. Data", 0), 0u);
    for (size_t i = 1; i < lines.size(); ++i) EXPECT_EQ(lines[i].rfind("     ", 0), 0u);
    // Nothing dropped: the same characters once the layout's spaces go.
    std::string want = text;
    std::erase(want, ' ');
    std::erase(words, ' ');
    EXPECT_EQ(words, "1." + want);
  }
}

TEST(WrapTest, ANumberKeepsItsUnit) {
  // 15 columns hold "idle 2.5% of 64" exactly; "ms" goes with its number.
  EXPECT_EQ(Wrap("idle 2.5% of 64 ms", 15, "", 0),
            (std::vector<std::string>{"idle 2.5% of", "64 ms"}));
  EXPECT_EQ(Wrap("took 1.95 ms, then", 12, "", 0),
            (std::vector<std::string>{"took", "1.95 ms,", "then"}));
  EXPECT_EQ(Wrap("took 1.95 ms, then", 14, "", 0),
            (std::vector<std::string>{"took 1.95 ms,", "then"}));
  // Not a unit: an ordinary break.
  EXPECT_EQ(Wrap("step 12 of 20", 7, "", 0), (std::vector<std::string>{"step 12", "of 20"}));
  // A path too long for a line is cut after a slash (the review of #14: a
  // rank's heading read ".../trace" and "_view.json").
  EXPECT_EQ(Wrap("../shared/traces/ascend/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json",
                 30, "", 4),
            (std::vector<std::string>{"../shared/traces/ascend/", "    rank0_ascend_pt/",
                                      "    ASCEND_PROFILER_OUTPUT/", "    trace_view.json"}));
}

TEST(WrapTest, CodeIsCutAtASpaceAndIndented) {
  const std::string line =
      "ddp = DistributedDataParallel(model, device_ids=[local_rank], gradient_as_bucket_view=True)";
  // 70 columns, 7 of indent: 63 for the code; the last space within them
  // is the 62nd character.
  const std::vector<std::string> lines = WrapCode(line, 70, 7);
  ASSERT_EQ(lines.size(), 2u) << Join(lines);
  EXPECT_EQ(lines[0], "       ddp = DistributedDataParallel(model, device_ids=[local_rank],");
  EXPECT_EQ(lines[1], "           gradient_as_bucket_view=True)");
  EXPECT_EQ(WrapCode("x = 1", 60, 7), std::vector<std::string>{"       x = 1"});
}

// A snippet is ready to paste however narrow the terminal: each cut leaves
// the same Python or shell. The expected lines were checked with Python's
// ast.parse and bash -n beside the unwrapped line (2026-12-08); before,
// a cut inside a comment left its rest as code ("1.8)" on a line of its own,
// in the profile_past_warmup fix at COLUMNS=100).
TEST(WrapTest, ACutInsideACommentStartsTheRestAsAComment) {
  EXPECT_EQ(WrapCode("with torch.profiler.profile(  # wait=10: the first steps unrecorded "
                     "(skip_first came after 1.8)",
                     100, 7),
            (std::vector<std::string>{"       with torch.profiler.profile(  # wait=10: the first "
                                      "steps unrecorded (skip_first came after",
                                      "           # 1.8)"}));
  EXPECT_EQ(WrapCode("perfdx bind --print --nproc-per-node 8 --policy split   # last line: "
                     "export CPU_AFFINITY_CONF=2,npu0:...",
                     80, 7),
            (std::vector<std::string>{
                "       perfdx bind --print --nproc-per-node 8 --policy split   # last line:",
                "           # export CPU_AFFINITY_CONF=2,npu0:..."}));
}

TEST(WrapTest, ACutOutsideBracketsEndsTheLineWithABackslash) {
  // The first space that leaves room for " \\" is after export.
  EXPECT_EQ(WrapCode("export PYTORCH_NPU_ALLOC_CONF=expandable_segments:True "
                     "ASCEND_LAUNCH_BLOCKING=0 HCCL_BUFFSIZE=200",
                     60, 7),
            (std::vector<std::string>{
                "       export \\", "           PYTORCH_NPU_ALLOC_CONF=expandable_segments:True \\",
                "           ASCEND_LAUNCH_BLOCKING=0 HCCL_BUFFSIZE=200"}));
}

TEST(WrapTest, NoCutInsideAString) {
  // The last space that fits is inside "b c": the cut goes back to the one
  // after the comma, inside the call's parentheses.
  EXPECT_EQ(WrapCode(R"(f(aaaaaaaaaa, "b c", d))", 25, 7),
            (std::vector<std::string>{"       f(aaaaaaaaaa,", R"(           "b c", d))"}));
  // A '#' inside a string starts no comment, and a closing quote escaped
  // inside it closes nothing.
  EXPECT_EQ(WrapCode(R"(f(aaaaaaaaaa, "#\" x", d))", 27, 7),
            (std::vector<std::string>{"       f(aaaaaaaaaa,", R"(           "#\" x", d))"}));
}

TEST(WrapTest, ANameInsideBracketsOpenedOnAnEarlierLineIsCutBetweenItsTokens) {
  // The argument's line has no space to cut at, and its call opened on the
  // line before: Python joins the lines inside the brackets, so the cut
  // falls after a dot.
  EXPECT_EQ(WrapCodeBlock("f(\n    a=torch_npu.profiler.ProfilerActivity.CPU)", 40, 7),
            (std::vector<std::string>{"       f(", "           a=torch_npu.profiler.",
                                      "           ProfilerActivity.CPU)"}));
  // Not after the dot of a number, which would split it: after the
  // keyword's '=' before it.
  EXPECT_EQ(WrapCode("f(aaaaaaaa,x=1.5)", 15, 0, 0),
            (std::vector<std::string>{"f(aaaaaaaa,x=", "    1.5)"}));
  // Nor inside ==.
  EXPECT_EQ(WrapCode("f(aaaaaaaa,x==1)", 14, 0, 0),
            (std::vector<std::string>{"f(aaaaaaaa,", "    x==1)"}));
}

TEST(WrapTest, ACommentWiderThanTheLineIsCutWhereTheLineIsFull) {
  EXPECT_EQ(WrapCode("# see https://example.com/a/very/long/path", 27, 7),
            (std::vector<std::string>{"       # see", "           # https://exampl",
                                      "           # e.com/a/very/l", "           # ong/path"}));
}

TEST(TextTableTest, ShortensTheNameThenDropsColumnsInOrder) {
  TextTable table({{.header = "kernel", .shrink = true},
                   {.header = "share", .right = true},
                   {.header = "total", .right = true, .drop = 3},
                   {.header = "calls", .right = true, .drop = 2},
                   {.header = "mean", .right = true, .drop = 1}});
  for (const std::string& n : kVectorized) table.AddRow({n, "12.3%", "80.8 ms", "3090", "498 µs"});

  // Wide: nothing shortened, nothing dropped.
  std::vector<std::string> lines = table.Render(600, 4);
  EXPECT_TRUE(table.dropped().empty());
  EXPECT_NE(lines[1].find(kVectorized[0]), std::string::npos);

  // 100 columns: names shortened to the room the numbers leave, no drop:
  // 4 + name + 2 + 5 + 1 + 7 + 1 + 5 + 1 + 6 = 100 with a 68-column name.
  lines = table.Render(100, 4);
  EXPECT_TRUE(table.dropped().empty());
  EXPECT_EQ(lines[0], "    kernel" + std::string(64, ' ') + "share   total calls   mean");
  for (const std::string& l : lines) EXPECT_EQ(DisplayWidth(l), 100u) << l;

  // A column with no content is not shown.
  TextTable sparse({{.header = "name"}, {.header = "note"}});
  sparse.AddRow({"a", ""});
  EXPECT_EQ(sparse.Render(100, 0), (std::vector<std::string>{"name", "a"}));

  // 40 columns: the name down to 28, then mean, calls and total go.
  lines = table.Render(40, 4);
  EXPECT_EQ(table.dropped(), (std::vector<std::string>{"mean", "calls", "total"}));
  for (const std::string& l : lines) EXPECT_LE(DisplayWidth(l), 40u) << l;
  std::set<std::string> distinct(lines.begin() + 1, lines.end());
  EXPECT_EQ(distinct.size(), kVectorized.size());
}

}  // namespace
}  // namespace perfdx::report

// Work bounded by input size when kernel rows are linked to device tasks
// (issue #17): a kernel_details.csv whose 100 000 rows all start at one time
// compared every row with every task starting within 1 us of it, rows x
// tasks (over two minutes). CTest's TIMEOUT is the hang guard
// (tests/CMakeLists.txt).
#include <string>

#include <gtest/gtest.h>

#include "perfdx/formats/trace_loader.h"
#include "test_support.h"

namespace perfdx::formats {
namespace {

TEST(AscendKernelsBounds, OneHundredThousandRowsAtOneStartTime) {
  constexpr size_t kRows = 100'000;
  std::string csv =
      "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim\n";
  for (size_t i = 0; i < kRows; ++i) csv += "1,MatMul,MatMul,AI_CORE,1736405443881410.000,5,0,8\n";
  perfdx::testing::TempDir dir;
  const std::string path = dir.Write("kernel_details.csv", csv);
  auto loaded = LoadTraces({path}, LoadOptions{});
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  ASSERT_EQ(loaded->traces.size(), 1u);
  const model::Trace& trace = loaded->traces[0];
  ASSERT_TRUE(trace.ascend.has_value());
  ASSERT_EQ(trace.ascend->kernels.rows.size(), kRows);
  // Every row is linked to a task of its name and start (all of them are).
  for (const model::AscendKernel& k : trace.ascend->kernels.rows) {
    ASSERT_GE(k.slice, 0);
    const auto slice = static_cast<model::SliceId>(k.slice);
    ASSERT_EQ(trace.slice_name(slice), "MatMul");
    ASSERT_EQ(trace.slices.ts_ns[slice], 1736405443881410000);
  }
}

}  // namespace
}  // namespace perfdx::formats

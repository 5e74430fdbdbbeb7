#include "perfdx/base/status.h"

#include <gtest/gtest.h>

namespace perfdx {
namespace {

Result<int> Half(int v) {
  if (v % 2 != 0) return InvalidInput("odd");
  return v / 2;
}

Result<int> Quarter(int v) {
  PERFDX_ASSIGN_OR_RETURN(int h, Half(v));
  PERFDX_ASSIGN_OR_RETURN(int q, Half(h));
  return q;
}

TEST(StatusTest, OkAndErrors) {
  EXPECT_TRUE(Status::Ok().ok());
  Status s = NotFound("x.json: no such file");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kNotFound);
  EXPECT_EQ(s.WithContext("loading").message(), "loading: x.json: no such file");
}

TEST(StatusTest, AssignOrReturnPropagates) {
  EXPECT_EQ(*Quarter(8), 2);
  Result<int> r = Quarter(6);  // 6/2 = 3 is odd
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "odd");
}

}  // namespace
}  // namespace perfdx

// The host-activity table: each real name, as the profilers record it, and
// names that only look alike.
#include "perfdx/analysis/host_activity.h"

#include <gtest/gtest.h>

namespace perfdx::analysis {
namespace {

using model::EventKind;

TEST(HostActivityTest, PythonFramesByModuleFile) {
  // with_stack frames: "<path>(<line>): <function>".
  EXPECT_EQ(ClassifyHostActivity(EventKind::kPythonFunction, "logging/__init__.py(1489): info"),
            HostActivity::kLogging);
  EXPECT_EQ(ClassifyHostActivity(EventKind::kPythonFunction,
                                 "/usr/lib/python3.11/logging/__init__.py(1113): emit"),
            HostActivity::kLogging);
  EXPECT_EQ(ClassifyHostActivity(EventKind::kPythonFunction, "logging/handlers.py(1477): emit"),
            HostActivity::kLogging);
  EXPECT_EQ(ClassifyHostActivity(EventKind::kPythonFunction, "torch/serialization.py(628): save"),
            HostActivity::kFileIo);
  // A module whose file only ends like one: not logging.
  EXPECT_EQ(ClassifyHostActivity(EventKind::kPythonFunction, "mylogging/__init__.py(3): info"),
            HostActivity::kNone);
  EXPECT_EQ(ClassifyHostActivity(EventKind::kPythonFunction,
                                 "torch/nn/modules/module.py(1501): _call_impl"),
            HostActivity::kNone);
}

TEST(HostActivityTest, CpythonBuiltins) {
  EXPECT_EQ(ClassifyHostActivity(EventKind::kPythonFunction, "<built-in function print>"),
            HostActivity::kPrint);
  EXPECT_EQ(ClassifyHostActivity(EventKind::kPythonFunction, "<built-in function open>"),
            HostActivity::kFileIo);
  EXPECT_EQ(
      ClassifyHostActivity(EventKind::kPythonFunction,
                           "<built-in method write of _io.TextIOWrapper object at 0x7f3a2c1b0e10>"),
      HostActivity::kFileIo);
  EXPECT_EQ(ClassifyHostActivity(
                EventKind::kPythonFunction,
                "<built-in method flush of _io.BufferedWriter object at 0x7f3a2c1b0e10>"),
            HostActivity::kFileIo);
  // Built-ins that only carry such a word.
  EXPECT_EQ(ClassifyHostActivity(EventKind::kPythonFunction,
                                 "<built-in method item of Tensor object at 0x7f>"),
            HostActivity::kNone);
  EXPECT_EQ(ClassifyHostActivity(EventKind::kPythonFunction,
                                 "<built-in method write of Tensor object at 0x7f3a2c1b0e10>"),
            HostActivity::kNone);
  EXPECT_EQ(ClassifyHostActivity(EventKind::kPythonFunction, "<built-in function printoptions>"),
            HostActivity::kNone);
}

TEST(HostActivityTest, RecordFunctionLabelsByWholeWord) {
  // examples/cpu_training wraps its synchronous log write in "log_metrics".
  EXPECT_EQ(ClassifyHostActivity(EventKind::kUserAnnotation, "log_metrics"),
            HostActivity::kLogging);
  EXPECT_EQ(ClassifyHostActivity(EventKind::kUserAnnotation, "save_checkpoint"),
            HostActivity::kFileIo);
  EXPECT_EQ(ClassifyHostActivity(EventKind::kUserAnnotation, "Print-Stats"), HostActivity::kPrint);
  EXPECT_EQ(ClassifyHostActivity(EventKind::kUserAnnotation, "logits_head"), HostActivity::kNone);
  EXPECT_EQ(ClassifyHostActivity(EventKind::kUserAnnotation, "catalog"), HostActivity::kNone);
  // Framework operators are never the user's logging, whatever the name.
  EXPECT_EQ(ClassifyHostActivity(EventKind::kFrameworkOp, "aten::log_softmax"),
            HostActivity::kNone);
}

}  // namespace
}  // namespace perfdx::analysis

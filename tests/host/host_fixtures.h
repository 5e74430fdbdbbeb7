// The sysfs/procfs fixture trees of tests/data/host (README.md there), made
// by make_fixtures.py before the tests run (the CTest fixture host_fixtures)
// into the folder $PERFDX_HOST_FIXTURES names.
#pragma once

#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

namespace perfdx::host {

inline std::string FixturePath(const std::string& machine) {
  const char* root = std::getenv("PERFDX_HOST_FIXTURES");
  if (root == nullptr || *root == '\0') {
    ADD_FAILURE() << "PERFDX_HOST_FIXTURES is not set: run the tests through ctest, or "
                     "python3 tests/data/host/make_fixtures.py DIR and set it to DIR";
    return "/nonexistent/perfdx_host_fixtures/" + machine;
  }
  return std::string(root) + "/" + machine;
}

}  // namespace perfdx::host

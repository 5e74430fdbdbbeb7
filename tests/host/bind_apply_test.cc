// ApplyBinding on this machine: a forked child binds itself and reads its
// own /proc/self/status and /proc/self/numa_maps back.
#include "perfdx/host/bind_apply.h"

#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "perfdx/host/cpu_list.h"

namespace perfdx::host {
namespace {

std::string Slurp(const char* path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string StatusField(const std::string& status, const std::string& key) {
  const size_t at = status.find(key + ":");
  if (at == std::string::npos) return {};
  std::string v = status.substr(at + key.size() + 1);
  v = v.substr(0, v.find('\n'));
  return v.substr(v.find_first_not_of(" \t"));
}

// The memory policy of the first numa_maps line ("7f00a000 bind:0 ..."; under
// ASan the line is its shadow mapping's and may end after the policy).
std::string Policy(const std::string& got) {
  std::istringstream line(got.substr(got.rfind('|') + 1));
  std::string address, policy;
  line >> address >> policy;
  return policy;
}

// Runs ApplyBinding in a child; returns what it read back:
// "Cpus_allowed_list|Mems_allowed_list|first numa_maps line" or "error: ...".
std::string BindChild(const RankBinding& rank, bool membind) {
  int fds[2];
  if (pipe(fds) != 0) return "pipe failed";
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    std::string out;
    if (Status s = ApplyBinding(rank, membind); !s.ok()) {
      out = "error: " + s.message();
    } else {
      const std::string status = Slurp("/proc/self/status");
      const std::string maps = Slurp("/proc/self/numa_maps");
      out = StatusField(status, "Cpus_allowed_list") + "|" +
            StatusField(status, "Mems_allowed_list") + "|" + maps.substr(0, maps.find('\n'));
    }
    const ssize_t written = write(fds[1], out.data(), out.size());
    _exit(written == static_cast<ssize_t>(out.size()) ? 0 : 1);
  }
  close(fds[1]);
  std::string out;
  char buffer[4096];
  ssize_t n;
  while ((n = read(fds[0], buffer, sizeof buffer)) > 0) out.append(buffer, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return out;
}

TEST(HostBindApply, SetsTheChildsAffinityAndMemoryPolicy) {
  const HostTopology t = ReadSysfsTopology(SysRoot("/"));
  ASSERT_FALSE(t.allowed_cpus.empty());
  ASSERT_FALSE(t.nodes.empty());
  RankBinding rank;
  rank.cpus = {t.allowed_cpus.back()};
  rank.mem_node = t.nodes.front().id;
  const std::string node = std::to_string(rank.mem_node);

  std::string got = BindChild(rank, /*membind=*/true);
  EXPECT_EQ(got.substr(0, got.find('|')), std::to_string(t.allowed_cpus.back())) << got;
  EXPECT_EQ(Policy(got), "bind:" + node) << got;  // numa_maps' policy
  got = BindChild(rank, /*membind=*/false);
  EXPECT_EQ(Policy(got), "prefer:" + node) << got;
  // Mems_allowed_list is the cpuset's, which a policy does not change.
  EXPECT_NE(got.find("|" + node), std::string::npos) << got;

  rank.mem_node = -1;  // no memory policy: the default
  got = BindChild(rank, false);
  EXPECT_EQ(Policy(got), "default") << got;
}

TEST(HostBindApply, ErrorsNameTheCall) {
  RankBinding rank;
  rank.cpus = {};
  EXPECT_FALSE(ApplyBinding(rank, false).ok());
  rank.cpus = {0};
  rank.mem_node = 1000;  // no such node
  const std::string got = BindChild(rank, true);
  EXPECT_NE(got.find("error: set_mempolicy(MPOL_BIND, node 1000)"), std::string::npos) << got;
}

}  // namespace
}  // namespace perfdx::host

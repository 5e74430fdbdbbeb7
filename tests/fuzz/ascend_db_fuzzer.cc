// libFuzzer target for the torch_npu / MindSpore DB export: the input is the
// SQLite file itself, written as rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/
// ascend_pytorch_profiler_0.db and analysed as `perfdx analyze` would.
//
// Byte-level mutations of an SQLite file mostly break its header or page
// structure, which SQLite rejects at once; the mutator here works at the page
// level instead (SQLite's own fuzzing does the same): it mutates inside one
// page, copies a page over another or drops trailing pages, so that most
// inputs stay databases whose records and b-trees are damaged.
// Seeds: small DB exports cut from the shared ones (tests/fuzz/make_seeds.py).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <random>
#include <string_view>

#include "fuzz_support.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace {

namespace fs = std::filesystem;

// The page size the SQLite header declares (bytes 16-17, big endian; 1 means
// 65536); 0 when `data` is no SQLite file or the size is not a page multiple.
size_t PageSize(const uint8_t* data, size_t size) {
  constexpr std::string_view kMagic("SQLite format 3\0", 16);
  if (size < 100 || std::memcmp(data, kMagic.data(), kMagic.size()) != 0) return 0;
  const size_t raw = (size_t{data[16]} << 8) | data[17];
  const size_t page = raw == 1 ? 65536 : raw;
  if (page < 512 || (page & (page - 1)) != 0 || size % page != 0) return 0;
  return page;
}

}  // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,
                                          unsigned int seed) {
  const size_t page = PageSize(data, size);
  const size_t pages = page == 0 ? 0 : size / page;
  if (pages < 2) return LLVMFuzzerMutate(data, size, max_size);
  std::minstd_rand rng(seed);
  const size_t target = rng() % pages;
  switch (rng() % 8) {
    case 0: {  // a page copied over another (a b-tree page where a leaf was)
      const size_t from = rng() % pages;
      if (from != target) std::memmove(data + target * page, data + from * page, page);
      return size;
    }
    case 1:  // trailing pages dropped (a file cut short)
      return std::max<size_t>(1, target) * page;
    case 2: {  // the database header (page 1's first 100 bytes)
      const size_t n = LLVMFuzzerMutate(data, 100, 100);
      if (n < 100) std::memset(data + n, 0, 100 - n);
      return size;
    }
    default: {  // bytes inside one page; its length kept
      uint8_t* p = data + target * page;
      const size_t n = LLVMFuzzerMutate(p, page, page);
      if (n < page) std::memset(p + n, 0, page - n);
      return size;
    }
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const fs::path profile = perfdx::fuzz::ScratchDir() / "rank0_ascend_pt";
  std::error_code ec;
  fs::remove_all(profile, ec);
  perfdx::fuzz::WriteFile(profile / "profiler_info_0.json",
                          R"({"config": {"experimental_config": {"_export_type": "db"}},
                              "rank_id": 0})");
  perfdx::fuzz::WriteFile(profile / "ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db",
                          std::string_view(reinterpret_cast<const char*>(data), size));
  perfdx::fuzz::AnalyzePath(profile.string(), size);
  return 0;
}

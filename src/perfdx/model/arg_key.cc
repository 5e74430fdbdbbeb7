#include "perfdx/model/arg_key.h"

#include <array>
#include <cstring>

namespace perfdx::model {
namespace {

// A key's first and last eight bytes (overlapping, or zero-padded when
// shorter): for keys of up to 16 bytes, equal words are equal text.
struct Words {
  uint64_t head = 0;
  uint64_t tail = 0;
};

// Shorter keys ("device", "grid") are read as overlapping loads too, not a
// byte at a time: with the length fixed, the bytes read cover the whole key.
Words WordsOf(std::string_view s) {
  Words w;
  const char* p = s.data();
  const size_t n = s.size();
  if (n >= 8) {
    std::memcpy(&w.head, p, 8);
    std::memcpy(&w.tail, p + n - 8, 8);
  } else if (n >= 4) {
    uint32_t first = 0;
    uint32_t last = 0;
    std::memcpy(&first, p, 4);
    std::memcpy(&last, p + n - 4, 4);
    w.head = first | (uint64_t{last} << 32);
  } else if (n > 0) {
    w.head = uint64_t{static_cast<uint8_t>(p[0])} |
             (uint64_t{static_cast<uint8_t>(p[n / 2])} << 8) |
             (uint64_t{static_cast<uint8_t>(p[n - 1])} << 16);
  }
  return w;
}

struct Spelling {
  std::string_view text;
  Words words;
  ArgKey key;
};

// Spellings bucketed by length: a lookup compares against the few spellings of
// the same length (this runs for every argument of every event).
constexpr size_t kMaxSpelling = 32;

struct SpellingTable {
  std::array<std::array<Spelling, 12>, kMaxSpelling + 1> by_length{};
  std::array<uint8_t, kMaxSpelling + 1> count{};

  SpellingTable() {
    auto add = [this](ArgKey key, std::initializer_list<std::string_view> spellings) {
      for (std::string_view s : spellings) {
        if (s.size() > kMaxSpelling) continue;
        auto& n = count[s.size()];
        if (n == by_length[s.size()].size()) continue;  // caught by arg_key_test
        by_length[s.size()][n++] = Spelling{s, WordsOf(s), key};
      }
    };
#define PERFDX_ARG_ADD(e, canonical, ...) add(ArgKey::e, {__VA_ARGS__});
    PERFDX_ARG_KEYS(PERFDX_ARG_ADD)
#undef PERFDX_ARG_ADD
  }
};

const SpellingTable& Table() {
  static const SpellingTable table;
  return table;
}

}  // namespace

std::string_view ArgKeyName(ArgKey key) {
  static constexpr std::string_view kNames[] = {
#define PERFDX_ARG_NAME(e, canonical, ...) canonical,
      PERFDX_ARG_KEYS(PERFDX_ARG_NAME)
#undef PERFDX_ARG_NAME
  };
  return kNames[static_cast<size_t>(key)];
}

bool LookupArgKey(std::string_view spelling, ArgKey* key) {
  if (spelling.size() > kMaxSpelling) return false;
  const SpellingTable& table = Table();
  const size_t n = table.count[spelling.size()];
  const auto& bucket = table.by_length[spelling.size()];
  // Two word compares instead of a memcmp call per candidate (this was 6% of
  // reading a Kineto trace); only keys past 16 bytes compare their middle.
  const Words words = WordsOf(spelling);
  for (size_t i = 0; i < n; ++i) {
    const Spelling& candidate = bucket[i];
    if (candidate.words.head != words.head || candidate.words.tail != words.tail) continue;
    if (spelling.size() <= 16 ||
        std::memcmp(candidate.text.data() + 8, spelling.data() + 8, spelling.size() - 16) == 0) {
      *key = candidate.key;
      return true;
    }
  }
  return false;
}

}  // namespace perfdx::model

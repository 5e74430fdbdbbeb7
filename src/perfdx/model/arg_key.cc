#include "perfdx/model/arg_key.h"

#include <array>
#include <cstring>

#include "perfdx/base/hash.h"

namespace perfdx::model {
namespace {

struct Spelling {
  const char* text = nullptr;  // null: an empty slot
  ShortWords words;
  uint8_t length = 0;
  ArgKey key = ArgKey::kCount;
};

// Spellings longer than this are not looked for (none is).
constexpr size_t kMaxSpelling = 32;
constexpr unsigned kSlotBits = 8;  // about 4x the spellings
constexpr size_t kSlots = size_t{1} << kSlotBits;

constexpr size_t SlotOf(const ShortWords& w, size_t length) {
  return ShortWordsSlot(w, length, kSlotBits);
}

// Every spelling in an open-addressed table of its words, built at compile
// time: a lookup hashes the key once and compares words with the one or two
// spellings in its probe (this runs for every argument of every event;
// searching the spellings of the key's length took 56 instructions a key).
// No two spellings share their length and words (a compile-time check), so
// the first slot that matches them is the only candidate.
struct SpellingTable {
  std::array<Spelling, kSlots> slots{};
  bool words_unique = true;

  constexpr SpellingTable() {
    auto add = [this](ArgKey key, std::initializer_list<std::string_view> spellings) {
      for (std::string_view s : spellings) {
        if (s.empty() || s.size() > kMaxSpelling) continue;  // caught by arg_key_test
        const ShortWords w = ShortWordsOf(s);
        size_t i = SlotOf(w, s.size());
        for (; slots[i].text != nullptr; i = (i + 1) & (kSlots - 1)) {
          if (slots[i].length == s.size() && slots[i].words == w) words_unique = false;
        }
        slots[i] = Spelling{s.data(), w, static_cast<uint8_t>(s.size()), key};
      }
    };
#define PERFDX_ARG_ADD(e, canonical, ...) add(ArgKey::e, {__VA_ARGS__});
    PERFDX_ARG_KEYS(PERFDX_ARG_ADD)
#undef PERFDX_ARG_ADD
  }
};

constexpr SpellingTable kTable;
static_assert(kTable.words_unique, "two arg key spellings share their length and words");

// Out of line, so that the common path of LookupArgKey keeps no registers
// across a call.
[[gnu::noinline]] bool MiddleEquals(const char* a, const char* b, size_t n) {
  return std::memcmp(a + 8, b + 8, n - 16) == 0;
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
  const size_t n = spelling.size();
  if (n == 0 || n > kMaxSpelling) return false;
  const ShortWords words = ShortWordsOf(spelling);
  const Spelling* slot = nullptr;
  for (size_t i = SlotOf(words, n);; i = (i + 1) & (kSlots - 1)) {
    slot = &kTable.slots[i];
    if (slot->text == nullptr) return false;
    if (slot->length == n && slot->words == words) break;
  }
  // Equal words are equal text up to 16 bytes; longer keys compare their
  // middle too.
  if (n > kShortWordsMaxBytes && !MiddleEquals(slot->text, spelling.data(), n)) return false;
  *key = slot->key;
  return true;
}

}  // namespace perfdx::model

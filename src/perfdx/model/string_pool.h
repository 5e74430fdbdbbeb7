// Interned strings: every name, category and string argument in a Trace is
// stored once and referred to by a 32-bit StringId. Views returned by Get()
// stay valid for the pool's lifetime (storage is never moved).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "perfdx/base/hash.h"

namespace perfdx::model {

using StringId = uint32_t;
inline constexpr StringId kEmptyString = 0;  // the id of ""

class StringPool {
 public:
  StringPool();
  StringPool(StringPool&&) noexcept = default;
  StringPool& operator=(StringPool&&) noexcept = default;
  StringPool(const StringPool&) = delete;
  StringPool& operator=(const StringPool&) = delete;

  StringId Intern(std::string_view s) {
    StringId id;
    return FindShort(s, &id) ? id : InternHashed(s, Hash(s));
  }
  // With `hash` == Hash(s), computed ahead (by a decoding thread, say: on a
  // large trace hashing was a tenth of the thread that builds the model).
  StringId Intern(std::string_view s, uint64_t hash) {
    StringId id;
    return FindShort(s, &id) ? id : InternHashed(s, hash);
  }
  // The pool's hash of `s`.
  static uint64_t Hash(std::string_view s);
  // Whether hashing `s` ahead saves Intern any work: a string of up to 16
  // bytes is mostly found by its words (the short table), and hashed only
  // when it is not, so a hash made ahead for it is mostly thrown away.
  static bool HashAheadPays(std::string_view s) { return s.size() > kShortWordsMaxBytes; }
  // Returns the id if `s` was interned, kNotInterned otherwise.
  static constexpr StringId kNotInterned = UINT32_MAX;
  StringId Find(std::string_view s) const;

  std::string_view Get(StringId id) const { return views_[id]; }
  size_t size() const { return views_.size(); }
  size_t memory_bytes() const;

 private:
  struct Slot {
    uint32_t hash_tag;  // upper hash bits, to skip most string compares
    StringId id;        // kNotInterned = empty slot
  };
  // A string met before, of up to 16 bytes (categories, thread ids, most
  // operator names), is found by its words in a direct-mapped table, without
  // a hash or a compare of its text: categories took 130 instructions each.
  struct ShortSlot {
    ShortWords words;
    uint32_t length = 0;  // with zero words: "", id 0, so an empty slot is true
    StringId id = kEmptyString;
  };
  static constexpr unsigned kShortSlotBits = 9;
  bool FindShort(std::string_view s, StringId* id) const {
    if (s.size() > kShortWordsMaxBytes) return false;
    const ShortWords words = ShortWordsOf(s);
    const ShortSlot& slot = short_slots_[ShortWordsSlot(words, s.size(), kShortSlotBits)];
    if (slot.length != s.size() || slot.words != words) return false;
    *id = slot.id;
    return true;
  }

  StringId InternHashed(std::string_view s, uint64_t hash);
  const char* Store(std::string_view s);
  void Grow();

  std::vector<std::string_view> views_;
  std::vector<Slot> slots_;
  std::vector<ShortSlot> short_slots_;
  size_t mask_ = 0;
  std::vector<std::unique_ptr<char[]>> blocks_;
  char* block_cursor_ = nullptr;
  size_t block_left_ = 0;
  size_t stored_bytes_ = 0;
};

}  // namespace perfdx::model

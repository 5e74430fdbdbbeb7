#include "perfdx/model/string_pool.h"

#include <cstring>

#include "perfdx/base/hash.h"

namespace perfdx::model {
namespace {
constexpr size_t kBlockBytes = size_t{1} << 20;
constexpr size_t kInitialSlots = 1024;

uint64_t Load64(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}

// The 128-bit product of a and b, folded to 64 bits: one multiply mixes 16
// bytes.
uint64_t FoldedMultiply(uint64_t a, uint64_t b) {
  __extension__ using Uint128 = unsigned __int128;
  const Uint128 product = static_cast<Uint128>(a) * b;
  return static_cast<uint64_t>(product) ^ static_cast<uint64_t>(product >> 64);
}

// The pool's own string hash. Interning runs for every name, category and
// string argument of every event, and the strings are often long (kernel
// names, "Input Dims" shapes); HashBytes' one multiply per 8 bytes, each
// waiting for the last, was most of Intern's time. This takes 16 bytes per
// multiply and reads every byte once (two overlapping loads for the tail).
uint64_t PoolHash(std::string_view s) {
  constexpr uint64_t kOdd1 = 0x9e3779b97f4a7c15ULL;  // golden ratio
  constexpr uint64_t kOdd2 = 0x243f6a8885a308d3ULL;  // pi
  constexpr uint64_t kOdd3 = 0x13198a2e03707345ULL;
  const char* p = s.data();
  size_t n = s.size();
  uint64_t h = kOdd2 ^ (n * kOdd1);
  uint64_t a = 0;
  uint64_t b = 0;
  if (n <= 16) {
    if (n >= 8) {
      a = Load64(p);
      b = Load64(p + n - 8);
    } else if (n > 0) {
      std::memcpy(&a, p, n);
    }
  } else {
    while (n > 16) {
      h ^= FoldedMultiply(Load64(p) ^ kOdd1, Load64(p + 8) ^ kOdd3 ^ h);
      p += 16;
      n -= 16;
    }
    // The last 16 bytes, overlapping bytes already mixed in.
    a = Load64(p + n - 16);
    b = Load64(p + n - 8);
  }
  return HashMix(h ^ FoldedMultiply(a ^ kOdd3, b ^ kOdd1 ^ h));
}

}  // namespace

StringPool::StringPool()
    : slots_(kInitialSlots, Slot{0, kNotInterned}),
      short_slots_(size_t{1} << kShortSlotBits),
      mask_(kInitialSlots - 1) {
  views_.emplace_back();  // id 0 is ""
  const uint64_t h = PoolHash({});
  size_t i = h & mask_;
  slots_[i] = Slot{static_cast<uint32_t>(h >> 32), kEmptyString};
}

const char* StringPool::Store(std::string_view s) {
  if (s.empty()) return "";
  stored_bytes_ += s.size();
  if (s.size() > kBlockBytes / 4) {
    auto block = std::make_unique_for_overwrite<char[]>(s.size());
    std::memcpy(block.get(), s.data(), s.size());
    const char* p = block.get();
    // Keep the current small-string block as the last one.
    blocks_.insert(blocks_.empty() ? blocks_.end() : blocks_.end() - 1, std::move(block));
    return p;
  }
  if (block_left_ < s.size()) {
    // Not zero-filled: a small trace used to pay 1 MiB of RSS for it.
    blocks_.push_back(std::make_unique_for_overwrite<char[]>(kBlockBytes));
    block_cursor_ = blocks_.back().get();
    block_left_ = kBlockBytes;
  }
  char* p = block_cursor_;
  std::memcpy(p, s.data(), s.size());
  block_cursor_ += s.size();
  block_left_ -= s.size();
  return p;
}

void StringPool::Grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(old.size() * 2, Slot{0, kNotInterned});
  mask_ = slots_.size() - 1;
  for (const Slot& slot : old) {
    if (slot.id == kNotInterned) continue;
    size_t i = PoolHash(views_[slot.id]) & mask_;
    while (slots_[i].id != kNotInterned) i = (i + 1) & mask_;
    slots_[i] = slot;
  }
}

StringId StringPool::Find(std::string_view s) const {
  const uint64_t h = PoolHash(s);
  const auto tag = static_cast<uint32_t>(h >> 32);
  for (size_t i = h & mask_;; i = (i + 1) & mask_) {
    const Slot& slot = slots_[i];
    if (slot.id == kNotInterned) return kNotInterned;
    if (slot.hash_tag == tag && views_[slot.id] == s) return slot.id;
  }
}

uint64_t StringPool::Hash(std::string_view s) {
  return PoolHash(s);
}

StringId StringPool::InternHashed(std::string_view s, uint64_t h) {
  const auto tag = static_cast<uint32_t>(h >> 32);
  size_t i = h & mask_;
  StringId id = kNotInterned;
  for (;; i = (i + 1) & mask_) {
    const Slot& slot = slots_[i];
    if (slot.id == kNotInterned) break;
    if (slot.hash_tag == tag && views_[slot.id] == s) {
      id = slot.id;
      break;
    }
  }
  if (id == kNotInterned) {
    id = static_cast<StringId>(views_.size());
    views_.emplace_back(Store(s), s.size());
    slots_[i] = Slot{tag, id};
    if (views_.size() * 2 > slots_.size()) Grow();
  }
  if (s.size() <= kShortWordsMaxBytes) {
    const ShortWords words = ShortWordsOf(s);
    short_slots_[ShortWordsSlot(words, s.size(), kShortSlotBits)] =
        ShortSlot{words, static_cast<uint32_t>(s.size()), id};
  }
  return id;
}

size_t StringPool::memory_bytes() const {
  return stored_bytes_ + views_.capacity() * sizeof(std::string_view) +
         slots_.capacity() * sizeof(Slot);
}

}  // namespace perfdx::model

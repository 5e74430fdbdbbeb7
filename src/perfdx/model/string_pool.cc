#include "perfdx/model/string_pool.h"

#include <cstring>

#include "perfdx/base/hash.h"

namespace perfdx::model {
namespace {
constexpr size_t kBlockBytes = size_t{1} << 20;
constexpr size_t kInitialSlots = 1024;
}  // namespace

StringPool::StringPool() : slots_(kInitialSlots, Slot{0, kNotInterned}), mask_(kInitialSlots - 1) {
  views_.emplace_back();  // id 0 is ""
  const uint64_t h = HashBytes({});
  size_t i = h & mask_;
  slots_[i] = Slot{static_cast<uint32_t>(h >> 32), kEmptyString};
}

const char* StringPool::Store(std::string_view s) {
  if (s.empty()) return "";
  stored_bytes_ += s.size();
  if (s.size() > kBlockBytes / 4) {
    auto block = std::make_unique<char[]>(s.size());
    std::memcpy(block.get(), s.data(), s.size());
    const char* p = block.get();
    // Keep the current small-string block as the last one.
    blocks_.insert(blocks_.empty() ? blocks_.end() : blocks_.end() - 1, std::move(block));
    return p;
  }
  if (block_left_ < s.size()) {
    blocks_.push_back(std::make_unique<char[]>(kBlockBytes));
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
    size_t i = HashBytes(views_[slot.id]) & mask_;
    while (slots_[i].id != kNotInterned) i = (i + 1) & mask_;
    slots_[i] = slot;
  }
}

StringId StringPool::Find(std::string_view s) const {
  const uint64_t h = HashBytes(s);
  const auto tag = static_cast<uint32_t>(h >> 32);
  for (size_t i = h & mask_;; i = (i + 1) & mask_) {
    const Slot& slot = slots_[i];
    if (slot.id == kNotInterned) return kNotInterned;
    if (slot.hash_tag == tag && views_[slot.id] == s) return slot.id;
  }
}

StringId StringPool::Intern(std::string_view s) {
  const uint64_t h = HashBytes(s);
  const auto tag = static_cast<uint32_t>(h >> 32);
  size_t i = h & mask_;
  for (;; i = (i + 1) & mask_) {
    const Slot& slot = slots_[i];
    if (slot.id == kNotInterned) break;
    if (slot.hash_tag == tag && views_[slot.id] == s) return slot.id;
  }
  const auto id = static_cast<StringId>(views_.size());
  views_.emplace_back(Store(s), s.size());
  slots_[i] = Slot{tag, id};
  if (views_.size() * 2 > slots_.size()) Grow();
  return id;
}

size_t StringPool::memory_bytes() const {
  return stored_bytes_ + views_.capacity() * sizeof(std::string_view) +
         slots_.capacity() * sizeof(Slot);
}

}  // namespace perfdx::model

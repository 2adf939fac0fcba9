// fake_device_memory.cpp — the fake GPU's device memory (fake_device_memory.h): two mappings
// of one reserved range, first-fit reuse, poison, block ids.
#include "testing/fake_device_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>

namespace dla::fake {
namespace {

constexpr size_t kAlign = 256;
size_t round_up(size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

}  // namespace

DeviceArena& DeviceArena::get() {
  static DeviceArena* arena = new DeviceArena();  // never destroyed: stream workers may outlive exit
  return *arena;
}

DeviceArena::DeviceArena() {
  // One shared anonymous object seen through two mappings: the device addresses (no access) and
  // the mirror (read-write). MAP_NORESERVE: only the pages touched take memory. Where the
  // process may not reserve the full capacity twice (a child under RLIMIT_AS), a smaller one;
  // where not even 64 MiB, every allocation fails as out of memory, as a full GPU's would.
  const int fd = memfd_create("dlarray-fake-device", MFD_CLOEXEC);
  if (fd < 0) return;
  for (size_t cap = kCapacity; cap >= (size_t(64) << 20); cap /= 2) {
    if (ftruncate(fd, static_cast<off_t>(cap)) != 0) continue;
    void* dev = mmap(nullptr, cap, PROT_NONE, MAP_SHARED | MAP_NORESERVE, fd, 0);
    void* mir = dev == MAP_FAILED ? MAP_FAILED : mmap(nullptr, cap, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
    if (dev != MAP_FAILED && mir != MAP_FAILED) {
      device_base_ = static_cast<char*>(dev);
      mirror_base_ = static_cast<char*>(mir);
      offset_ = reinterpret_cast<uintptr_t>(mirror_base_) - reinterpret_cast<uintptr_t>(device_base_);
      capacity_ = cap;
      break;
    }
    if (dev != MAP_FAILED) munmap(dev, cap);
  }
  close(fd);  // the mappings keep the object
}

size_t DeviceArena::take_free(size_t span, bool* poisoned) {
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second.bytes < span) continue;
    const size_t off = it->first, rest = it->second.bytes - span;
    *poisoned = it->second.poisoned;
    free_.erase(it);
    if (rest) free_.emplace(off + span, FreeRange{rest, *poisoned});
    return off;
  }
  return SIZE_MAX;
}

void DeviceArena::give_free(size_t offset, size_t span, bool poisoned) {
  auto next = free_.lower_bound(offset);
  if (next != free_.end() && offset + span == next->first) {
    span += next->second.bytes;
    poisoned = poisoned && next->second.poisoned;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second.bytes == offset) {
      prev->second.bytes += span;
      prev->second.poisoned = prev->second.poisoned && poisoned;
      return;
    }
  }
  free_.emplace(offset, FreeRange{span, poisoned});
}

void* DeviceArena::allocate(size_t n, int device, const void* stream,
                            std::vector<std::shared_ptr<PendingFree>>& pending_here, std::string* fault) {
  if (n > capacity_ || !device_base_) return nullptr;
  const size_t span = round_up(n ? n : 1);
  std::lock_guard<std::mutex> lock(mu_);
  size_t off = SIZE_MAX;
  // Stream-ordered reuse: part of a free still queued on this stream, as a real pool hands it
  // to the next allocation on that stream (whose work runs after the free).
  for (auto it = pending_here.begin(); it != pending_here.end();) {
    PendingFree& f = **it;
    if (f.finished || f.taken == f.span) {
      it = pending_here.erase(it);
      continue;
    }
    if (off == SIZE_MAX && f.span - f.taken >= span) {
      off = f.offset + f.taken;
      f.taken += span;
    }
    ++it;
  }
  if (off == SIZE_MAX) {
    bool poisoned = false;
    off = take_free(span, &poisoned);
    if (off != SIZE_MAX && poisoned) {
      // Every byte of a finished free still holds the poison, unless something wrote through
      // a pointer to the dead block.
      const char* p = mirror_base_ + off;
      for (size_t i = 0; i < span; ++i)
        if (static_cast<unsigned char>(p[i]) != kPoison) {
          *fault = "write to freed device memory: byte " + std::to_string(i) + " of a freed range at " +
                   std::to_string(reinterpret_cast<uintptr_t>(device_base_ + off)) + " changed after its free";
          break;
        }
    } else if (off == SIZE_MAX) {
      if (high_water_ + span > capacity_) return nullptr;
      off = high_water_;
      high_water_ += span;
    }
    if (span <= kPoisonLimit) std::memset(mirror_base_ + off, kPoison, span);  // garbage, as on a device
  }
  const uint64_t id = next_id_++;
  blocks_.emplace(off, DeviceBlock{n, span, device, id, stream});
  live_ids_.insert(id);
  return device_base_ + off;
}

std::shared_ptr<PendingFree> DeviceArena::begin_free(void* p, uint64_t* id,
                                                     std::vector<std::shared_ptr<PendingFree>>& pending_here) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!in_range(p)) return nullptr;
  auto it = blocks_.find(static_cast<size_t>(static_cast<char*>(p) - device_base_));
  if (it == blocks_.end()) return nullptr;
  *id = it->second.id;
  auto f = std::make_shared<PendingFree>(PendingFree{it->first, it->second.span});
  blocks_.erase(it);
  pending_here.push_back(f);
  return f;
}

void DeviceArena::finish_free(const PendingFree& f, uint64_t id) {
  std::lock_guard<std::mutex> lock(mu_);
  live_ids_.erase(id);
  auto& done = const_cast<PendingFree&>(f);
  done.finished = true;
  const size_t off = f.offset + f.taken, bytes = f.span - f.taken;  // the rest: not handed out again yet
  if (!bytes) return;
  if (bytes <= kPoisonLimit) {
    std::memset(mirror_base_ + off, kPoison, bytes);
    give_free(off, bytes, true);
    return;
  }
  // A large range: its pages go back to the host (reading as zeros), unpoisoned.
  const size_t page = 4096, first = (off + page - 1) / page * page, last = (off + bytes) / page * page;
  if (last > first) madvise(mirror_base_ + first, last - first, MADV_REMOVE);
  give_free(off, bytes, false);
}

bool DeviceArena::find(const void* p, size_t n, DeviceBlock* out) const {
  if (!in_range(p)) return false;
  const size_t off = static_cast<size_t>(static_cast<const char*>(p) - device_base_);
  std::lock_guard<std::mutex> lock(mu_);
  auto it = blocks_.upper_bound(off);
  if (it == blocks_.begin()) return false;
  --it;
  if (off + n > it->first + std::max<size_t>(it->second.size, 1)) return false;
  *out = it->second;
  return true;
}

bool DeviceArena::all_live(const std::vector<uint64_t>& ids, uint64_t* dead) const {
  std::lock_guard<std::mutex> lock(mu_);
  for (uint64_t id : ids)
    if (!live_ids_.count(id)) {
      *dead = id;
      return false;
    }
  return true;
}

size_t DeviceArena::live_blocks() const {
  std::lock_guard<std::mutex> lock(mu_);
  return blocks_.size();
}

}  // namespace dla::fake

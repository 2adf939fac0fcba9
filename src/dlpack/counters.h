// counters.h — how many times each DLPack entry point ran, for tests and diagnostics.
//
// Tests prove which path an exchange took (a peer's C table or __dlpack__; our table used
// by tvm-ffi) by reading these through dlarray._core._dlpack_counters(). The increments
// are relaxed load+store rather than atomic read-modify-writes: most entry points run with
// the GIL held, a lost count under a GIL-free race is harmless for a diagnostic, and a
// locked add would cost a few ns on a path that takes tens.
#pragma once
#include <atomic>
#include <cstdint>

namespace dla::py {

struct DLPackCounters {
  // Producer: our __dlpack__ and our exchange table's five functions.
  std::atomic<int64_t> dlpack_exports{0};
  std::atomic<int64_t> table_allocator{0};
  std::atomic<int64_t> table_managed_from_py{0};
  std::atomic<int64_t> table_managed_to_py{0};
  std::atomic<int64_t> table_dltensor_from_py{0};
  std::atomic<int64_t> table_current_work_stream{0};
  // Consumer: imports through a peer's exchange table and through __dlpack__.
  std::atomic<int64_t> imports_via_peer_table{0};
  std::atomic<int64_t> imports_via_protocol{0};
};

DLPackCounters& dlpack_counters();

inline void bump(std::atomic<int64_t>& c) {
  c.store(c.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

}  // namespace dla::py

// dims.h — Dims, the shape/strides container (inline for small ranks, heap beyond), and
// DimsView, a read-only (pointer, rank) view of one.
//
// Dims is what shapes are built in: locals on the stack, where rank <= 6 allocates
// nothing. An Array does not hold Dims (two of them were 128 bytes of every array): it keeps
// shape and strides in one compact buffer and hands out DimsViews of it (array.h). Ranks up
// to kMaxRank (64) are supported.
#pragma once
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <utility>

namespace dla {

constexpr int kMaxRank = 64;

// A read-only view of a shape or strides: valid while what it views (a Dims, an Array) is
// alive and unchanged. Dims converts to it implicitly and it to Dims (a copy).
class DimsView {
 public:
  DimsView() = default;
  // Explicit, so that braces never reach it: view({0, n}, ...) is a compile error, where it
  // would have been (nullptr, n). Spell shapes in braces as Dims{0, n}.
  explicit DimsView(const int64_t* p, int n) : p_(p), n_(n) {}
  int size() const { return n_; }
  bool empty() const { return n_ == 0; }
  const int64_t* data() const { return p_; }
  int64_t operator[](int i) const { return p_[i]; }
  const int64_t* begin() const { return p_; }
  const int64_t* end() const { return p_ + n_; }
  int64_t back() const { return p_[n_ - 1]; }

 private:
  const int64_t* p_ = nullptr;
  int n_ = 0;
};

inline bool operator==(DimsView a, DimsView b) {
  return a.size() == b.size() && (a.size() == 0 || std::memcmp(a.data(), b.data(), sizeof(int64_t) * a.size()) == 0);
}
inline bool operator!=(DimsView a, DimsView b) { return !(a == b); }

class Dims {
 public:
  static constexpr int kInline = 6;

  Dims() = default;
  explicit Dims(int n, int64_t fill = 0) { resize(n, fill); }
  Dims(const int64_t* p, int n) { assign(p, n); }
  Dims(std::initializer_list<int64_t> v) { assign(v.begin(), static_cast<int>(v.size())); }
  Dims(DimsView v) { assign(v.data(), v.size()); }  // NOLINT(google-explicit-constructor): a copy, as from Dims
  Dims(const Dims& o) { assign(o.data(), o.size_); }
  Dims(Dims&& o) noexcept { steal(o); }
  Dims& operator=(const Dims& o) {
    if (this != &o) assign(o.data(), o.size_);
    return *this;
  }
  Dims& operator=(Dims&& o) noexcept {
    if (this != &o) {
      free_heap();
      steal(o);
    }
    return *this;
  }
  ~Dims() { free_heap(); }

  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  int64_t* data() { return heap_ ? heap_ : inline_; }
  const int64_t* data() const { return heap_ ? heap_ : inline_; }
  int64_t& operator[](int i) { return data()[i]; }
  int64_t operator[](int i) const { return data()[i]; }
  int64_t* begin() { return data(); }
  int64_t* end() { return data() + size_; }
  const int64_t* begin() const { return data(); }
  const int64_t* end() const { return data() + size_; }
  int64_t back() const { return data()[size_ - 1]; }

  void resize(int n, int64_t fill = 0) {
    reserve(n);
    for (int i = size_; i < n; ++i) data()[i] = fill;
    size_ = n;
  }
  void push_back(int64_t v) {
    reserve(size_ + 1);
    data()[size_++] = v;
  }
  void insert(int pos, int64_t v) {
    reserve(size_ + 1);
    int64_t* d = data();
    std::memmove(d + pos + 1, d + pos, sizeof(int64_t) * (size_ - pos));
    d[pos] = v;
    ++size_;
  }
  void erase(int pos) {
    int64_t* d = data();
    std::memmove(d + pos, d + pos + 1, sizeof(int64_t) * (size_ - pos - 1));
    --size_;
  }
  void assign(const int64_t* p, int n) {
    size_ = 0;
    reserve(n);
    if (n) std::memmove(data(), p, sizeof(int64_t) * n);
    size_ = n;
  }
  operator DimsView() const { return DimsView(data(), size_); }  // NOLINT(google-explicit-constructor)
  // (== and != are DimsView's, so that Dims and views of an Array's dims compare alike.)

 private:
  void reserve(int n) {
    if (n <= capacity()) return;
    int cap = n < 2 * capacity() ? 2 * capacity() : n;
    auto* h = new int64_t[cap];
    if (size_) std::memcpy(h, data(), sizeof(int64_t) * size_);
    free_heap();
    heap_ = h;
    cap_ = cap;
  }
  int capacity() const { return heap_ ? cap_ : kInline; }
  void free_heap() {
    delete[] heap_;
    heap_ = nullptr;
    cap_ = 0;
  }
  void steal(Dims& o) {
    size_ = o.size_;
    if (o.heap_) {
      heap_ = std::exchange(o.heap_, nullptr);
      cap_ = std::exchange(o.cap_, 0);
    } else {
      heap_ = nullptr;
      cap_ = 0;
      // The whole inline buffer: a fixed-size copy compiles to a few moves, no libc call.
      std::memcpy(inline_, o.inline_, sizeof(inline_));
    }
    o.size_ = 0;
  }

  int64_t inline_[kInline];
  int64_t* heap_ = nullptr;
  int size_ = 0;
  int cap_ = 0;
};

}  // namespace dla

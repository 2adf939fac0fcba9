// type_strings.cpp — the table behind type_strings.h: one row per dtype a protocol can name.
#include "dlpack/type_strings.h"

#include <climits>

#include "core/errors.h"

namespace dla {
namespace {

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
constexpr char kNativeOrder = '>';
#else
constexpr char kNativeOrder = '<';
#endif

// NumPy names 64-bit integers after the C type that has 64 bits: long where it does (Linux,
// macOS), long long otherwise (Windows).
constexpr const char* kInt64Format = sizeof(long) == 8 ? "l" : "q";
constexpr const char* kUInt64Format = sizeof(long) == 8 ? "L" : "Q";

struct Row {
  DLDataType dl;
  const char* format;  // NumPy's buffer format
  char kind;           // typestr kind: b i u f c
};

// Every dtype with a NumPy equivalent; float16 is storage-only here but NumPy describes it.
constexpr Row kRows[] = {
    {{kDLBool, 8, 1}, "?", 'b'},
    {{kDLInt, 8, 1}, "b", 'i'},
    {{kDLInt, 16, 1}, "h", 'i'},
    {{kDLInt, 32, 1}, "i", 'i'},
    {{kDLInt, 64, 1}, kInt64Format, 'i'},
    {{kDLUInt, 8, 1}, "B", 'u'},
    {{kDLUInt, 16, 1}, "H", 'u'},
    {{kDLUInt, 32, 1}, "I", 'u'},
    {{kDLUInt, 64, 1}, kUInt64Format, 'u'},
    {{kDLFloat, 16, 1}, "e", 'f'},
    {{kDLFloat, 32, 1}, "f", 'f'},
    {{kDLFloat, 64, 1}, "d", 'f'},
    {{kDLComplex, 64, 1}, "Zf", 'c'},
    {{kDLComplex, 128, 1}, "Zd", 'c'},
};

const Row* row_of(const DType& d) {
  for (const Row& r : kRows)
    if (DType(r.dl) == d) return &r;
  return nullptr;
}

const Row* row_of(char kind, int64_t itemsize) {
  for (const Row& r : kRows)
    if (r.kind == kind && r.dl.bits / 8 == itemsize) return &r;
  return nullptr;
}

}  // namespace

const char* buffer_format(const DType& d) {
  const Row* r = row_of(d);
  return r ? r->format : nullptr;
}

DType dtype_from_buffer_format(std::string_view f, int64_t itemsize) {
  const std::string shown(f);
  if (!f.empty() && (f[0] == '@' || f[0] == '=' || f[0] == '<')) f.remove_prefix(1);
  if (!f.empty() && (f[0] == '>' || f[0] == '!')) throw BufferError("big-endian buffers are not supported");
  if (f.empty()) f = "B";  // the protocol's default: unsigned bytes
  char kind = 0;
  if (f == "?") kind = 'b';
  // Integer formats name C types whose width varies by platform: the item size decides.
  else if (f == "b" || f == "h" || f == "i" || f == "l" || f == "q" || f == "n") kind = 'i';
  else if (f == "B" || f == "H" || f == "I" || f == "L" || f == "Q" || f == "N" || f == "c") kind = 'u';
  else if (f == "e" || f == "f" || f == "d") kind = 'f';
  else if (f == "Zf" || f == "Zd") kind = 'c';
  const Row* r = kind ? row_of(kind, itemsize) : nullptr;
  // 'f' and 'd' are fixed widths: a mismatching item size is a malformed buffer, not another type.
  if (r && kind == 'f' && r->format[0] != f[0]) r = nullptr;
  if (r && kind == 'c' && r->format[1] != f[1]) r = nullptr;
  if (!r) throw BufferError("buffer format '" + shown + "' with item size " + std::to_string(itemsize) +
                            " has no dlarray dtype");
  return DType(r->dl);
}

std::string typestr_of(const DType& d) {
  const Row* r = row_of(d);
  if (!r) return {};
  const int64_t size = r->dl.bits / 8;
  return std::string(1, size == 1 ? '|' : kNativeOrder) + r->kind + std::to_string(size);
}

DType dtype_from_typestr(std::string_view t) {
  const std::string shown(t);
  auto bad = [&](const std::string& why) { return BufferError("typestr '" + shown + "' " + why); };
  if (t.size() < 3) throw bad("is malformed (expected byte order, kind and size, e.g. '<f8')");
  const char order = t[0], kind = t[1];
  int64_t size = 0;
  for (char c : t.substr(2)) {
    if (c < '0' || c > '9' || size > 1000) throw bad("is malformed (expected byte order, kind and size)");
    size = size * 10 + (c - '0');
  }
  if (order != '<' && order != '>' && order != '|' && order != '=')
    throw bad("has an unknown byte order (expected '<', '>', '|' or '=')");
  if (size > 1 && order != '|' && order != '=' && order != kNativeOrder)
    throw bad(order == '>' ? "is big-endian; only the machine's byte order is supported"
                           : "is little-endian; only the machine's byte order is supported");
  const Row* r = row_of(kind, size);
  if (!r) throw bad("has no dlarray dtype");
  return DType(r->dl);
}

}  // namespace dla

// matmul.cpp — the device-independent half of matmul (see linalg.h): the standard's 1-D
// rules, broadcasting of the stacks, type promotion, and which operands must be copied
// before the device kernel runs.
#include <limits>
#include <optional>
#include <string>

#include "core/blas_layout.h"
#include "core/broadcast.h"
#include "core/cast.h"
#include "core/copy.h"
#include "core/elementwise.h"
#include "core/fill.h"
#include "core/linalg.h"
#include "core/manipulation.h"
#include "core/promotion.h"
#include "core/scalar.h"

namespace dla {
namespace {

// Whether the last two axes of x can be handed to a BLAS routine as they are (blas_layout.h):
// row-major, or column-major passed as a transpose.
bool blas_friendly(const Array& x) {
  const int d = x.ndim();
  return blas_layout(x.shape(d - 2), x.shape(d - 1), x.stride(d - 2), x.stride(d - 1)).ok;
}

}  // namespace

Array matmul(const Array& x1, const Array& x2) {
  if (x1.ndim() == 0 || x2.ndim() == 0)
    throw ValueError(std::string("matmul: ") + (x1.ndim() == 0 ? "x1" : "x2") +
                     " is 0-d; matmul needs arrays of at least one dimension (use multiply for scalars)");
  if (x1.device() != x2.device())
    throw ValueError("matmul: x1 and x2 are on different devices ('" + x1.device().str() + "' and '" +
                     x2.device().str() + "')");
  for (const Array* x : {&x1, &x2})
    if (!x->dtype().computes() || !(kind_bit(x->dtype().scalar) & kKindNumeric))
      throw TypeError(std::string("matmul: ") + (x == &x1 ? "x1" : "x2") + " must have a numeric dtype, got " +
                      x->dtype().name());
  const DType dtype = DType::of(promote_types(x1.dtype().scalar, x2.dtype().scalar));

  // 1-D operands: x1 (K,) -> (1, K), x2 (K,) -> (K, 1); the added axes are dropped at the end.
  const bool row = x1.ndim() == 1, col = x2.ndim() == 1;
  Array a = row ? x1.view(Dims{1, x1.shape(0)}, Dims{0, x1.stride(0)}, x1.byte_offset()) : x1;
  Array b = col ? x2.view(Dims{x2.shape(0), 1}, Dims{x2.stride(0), 0}, x2.byte_offset()) : x2;
  const int64_t m = a.shape(a.ndim() - 2), k = a.shape(a.ndim() - 1);
  const int64_t kb = b.shape(b.ndim() - 2), n = b.shape(b.ndim() - 1);
  if (k != kb)
    throw ValueError("matmul: shapes " + shape_str(x1.shape()) + " (x1) and " + shape_str(x2.shape()) +
                     " (x2) are not aligned: the last axis of x1 has " + std::to_string(k) + " elements, the " +
                     (col ? "only" : "second-to-last") + " axis of x2 " + std::to_string(kb));
  Dims abatch(a.shape().data(), a.ndim() - 2), bbatch(b.shape().data(), b.ndim() - 2);
  Dims batch = broadcast_shapes(abatch, bbatch);

  Dims out_shape = batch;
  out_shape.push_back(m);
  out_shape.push_back(n);
  Array out = Array::empty(out_shape, dtype, x1.device());
  if (out.size() > 0) {
    if (k == 0) {
      fill(out, Scalar::of_int(0));  // the empty sum
    } else {
      const LinalgKernels& kern = linalg_kernels_for(x1, "matmul");
      // Convert (and, when BLAS cannot take the layout, compact) each operand once, before
      // the stack is broadcast, so a broadcast operand is never materialized.
      const bool is_float = is_floating(dtype.scalar);
      if (a.dtype() != dtype) a = cast_to(a, dtype);
      else if (!is_float || !blas_friendly(a)) a = ascontiguous(a);
      if (b.dtype() != dtype) b = cast_to(b, dtype);
      else if (!is_float || !blas_friendly(b)) b = ascontiguous(b);
      Dims as = batch, bs = batch;
      as.push_back(m), as.push_back(k);
      bs.push_back(k), bs.push_back(n);
      kern.matmul(out, broadcast_view(a, as), broadcast_view(b, bs));
    }
  }
  if (!row && !col) return out;
  Dims shape = batch, strides = Dims(out.strides().data(), batch.size());
  if (!row) shape.push_back(m), strides.push_back(out.stride(out.ndim() - 2));
  if (!col) shape.push_back(n), strides.push_back(out.stride(out.ndim() - 1));
  return out.view(shape, strides, out.byte_offset());
}
}  // namespace dla

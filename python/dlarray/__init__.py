"""dlarray: an array library with a C++ core, the Python array API standard and DLPack exchange.

This module is the array API namespace. The C++ extension `dlarray._core` provides the
array type and functions; this file re-exports them and adds what is plainer in Python.
"""
from . import _core
from ._core import (
    Array,
    CopyError,
    DType,
    Device,
    DLPACK_VERSION,
    arange,
    asarray,
    empty,
    from_dlpack,
    full,
    ones,
    zeros,
)
from ._core import (  # the 13 array API dtypes
    bool,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
    float32,
    float64,
    complex64,
    complex128,
)
from ._core import (  # storage dtypes: created, viewed, copied and exchanged; no arithmetic
    bfloat16,
    float16,
    float8_e3m4,
    float8_e4m3,
    float8_e4m3b11fnuz,
    float8_e4m3fn,
    float8_e4m3fnuz,
    float8_e5m2,
    float8_e5m2fnuz,
    float8_e8m0fnu,
    float6_e2m3fn,
    float6_e3m2fn,
    float4_e2m1fn,
)
from ._core import (  # elementwise functions and where (src/core/elementwise_ops.h)
    abs,
    acos,
    acosh,
    add,
    asin,
    asinh,
    atan,
    atan2,
    atanh,
    bitwise_and,
    bitwise_left_shift,
    bitwise_invert,
    bitwise_or,
    bitwise_right_shift,
    bitwise_xor,
    ceil,
    clip,
    conj,
    copysign,
    cos,
    cosh,
    divide,
    equal,
    exp,
    expm1,
    floor,
    floor_divide,
    greater,
    greater_equal,
    hypot,
    imag,
    isfinite,
    isinf,
    isnan,
    less,
    less_equal,
    log,
    log1p,
    log2,
    log10,
    logaddexp,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    maximum,
    minimum,
    multiply,
    negative,
    nextafter,
    not_equal,
    positive,
    pow,
    real,
    reciprocal,
    remainder,
    round,
    sign,
    signbit,
    sin,
    sinh,
    square,
    sqrt,
    subtract,
    tan,
    tanh,
    trunc,
    where,
)
from ._core import astype, can_cast, finfo, iinfo, isdtype, result_type  # data type functions
from ._core import all, any  # utility reductions
from ._diff import diff
from ._core import (  # statistical functions (src/core/reduction_ops.h)
    cumulative_prod,
    cumulative_sum,
    max,
    mean,
    min,
    prod,
    std,
    sum,
    var,
)
from ._constants import e, inf, nan, newaxis, pi
from ._core import (  # indexing, manipulation and the remaining creation functions
    take,
    take_along_axis,
    broadcast_arrays,
    broadcast_shapes,
    broadcast_to,
    concat,
    expand_dims,
    flip,
    moveaxis,
    permute_dims,
    repeat,
    reshape,
    roll,
    squeeze,
    stack,
    tile,
    unstack,
    empty_like,
    eye,
    full_like,
    linspace,
    meshgrid,
    ones_like,
    tril,
    triu,
    zeros_like,
)
from ._core import (  # searching, sorting and set functions (src/core/search_sort_ops.h)
    argmax,
    argmin,
    count_nonzero,
    nonzero,
    searchsorted,
    argsort,
    sort,
    isin,
    unique_all,
    unique_counts,
    unique_inverse,
    unique_values,
    UniqueAllResult,
    UniqueCountsResult,
    UniqueInverseResult,
)
from ._info import __array_namespace_info__  # noqa: F401
# ---- linear algebra (src/core/linalg_ops.h): matmul in C++, the rest composed over it ----
from ._core import matmul
from .linalg import matrix_transpose, tensordot, vecdot
from . import linalg  # noqa: F401  (the linalg extension)
# ---- end linear algebra ----
from . import _array_methods  # noqa: F401  (adds __repr__, __array__ to Array)
# ---- NumPy protocols: np.dtype(dlarray.float64), NumPy functions/ufuncs dispatched to dlarray ----
from . import _numpy_dispatch  # noqa: F401
# ---- end NumPy protocols ----
from . import cuda, rocm  # noqa: F401  (GPU streams; empty device lists without a GPU)
# ---- beyond the standard (docs/beyond-standard.md): NumPy's functions users reach for next ----
from . import random  # noqa: F401  (counter-based generators: the same numbers on every device)
from ._einsum import einsum
from ._nan_functions import (  # NaN-aware reductions
    nanargmax,
    nanargmin,
    nancumsum,
    nanmax,
    nanmean,
    nanmin,
    nanprod,
    nanstd,
    nansum,
    nanvar,
)
from ._pad import pad
from ._histogram import bincount, histogram
from ._selection import argpartition, median, partition, percentile, quantile
# ---- end beyond the standard ----

# ---- array API extensions --------------------------------------------------------------------
from . import fft  # noqa: F401  (fft extension: pocketfft through NumPy, imported on first use)

try:  # the ROCm backend is a separate module: it needs the HIP runtime library
    import importlib as _importlib

    _importlib.import_module("._rocm", __name__)
except ImportError as _e:  # not built, or no ROCm on this machine: the rocm device list stays empty
    from ._rocm_load_error import explained as _explained

    rocm.backend_import_error = _explained(_e)  # says which HIP runtime the build needs

# ---- SYCL devices (oneapi: dpctl's runtime, loaded on first use) ----
from . import oneapi  # noqa: F401
# ---- end SYCL devices ----

# ---- the default device of creation functions ----
from ._default_device import default_device, get_default_device, set_default_device

_default_device._from_environment()
# ---- end default device ----

__array_api_version__ = "2025.12"
from ._version import __version__


def _dtype_from_name(name):
    """Unpickling helper for dtype objects."""
    return getattr(_core, name)

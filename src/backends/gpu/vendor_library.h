// vendor_library.h — the GPU vendors' math libraries (cuBLAS, cuFFT, cuSOLVER; hipBLAS, hipFFT,
// hipSOLVER), opened with dlopen on first use.
//
// dlarray links none of them: they are hundreds of megabytes, `import dlarray` must stay fast
// and work without them, and the CUDA ones come from PyPI wheels (nvidia-cublas, ...) that
// install them under site-packages, where no linker looks. A library is looked for, in order:
//   1. only in the directories of DLARRAY_GPU_LIBRARY_PATH (':'-separated), when it is set;
//   2. by its plain soname: already loaded (by PyTorch, CuPy) or on the system's library path;
//   3. in the wheels' directories (e.g. nvidia/cu13/lib) under the site-packages dlarray is
//      installed in, then under every sys.path entry;
//   4. in the spec's install directories (ROCm's /opt/rocm/lib, which ROCm's installers do not
//      always put on the library path).
// The caller resolves the few functions it needs with dlsym into prototypes it declares itself
// from the vendor's published API (no vendor header is needed to build dlarray).
#pragma once
#include <dlfcn.h>

#include <string>
#include <vector>

#include "backends/gpu/library_errors.h"

namespace dla::gpu {

// An optional function of an opened library: *out = its address, or nullptr (and no error
// recorded) when this version of the library lacks it. Returns whether it was found.
template <class F>
bool find_optional(void* lib, const char* name, F* out) {
  *out = reinterpret_cast<F>(dlsym(lib, name));
  return *out != nullptr;
}

struct VendorLibrarySpec {
  const char* name;               // for messages: "cuBLAS"
  const char* const* sonames;     // newest first; nullptr-terminated
  const char* const* wheel_dirs;  // relative to a site-packages directory; nullptr-terminated
  const char* package;            // the PyPI package that installs it: "nvidia-cublas"
  const char* extra;              // dlarray's optional dependency that pulls it in: "cuda"; nullptr
                                  // when no pip extra installs it (ROCm: `package` is ROCm's package)
  const char* const* install_dirs = nullptr;  // absolute, searched last; nullptr-terminated, or nullptr
  const char* needs = nullptr;  // the oldest version dlarray's functions exist in, for messages:
                                // "cuBLAS 12 or newer"; nullptr when any version has them
};

// What to say when the library found lacks a function dlarray needs: which function, the
// version that has it, and what to install.
std::string missing_function_message(const VendorLibrarySpec& spec, const char* function);

// A function dlarray cannot work without: *out = its address, or false with the calling
// thread's library error (set_library_missing) saying what was missing. Only the GPU builds
// instantiate it (they hold set_library_missing).
template <class F>
bool find_required(const VendorLibrarySpec& spec, void* lib, const char* function, F* out) {
  *out = reinterpret_cast<F>(dlsym(lib, function));
  if (*out) return true;
  set_library_missing(missing_function_message(spec, function));
  return false;
}

// The library's handle (never closed), or nullptr with *why saying what was tried and what to
// install. Nothing is cached here: callers keep what they resolved, and retry after a failure
// (a sys.path entry added later is then searched).
void* open_vendor_library(const VendorLibrarySpec& spec, std::string* why);

// The sys.path entries, from the bindings (which read them under the GIL); the core knows
// nothing of Python. Called without any lock of the caller held.
using SearchPathProvider = std::vector<std::string> (*)();
void set_search_path_provider(SearchPathProvider provider);

}  // namespace dla::gpu

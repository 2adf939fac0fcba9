// vendor_library.cpp — finding and opening a vendor math library (see vendor_library.h).
#include "backends/gpu/vendor_library.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace dla::gpu {
namespace {

std::atomic<SearchPathProvider> g_provider{nullptr};

std::vector<std::string> split_path(const char* list) {
  std::vector<std::string> out;
  std::string cur;
  for (const char* p = list;; ++p) {
    if (*p == ':' || *p == '\0') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
      if (*p == '\0') break;
    } else {
      cur += *p;
    }
  }
  return out;
}

// The site-packages directory this module was loaded from (the parent of dlarray/), where pip
// puts the vendor wheels next to dlarray; empty when it cannot be told.
std::string own_site_packages() {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void*>(&own_site_packages), &info) || !info.dli_fname) return {};
  std::string path = info.dli_fname;
  for (int up = 0; up < 2; ++up) {  // .../site-packages/dlarray/_core....so -> .../site-packages
    const size_t slash = path.rfind('/');
    if (slash == std::string::npos) return {};
    path.resize(slash);
  }
  return path;
}

// Tries one candidate; keeps the first failure that is not a plain "not there" (a library found
// but not loadable: a missing dependency, the wrong architecture), which is what to report.
void* try_open(const std::string& file, std::string* first_error) {
  void* h = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char* e = dlerror();
    if (e && first_error->empty() && !std::strstr(e, "No such file or directory")) *first_error = e;
  }
  return h;
}

void* try_dirs(const VendorLibrarySpec& spec, const std::vector<std::string>& dirs, bool with_wheel_dirs,
               std::string* first_error) {
  for (const std::string& dir : dirs) {
    if (with_wheel_dirs) {
      for (const char* const* sub = spec.wheel_dirs; *sub; ++sub)
        for (const char* const* so = spec.sonames; *so; ++so)
          if (void* h = try_open(dir + "/" + *sub + "/" + *so, first_error)) return h;
    } else {
      for (const char* const* so = spec.sonames; *so; ++so)
        if (void* h = try_open(dir + "/" + *so, first_error)) return h;
    }
  }
  return nullptr;
}

std::string joined(const char* const* list, const char* sep) {
  std::string s;
  for (const char* const* p = list; *p; ++p) s += (p == list ? "" : sep) + std::string(*p);
  return s;
}

std::string install_hint(const VendorLibrarySpec& spec) {
  if (!spec.extra)  // ROCm's libraries come from ROCm's own packages, not from PyPI
    return std::string("Install ROCm's ") + spec.package + " package (`apt install " + spec.package +
           "` from AMD's ROCm repository)";
  return std::string("Install it with `pip install dlarray[") + spec.extra + "]` (or `pip install " + spec.package + "`)";
}

std::vector<std::string> listed(const char* const* list) {
  std::vector<std::string> out;
  for (const char* const* p = list; p && *p; ++p) out.push_back(*p);
  return out;
}

}  // namespace

std::string missing_function_message(const VendorLibrarySpec& spec, const char* function) {
  return std::string("the ") + spec.name + " found lacks " + function +
         (spec.needs ? std::string(" (dlarray needs ") + spec.needs + ")" : std::string()) +
         ", so a newer one is needed. " + install_hint(spec);
}

void set_search_path_provider(SearchPathProvider provider) { g_provider.store(provider); }

void* open_vendor_library(const VendorLibrarySpec& spec, std::string* why) {
  std::string first_error;
  const std::string names = joined(spec.sonames, " or ");
  if (const char* only = std::getenv("DLARRAY_GPU_LIBRARY_PATH")) {
    const std::vector<std::string> dirs = split_path(only);
    if (void* h = try_dirs(spec, dirs, false, &first_error)) return h;
    *why = spec.name + std::string(" (") + names + ") was not found in DLARRAY_GPU_LIBRARY_PATH ('" + only +
           "', the only place searched while it is set)" + (first_error.empty() ? "" : " (" + first_error + ")") +
           ". " + install_hint(spec);
    return nullptr;
  }
  for (const char* const* so = spec.sonames; *so; ++so)
    if (void* h = try_open(*so, &first_error)) return h;
  std::vector<std::string> dirs;
  const std::string own = own_site_packages();
  if (!own.empty()) dirs.push_back(own);
  size_t from_python = 0;
  if (SearchPathProvider provider = g_provider.load()) {
    for (std::string& p : provider()) {
      if (p.empty() || p == own) continue;
      dirs.push_back(std::move(p));
      ++from_python;
    }
  }
  if (void* h = try_dirs(spec, dirs, true, &first_error)) return h;
  const std::vector<std::string> install_dirs = listed(spec.install_dirs);
  if (void* h = try_dirs(spec, install_dirs, false, &first_error)) return h;
  std::string where = "on the system's library path";
  if (*spec.wheel_dirs)
    where += " and in " + joined(spec.wheel_dirs, ", ") + " under dlarray's site-packages and " +
             std::to_string(from_python) + " sys.path entries";
  if (!install_dirs.empty()) where += " and in " + joined(spec.install_dirs, ", ");
  *why = spec.name + std::string(" (") + names + ") could not be loaded: looked " + where +
         (first_error.empty() ? "" : " (" + first_error + ")") + ". " + install_hint(spec) +
         ", or point DLARRAY_GPU_LIBRARY_PATH at the directory that holds it";
  return nullptr;
}

}  // namespace dla::gpu

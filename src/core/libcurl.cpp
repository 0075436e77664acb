#include "core/libcurl.h"

#include <dlfcn.h>

#include <string>

namespace lw::curl {
namespace {

// The system's libcurl by its soname: macOS ships /usr/lib/libcurl.4.dylib.
#if defined(__APPLE__)
constexpr const char* kLibcurl = "/usr/lib/libcurl.4.dylib";
#else
constexpr const char* kLibcurl = "libcurl.so.4";
#endif

struct Loaded {
  Api api{};
  std::string error;  // empty when api is complete
};

template <class Fn>
bool resolve(void* lib, const char* name, Fn& slot, std::string& error) {
  slot = reinterpret_cast<Fn>(::dlsym(lib, name));
  if (slot == nullptr && error.empty()) error = std::string(kLibcurl) + " lacks " + name;
  return slot != nullptr;
}

Loaded load() {
  Loaded out;
  // RTLD_NODELETE: handles and callbacks may outlive any owner we could name.
  void* lib = ::dlopen(kLibcurl, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (lib == nullptr) {
    const char* why = ::dlerror();
    out.error = std::string("cannot load ") + kLibcurl + ": " + (why ? why : "unknown reason");
    return out;
  }
  CURLcode (*globalInit)(long) = nullptr;
  Api& a = out.api;
  resolve(lib, "curl_global_init", globalInit, out.error);
  resolve(lib, "curl_easy_init", a.easyInit, out.error);
  resolve(lib, "curl_easy_setopt", a.easySetopt, out.error);
  resolve(lib, "curl_easy_perform", a.easyPerform, out.error);
  resolve(lib, "curl_easy_getinfo", a.easyGetinfo, out.error);
  resolve(lib, "curl_easy_cleanup", a.easyCleanup, out.error);
  resolve(lib, "curl_easy_strerror", a.easyStrerror, out.error);
  resolve(lib, "curl_slist_append", a.slistAppend, out.error);
  resolve(lib, "curl_slist_free_all", a.slistFreeAll, out.error);
  resolve(lib, "curl_url", a.urlNew, out.error);
  resolve(lib, "curl_url_set", a.urlSet, out.error);
  resolve(lib, "curl_url_get", a.urlGet, out.error);
  resolve(lib, "curl_url_cleanup", a.urlCleanup, out.error);
  resolve(lib, "curl_free", a.free, out.error);
  // curl_global_init is not thread-safe before libcurl 7.84; api() runs this once.
  if (out.error.empty() && globalInit(CURL_GLOBAL_DEFAULT) != CURLE_OK) out.error = "curl_global_init failed";
  return out;
}

}  // namespace

Result<const Api*> api() {
  static const Loaded loaded = load();  // C++11 magic statics: once, thread-safe
  if (!loaded.error.empty())
    return makeError(ErrorCode::IoError, loaded.error, "install libcurl (Debian/Ubuntu: apt-get install libcurl4)",
                     "libcurl");
  return &loaded.api;
}

Result<Easy> newEasy() {
  auto a = api();
  if (!a) return std::move(a).error();
  Easy easy((*a)->easyInit(), EasyDeleter{*a});
  if (!easy) return makeError(ErrorCode::Internal, "libcurl could not create a handle", {}, "libcurl");
  return easy;
}

Result<HeaderList> headerList(const Api& api, const std::vector<std::pair<std::string, std::string>>& headers) {
  HeaderList list(nullptr, HeaderListDeleter{&api});
  auto append = [&](const std::string& line) {
    curl_slist* next = api.slistAppend(list.get(), line.c_str());
    if (next == nullptr) return false;
    static_cast<void>(list.release());  // slist_append returned the same list, extended
    list.reset(next);
    return true;
  };
  for (const auto& [name, value] : headers)
    if (!append(name + ": " + value))
      return makeError(ErrorCode::Internal, "libcurl is out of memory building headers", {}, "libcurl");
  if (!append("Expect:"))
    return makeError(ErrorCode::Internal, "libcurl is out of memory building headers", {}, "libcurl");
  return list;
}

}  // namespace lw::curl

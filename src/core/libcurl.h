// libcurl, loaded on first use instead of at process start.
// libcurl and the ~30 libraries it needs cost ~5 ms of dynamic linking per
// process (measured: bench/sandbox_start), and the hot paths (`sandbox exec`,
// `bridge stdio`) never make an HTTP request. Only the types and constants of
// <curl/curl.h> are compiled in; every call goes through the table below.
#pragma once

#include <curl/curl.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"

namespace lw::curl {

// The libcurl functions the project calls, resolved from libcurl.so.4.
struct Api {
  CURL* (*easyInit)();
  CURLcode (*easySetopt)(CURL*, CURLoption, ...);
  CURLcode (*easyPerform)(CURL*);
  CURLcode (*easyGetinfo)(CURL*, CURLINFO, ...);
  void (*easyCleanup)(CURL*);
  const char* (*easyStrerror)(CURLcode);
  curl_slist* (*slistAppend)(curl_slist*, const char*);
  void (*slistFreeAll)(curl_slist*);
  CURLU* (*urlNew)();
  CURLUcode (*urlSet)(CURLU*, CURLUPart, const char*, unsigned int);
  CURLUcode (*urlGet)(const CURLU*, CURLUPart, char**, unsigned int);
  void (*urlCleanup)(CURLU*);
  void (*free)(void*);
};

// The loaded library, globally initialised once (thread-safe); the same
// pointer on every call. IO_ERROR naming the library when it cannot be loaded
// or lacks a function (then every later call fails the same way).
Result<const Api*> api();

struct EasyDeleter {
  const Api* api;
  void operator()(CURL* c) const { api->easyCleanup(c); }
};
using Easy = std::unique_ptr<CURL, EasyDeleter>;

struct HeaderListDeleter {
  const Api* api;
  void operator()(curl_slist* l) const { api->slistFreeAll(l); }
};
using HeaderList = std::unique_ptr<curl_slist, HeaderListDeleter>;

// A new easy handle, or an error when libcurl cannot be loaded or allocate one.
Result<Easy> newEasy();

// `headers` as a libcurl list ("Name: value"), ending with an empty "Expect:"
// so that libcurl never waits for a "100 Continue" some servers never send.
// INTERNAL when libcurl is out of memory.
Result<HeaderList> headerList(const Api& api, const std::vector<std::pair<std::string, std::string>>& headers);

}  // namespace lw::curl

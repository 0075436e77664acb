#include "github/markdown/repo_links.h"

#include <algorithm>
#include <cctype>

#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>

#include "core/ascii.h"
#include "github/rest/repo_ref.h"

namespace lw::github {

namespace urls = boost::urls;

namespace {

// Browsers (WHATWG URL) read '\' as '/' in http(s) URLs, drop tabs and
// newlines, and some decode separators: a URL that holds any of these may
// go elsewhere than RFC 3986 says, so it is not taken as in-repository.
bool readDifferentlyByBrowsers(std::string_view url) {
  if (std::any_of(url.begin(), url.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return c == '\\' || u <= 0x20 || u == 0x7F;
      }))
    return true;
  const std::string l = asciiLowered(url);
  for (std::string_view encoded : {"%2f", "%5c", "%2e", "%40", "%00", "%09", "%0a", "%0d"})
    if (l.find(encoded) != std::string::npos) return true;
  return false;
}

}  // namespace

LinkScope linkScopeOf(const std::string& webHost, const RepoRef& repo) { return {webHost, repo.owner, repo.name}; }

std::string webHostOfApiUrl(std::string_view apiUrl) {
  std::size_t start = apiUrl.find("://");
  start = start == std::string_view::npos ? 0 : start + 3;
  std::string_view rest = apiUrl.substr(start);
  std::string host = asciiLowered(rest.substr(0, std::min(rest.find('/'), rest.size())));
  // github.com's API lives on its own host; GHES serves it under /api/v3.
  if (host.rfind("api.", 0) == 0) host.erase(0, 4);
  return host;
}

bool resolvesInRepository(std::string_view url, const LinkScope& scope) {
  if (url.empty() || scope.owner.empty() || scope.repo.empty() || readDifferentlyByBrowsers(url)) return false;
  auto ref = urls::parse_uri_reference(url);
  if (!ref) return false;
  // A pull request's page: the deepest place loopwright posts on, so
  // "../" climbs no further than from any other of its pages.
  urls::url page("https://" + scope.webHost + "/" + scope.owner + "/" + scope.repo + "/pull/1");
  if (page.resolve(*ref).has_error()) return false;
  page.normalize();
  if (page.scheme() != "https" && page.scheme() != "http") return false;
  // The host and port as the web host names them (a GHES on its own port).
  if (page.has_userinfo() || asciiLowered(page.encoded_host_and_port()) != asciiLowered(scope.webHost)) return false;
  const std::string path = asciiLowered(page.encoded_path());
  const std::string prefix = asciiLowered("/" + scope.owner + "/" + scope.repo);
  return path == prefix || path.rfind(prefix + "/", 0) == 0;
}

}  // namespace lw::github

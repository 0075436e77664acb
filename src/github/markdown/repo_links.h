// Whether a link that GitHub would render leads into the repository it is
// posted on: the URL is resolved the way a browser resolves it on the page
// (RFC 3986 reference resolution against the pull request's address, dot
// segments removed) and the result must be on the web host, under
// /<owner>/<repo>. Pure.
#pragma once

#include <string>
#include <string_view>

namespace lw::github {

struct RepoRef;  // github/publish/publication.h

// Where links may point: https://<webHost>/<owner>/<repo>… and links
// relative to the page (which is in the repository).
struct LinkScope {
  std::string webHost = "github.com";
  std::string owner;
  std::string repo;
};

LinkScope linkScopeOf(const std::string& webHost, const RepoRef& repo);

// The web host of an API base URL: https://api.github.com -> github.com,
// https://ghe.example/api/v3 -> ghe.example.
std::string webHostOfApiUrl(std::string_view apiUrl);

// True when `url`, resolved against a page of the repository, is an http(s)
// URL on the scope's web host (and port, as it names one) under
// /<owner>/<repo> (case-insensitive), with no user info and no character a browser would read
// differently from RFC 3986 (backslashes, controls, blanks, encoded
// separators). False for anything that does not parse.
bool resolvesInRepository(std::string_view url, const LinkScope& scope);

}  // namespace lw::github

// Parts of a REST request's address: a path segment or query value
// percent-encoded (RFC 3986), a repository path with its slashes kept.
#pragma once

#include <string>

namespace lw::github {

// Percent-encodes everything but unreserved characters (RFC 3986), for
// path segments and query values.
std::string urlEncode(const std::string& s);
// A repository path: each segment percent-encoded, the slashes kept.
std::string urlEncodePath(const std::string& path);

}  // namespace lw::github

// Whose comments and reviews on GitHub are loopwright's own: the token's
// login, read once per use from GET /user.
#pragma once

#include <string>

#include "github/rest/rest_client.h"

namespace lw::github {

// Whose comments count as ours when GET /user is refused (an installation
// token such as GITHUB_TOKEN): the Actions bot.
inline constexpr const char* kActionsBotLogin = "github-actions[bot]";

// The login whose comments are ours: GET /user, else the fallback.
std::string ownLogin(RestClient& api, const std::string& fallback);

}  // namespace lw::github

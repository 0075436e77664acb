#include "agents/security/workflow/archived_repositories.h"

#include <algorithm>
#include <iterator>

namespace lw::agents::security {

namespace {

constexpr std::string_view kArchivedRepositories[] = {
#include "agents/security/workflow/archived_repos.inc"
};

}  // namespace

bool isArchivedRepository(std::string_view repository) {
  return std::binary_search(std::begin(kArchivedRepositories), std::end(kArchivedRepositories), repository);
}

}  // namespace lw::agents::security

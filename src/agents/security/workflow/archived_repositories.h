// The repositories archived on GitHub that actions, reusable workflows and
// pre-commit hooks come from: zizmor's list (data/archived-repos.txt, see
// SOURCE there), compiled in by CMake. An archived repository takes no
// commits: a flaw found in it is never fixed there.
#pragma once

#include <string_view>

namespace lw::agents::security {

// Whether the lower-case owner/repo is on the archived list (checked for
// workflows' `uses:`, workflow_rules/workflow_archived_rule.cpp, and for
// pre-commit's hook repositories, file_rules/precommit_rules.cpp).
bool isArchivedRepository(std::string_view repository);

}  // namespace lw::agents::security

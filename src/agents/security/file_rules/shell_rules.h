// `curl … | sh` and its kin in shell text: a workflow's run: script, a
// shell script, a Dockerfile's RUN, a Makefile's recipe.
#pragma once

#include <string_view>
#include <vector>

#include "agents/security/rules.h"

namespace lw::agents::security {

// True when one logical shell line downloads (curl, wget) and feeds the
// download to an interpreter: `| sh`, `| sudo bash -s`, `bash <(curl …)`,
// `sh -c "$(curl …)"`.
bool pipesDownloadToShell(std::string_view line);

// A security/curl-pipe-shell hit for each logical line of `lines` (joined
// across trailing backslashes) that does so; `firstLine` is the file line
// of lines[0], each hit anchored on the logical line's physical lines.
std::vector<RuleHit> curlPipeShellHits(const std::vector<std::string_view>& lines, int firstLine);

}  // namespace lw::agents::security

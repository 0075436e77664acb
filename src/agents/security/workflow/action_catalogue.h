// What the rules know about third-party actions, as data with the page
// that documents each entry (action_catalogue.cpp): inputs that run as code,
// outputs that carry text an outsider chose, and caches an action restores
// by default. Sources: each action's README / action.yml, and the lists of
// zizmor's template-injection and cache-poisoning audits (MIT), which take
// theirs from CodeQL's injection sinks.
#pragma once

#include <string_view>
#include <vector>

#include "agents/security/text.h"
#include "agents/security/workflow/workflow_model.h"

namespace lw::agents::security {

// The `with:` values of `step` that its action runs as code or evaluates as
// a script or template (actions/github-script's `script`, mikefarah/yq's
// `cmd`, …), in the step's order; none for an action the catalogue does not
// list.
std::vector<const Located*> codeExecutingInputs(const StepModel& step);

// Whether output `name` of `step`'s action carries text an outsider chose
// (a branch name, a changed file's name, a comment's body).
bool outputCarriesEventText(const StepModel& step, std::string_view name);

// Where `step` turns on a cache it restores: the `with:` value that turns
// it on, or its `uses:` when the action caches by default (for the version
// it names: the ref, or a `# vN` comment on that line after a SHA); nullptr
// when it restores none. `lines` are the file's lines (for that comment).
// `tagBuildsOnly`: the workflow publishes only on tags (a release event, a
// tag push), so a switch written as a tag guard (`${{ !startsWith(github.ref,
// 'refs/tags/') }}`) is read as it is on a tag; any other expression counts
// as on.
const Located* cacheTurnedOn(const StepModel& step, const FileLines& lines, bool tagBuildsOnly);

// The action's major version from `uses:` (`@v5`, `@5.1`, or a `# v5.0.0`
// comment on its line after a SHA); -1 when it names none.
int actionMajorVersion(const StepModel& step, const FileLines& lines);

}  // namespace lw::agents::security

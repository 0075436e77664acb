// The judgement of an author step's change against its task contract
// (docs/taskpack.md, "Task contract"). Pure: the change as captured (and its
// validate run, when one ran) and the contract in, a refusal or nothing out.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"
#include "pipeline/run/run_record.h"
#include "policy/model/taskpack.h"

namespace lw::pipeline {

// Why `change` breaks the contract's shape, or nullopt when it keeps it: a
// changed .gitattributes or .gitignore file gitRuleFiles does not list (a
// contract that declares nothing lists none), or more files, lines or binary
// bytes than allowed, is PATH_POLICY_VIOLATION naming the files or with the
// numbers ("changed 31 files, the contract allows 20"); no change from a
// step that expects one, or an `expects` entry no changed path matches, is
// CONTRACT_UNMET naming it. Every broken clause is in the message, the
// first one decides the code. `change` null: the step changed nothing.
std::optional<Error> judgeChange(const AuthorChange* change, const TaskContract& contract);

// Whether the contract's validate command is to run on `change`: there is
// one, the step changed something, and nothing has refused the change yet.
bool validationDue(const AuthorChange& change, const TaskContract& contract);

// Why a validate run refuses the change (CONTRACT_UNMET: "validate `make
// check-format` exited 2"), or nullopt when it passed.
std::optional<Error> judgeValidation(const ValidationRun& run);

// "make check-format": an argv as one line, for messages.
std::string commandLine(const std::vector<std::string>& argv);

}  // namespace lw::pipeline

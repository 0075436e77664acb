// GitHub Actions workflow commands ("::error file=a.c,line=3::message") and
// their escaping, so that text from a step can neither break a command nor
// issue one of its own.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

#include "core/finding.h"

namespace lw::github {

// The message part: '%', CR and LF are percent-encoded (actions/toolkit
// escapeData), so a multi-line message stays one command.
std::string escapeData(std::string_view s);
// A property value: also ':' and ',' (actions/toolkit escapeProperty).
std::string escapeProperty(std::string_view s);

// "::error file=…,line=…,endLine=…,title=…::message" for a finding; the
// title is "<step>: <rule>". Findings without a path get no file property.
std::string annotationCommand(const Finding& f);

// "::warning title=…::message": a warning annotation on the run page.
std::string warningCommand(std::string_view title, std::string_view message);
// "::error title=…::message": an error annotation on the run page.
std::string errorCommand(std::string_view title, std::string_view message);

// The same warning as one Markdown line for GITHUB_STEP_SUMMARY
// ("> **Warning:** message\n\n"), kept on one line.
std::string warningSummaryLine(std::string_view message);

// A token for ::stop-commands:: that cannot be guessed by the text it guards.
std::string randomToken();

// Writes `text` to the log between "::stop-commands::<token>" and
// "::<token>::", so the runner does not execute workflow commands a step
// printed. `token` must not occur in `text`; a fresh one is drawn if it does.
void echoUntrusted(std::ostream& log, std::string_view text, std::string token = randomToken());

}  // namespace lw::github

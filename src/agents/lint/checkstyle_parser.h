// Checkstyle XML, the format many linters print (shellcheck -f checkstyle,
// eslint -f checkstyle, ...): <checkstyle><file name="..."><error line=""
// column="" severity="" message="" source=""/></file></checkstyle>. Read with
// Boost.PropertyTree's XML parser.
#pragma once

#include <string_view>

#include "agents/lint/lint_diagnostic.h"
#include "core/result.h"

namespace lw::agents::lint {

// severity="ignore" entries are counted in `ignored`. OUTPUT_INVALID at the
// line of XML that does not parse, or at the element (checkstyle.file[1].
// error[0]) whose line or column is not a number.
Result<ParsedOutput> parseCheckstyle(std::string_view text);

}  // namespace lw::agents::lint

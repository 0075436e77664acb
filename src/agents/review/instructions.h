// The repository's review instructions as the prompt carries them. The file
// is read at the base commit (bridge_reads.h), so a pull request cannot
// rewrite how it is reviewed: `with.instructions` (.loopwright/review.md),
// else AGENTS.md, else CLAUDE.md. Of the last two, only the sections about
// review when the file has some; always bounded.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace lw::agents::review {

inline constexpr std::size_t kMaxInstructionBytes = 8 * 1024;

// The Markdown sections whose heading mentions "review" (each with its
// subsections), joined; the whole text when no heading does. Headings inside
// fenced code blocks are not headings.
std::string reviewSections(std::string_view markdown);

// `text` cut at a line boundary to at most `maxBytes`, with a line saying it
// was cut.
std::string boundInstructions(std::string_view text, std::size_t maxBytes = kMaxInstructionBytes);

}  // namespace lw::agents::review

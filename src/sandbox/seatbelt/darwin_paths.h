// macOS's /var, /tmp and /etc are symlinks into /private: a step's $TMPDIR
// reads /var/folders/…, the kernel (and so Seatbelt) reports and matches
// /private/var/folders/…. Paths that are compared, or named in a profile,
// are brought to the /private spelling first. Pure: no filesystem access,
// so it also serves paths that do not exist yet.
#pragma once

#include <filesystem>

namespace lw::sandbox::seatbelt {

// `p` (absolute) with a leading /var, /tmp or /etc spelled /private/…;
// any other path, a relative one among them, lexically normalised only.
std::filesystem::path privateSpelling(const std::filesystem::path& p);

// Whether `a` and `b` name the same place once both are spelled that way.
bool sameDarwinPath(const std::filesystem::path& a, const std::filesystem::path& b);

// Whether `inner` is `outer` or below it, both spelled that way.
bool isWithinDarwinPath(const std::filesystem::path& inner, const std::filesystem::path& outer);

}  // namespace lw::sandbox::seatbelt

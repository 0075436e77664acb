// The host paths every step may read, shared by the planners that build a
// view from an allow-list (linux-bwrap, linux-landlock): one list, so that a
// command finds the same files on either backend.
#pragma once

#include <sys/stat.h>

#include <string>
#include <vector>

namespace lw::sandbox {

// Loader, libraries and tools: bound (or granted) read-only when present.
const std::vector<std::string>& systemTrees();

// What programs need from /etc (name service, resolver, loader cache, time
// zone, TLS roots, alternatives, a few tool defaults) — never /etc itself:
// a step run by root still owns root's 0600 files (/etc/shadow, SSH host
// keys, /etc/ssl/private, Docker's key.json), dropped capabilities or not.
// Every entry is world-readable on a stock system and holds nothing that
// is not; a directory with a root-only part is listed by its readable parts
// (/etc/ssl/certs, not /etc/ssl).
const std::vector<std::string>& systemEtcPaths();

// Whether others (not the owner, not the group) may read what `st`
// describes: r for a file, r-x for a directory. An allow-listed entry they
// may not read is left out of every view: a 0600 file root owns is still
// root's in a step that root runs.
bool othersMayRead(const struct stat& st);

}  // namespace lw::sandbox

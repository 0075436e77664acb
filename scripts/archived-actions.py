#!/usr/bin/env python3
"""Refreshes security/archived-action's list from zizmor's.

usage: scripts/archived-actions.py ZIZMOR_GIT_DIR [COMMIT]

Copies zizmor's crates/zizmor/data/archived-repos.txt (lower-case owner/repo
of archived repositories, one a line: its support/archived-repos.py makes it
from a hand-curated list of archived actions and one of archived pre-commit
hook repositories) and its LICENSE into src/agents/security/workflow/data/, and
rewrites SOURCE there with the commit read. The git directory may be a bare
mirror: files are read with `git show <commit>:<path>`. CMake turns the list
into a C++ table when it changes (CMakeLists.txt, "archived_repos.inc").
"""
import os
import re
import subprocess
import sys

LIST = "crates/zizmor/data/archived-repos.txt"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "agents", "security", "workflow", "data")
ENTRY = re.compile(r"^[a-z0-9_.-]+/[a-z0-9_.-]+$")


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True).stdout.decode()


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    repo = sys.argv[1]
    commit = git(repo, "rev-parse", sys.argv[2] if len(sys.argv) == 3 else "HEAD").strip()
    entries = sorted({line.strip().lower() for line in git(repo, "show", f"{commit}:{LIST}").splitlines()
                      if line.strip() and not line.startswith("#")})
    bad = [e for e in entries if not ENTRY.match(e)]
    if bad:
        sys.exit(f"not owner/repo: {bad}")
    with open(os.path.join(OUT, "archived-repos.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(entries) + "\n")
    with open(os.path.join(OUT, "LICENSE"), "w", encoding="utf-8") as f:
        f.write(git(repo, "show", f"{commit}:LICENSE"))
    with open(os.path.join(OUT, "SOURCE"), "w", encoding="utf-8") as f:
        f.write(f"""repository: https://github.com/zizmorcore/zizmor
commit: {commit}
license: MIT (LICENSE, copied from the repository)
paths:
  {LIST} -> archived-repos.txt ({len(entries)} repositories)
what: archived GitHub repositories (actions, reusable workflows, pre-commit hooks), lower case,
  as zizmor's archived-uses audit reads them; security/archived-action flags a uses: of one
regenerate: scripts/archived-actions.py <zizmor git dir> [commit]
""")
    print(f"{len(entries)} archived repositories from zizmor {commit}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Vendors zizmor's and poutine's public test corpora into
tests/data/security/corpus/ and writes what each tool expects to find there.

usage: scripts/security-corpus.py ZIZMOR_GIT_DIR POUTINE_GIT_DIR HAZMAT_GIT_DIR

The arguments are git directories of zizmor, poutine and woodruffw/gha-hazmat
(a bare mirror is enough: files are read with `git show <commit>:<path>`).
The output is regenerated whole:

  corpus/zizmor/test-data/...   crates/zizmor/tests/integration/test-data
  corpus/zizmor/expected        from the inline insta snapshots of
                                crates/zizmor/tests/integration/audit/*.rs
  corpus/zizmor/audits          from zizmor's zizmor/docs/audits.md: offline? default persona?
  corpus/gha-hazmat/repo/...    gha-hazmat at the commit zizmor's e2e test pins
  corpus/gha-hazmat/expected    from that test's snapshot
                                (crates/zizmor/tests/integration/snapshots/
                                integration__e2e__gha_hazmat.snap)
  corpus/poutine/testdata/...   scanner/testdata
  corpus/poutine/expected       from TestFindings in scanner/inventory_test.go
  corpus/*/LICENSE, SOURCE      the licence and where everything came from

The `expected` format (one record a line, '#' comments):
  finding <path>:<line> <audit>   one finding the tool reports, at the line of
                                  its primary location (zizmor) or its Line
                                  field (poutine; 0 when it gives none)
  clean <path>                    a file the tool ran on and found nothing in
Only zizmor runs in the default persona, offline and with no --config count:
an auditor or pedantic snapshot, a --fix diff or a temporary workspace says
nothing about what a default run reports.
"""
import os
import re
import shutil
import subprocess
import sys

ZIZMOR_DATA = "crates/zizmor/tests/integration/test-data"
ZIZMOR_AUDIT_TESTS = "crates/zizmor/tests/integration/audit"
POUTINE_DATA = "scanner/testdata"
POUTINE_TEST = "scanner/inventory_test.go"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "security", "corpus")


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True).stdout


def head(repo, commit="HEAD"):
    return git(repo, "rev-parse", commit).decode().strip()


def tree(repo, prefix, commit="HEAD"):
    return git(repo, "ls-tree", "-r", "--name-only", commit, *([prefix] if prefix else [])).decode().splitlines()


def vendor(repo, prefix, dest, commit="HEAD"):
    shutil.rmtree(dest, ignore_errors=True)
    for path in tree(repo, prefix, commit):
        target = os.path.join(dest, os.path.relpath(path, prefix or "."))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as f:
            f.write(git(repo, "show", commit + ":" + path))


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


# --- zizmor -----------------------------------------------------------------

SNAPSHOT = re.compile(r"insta::assert_snapshot!\(")
INPUT = re.compile(r'\.input\(\s*input_under_test\(\s*"([^"]+)"\s*,?\s*\)\s*\)')
FINDING = re.compile(r"^\s*(error|warning|help|info|note)\[([a-z0-9-]+)\]:")
LOCATION = re.compile(r"^\s*--> @@INPUT@@(\S*):(\d+):(\d+)")
EXCERPT = re.compile(r"^\s*(\d+) \|(.*)$")
# Anything that changes what a run reports away from the default persona,
# offline, the configuration found beside the input.
NOT_DEFAULT = ("--fix", ".config(", ".offline(", "WorkspaceBuilder", "--min-", "expects_failure", ".setenv(",
               "working_dir(", "no_config")


def persona_of(command):
    if "--persona=auditor" in command:
        return "auditor"
    if "--persona=pedantic" in command or "--pedantic" in command:
        return "pedantic"
    return "regular"


def snapshot_literal(src, at):
    """The inline snapshot starting at src[at] ('@'), and where it ends."""
    m = re.compile(r'@(r(#*))?"').match(src, at)
    if m is None:
        return None, at
    start = m.end()
    if m.group(1):
        end = src.index('"' + m.group(2), start)
        return src[start:end], end
    i = start
    while src[i] != '"':
        i += 2 if src[i] == "\\" else 1
    return src[start:i].replace('\\"', '"').replace("\\\\", "\\"), i


def runs_of(src):
    """(persona, inputs, snapshot text) for each offline run in one test file."""
    for m in SNAPSHOT.finditer(src):
        at = src.find("@", m.end())
        while at != -1 and src[at + 1] not in 'r"':
            at = src.find("@", at + 1)
        if at == -1:
            continue
        command = src[m.end():at]
        if "zizmor()" not in command or any(flag in command for flag in NOT_DEFAULT):
            continue
        inputs = INPUT.findall(command)
        literal, _ = snapshot_literal(src, at)
        if inputs and literal is not None:
            yield persona_of(command), inputs, literal


def file_line(data_dir, path, line):
    try:
        with open(os.path.join(data_dir, path), encoding="utf-8") as f:
            lines = f.read().split("\n")
        return lines[line - 1] if 0 < line <= len(lines) else None
    except (OSError, UnicodeDecodeError):
        return None


def finding_path(data_dir, inputs, suffix, line, excerpt):
    """The corpus path a finding's location names. With several inputs the
    location says only @@INPUT@@: the input whose line matches the excerpt."""
    candidates = [i.rstrip("/") + suffix if suffix else i for i in inputs]
    candidates = [c for c in candidates if os.path.isfile(os.path.join(data_dir, c))]
    if len(candidates) == 1 or excerpt is None:
        return candidates[0] if candidates else None
    for c in candidates:
        text = file_line(data_dir, c, line)
        if text is not None and text.strip() == excerpt.strip():
            return c
    return None


def parse_snapshot(data_dir, inputs, text):
    """(findings [(path, line, col, audit)], files with none, unresolved count)."""
    lines = text.split("\n")
    findings, unresolved = [], 0
    i = 0
    while i < len(lines):
        m = FINDING.match(lines[i])
        loc = LOCATION.match(lines[i + 1]) if m and i + 1 < len(lines) else None
        if not loc:
            i += 1
            continue
        line = int(loc.group(2))
        excerpt = None
        for follow in lines[i + 2:i + 12]:
            e = EXCERPT.match(follow)
            if e and int(e.group(1)) == line:
                excerpt = e.group(2)[1:] if e.group(2).startswith(" ") else e.group(2)
                break
        path = finding_path(data_dir, inputs, loc.group(1), line, excerpt)
        if path is None:
            unresolved += 1
        else:
            findings.append((path, line, int(loc.group(3)), m.group(2)))
        i += 2
    reported = {f[0] for f in findings}
    ignored = "ignored" in lines[-1] or any("ignored)" in l for l in lines if "findings" in l or "Good job" in l)
    quiet = [] if ignored or unresolved else [i for i in inputs if os.path.isfile(os.path.join(data_dir, i))
                                                and i not in reported and len(inputs) == 1]
    return findings, quiet, unresolved


PERSONAS = ("regular", "pedantic", "auditor")


def zizmor_expected(repo, data_dir):
    """Each finding with the least persona whose run shows it; the clean
    files are those a default run found nothing in."""
    shown, clean, default_run, runs, unresolved = {}, set(), set(), 0, 0
    for path in sorted(tree(repo, ZIZMOR_AUDIT_TESTS)):
        if not path.endswith(".rs"):
            continue
        src = git(repo, "show", "HEAD:" + path).decode()
        for persona, inputs, text in runs_of(src):
            runs += 1
            found, quiet, lost = parse_snapshot(data_dir, inputs, text)
            unresolved += lost
            for f in found:
                least = min(shown.get(f, persona), persona, key=PERSONAS.index)
                shown[f] = least
            if persona == "regular":
                clean.update(quiet)
                default_run.update(inputs)
    clean -= {f[0] for f, persona in shown.items() if persona == "regular"}
    no_default = sorted({f[0] for f in shown} - default_run)
    out = ["# zizmor " + head(repo) + ": offline runs without --config (scripts/security-corpus.py)",
           "# %d runs read, %d findings, %d clean files, %d locations not resolved" %
           (runs, len(shown), len(clean), unresolved),
           "# finding <path>:<line> <audit> <persona>: the least persona whose run shows it",
           "# nodefault <path>: no default run read this file, so its pedantic or auditor",
           "#   findings may be shown by default too",
           "# clean <path>: a default run found nothing in it (pedantic-only findings aside)"]
    out += ["finding %s:%d %s %s" % (p, l, a, persona) for (p, l, c, a), persona in sorted(shown.items())]
    out += ["nodefault " + p for p in no_default]
    out += ["clean " + p for p in sorted(clean)]
    return "\n".join(out) + "\n"


def zizmor_audits(repo):
    """One line per audit of zizmor/docs/audits.md: id, works offline, persona."""
    doc = git(repo, "show", "HEAD:docs/audits.md").decode()
    sections = re.split(r"^## `([a-z0-9-]+)`\s*$", doc, flags=re.M)
    out = ["# zizmor " + head(repo) + " zizmor/docs/audits.md: <audit> <offline|online> <persona>",
           "# persona: the least persona that shows the audit's findings (regular = the default)"]
    for name, body in zip(sections[1::2], sections[2::2]):
        row = next((l for l in body.splitlines() if l.startswith("|") and "---" not in l and "Type" not in l), "")
        cells = [c.strip() for c in row.strip("|").split("|")]
        offline = "offline" if len(cells) > 3 and "✅" in cells[3] else "online"
        persona = "regular"
        if "`--pedantic` only audit" in body:
            persona = "pedantic"
        elif re.search(r'only shown when running with the "auditor"', body):
            persona = "auditor"
        out.append("%s %s %s" % (name, offline, persona))
    return "\n".join(out) + "\n"


# --- gha-hazmat (zizmor's e2e snapshot) -------------------------------------

HAZMAT_SNAPSHOT = "crates/zizmor/tests/integration/snapshots/integration__e2e__gha_hazmat.snap"
HAZMAT_LOCATION = re.compile(r"^\s*--> (\S+):(\d+):(\d+)")
HAZMAT_COMPLETED = re.compile(r"completed (\S+)$")


def hazmat_commit(zizmor):
    """The commit of gha-hazmat the snapshot was taken at."""
    snap = git(zizmor, "show", "HEAD:" + HAZMAT_SNAPSHOT).decode()
    return re.search(r"woodruffw/gha-hazmat@([0-9a-f]{40})", snap).group(1)


def hazmat_expected(zizmor):
    """A default-persona run, online collection but no online audits."""
    lines = git(zizmor, "show", "HEAD:" + HAZMAT_SNAPSHOT).decode().split("\n")
    findings, inputs = [], set()
    for i, line in enumerate(lines):
        done = HAZMAT_COMPLETED.search(line)
        if done:
            inputs.add(done.group(1))
        m = FINDING.match(line)
        loc = HAZMAT_LOCATION.match(lines[i + 1]) if m and i + 1 < len(lines) else None
        if loc:
            findings.append((loc.group(1), int(loc.group(2)), int(loc.group(3)), m.group(2)))
    out = ["# zizmor " + head(zizmor) + " " + HAZMAT_SNAPSHOT + " (scripts/security-corpus.py)",
           "# gha-hazmat " + hazmat_commit(zizmor) + ", default persona, --no-online-audits: %d findings" %
           len(findings)]
    out += ["finding %s:%d %s regular" % (p, l, a) for p, l, c, a in sorted(findings)]
    out += ["clean " + p for p in sorted(inputs - {f[0] for f in findings})]
    return "\n".join(out) + "\n"


# --- poutine ----------------------------------------------------------------

GO_FINDING = re.compile(r"\{\s*RuleId:\s*\"([a-z_]+)\".*?Meta:\s*results\.FindingMeta\{(.*?)\n\t\t\t\},", re.S)


def poutine_expected(repo, data_dir):
    src = git(repo, "show", "HEAD:" + POUTINE_TEST).decode()
    body = src[src.index("func TestFindings"):]
    body = body[:body.index("\nfunc ")]
    findings = []
    for m in GO_FINDING.finditer(body):
        fields = dict(re.findall(r"(\w+):\s*(\"[^\"]*\"|\d+)", m.group(2)))
        path = fields.get("Path", '""').strip('"')
        unit = "step" if fields.get("Step", '""') != '""' else "job" if fields.get("Job", '""') != '""' else "file"
        findings.append((path, int(fields.get("Line", "0")), m.group(1), unit))
    reported = {f[0] for f in findings}
    clean = [os.path.relpath(os.path.join(d, n), data_dir)
             for d, _, names in os.walk(data_dir) for n in names]
    clean = sorted(p for p in clean if p not in reported and re.search(r"\.ya?ml$", p))
    out = ["# poutine " + head(repo) + ": TestFindings in " + POUTINE_TEST + " (scripts/security-corpus.py)",
           "# %d findings; clean: the YAML files of %s with none (the test expects exactly this list)" %
           (len(findings), POUTINE_DATA),
           "# finding <path>:<line> <rule> regular <unit>: the unit is what the finding names besides its",
           "#   line: a step, only its job, or the file"]
    out += ["finding %s:%d %s regular %s" % f for f in sorted(findings)]
    out += ["clean " + p for p in clean]
    return "\n".join(out) + "\n"


def source(repo, url, paths, licence, commit="HEAD"):
    return ("repository: %s\ncommit: %s\nlicense: %s (LICENSE, copied from the repository)\npaths:\n%s"
            "regenerate: scripts/security-corpus.py (tests/data/security/corpus/README.md)\n" %
            (url, head(repo, commit), licence, "".join("  " + p + "\n" for p in paths)))


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    zizmor, poutine, hazmat = sys.argv[1], sys.argv[2], sys.argv[3]
    zdir, pdir = os.path.join(OUT, "zizmor"), os.path.join(OUT, "poutine")
    vendor(zizmor, ZIZMOR_DATA, os.path.join(zdir, "test-data"))
    write(os.path.join(zdir, "LICENSE"), git(zizmor, "show", "HEAD:LICENSE").decode())
    write(os.path.join(zdir, "SOURCE"), source(zizmor, "https://github.com/zizmorcore/zizmor", [
        ZIZMOR_DATA + "/** -> test-data/", ZIZMOR_AUDIT_TESTS + "/*.rs -> expected", "docs/audits.md -> audits"], "MIT"))
    write(os.path.join(zdir, "expected"), zizmor_expected(zizmor, os.path.join(zdir, "test-data")))
    write(os.path.join(zdir, "audits"), zizmor_audits(zizmor))
    hdir, commit = os.path.join(OUT, "gha-hazmat"), hazmat_commit(zizmor)
    vendor(hazmat, "", os.path.join(hdir, "repo"), commit)
    write(os.path.join(hdir, "LICENSE"), git(hazmat, "show", commit + ":LICENSE").decode())
    write(os.path.join(hdir, "SOURCE"), source(hazmat, "https://github.com/woodruffw/gha-hazmat",
                                              ["/** -> repo/", "expected: zizmor " + head(zizmor) + " " +
                                               HAZMAT_SNAPSHOT], "MIT", commit))
    write(os.path.join(hdir, "expected"), hazmat_expected(zizmor))
    vendor(poutine, POUTINE_DATA, os.path.join(pdir, "testdata"))
    write(os.path.join(pdir, "LICENSE"), git(poutine, "show", "HEAD:LICENSE").decode())
    write(os.path.join(pdir, "SOURCE"), source(poutine, "https://github.com/boostsecurityio/poutine", [
        POUTINE_DATA + "/** -> testdata/", POUTINE_TEST + " (TestFindings) -> expected"], "Apache-2.0"))
    write(os.path.join(pdir, "expected"), poutine_expected(poutine, os.path.join(pdir, "testdata")))


if __name__ == "__main__":
    main()

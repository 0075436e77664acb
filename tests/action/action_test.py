#!/usr/bin/env python3
"""The action as a workflow uses it: action.yml's composite steps run in
order by a simulated runner (composite_runner.py) with the runner's
variables, against a local release server (release_server.py) serving an
archive packed by scripts/dist-pack.sh from the freshly built executables,
which the simulated action's dist/SHA256SUMS pins (scripts/dist-pin.sh) as a
release commit's does.

Usage: action_test.py [--bin-dir DIR] [unittest arguments]
Prints [SKIPPED] (and runs nothing) when this machine lacks what the
tests need; under CI=true that is a failure. LW_TEST_SOURCE_BUILD=1 adds the source-build fallback, which
compiles loopwright (minutes)."""

import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

BIN_DIR = os.path.join(SOURCE, "build", "test")
if "--bin-dir" in sys.argv:
    i = sys.argv.index("--bin-dir")
    BIN_DIR = os.path.abspath(sys.argv[i + 1])
    del sys.argv[i:i + 2]
EXECUTABLES = ("loopwright", "loopwright-engine", "loopwright-container-init")
VERSION = open(os.path.join(SOURCE, "VERSION")).read().strip()
ARCH = {"x86_64": "x64", "aarch64": "arm64"}.get(os.uname().machine, os.uname().machine)
REPO = "loopwright/action"
MAJOR_REF = "v" + VERSION.split(".")[0]  # what `uses: loopwright/action@vN` names
DECLARED_OUTPUTS = {"conclusion", "findings-count", "run-json", "blocked-steps"}


def missing_requirement():
    try:
        import yaml  # noqa: F401
    except ImportError:
        return "python3-yaml is not installed"
    for tool in ("curl", "git", "tar", "gzip", "sha256sum", "objdump", "strip", "dpkg"):
        if not shutil.which(tool):
            return f"{tool} is not installed"
    for exe in EXECUTABLES:
        if not os.access(os.path.join(BIN_DIR, exe), os.X_OK):
            return f"{BIN_DIR}/{exe} is not built"
    return None


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def git(cwd, *args):
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@invalid", "-c", "init.defaultBranch=main",
                    *args], cwd=cwd, check=True, stdout=subprocess.DEVNULL)
    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=cwd, capture_output=True, text=True).stdout.strip() \
        if args[0] == "commit" else None


TASKPACK = """apiVersion: loopwright.dev/v1alpha1
kind: Taskpack
metadata:
  name: action-test
spec:
  sandbox:
    preferredBackends: [linux-bwrap, linux-landlock]
    networkMode: none
  stages:
    - name: review
      on: [pull_request.opened]
      steps:
        - name: lint
          run: ["sh", ".loopwright/agents/lint.sh"]
          role: reviewer
  publication: {review: comment, checks: true, summary: true, failOn: error}
"""


def make_workspace(root):
    """A pull request whose head adds a file with trailing whitespace (a
    warning from the example lint step) and a TODO (a notice)."""
    ws = os.path.join(root, "workspace")
    os.makedirs(os.path.join(ws, ".loopwright", "agents"))
    with open(os.path.join(ws, ".loopwright", "taskpack.yaml"), "w") as f:
        f.write(TASKPACK)
    shutil.copy(os.path.join(SOURCE, "examples", "review", ".loopwright", "agents", "lint.sh"),
                os.path.join(ws, ".loopwright", "agents", "lint.sh"))
    os.makedirs(os.path.join(ws, "src"))
    git(ws, "init", "-q")
    git(ws, "add", ".")
    base = git(ws, "commit", "-qm", "base")
    with open(os.path.join(ws, "src", "app.py"), "w") as f:
        f.write("x = 1  \n# TODO: more\n")
    git(ws, "add", ".")
    head = git(ws, "commit", "-qm", "head")
    event = {"action": "opened", "number": 7,
             "pull_request": {"number": 7, "title": "t", "state": "open", "user": {"login": "octocat"},
                              "author_association": "CONTRIBUTOR", "labels": [],
                              "head": {"sha": head, "ref": "feature", "repo": {"full_name": "example/app", "fork": False}},
                              "base": {"sha": base, "ref": "main", "repo": {"full_name": "example/app", "fork": False}}},
             "repository": {"name": "app", "full_name": "example/app", "owner": {"login": "example"}},
             "sender": {"login": "octocat"}}
    event_path = os.path.join(root, "event.json")
    with open(event_path, "w") as f:
        json.dump(event, f)
    return ws, event_path


def make_action_path(root, ref, version=VERSION, whole_tree=False, repo=REPO, pinned_from=None):
    """The action as the runner downloads it for one ref: _actions/OWNER/REPO/REF.
    With `pinned_from` (a directory scripts/dist-pack.sh packed into), its
    dist/SHA256SUMS pins those archives, as a release commit's does;
    without, it pins none, as any other commit's."""
    dest = os.path.join(root, "_actions", repo, ref)
    # The checkout as it is (tracked and new files), as a build of it would see it.
    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=SOURCE,
                           capture_output=True, text=True, check=True).stdout.split()
    keep = ("action.yml", "VERSION", "CMakeLists.txt", "dist/", "scripts/", "src/")
    for rel in files:
        if not whole_tree and not rel.startswith(keep):
            continue
        src = os.path.join(SOURCE, rel)
        if not os.path.isfile(src):
            continue
        os.makedirs(os.path.dirname(os.path.join(dest, rel)), exist_ok=True)
        shutil.copy2(src, os.path.join(dest, rel))
    # This checkout's own versions of the action's files, committed or not.
    for rel in ("action.yml", "dist/install.sh", "dist/entrypoint.sh", "dist/publish-artifact.sh"):
        shutil.copy2(os.path.join(SOURCE, rel), os.path.join(dest, rel))
    with open(os.path.join(dest, "VERSION"), "w") as f:
        f.write(version + "\n")
    pins = os.path.join(dest, "dist", "SHA256SUMS")
    if os.path.exists(pins):
        os.remove(pins)
    if pinned_from:  # the release's own step, run in this copy of the tree
        subprocess.run([os.path.join(dest, "scripts", "dist-pin.sh"), pinned_from], check=True,
                       stdout=subprocess.DEVNULL)
    return dest


def hostile_executables(marker):
    """The three executables as an attacker makes them: each a script that
    leaves `marker` behind when it is run."""
    return {exe: f"#!/bin/sh\necho \"$0 $*\" >>'{marker}'\n".encode() for exe in EXECUTABLES}


def hostile_archive(marker):
    """A release archive holding hostile_executables(marker)."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for exe, body in hostile_executables(marker).items():
            info = tarfile.TarInfo(exe)
            info.size, info.mode = len(body), 0o755
            tar.addfile(info, io.BytesIO(body))
    return buf.getvalue()


class ActionTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="lw-action-test-")
        out = cls.dist_out = os.path.join(cls.tmp, "dist-out")
        started = time.monotonic()
        subprocess.run([os.path.join(SOURCE, "scripts", "dist-pack.sh"), BIN_DIR, out, BIN_DIR],
                       check=True, stdout=subprocess.DEVNULL)
        cls.pack_seconds = time.monotonic() - started
        cls.archive_name = f"loopwright-{VERSION}-linux-{ARCH}.tar.gz"
        with open(os.path.join(out, cls.archive_name), "rb") as f:
            cls.archive = f.read()
        with open(os.path.join(out, "SHA256SUMS"), "rb") as f:
            cls.sums = f.read()
        with open(os.path.join(out, f"loopwright-{VERSION}-linux-{ARCH}.cdx.json"), "rb") as f:
            cls.sbom = f.read()
        with open(os.path.join(out, f"loopwright-{VERSION}-linux-{ARCH}.digests")) as f:
            cls.pinned = {name: digest for digest, name in (line.split() for line in f)}
        cls.server = ReleaseServer()
        cls.server.publish(REPO, f"v{VERSION}", {cls.archive_name: cls.archive, "SHA256SUMS": cls.sums})
        cls.workspace, cls.event_path = make_workspace(cls.tmp)

    @classmethod
    def tearDownClass(cls):
        cls.server.close()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def job(self, name, ref=MAJOR_REF, repo=REPO, version=VERSION, whole_tree=False, pinned_from="dist-out"):
        """A job of its own (runner directories, tool cache, build cache)
        using the action at `repo`@`ref` whose VERSION is `version`, its
        tree pinning the archives packed into `pinned_from` (by default
        this test's, as a release commit's tree does; None: nothing)."""
        if pinned_from == "dist-out":
            pinned_from = self.dist_out
        root = os.path.join(self.tmp, name)
        os.makedirs(root)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "RUNNER_", "LW_"))}
        env.update({"GITHUB_API_URL": self.server.api, "GITHUB_SERVER_URL": self.server.url,
                    "GITHUB_REPOSITORY": "example/app", "GITHUB_EVENT_NAME": "pull_request",
                    "GITHUB_EVENT_PATH": self.event_path, "GITHUB_RUN_ID": "1", "GITHUB_RUN_ATTEMPT": "1",
                    "GITHUB_JOB": name, "LOOPWRIGHT_STATE_DIR": os.path.join(root, "state")})
        job = SimulatedJob(make_action_path(root, ref, version, whole_tree, repo, pinned_from), root, self.workspace,
                           env)
        job.ref, job.repo = ref, repo
        return job

    def run_action(self, job, inputs, **kw):
        kw.setdefault("action_ref", job.ref)
        return job.run(inputs, action_repository=job.repo, **kw)

    def assertStep(self, result, step_id, status=0):
        s = result.step(step_id)
        self.assertEqual(s.status, status, f"step {step_id}:\n{s.log}")
        return s

    # --- install ---------------------------------------------------------

    def test_release_archive_installs_cold_then_from_the_tool_cache(self):
        job = self.job("cold-warm")
        before = len(self.server.requests)
        cold = self.run_action(job, {"dry-run": "true"})
        install = self.assertStep(cold, "install")
        self.assertEqual(install.outputs["source-build"], "false")
        self.assertIn(f"release v{VERSION} executables for linux-{ARCH}, verified against the action's "
                      "dist/SHA256SUMS", install.log)
        self.assertNotIn("Build loopwright from source", [s.name for s in cold.steps])
        self.assertEqual(cold.cache, [], "no build cache is touched when the release has the archive")
        self.assertStep(cold, "run")
        self.assertTrue(all(auth == "Bearer job-token" for _, auth in self.server.requests))
        self.assertEqual(self.server.downloads(REPO, f"v{VERSION}", "SHA256SUMS", since=before), 0,
                         "the release's own SHA256SUMS is never what its archive is checked against")
        self.assertEqual(self.server.downloads(REPO, f"v{VERSION}", self.archive_name, since=before), 1)
        before = len(self.server.requests)
        warm = self.run_action(job, {"dry-run": "true"})
        self.assertIn(f"release v{VERSION} executables for linux-{ARCH} from the tool cache, re-hashed against the "
                      "action's dist/SHA256SUMS", self.assertStep(warm, "install").log)
        self.assertEqual(self.server.requests[before:], [], "the cached install is reused without asking the release")
        self.assertStep(warm, "run")
        print(f"\nmeasured: pack {self.pack_seconds:.2f} s ({len(self.archive) / 1e6:.1f} MB archive); "
              f"install {install.seconds:.2f} s cold (download + digest + unpack), "
              f"{warm.step('install').seconds:.2f} s from the tool cache (re-hashed)")
        # From the tool cache the install skips the download and the unpack:
        # faster than the cold one measured just before, on any machine. The
        # absolute bound only guards against a hang: 0.3 s cold on an idle
        # machine with a release build, 7 s with the sanitizer build's 46 MB
        # archive on a loaded one (1.9 s warm).
        self.assertLess(warm.step("install").seconds, install.seconds)
        self.assertLess(install.seconds, 120.0)

    def test_a_tampered_archive_fails_and_never_falls_back(self):
        tampered = bytearray(self.archive)
        tampered[len(tampered) // 2] ^= 0xFF
        self.server.publish("tamper/action", f"v{VERSION}", {self.archive_name: bytes(tampered), "SHA256SUMS": self.sums})
        result = self.run_action(self.job("tampered", ref=f"v{VERSION}", repo="tamper/action"), {})
        install = self.assertStep(result, "install", status=1)
        self.assertIn(f"::error title=loopwright install::{self.archive_name} of release v{VERSION} does not match "
                      "the digest in the action's dist/SHA256SUMS", install.log)
        self.assertTrue(result.failed)
        self.assertEqual([s.id for s in result.steps], ["install"], "nothing runs after a digest mismatch")

    def test_a_release_whose_archive_and_sha256sums_were_replaced_together_is_not_run(self):
        # Whoever can write the releases replaces both assets; the workflow
        # pinned the action by commit, whose tree pins the honest archive.
        job = self.job("swapped", ref="c" * 40, repo="swapped/action")
        marker = os.path.join(job.root, "hostile-ran")
        archive = hostile_archive(marker)
        self.server.publish("swapped/action", f"v{VERSION}", {
            self.archive_name: archive, "SHA256SUMS": f"{sha256(archive)}  {self.archive_name}\n".encode()})
        result = self.run_action(job, {"dry-run": "true"})
        self.assertFalse(os.path.exists(marker), f"the attacker's executable was run:\n{result.log}")
        install = self.assertStep(result, "install", status=1)
        self.assertIn(f"::error title=loopwright install::{self.archive_name} of release v{VERSION} does not match "
                      f"the digest in the action's dist/SHA256SUMS (expected {sha256(self.archive)}, "
                      f"got {sha256(archive)})", install.log)
        self.assertEqual([s.id for s in result.steps], ["install"], "nothing runs after a digest mismatch")
        self.assertFalse(os.path.exists(os.path.join(job.tool_cache, "loopwright", VERSION, ARCH)),
                         "the attacker's archive was unpacked into the tool cache")

    def test_a_planted_tool_cache_copy_with_a_fresh_complete_file_is_not_run(self):
        job = self.job("planted")
        marker = os.path.join(job.root, "planted-ran")
        dest = os.path.join(job.tool_cache, "loopwright", VERSION, ARCH)
        os.makedirs(dest)
        for exe, body in hostile_executables(marker).items():
            with open(os.path.join(dest, exe), "wb") as f:
                f.write(body)
            os.chmod(os.path.join(dest, exe), 0o755)
        # What the 1.0.0 installer wrote after unpacking, and then trusted.
        with open(dest + ".complete", "w") as f:
            f.write(subprocess.run(["sha256sum", *EXECUTABLES], cwd=dest, capture_output=True, text=True,
                                   check=True).stdout)
        result = self.run_action(job, {"dry-run": "true"})
        self.assertFalse(os.path.exists(marker), f"the planted executable was run:\n{result.log}")
        install = self.assertStep(result, "install")
        self.assertIn(f"::warning title=loopwright install::the tool cache's {dest} does not hold the executables the "
                      "action pins in dist/SHA256SUMS; it is not run, and the release is installed afresh", install.log)
        self.assertIn("verified against the action's dist/SHA256SUMS", install.log)
        self.assertStep(result, "run")
        for exe in EXECUTABLES:
            with open(os.path.join(dest, exe), "rb") as f:
                self.assertEqual(sha256(f.read()), self.pinned[f"loopwright-{VERSION}-linux-{ARCH}/{exe}"], exe)

    def darwin_release(self):
        """A darwin archive as scripts/dist-pack.sh packs one on macOS (two
        executables, no container entrypoint), in a directory of its own with
        its .digests, and the release publishing it beside the Linux one."""
        out = os.path.join(self.tmp, "dist-darwin")
        name = f"loopwright-{VERSION}-darwin-{ARCH}"
        if not os.path.isdir(out):
            os.makedirs(out)
            buf = io.BytesIO()
            lines = []
            with tarfile.open(fileobj=buf, mode="w:gz") as tar:
                for exe in ("loopwright", "loopwright-engine"):
                    with open(os.path.join(BIN_DIR, exe), "rb") as f:
                        body = f.read()
                    info = tarfile.TarInfo(exe)
                    info.size, info.mode = len(body), 0o755
                    tar.addfile(info, io.BytesIO(body))
                    lines.append(f"{sha256(body)}  {name}/{exe}")
            with open(os.path.join(out, name + ".tar.gz"), "wb") as f:
                f.write(buf.getvalue())
            with open(os.path.join(out, name + ".digests"), "w") as f:
                f.write("\n".join([f"{sha256(buf.getvalue())}  {name}.tar.gz"] + lines) + "\n")
        with open(os.path.join(out, name + ".tar.gz"), "rb") as f:
            archive = f.read()
        self.server.publish("mac/action", f"v{VERSION}", {name + ".tar.gz": archive, self.archive_name: self.archive,
                                                          "SHA256SUMS": self.sums})
        return out, name + ".tar.gz"

    def test_a_macos_runner_installs_the_darwin_archive_and_homebrews_libraries(self):
        pinned, darwin_name = self.darwin_release()
        job = self.job("macos", repo="mac/action", pinned_from=pinned)
        job.runner_os = "macOS"
        # Homebrew as a macos-14 runner has it, recording what it is asked for.
        fake = os.path.join(job.root, "fake-brew")
        os.makedirs(fake)
        with open(os.path.join(fake, "brew"), "w") as f:
            f.write(f"#!/bin/sh\necho \"$*\" >>{fake}/asked\n[ \"$1\" = list ] && exit 1\nexit 0\n")
        os.chmod(os.path.join(fake, "brew"), 0o755)
        job.env["PATH"] = fake + os.pathsep + job.env.get("PATH", "/usr/bin:/bin")
        before = len(self.server.requests)
        result = self.run_action(job, {}, stop_before="build")
        install = self.assertStep(result, "install")
        self.assertEqual(install.outputs["source-build"], "false", install.log)
        self.assertIn(f"release v{VERSION} executables for darwin-{ARCH}, verified against the action's "
                      "dist/SHA256SUMS", install.log)
        self.assertEqual(self.server.downloads("mac/action", f"v{VERSION}", darwin_name, since=before), 1)
        self.assertEqual(self.server.downloads("mac/action", f"v{VERSION}", self.archive_name, since=before), 0,
                         "a macOS runner fetched the Linux archive")
        self.assertEqual(sorted(os.listdir(install.outputs["bin"])), ["loopwright", "loopwright-engine"])
        with open(os.path.join(fake, "asked")) as f:
            asked = f.read()
        self.assertIn("install boost yaml-cpp libgit2 openssl@3 cmark-gfm", asked)

    def test_a_commit_that_pins_no_archive_builds_from_source_without_asking_the_release(self):
        job = self.job("unpinned", ref="b" * 40, pinned_from=None)
        before = len(self.server.requests)
        result = self.run_action(job, {}, stop_before="build")
        install = self.assertStep(result, "install")
        self.assertEqual(install.outputs["source-build"], "true")
        self.assertIn(f"loopwright {VERSION}: building from source: the action's dist/SHA256SUMS pins no "
                      f"{self.archive_name} and its executables, so no release archive is trusted", install.log)
        self.assertEqual(self.server.requests[before:], [], "the release was asked for an archive nothing pins")

    def test_no_release_asks_for_a_source_build_with_the_reason(self):
        self.server.publish("noarch/action", f"v{VERSION}", {"SHA256SUMS": self.sums})
        result = self.run_action(self.job("no-asset", repo="noarch/action"), {}, stop_before="build")
        install = self.assertStep(result, "install")
        self.assertEqual(install.outputs["source-build"], "true")
        self.assertIn(f"loopwright {VERSION}: building from source: release v{VERSION} of noarch/action has no "
                      f"{self.archive_name}\n", install.log)
        key = install.outputs["cache-key"]
        self.assertEqual(result.cache, [("restore", key, "miss")])
        self.assertTrue(key.startswith(f"loopwright-build-linux-{ARCH}-{VERSION}-{MAJOR_REF}-"), key)

    def test_the_build_cache_key_follows_version_ref_and_sources(self):
        def key(name, ref, version=VERSION):
            r = self.run_action(self.job(name, ref=ref, repo="none/action", version=version, pinned_from=None), {},
                                stop_before="build")
            return self.assertStep(r, "install").outputs["cache-key"]
        first = key("key-a", MAJOR_REF)
        self.assertEqual(first, key("key-b", MAJOR_REF), "the same action, the same key")
        self.assertNotEqual(first, key("key-sha", "a" * 40))
        self.assertNotEqual(first, key("key-newer", "v9", version="9.9.9"))
        self.assertNotIn("loopwright-Linux-X64-", first)

    def test_an_upgrade_with_the_old_version_cached_installs_the_new_one(self):
        old_name = f"loopwright-0.0.9-linux-{ARCH}.tar.gz"
        old_out = os.path.join(self.tmp, "dist-out-0.0.9")
        os.makedirs(old_out)
        with open(os.path.join(old_out, old_name), "wb") as f:
            f.write(self.archive)
        with open(os.path.join(self.dist_out, f"loopwright-{VERSION}-linux-{ARCH}.digests")) as f:
            digests = f.read().replace(f"loopwright-{VERSION}-", "loopwright-0.0.9-")
        with open(os.path.join(old_out, f"loopwright-0.0.9-linux-{ARCH}.digests"), "w") as f:
            f.write(digests)
        job = self.job("upgrade", ref="v0.0.9", version="0.0.9", pinned_from=old_out)
        self.server.publish(REPO, "v0.0.9", {old_name: self.archive,
                                             "SHA256SUMS": self.sums.replace(self.archive_name.encode(),
                                                                             old_name.encode())})
        self.assertStep(self.run_action(job, {"dry-run": "true"}), "run")
        # The new ref: a new action path, the same tool cache and build cache.
        job.action_path, job.ref = make_action_path(job.root, MAJOR_REF, pinned_from=self.dist_out), MAJOR_REF
        new = self.run_action(job, {"dry-run": "true"})
        install = self.assertStep(new, "install")
        self.assertIn(f"release v{VERSION} executables", install.log)
        self.assertIn(f"/loopwright/{VERSION}/{ARCH}", install.outputs["bin"])
        self.assertStep(new, "run")

    def test_an_empty_github_action_ref_is_read_from_the_action_path(self):
        # actions/runner#2473: github.action_ref can be empty in a composite action.
        result = self.run_action(self.job("empty-ref"), {"dry-run": "true"}, action_ref="")
        self.assertIn("verified against the action's dist/SHA256SUMS", self.assertStep(result, "install").log)

    def test_a_ref_naming_another_version_is_an_error(self):
        result = self.run_action(self.job("other-version", ref="v99.0.0"), {})
        install = self.assertStep(result, "install", status=1)
        self.assertIn(f"the action's ref v99.0.0 is not a tag of its VERSION {VERSION}", install.log)

    # --- inputs ----------------------------------------------------------

    def run_job(self, name, inputs):
        result = self.run_action(self.job(name), inputs)
        self.assertStep(result, "install")
        return result

    def test_fail_on_warning_fails_the_job_on_a_warning_finding(self):
        result = self.run_job("fail-on-warning", {"fail-on": "warning", "publish": "none"})
        run = self.assertStep(result, "run", status=1)
        self.assertEqual(result.outputs["conclusion"], "failure", run.log)

    def test_fail_on_default_keeps_the_job_green_on_a_warning(self):
        result = self.run_job("fail-on-default", {"publish": "none"})
        self.assertStep(result, "run")
        self.assertEqual(result.outputs["conclusion"], "success")
        self.assertEqual(result.outputs["findings-count"], "2")

    def test_a_bogus_fail_on_is_an_error_naming_the_input(self):
        result = self.run_job("fail-on-bogus", {"fail-on": "bogus"})
        run = self.assertStep(result, "run", status=2)
        self.assertIn("::error title=loopwright::input fail-on must be error, warning or never, not 'bogus'", run.log)

    def test_a_taskpack_path_starting_with_dot_slash_is_found(self):
        result = self.run_job("dot-slash", {"taskpack-path": "./.loopwright/taskpack.yaml", "publish": "none"})
        self.assertStep(result, "run")

    def test_dry_run_still_writes_the_summary_and_annotations(self):
        result = self.run_job("dry-run", {"dry-run": "true"})
        run = self.assertStep(result, "run")
        self.assertIn("## loopwright:", result.summary)
        self.assertIn("trailing whitespace", result.summary)
        self.assertIn("::warning file=src/app.py,line=1", run.log)

    def test_every_declared_output_is_written_once_and_no_other(self):
        result = self.run_job("outputs", {"publish": "none"})
        run = self.assertStep(result, "run")
        self.assertEqual(sorted(run.output_keys), sorted(DECLARED_OUTPUTS))
        self.assertTrue(os.path.isfile(result.outputs["run-json"]))

    def test_publishing_writes_the_outputs_once_too(self):
        result = self.run_job("outputs-published", {"publish": "github"})
        run = result.step("run")
        self.assertIn(run.status, (0, 6), run.log)
        self.assertEqual(sorted(run.output_keys), sorted(DECLARED_OUTPUTS), run.log)

    # --- the fork split (docs/fork-pull-requests.md) ----------------------

    def pull_request_half(self, name):
        """The read-only job: runs with publish: none; its run directory."""
        result = self.run_job(name, {"publish": "none"})
        self.assertStep(result, "run")
        run_dir = os.path.dirname(result.outputs["run-json"])
        with open(os.path.join(run_dir, "publication.json")) as f:
            request = json.load(f)
        self.assertEqual(request["number"], 7)
        self.assertEqual(request["repository"], "example/app")
        self.assertTrue(request["isPullRequest"])
        return run_dir

    def test_the_pull_request_half_leaves_publication_json_beside_run_json(self):
        self.pull_request_half("fork-pr-half")

    def test_from_artifact_publishes_instead_of_running_in_a_workflow_run_job(self):
        artifact = self.pull_request_half("fork-pr-for-publish")
        job = self.job("fork-publish-half")
        event = os.path.join(job.root, "workflow_run.json")
        with open(event, "w") as f:
            json.dump({"action": "completed",
                       "repository": {"name": "app", "full_name": "example/app", "owner": {"login": "example"}},
                       "workflow_run": {"id": 5, "run_attempt": 1, "event": "pull_request", "head_sha": "0" * 40,
                                        "head_repository": {"full_name": "fork/app"}, "pull_requests": []}}, f)
        job.env.update({"GITHUB_EVENT_NAME": "workflow_run", "GITHUB_EVENT_PATH": event})
        result = self.run_action(job, {"from-artifact": artifact})
        self.assertIn("Run the taskpack", result.skipped)
        publish = result.step("publish-artifact")
        # The release server is no GitHub API: the pull request cannot be
        # read, so nothing is published (exit 6) -- but it was asked for.
        self.assertEqual(publish.status, 6, publish.log)
        self.assertIn("/repos/example/app/pulls/7", publish.log)

    def test_from_artifact_outside_a_workflow_run_job_is_an_error_naming_the_input(self):
        result = self.run_job("fork-wrong-event", {"from-artifact": self.tmp})
        self.assertIn("Run the taskpack", result.skipped)
        publish = self.assertStep(result, "publish-artifact", status=2)
        self.assertIn("input from-artifact is for a workflow_run job, not 'pull_request'", publish.log)

    # --- the source build (slow) -----------------------------------------

    @unittest.skipUnless(os.environ.get("LW_TEST_SOURCE_BUILD") == "1",
                         "the source build compiles loopwright: set LW_TEST_SOURCE_BUILD=1")
    def test_source_build_fallback_over_a_stale_restored_build_directory(self):
        job = self.job("source-build", ref="main", whole_tree=True)
        # What an older version left under a restore-key: configured for
        # another action path (CMake refuses such a cache).
        stale = os.path.join(job.cache_store, f"loopwright-build-linux-{ARCH}-0.0.1-v0-0000")
        os.makedirs(stale)
        with open(os.path.join(stale, "CMakeCache.txt"), "w") as f:
            f.write("CMAKE_HOME_DIRECTORY:INTERNAL=/home/runner/work/_actions/loopwright/action/v0\n"
                    f"CMAKE_CACHEFILE_DIR:INTERNAL={stale}\n")
        result = self.run_action(job, {"publish": "none"})
        install = self.assertStep(result, "install")
        self.assertIn("building from source: the action's ref 'main' is a branch, not a release", install.log)
        build = self.assertStep(result, "build")
        self.assertIn("starting it afresh", build.log)
        self.assertStep(result, "run")
        self.assertEqual(result.cache[-1][0], "save")
        print(f"\nmeasured: source build {build.seconds:.0f} s")


class DistTest(unittest.TestCase):
    """scripts/dist-check.sh, scripts/dist-pin.sh and the SBOM of scripts/dist-pack.sh."""

    def check(self, *exes):
        return subprocess.run([os.path.join(SOURCE, "scripts", "dist-check.sh"), *exes],
                              capture_output=True, text=True)

    def test_dist_check_refuses_a_shared_library_not_every_runner_has(self):
        needed = subprocess.run(["objdump", "-p", os.path.join(BIN_DIR, "loopwright-engine")],
                                capture_output=True, text=True).stdout
        outside = [l.split()[1] for l in needed.splitlines() if l.strip().startswith("NEEDED")
                   and l.split()[1] in ("libyaml-cpp.so.0.7", "libasan.so.8", "libstdc++.so.6", "libgit2.so.1.5")]
        if not outside:
            self.skipTest("the engine built here links nothing outside the allow-list")
        r = self.check(os.path.join(BIN_DIR, "loopwright-engine"))
        self.assertEqual(r.returncode, 1)
        self.assertIn(f"loopwright-engine needs {outside[0]}, which not every supported runner has", r.stderr)

    def test_dist_check_refuses_a_glibc_newer_than_the_oldest_runner(self):
        r = subprocess.run([os.path.join(SOURCE, "scripts", "dist-check.sh"), os.path.join(BIN_DIR, "loopwright")],
                           capture_output=True, text=True, env={**os.environ, "LW_MAX_GLIBC": "2.2"})
        self.assertEqual(r.returncode, 1)
        self.assertRegex(r.stderr, r"loopwright needs glibc 2\.[0-9]+ \(for .+\); the oldest supported runner has 2\.2")

    def test_dist_check_passes_a_static_executable(self):
        r = self.check(os.path.join(BIN_DIR, "loopwright-container-init"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("portable (glibc not linked", r.stdout)

    def test_dist_pin_writes_only_digests_that_match_the_archives_beside_them(self):
        tree = tempfile.mkdtemp(prefix="lw-dist-pin-")
        try:
            os.makedirs(os.path.join(tree, "scripts"))
            os.makedirs(os.path.join(tree, "dist"))
            shutil.copy2(os.path.join(SOURCE, "scripts", "dist-pin.sh"), os.path.join(tree, "scripts"))
            shutil.copy2(os.path.join(SOURCE, "VERSION"), tree)
            out = os.path.join(tree, "out")
            os.makedirs(out)
            name = f"loopwright-{VERSION}-linux-{ARCH}"
            archive = b"an archive"
            with open(os.path.join(out, name + ".tar.gz"), "wb") as f:
                f.write(archive)
            exes = "".join(f"{sha256(exe.encode())}  {name}/{exe}\n" for exe in EXECUTABLES)

            def pin(archive_digest):
                with open(os.path.join(out, name + ".digests"), "w") as f:
                    f.write(f"{archive_digest}  {name}.tar.gz\n" + exes)
                return subprocess.run([os.path.join(tree, "scripts", "dist-pin.sh"), out], capture_output=True,
                                      text=True)
            r = pin(sha256(b"another archive"))
            self.assertEqual(r.returncode, 1)
            self.assertIn(f"dist-pin: {out}/{name}.digests does not match the archive beside it", r.stderr)
            self.assertFalse(os.path.exists(os.path.join(tree, "dist", "SHA256SUMS")))
            r = pin(sha256(archive))
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(os.path.join(tree, "dist", "SHA256SUMS")) as f:
                self.assertEqual(f.read().splitlines(), sorted(f"{sha256(archive)}  {name}.tar.gz\n{exes}".splitlines(),
                                                               key=lambda l: l.split()[1]))
        finally:
            shutil.rmtree(tree)

    def test_the_sbom_is_cyclonedx_with_the_linked_packages(self):
        out = tempfile.mkdtemp(prefix="lw-sbom-")
        try:
            r = subprocess.run([os.path.join(SOURCE, "scripts", "sbom.sh"), VERSION, BIN_DIR,
                                *(os.path.join(BIN_DIR, e) for e in EXECUTABLES)], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            bom = json.loads(r.stdout)
        finally:
            shutil.rmtree(out)
        self.assertEqual((bom["bomFormat"], bom["specVersion"]), ("CycloneDX", "1.5"))
        self.assertEqual(bom["metadata"]["component"]["version"], VERSION)
        by_name = {c["name"]: c for c in bom["components"]}
        self.assertIn("libc6", by_name)
        self.assertTrue(by_name["libc6"]["purl"].startswith("pkg:deb/debian/libc6@"))
        linkage = {c["name"]: c["properties"][0]["value"] for c in bom["components"]}
        self.assertEqual(linkage.get("libcurl4"), "dlopen")
        self.assertEqual(len(bom["dependencies"][0]["dependsOn"]), len(bom["components"]))


from composite_runner import SimulatedJob  # noqa: E402
from release_server import ReleaseServer  # noqa: E402

if __name__ == "__main__":
    why = missing_requirement()
    if why and os.environ.get("CI") == "true":
        print(f"action: {why}, which CI must have")
        sys.exit(1)
    if why:
        print(f"[SKIPPED] action: {why}")
        sys.exit(0)
    unittest.main(verbosity=2)

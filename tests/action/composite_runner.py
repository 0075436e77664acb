"""A simulated GitHub Actions job for action.yml: runs the composite action's
steps in order the way the runner does (docs.github.com, "Metadata syntax":
runs.steps, `if:` conditions, step outputs, `${{ }}` expressions) with the
runner's variables, per-step GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files,
and actions/cache simulated against a local store (exact key, then the
newest entry matching a restore-key prefix; saved after the job unless the
key was an exact hit). Only the expression forms action.yml uses are
supported; anything else raises, so a new form cannot be silently wrong."""

import os
import re
import shutil
import subprocess
import time

import yaml

_TOKEN = re.compile(r"\s*(?:(\|\||&&|==|!=|\(|\)|,)|'((?:[^']|'')*)'|([A-Za-z_][A-Za-z0-9_.-]*))")


class Expression:
    """Evaluates one `${{ }}` body against a context of dotted names."""

    def __init__(self, text, context):
        self.tokens = []
        pos = 0
        text = text.strip()
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if not m:
                raise ValueError(f"unsupported expression: {text!r} at {pos}")
            op, literal, name = m.groups()
            self.tokens.append(("op", op) if op else ("str", literal.replace("''", "'")) if literal is not None
                               else ("name", name))
            pos = m.end()
        self.context = context
        self.pos = 0

    def value(self):
        v = self._or()
        if self.pos != len(self.tokens):
            raise ValueError(f"unsupported expression near {self.tokens[self.pos:]}")
        return v

    def _peek(self, op):
        return self.pos < len(self.tokens) and self.tokens[self.pos] == ("op", op)

    def _or(self):
        v = self._and()
        while self._peek("||"):
            self.pos += 1
            rhs = self._and()
            v = v if v else rhs
        return v

    def _and(self):
        v = self._cmp()
        while self._peek("&&"):
            self.pos += 1
            rhs = self._cmp()
            v = rhs if v else v
        return v

    def _cmp(self):
        v = self._atom()
        for op in ("==", "!="):
            if self._peek(op):
                self.pos += 1
                rhs = self._atom()
                same = str(v).lower() == str(rhs).lower()  # Actions compares strings case-insensitively
                return same if op == "==" else not same
        return v

    def _atom(self):
        kind, tok = self.tokens[self.pos]
        self.pos += 1
        if kind == "str":
            return tok
        if kind == "op" and tok == "(":
            v = self._or()
            self.pos += 1
            return v
        if kind == "name" and tok == "format" and self._peek("("):
            self.pos += 1
            args = [self._or()]
            while self._peek(","):
                self.pos += 1
                args.append(self._or())
            self.pos += 1
            return re.sub(r"\{(\d+)\}", lambda m: str(args[1 + int(m.group(1))]), str(args[0]))
        if kind == "name":
            if tok in ("true", "false"):
                return tok == "true"
            if tok not in self.context and not any(k.startswith(tok + ".") for k in self.context):
                head = tok.split(".")[0]
                if head not in ("steps", "inputs", "github", "runner"):
                    raise ValueError(f"unknown name {tok!r}")
            return self.context.get(tok, "")
        raise ValueError(f"unsupported token {tok!r}")


def substitute(text, context):
    """Replaces every `${{ }}` in a string the way the runner does."""
    def one(m):
        v = Expression(m.group(1), context).value()
        return ("true" if v else "false") if isinstance(v, bool) else str(v)
    return re.sub(r"\$\{\{(.*?)\}\}", one, str(text))


def read_outputs(path):
    """Parses a GITHUB_OUTPUT file: `k=v` lines and `k<<DELIM` blocks.
    Returns the keys in the order written (repeats kept) and the values."""
    keys, values = [], {}
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line:
            continue
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            key, delim = line.split("<<", 1)
            body = []
            while lines[i] != delim:
                body.append(lines[i])
                i += 1
            i += 1
            keys.append(key)
            values[key] = "\n".join(body)
        else:
            key, value = line.split("=", 1)
            keys.append(key)
            values[key] = value
    return keys, values


class StepResult:
    def __init__(self, step_id, name, status, output_keys, outputs, log, seconds):
        self.id, self.name, self.status = step_id, name, status
        self.output_keys, self.outputs, self.log, self.seconds = output_keys, outputs, log, seconds


class JobResult:
    def __init__(self):
        self.steps = []       # StepResult, in order, skipped ones absent
        self.skipped = []     # names of steps whose `if:` was false or that followed a failure
        self.outputs = {}     # the action's outputs
        self.summary = ""     # every step's GITHUB_STEP_SUMMARY, concatenated
        self.cache = []       # ("restore", key, hit) / ("save", key)
        self.failed = False

    def step(self, step_id):
        return next(s for s in self.steps if s.id == step_id)

    @property
    def log(self):
        return "".join(s.log for s in self.steps)


class SimulatedJob:
    """One job that uses the action at `action_path`: the runner's
    directories under `root`, actions/cache entries in `root/cache-store`
    (kept between jobs of one SimulatedJob, like a repository's cache)."""

    def __init__(self, action_path, root, workspace, env):
        self.action_path = action_path
        self.root = root
        self.workspace = workspace
        self.env = dict(env)
        self.cache_store = os.path.join(root, "cache-store")
        self.tool_cache = os.path.join(root, "toolcache")
        self.runner_os = "Linux"  # runner.os and RUNNER_OS: "macOS" on a macos-14 runner
        os.makedirs(self.cache_store, exist_ok=True)
        os.makedirs(self.tool_cache, exist_ok=True)

    def run(self, inputs, action_ref, action_repository="loopwright/action", token="job-token", stop_before=None):
        with open(os.path.join(self.action_path, "action.yml"), encoding="utf-8") as f:
            action = yaml.safe_load(f)
        temp = os.path.join(self.root, f"temp-{time.monotonic_ns()}")  # wiped per job, like RUNNER_TEMP
        os.makedirs(temp)
        context = {
            "runner.temp": temp, "runner.os": self.runner_os, "runner.tool_cache": self.tool_cache,
            "github.action_ref": action_ref, "github.action_repository": action_repository,
            "github.token": token, "github.action_path": self.action_path,
        }
        for name, spec in (action.get("inputs") or {}).items():
            default = substitute(spec.get("default", ""), context)
            context[f"inputs.{name}"] = str(inputs.get(name, default))
        unknown = set(inputs) - set(action.get("inputs") or {})
        if unknown:
            raise ValueError(f"inputs action.yml does not declare: {sorted(unknown)}")

        result, posts = JobResult(), []
        for index, step in enumerate(action["runs"]["steps"]):
            name = step.get("name", f"step {index}")
            if stop_before and step.get("id") == stop_before:
                break
            condition = step.get("if")
            if result.failed or (condition and not Expression(str(condition), context).value()):
                result.skipped.append(name)
                continue
            if "uses" in step:
                posts.append(self._uses(step, context, result))
                continue
            sr = self._run_step(step, name, context, temp)
            result.steps.append(sr)
            result.failed = sr.status != 0
            result.summary += sr.summary
            if step.get("id"):
                for k, v in sr.outputs.items():
                    context[f"steps.{step['id']}.outputs.{k}"] = v
        for post in reversed(posts):
            if post:
                post()
        for name, spec in (action.get("outputs") or {}).items():
            result.outputs[name] = substitute(spec["value"], context)
        return result

    def _run_step(self, step, name, context, temp):
        n = sum(1 for f in os.listdir(temp) if f.startswith("output-"))
        out_file = os.path.join(temp, f"output-{n}")
        summary_file = os.path.join(temp, f"summary-{n}")
        open(out_file, "w").close()
        open(summary_file, "w").close()
        env = dict(self.env)
        env.update({
            "GITHUB_ACTIONS": "true", "CI": env.get("CI", "true"),
            "GITHUB_ACTION_PATH": self.action_path, "GITHUB_WORKSPACE": self.workspace,
            "RUNNER_TEMP": temp, "RUNNER_TOOL_CACHE": self.tool_cache, "RUNNER_OS": self.runner_os,
            "GITHUB_OUTPUT": out_file, "GITHUB_STEP_SUMMARY": summary_file,
        })
        for k, v in (step.get("env") or {}).items():
            env[k] = substitute(v, context)
        script = substitute(step["run"], context)
        if step.get("shell") != "bash":
            raise ValueError(f"step {name}: only shell: bash is simulated")
        started = time.monotonic()
        p = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
                           cwd=self.workspace, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, errors="replace")
        seconds = time.monotonic() - started
        keys, values = read_outputs(out_file)
        sr = StepResult(step.get("id"), name, p.returncode, keys, values, p.stdout, seconds)
        with open(summary_file, encoding="utf-8") as f:
            sr.summary = f.read()
        return sr

    def _uses(self, step, context, result):
        if not str(step["uses"]).startswith("actions/cache@"):
            raise ValueError(f"only actions/cache is simulated, not {step['uses']}")
        w = {k: substitute(v, context) for k, v in step.get("with", {}).items()}
        path, key = w["path"], w["key"]
        if not key:
            raise ValueError("actions/cache was given an empty key")
        entry = os.path.join(self.cache_store, key)
        hit = os.path.isdir(entry)
        source = entry if hit else None
        if not hit:
            prefixes = [p for p in w.get("restore-keys", "").split("\n") if p.strip()]
            for prefix in prefixes:
                matches = [e for e in os.listdir(self.cache_store) if e.startswith(prefix.strip())]
                if matches:
                    source = max((os.path.join(self.cache_store, m) for m in matches), key=os.path.getmtime)
                    break
        if source:
            shutil.copytree(source, path, symlinks=True, dirs_exist_ok=True)
        result.cache.append(("restore", key, "exact" if hit else ("partial" if source else "miss")))

        def save():
            if hit or result.failed or not os.path.isdir(path):
                return
            shutil.copytree(path, entry, symlinks=True)
            result.cache.append(("save", key))
        return save

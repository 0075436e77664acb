#!/usr/bin/env python3
"""Checks that includes between the rooms of a module split by role run one way
(docs/architecture.md, "Modules"): no two files in different rooms include each
other, and the rooms' include graph has no cycle. A room is the folder a file is
in: src/github/publish/channels is one room, the files at the top of
src/pipeline another. Prints each problem and exits 1 when there is one.

Usage: scripts/room-includes.py [MODULE...]   (default: every folder of src/)
"""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def room(path):
    return path.rsplit("/", 1)[0]


def unit(path):  # a header and its source are one unit
    return path.rsplit(".", 1)[0]


def room_edges(src, module):
    """{room: {included room: [an example 'file -> header', ...]}} and the unit edges."""
    files = {p.relative_to(src).as_posix(): p for p in (src / module).rglob("*") if p.suffix in (".h", ".cpp")}
    rooms, units = {}, {}
    for name, path in files.items():
        for target in INCLUDE.findall(path.read_text()):
            if target in files and room(target) != room(name):
                rooms.setdefault(room(name), {}).setdefault(room(target), []).append(f"{name} -> {target}")
                units.setdefault(unit(name), set()).add(unit(target))
    return rooms, units


def mutual_includes(units):
    return [f"{a} and {b} include each other"
            for a, targets in sorted(units.items()) for b in sorted(targets) if a < b and a in units.get(b, ())]


def cycles(rooms):
    found, state = [], {}

    def visit(r, path):
        state[r] = "open"
        for t in sorted(rooms.get(r, {})):
            if state.get(t) == "open":
                cycle = path[path.index(t):] + [t]
                why = "; ".join(rooms[a][b][0] for a, b in zip(cycle, cycle[1:]))
                found.append(f"room cycle: {' -> '.join(cycle)} ({why})")
            elif t not in state:
                visit(t, path + [t])
        state[r] = "done"

    for r in sorted(rooms):
        if r not in state:
            visit(r, [r])
    return found


def main():
    src = pathlib.Path(__file__).resolve().parent.parent / "src"
    modules = sys.argv[1:] or sorted(p.name for p in src.iterdir() if p.is_dir())
    problems = []
    for module in modules:
        rooms, units = room_edges(src, module)
        problems += mutual_includes(units) + cycles(rooms)
    for p in problems:
        print(p)
    if problems:
        print("lint: includes between rooms must run one way (docs/architecture.md)", file=sys.stderr)
        return 1
    print(f"room includes: one way in {', '.join(modules)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

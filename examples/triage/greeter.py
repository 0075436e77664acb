#!/usr/bin/env python3
"""greeter: greets each name given on the command line.

The tiny project of examples/triage, with one known bug (--initials on a
name with two spaces in a row) for builtin/reproduce to find.
"""
import sys

VERSION = "1.2.0"


def greeting(name, shout=False):
    text = "Hello, " + name.strip() + "!"
    return text.upper() if shout else text


def initials(name):
    # Splitting on " " leaves an empty part between two spaces.
    return "".join(part[0] for part in name.split(" ")).upper()


def main(argv):
    if argv[:1] == ["--version"]:
        print("greeter " + VERSION)
        return 0
    shout = "--shout" in argv
    show_initials = "--initials" in argv
    names = [a for a in argv if not a.startswith("--")]
    for name in names:
        print(initials(name) if show_initials else greeting(name, shout))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

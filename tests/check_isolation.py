#!/usr/bin/env python3
"""Purpose: no two regression entries name the same file or directory under build/.

tests/run_tests.py runs two entries at once, in an order set by their measured times, so two
entries that write (or one writes and one reads) the same build/ path race: the CI run of
2026-11-29 failed when gnn_wl_bad_args read gnn_run's error message out of a shared
build/gnnerator_sw/bad_args.err. An entry's own files belong in its $WORK (an empty
build/work/<name> per entry) or under a build/ name no other entry uses.

The check is textual: every 'build/...' word of a command (shell variables such as $b kept as
written) is a path; the directories that make builds before the tests run (harnesses, host
tools, C tests) are only executed and are left out. A path named by two entries is an error.

Usage: check_isolation.py [LIST ...]    (default: tests/*.list); --selftest also shows that a
seeded collision is reported.
"""
import collections
import glob
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_tests  # noqa: E402  (the runner's own list reader)

# Built by make before any entry runs; entries execute what is there and write nothing in them.
TOOL_DIRS = ("build/tb/", "build/sw/", "build/sw-san/", "build/tests/")
PATH = re.compile(r"build/[A-Za-z0-9_./${}-]+")


def users_of_paths(lists):
    users = collections.defaultdict(set)
    for name, cmd in run_tests.load(lists, ""):
        for p in set(PATH.findall(cmd)):
            p = p.rstrip(".")
            if not p.startswith(TOOL_DIRS):
                users[p].add(name)
    return users


def collisions(lists):
    return {p: sorted(n) for p, n in users_of_paths(lists).items() if len(n) > 1}


def selftest():
    with tempfile.TemporaryDirectory() as d:
        bad = os.path.join(d, "bad.list")
        with open(bad, "w") as f:
            f.write("x a bash -c 'd=build/shared; mkdir -p $d; build/sw/t > $d/e.err'\n"
                    "x b bash -c 'd=build/shared; mkdir -p $d; build/sw/t > $d/e.err'\n"
                    "x c bash -c 'd=$WORK; build/sw/t > $d/e.err'\n"
                    "x d bash -c 'd=$WORK; build/sw/t > $d/e.err'\n")
        got = collisions([bad])
        if got != {"build/shared": ["a", "b"]}:
            sys.exit("check_isolation: selftest: expected build/shared used by a and b, got %r" % got)


def main():
    args = [a for a in sys.argv[1:] if a != "--selftest"]
    if "--selftest" in sys.argv[1:]:
        selftest()
    lists = args or sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), "*.list")))
    users = users_of_paths(lists)
    bad = 0
    for p, names in sorted(users.items()):
        if len(names) > 1:
            bad += 1
            print("check_isolation: %s is named by %d entries: %s (give each its own path, or $WORK)"
                  % (p, len(names), " ".join(sorted(names))))
    print("%d passed, %d failed" % (len(users) - bad, bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

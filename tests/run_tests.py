#!/usr/bin/env python3
"""Regression runner: runs every test of the given lists and ends with 'N passed, N failed'.

A list file has one test per line:  <block> <name> <shell command...>   ('#' starts a comment).
A test passes when its command exits 0 and, if its last line is a harness result line
'N passed, M failed', N > 0 and M == 0 (a run that checks nothing is a failure).
LONG=1 in the environment multiplies every '+n=N' by 100 (the 10^7-transaction runs).
--san-tools DIR runs the host tools from DIR (their ASan/UBSan builds, $BUILD/sw-san): every
'build/sw/' in a command becomes 'DIR/', so a memory error or undefined behaviour in a tool fails
the test that ran it.
Each test gets its own empty work directory, $BUILD/work/<name>, named by $WORK in its environment:
a command that writes files writes them there (`d=$WORK`), so two tests running at once never share
a file (tests/check_isolation.py rejects a list in which two tests name the same build/ path).
Logs go to $BUILD/logs/<name>.log. With REGRESSION_T0 (set by `make test` before it builds) the
runner also prints how long the whole of make test took, builds included.

Tests start longest first (the longest-processing-time order: with 2 workers a 5-minute entry
started last would leave one core idle for 5 minutes at the end). A test's expected time is its
last measured CPU time, from $BUILD/logs/durations.json (written by every run) or else from
tests/durations.txt (committed, measured on an idle 2-core machine; `--save-durations` rewrites
it from the run); a test in neither starts first. Results print as tests finish, with wall and
CPU seconds.
"""
import argparse
import concurrent.futures as cf
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))
from results import RESULT  # noqa: E402  (the harness result line, shared by every script)


def load(paths, block):
    tests, seen = [], {}
    for path in paths:
        with open(path) as f:
            for lineno, line in enumerate(f, 1):
                line = line.split("#", 1)[0].strip()
                if not line:
                    continue
                parts = line.split(None, 2)
                if len(parts) < 3:
                    sys.exit(f"{path}:{lineno}: expected '<block> <name> <command>'")
                if block and parts[0] != block:
                    continue
                if parts[1] in seen:
                    sys.exit(f"{path}:{lineno}: test name '{parts[1]}' already used at {seen[parts[1]]}")
                seen[parts[1]] = f"{path}:{lineno}"
                tests.append((parts[1], parts[2]))
    return tests


def scale(cmd):
    if os.environ.get("LONG", "0") == "1":
        cmd = re.sub(r"\+n=(\d+)", lambda m: "+n=%d" % (int(m.group(1)) * 100), cmd)
    return cmd


DURATIONS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "durations.txt")


def read_last_run(build_json):
    """The last local run's record ({name: {"wall": s, "cpu": s}}), {} when there is none."""
    try:
        with open(build_json) as f:
            last = json.load(f)
    except (OSError, ValueError):
        return {}
    return last if isinstance(last, dict) else {}


def expected_cpu(last):
    """Expected CPU seconds per test name (the order's key: unlike wall time it does not depend
    on what ran beside the test): the committed table, overridden by the last local run."""
    d = {}
    if os.path.isfile(DURATIONS):
        with open(DURATIONS) as f:
            for line in f:
                parts = line.split("#", 1)[0].split()
                if len(parts) == 3:
                    d[parts[0]] = float(parts[2])
    for k, v in last.items():
        if isinstance(v, dict) and isinstance(v.get("cpu"), (int, float)):
            d[k] = float(v["cpu"])
    return d


def fresh_work_dir(name):
    """An empty $BUILD/work/<name> (the test's $WORK), left from no earlier run."""
    d = os.path.join(os.environ.get("BUILD", "build"), "work", name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def run(test, logdir, timeout, san_tools):
    """Runs one test: (name, ok, wall seconds, CPU seconds, result line, output lines). The CPU
    time is the test's process tree's (user + system, os.wait4), so a run beside another test
    measures the same."""
    name, cmd = test
    cmd = scale(cmd)
    if san_tools:
        cmd = cmd.replace("build/sw/", san_tools.rstrip("/") + "/")
    env = dict(os.environ, WORK=fresh_work_dir(name))
    t0 = time.time()
    p = subprocess.Popen(cmd, shell=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         start_new_session=True, env=env)
    expired = []

    def kill():
        expired.append(1)
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            pass
    timer = threading.Timer(timeout, kill)
    timer.start()
    out = p.stdout.read().decode(errors="replace")
    p.stdout.close()
    _, status, usage = os.wait4(p.pid, 0)
    timer.cancel()
    p.returncode = rc = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime
    if expired:
        out, rc = out + "\nRUNNER TIMEOUT\n", 124
    dt = time.time() - t0
    with open(os.path.join(logdir, name + ".log"), "w") as f:
        f.write("$ " + cmd + "\n" + out)
    lines = [l for l in out.strip().splitlines() if l.strip()]
    last = lines[-1] if lines else ""
    ok = rc == 0
    m = RESULT.match(last)
    if m:
        ok = ok and int(m.group(1)) > 0 and int(m.group(2)) == 0
    return name, ok, dt, cpu, (last if m else ""), lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("lists", nargs="+")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--block", default="")
    ap.add_argument("--timeout", type=int, default=1800)
    ap.add_argument("--san-tools", default="", help="run the host tools from this directory")
    ap.add_argument("--save-durations", action="store_true",
                    help="rewrite tests/durations.txt with this run's times (every test must run)")
    a = ap.parse_args()
    tests = load(a.lists, a.block)
    if a.save_durations and a.block:
        sys.exit("--save-durations needs the whole regression (no --block)")
    if not tests:
        sys.exit("no tests selected")
    logdir = os.path.join(os.environ.get("BUILD", "build"), "logs")
    os.makedirs(logdir, exist_ok=True)
    npass = nfail = 0
    checks = 0
    t0 = time.time()
    dur_json = os.path.join(logdir, "durations.json")
    last = read_last_run(dur_json)
    expected = expected_cpu(last)
    order = sorted(tests, key=lambda t: -expected.get(t[0], float("inf")))
    measured = {}
    with cf.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        futs = [ex.submit(run, t, logdir, a.timeout, a.san_tools) for t in order]
        for fut in cf.as_completed(futs):
            name, ok, dt, cpu, res, lines = fut.result()
            measured[name] = {"wall": round(dt, 1), "cpu": round(cpu, 1)}
            m = RESULT.match(res)
            if m:
                checks += int(m.group(1))
            print("%s %-40s %7.1f s %7.1f s cpu  %s" % ("PASS" if ok else "FAIL", name, dt, cpu, res),
                  flush=True)
            if ok:
                npass += 1
            else:
                nfail += 1
                for l in lines[-15:]:
                    print("    | " + l)
    last.update(measured)
    with open(dur_json, "w") as f:
        json.dump(last, f, indent=0, sort_keys=True)
    if a.save_durations:
        with open(DURATIONS, "w") as f:
            f.write("# Seconds per regression entry, measured by tests/run_tests.py --save-durations\n"
                    "# (--jobs %d): <name> <wall> <cpu>; the runner starts the most CPU first.\n"
                    % a.jobs)
            for name, _ in tests:
                f.write("%s %.1f %.1f\n" % (name, measured[name]["wall"], measured[name]["cpu"]))
    now = time.time()
    print("checks: %d individual comparisons in %.0f s; logs in %s" % (checks, now - t0, logdir))
    if os.environ.get("REGRESSION_T0", "").isdigit():
        start = int(os.environ["REGRESSION_T0"])
        print("make test took %dm%02ds: %.0f s of builds, %.0f s of tests (--jobs %d)"
              % ((now - start) // 60, (now - start) % 60, t0 - start, now - t0, a.jobs))
    print("%d passed, %d failed" % (npass, nfail))
    sys.exit(1 if nfail else 0)


if __name__ == "__main__":
    main()

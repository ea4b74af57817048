#!/usr/bin/env python3
"""make coverage: runs every RTL harness of the regression lists from a coverage build
(Verilator --coverage-line --coverage-toggle, built under <build>), merges the data and writes
an annotated source tree plus a per-file summary to <build>/coverage/.
"""
import argparse
import glob
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    a = ap.parse_args()
    os.chdir(ROOT)
    out = os.path.join(a.build, "coverage")
    os.makedirs(out, exist_ok=True)
    for f in glob.glob(os.path.join(out, "*.dat")):
        os.remove(f)
    tests = []
    for lst in sorted(glob.glob("tests/*.list")):
        for line in open(lst):
            line = line.split("#", 1)[0].strip()
            parts = line.split(None, 2)
            if len(parts) == 3 and parts[2].startswith("build/tb/") and "+workload" not in parts[2]:
                tests.append((parts[1], parts[2].replace("build/", a.build + "/", 1)))
    for name, cmd in tests:
        env = dict(os.environ, TB_COVERAGE_FILE=os.path.join(out, name + ".dat"))
        p = subprocess.run(cmd, shell=True, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        last = p.stdout.decode().strip().splitlines()[-1:] or [""]
        print("%-36s %s" % (name, last[0]))
    dats = sorted(glob.glob(os.path.join(out, "*.dat")))
    if not dats:
        sys.exit("coverage: no coverage data written")
    merged = os.path.join(out, "merged.dat")
    subprocess.run(["verilator_coverage", "--write", merged] + dats, check=True)
    p = subprocess.run(["verilator_coverage", "--annotate", os.path.join(out, "annotated"),
                        "--annotate-min", "1", merged], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    text = p.stdout.decode()
    print(text.strip().splitlines()[-1] if text.strip() else "")
    # per-file summary from the lcov export: a line counts as covered when any of its
    # coverage points (line or toggle) was hit
    info = os.path.join(out, "coverage.info")
    subprocess.run(["verilator_coverage", "--write-info", info, merged], check=True)
    rows, cur, hits = [], None, {}
    for l in open(info):
        if l.startswith("SF:"):
            cur, hits = l[3:].strip(), {}
        elif l.startswith("DA:") and cur:
            ln, cnt = l[3:].strip().split(",")[:2]
            hits[ln] = hits.get(ln, 0) + int(cnt)
        elif l.startswith("end_of_record") and cur:
            cov = sum(1 for v in hits.values() if v > 0)
            if hits:
                rows.append((cur, cov, len(hits) - cov, 100.0 * cov / len(hits)))
            cur = None
    with open(os.path.join(out, "summary.txt"), "w") as s:
        for r in rows:
            line = "%-40s %6d covered %6d not covered  %5.1f%%" % r
            s.write(line + "\n")
            print(line)
    print("annotated sources in %s/annotated; summary in %s/summary.txt" % (out, out))


if __name__ == "__main__":
    main()

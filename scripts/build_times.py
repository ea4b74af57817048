#!/usr/bin/env python3
"""Build time of every regression harness, measured one at a time -> the table in docs/harness.md.

  scripts/build_times.py [--out docs/harness.md] [--only NAME ...]

Each harness of the regression (every [harness.*] of the block descriptions that is not
bench-only) is built alone, one after another, in a scratch tree ($BUILD/buildtime, JOBS=1),
twice:
  cold  with an empty ccache (a fresh CCACHE_DIR): what a machine that never built pays;
  warm  again from scratch, with the ccache the cold build filled: what a fresh clone pays on a
        machine that built before (CI: .ci/run clones, the ccache stays) -- Verilator still
        generates the C++, the compiles are cache hits.
The figure is the CPU time of the build's processes (user + system, from the kernel's
accounting of the finished children), which other load on the machine changes little; the wall
time is printed beside it. The model libraries and the shared run-time objects are built once
first and are not counted. The sanitized twin (<harness>-san) is measured on its own: two C++
compiles linked with the Verilated objects.
The table between the markers <!-- build-times --> and <!-- /build-times --> of --out is
replaced; nothing else in the file changes.
"""
import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import blocks  # noqa: E402

BEGIN, END = "<!-- build-times -->", "<!-- /build-times -->"


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_make(build, target, env):
    """Builds one target; returns (cpu seconds, wall seconds)."""
    c0, t0 = children_cpu(), time.time()
    p = subprocess.run(["make", "-s", "--no-print-directory", "BUILD=" + build, "JOBS=1", target],
                       cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        sys.stderr.write(p.stdout.decode(errors="replace"))
        sys.exit("build_times: make %s failed" % target)
    return children_cpu() - c0, time.time() - t0


def short_params(h):
    return " ".join("%s=%d" % kv for kv in h.params.items()) or "(defaults)"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="docs/harness.md")
    ap.add_argument("--only", nargs="*", help="measure these harnesses only (no table written)")
    args = ap.parse_args()

    harnesses = [h for b in blocks.load() for h in b.harnesses if not h.bench]
    if args.only:
        harnesses = [h for h in harnesses if h.name in args.only]
    build = os.path.join(os.environ.get("BUILD", "build"), "buildtime")
    cache = tempfile.mkdtemp(prefix="ccache-buildtime-")
    env = dict(os.environ, CCACHE_DIR=cache)
    # the shared parts first (model libraries, run-time objects, tools): not counted
    subprocess.run(["make", "-s", "--no-print-directory", "BUILD=" + build, "JOBS=2",
                    build + "/tb/_runtime/stamp", build + "/tb/_runtime_nt/stamp",
                    build + "/cmodel/libmodels_san.a"] +
                   ["%s/cmodel/lib%s.a" % (build, b.name) for b in blocks.load()],
                   cwd=ROOT, env=env, check=True)
    rows = []
    for h in harnesses:
        d = os.path.join(ROOT, build, "tb", h.name)
        target = "%s/tb/%s/%s" % (build, h.name, h.name)
        shutil.rmtree(d, ignore_errors=True)
        cold = run_make(build, target, env)
        shutil.rmtree(d, ignore_errors=True)
        warm = run_make(build, target, env)
        san = None
        if h.sanitize:
            san_cold = run_make(build, target + "-san", env)
            san = san_cold
        rows.append((h, cold, warm, san))
        print("%-26s cold %6.1f s CPU (%6.1f s wall)  warm %5.1f s CPU%s" % (
            h.name, cold[0], cold[1], warm[0],
            "  -san %5.1f s CPU" % san[0] if san else ""), flush=True)
    shutil.rmtree(cache, ignore_errors=True)
    if args.only:
        return 0

    rows.sort(key=lambda r: -r[1][0])
    tot_cold = sum(r[1][0] for r in rows)
    tot_warm = sum(r[2][0] for r in rows)
    tot_san = sum(r[3][0] for r in rows if r[3])
    out = [BEGIN, "",
           "Measured %s by `scripts/build_times.py` (one harness at a time, JOBS=1; CPU seconds "
           "of the build, user + system). Cold: empty ccache. Warm: ccache filled by the cold "
           "build (a fresh clone on a machine that built before). `-san`: the sanitized twin, "
           "cold." % time.strftime("%Y-%m-%d"),
           "",
           "| harness | block | top | parameters | cold (s) | warm (s) | -san (s) |",
           "|---|---|---|---|---:|---:|---:|"]
    for h, cold, warm, san in rows:
        out.append("| %s | %s | %s | %s | %.0f | %.0f | %s |" % (
            h.name, h.block.name, h.top, short_params(h), cold[0], warm[0],
            "%.0f" % san[0] if san else ""))
    out.append("| **all %d** | | | | **%.0f** | **%.0f** | **%.0f** |" % (
        len(rows), tot_cold, tot_warm, tot_san))
    per_block = {}
    for h, cold, warm, san in rows:
        c = per_block.setdefault(h.block.name, [0, 0.0, 0.0])
        c[0] += 1
        c[1] += cold[0]
        c[2] += warm[0]
    out += ["", "| block | harnesses | cold (s) | warm (s) |", "|---|---:|---:|---:|"]
    for n, (k, c, w) in sorted(per_block.items(), key=lambda kv: -kv[1][1]):
        out.append("| %s | %d | %.0f | %.0f |" % (n, k, c, w))
    out += ["", END]
    path = os.path.join(ROOT, args.out)
    text = open(path).read()
    block = "\n".join(out)
    if BEGIN in text and END in text:
        text = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda m: block, text, flags=re.S)
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    open(path, "w").write(text)
    print("build_times: %d harnesses, cold %.0f s CPU, warm %.0f s CPU, sanitized twins %.0f s "
          "CPU -> %s" % (len(rows), tot_cold, tot_warm, tot_san, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())

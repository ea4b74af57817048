#!/usr/bin/env python3
"""make lint: Verilator --lint-only -Wall (zero warnings) and Icarus -g2005 on every RTL module.

Every module listed by a block description (rtl/<block>/block.toml, 'rtl') is checked as its own
top with its default parameters, seeing only rtl/common and its own block's folder, with the
Verilator configuration files of both (rtl/common/lint.vlt, rtl/<block>/lint.vlt). A .v file in
a block folder that its description does not list is an error too (the structure test says so
as well). Ends with 'N passed, N failed' (two checks per module).
"""
import glob
import os
import subprocess
import sys

import blocks
import iverilog_waivers

ROOT = blocks.ROOT


def run(cmd):
    p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return p.returncode, p.stdout.decode(errors="replace").strip()


def main():
    try:
        every = blocks.load()
    except blocks.DescriptionError as e:
        sys.exit("lint: %s" % e)
    common = blocks.by_name("common", every)
    fail = n = 0
    for b in every:
        dirs = b.rtl_dirs()
        vlt = (common.vlt() if b is not common else []) + b.vlt()
        ydirs = [x for d in dirs for x in ("-y", d)]
        listed = set(b.rtl)
        for f in sorted(glob.glob(os.path.join(ROOT, b.rtl_dir, "*.v"))):
            rel = os.path.relpath(f, ROOT)
            if rel not in listed:
                print("lint FAIL: %s is not listed in %s (rtl = [...])" % (rel, b.path))
                fail += 1
        for f in b.rtl:
            m = os.path.basename(f)[:-2]
            n += 1
            rc, out = run(["verilator", "--lint-only", "-Wall"] + ydirs + vlt + ["--top-module", m, f])
            if rc or out:
                print("verilator lint %s: %s" % ("FAIL" if rc else "WARN", f))
                print("\n".join(out.splitlines()[:20]))
                fail += 1
            rc, out = run(["iverilog", "-g2005", "-Wall"] + [x for d in dirs for x in ("-y", d, "-I", d)]
                          + ["-s", m, "-o", "/dev/null", f])
            out = iverilog_waivers.strip(out)
            if rc or out:
                print("iverilog FAIL: %s" % f)
                print("\n".join(out.splitlines()[:20]))
                fail += 1
    print("lint: %d modules, verilator -Wall and iverilog -g2005" % n)
    print("%d passed, %d failed" % (max(0, n * 2 - fail), fail))
    sys.exit(1 if fail else 0)


if __name__ == "__main__":
    main()

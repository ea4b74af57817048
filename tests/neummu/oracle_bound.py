#!/usr/bin/env python3
"""The NPU harness's oracle MMU against the trace's analytic lower bound (issue 20, "check the
oracle"; docs/results/neummu.md, "Method").

The oracle answers every translation in the cycle the DMA issues it, one request per cycle, and
never stalls the DMA: its run time is the trace's own lower bound under the NPU model. Three
traces are built so that one bound is tight and the time has a closed form (bw = 600 bytes per
cycle, data latency L = 100, every transaction issued one cycle after the previous one):

  issue bound      one tile, N reads of 64 B, no compute:  (N - 1) + 64/600 + L
  bandwidth bound  one tile, N reads of 4096 B:             N * 4096/600 + L
  compute bound    K tiles of one 64 B read and C >> L compute cycles (double buffering hides
                   every transfer after the first):         64/600 + L + K * C

Each is run with +oracle_only=1 (the oracle alone, no RTL) and must print that number (the
harness rounds to whole cycles). Prints one line per case and "N passed, M failed".
"""
import os
import subprocess
import sys

BUILD = os.environ.get("BUILD", "build")
NPU = os.path.join(BUILD, "tb", "neummu_npu8", "neummu_npu8")
PTGEN = os.path.join(BUILD, "sw", "neummu", "nmmu_ptgen")
OUT = os.path.join(BUILD, "neummu_npu", "oracle_bound")
BW, LAT = 600.0, 100.0
VA = 0x7F0000000000


def trace(tiles, reads, nbytes, compute):
    """tiles x (one 'tile' line, `reads` reads of nbytes each, never crossing 4 KB)."""
    lines = ["nmmu-trace 1", "page 4k",
             "seg a %x %d 4k rw" % (VA, tiles * reads * 4096), "layer x 1"]
    va = VA
    for _ in range(tiles):
        lines.append("tile %d" % compute)
        for _ in range(reads):
            lines.append("r %x %d" % (va, nbytes))
            va += 4096
    return "\n".join(lines) + "\n"


CASES = [
    ("issue_bound", trace(1, 200, 64, 0), (200 - 1) + 64 / BW + LAT),
    ("bandwidth_bound", trace(1, 50, 4096, 0), 50 * 4096 / BW + LAT),
    ("compute_bound", trace(6, 1, 64, 5000), 64 / BW + LAT + 6 * 5000),
]


def main():
    os.makedirs(OUT, exist_ok=True)
    passed = failed = 0
    for name, text, want in CASES:
        t, img = os.path.join(OUT, name + ".t"), os.path.join(OUT, name + ".img")
        with open(t, "w") as f:
            f.write(text)
        subprocess.run([PTGEN, t, img], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        p = subprocess.run([NPU, "+workload=" + t, "+image=" + img, "+oracle_only=1"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        got = None
        for line in p.stdout.splitlines():
            if line.startswith("npu: oracle_only "):
                got = float(line.split("raw_oracle=")[1].split()[0])
        ok = p.returncode == 0 and got is not None and abs(got - want) <= 0.5 + 1e-9
        print("%-16s %s  oracle %s, bound %.3f" % (name, "pass" if ok else "FAIL", got, want))
        passed += ok
        failed += not ok
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

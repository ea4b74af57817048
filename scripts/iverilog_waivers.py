"""Icarus Verilog warnings waived for one named construct each. Icarus has no per-line waivers,
so each block lists its intended warnings in rtl/<block>/iverilog.waive: one regular expression
per line (the whole warning line), its reason in a comment above it. Verilator waivers are per
line in rtl/<block>/lint.vlt. Used by scripts/lint.py and tests/rtl_param_checks.py."""
import glob
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def patterns():
    pats = []
    for f in sorted(glob.glob(os.path.join(ROOT, "rtl", "*", "iverilog.waive"))):
        with open(f) as fh:
            for line in fh:
                line = line.strip()
                if line and not line.startswith("#"):
                    pats.append(re.compile(r"^(?:.*/)?" + line + r"$"))
    return pats


def strip(out):
    """The tool output without the waived warning lines."""
    pats = patterns()
    return "\n".join(l for l in out.splitlines() if not any(p.match(l) for p in pats))

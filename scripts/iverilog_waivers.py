"""Icarus Verilog warnings waived for one named construct each, with the reason (the
project's RTL is otherwise clean under iverilog -g2005 -Wall; Verilator waivers are per line in
rtl/<block>/lint.vlt). Used by scripts/lint.py and tests/rtl_param_checks.py."""
import re

# (file, regular expression the whole warning line matches, reason)
WAIVERS = [
    ("rtl/neunoc/neunoc.v",
     r"rtl/neunoc/neunoc\.v:\d+: warning: @\* is sensitive to all \d+ words in array 'tile_out_flit'\.",
     "the loop that gathers every tile's delivered flits reads the whole array on purpose; one "
     "slice per tile instead makes Verilator 5.006 build the bus as a quadratic chain of "
     "concatenations (docs/neunoc.md, Benchmarks)"),
]


def strip(out):
    """The tool output without the waived warning lines."""
    pats = [re.compile(r"^(?:.*/)?" + w[1] + r"$") for w in WAIVERS]
    return "\n".join(l for l in out.splitlines() if not any(p.match(l) for p in pats))

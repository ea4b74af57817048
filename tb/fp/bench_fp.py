#!/usr/bin/env python3
"""make bench-common: area of every float unit of rtl/common per format (Yosys generic cells, CMOS
transistor estimate, iCE40 and ECP5), written into the table of docs/float.md (between the
float-area markers) and $BUILD/bench/fp.tsv (figure<TAB>paper<TAB>ours<TAB>unit).

The configurations are the fp_* synthesis lines of rtl/common/block.toml (Latency 0: the datapath logic only;
the iterative divider includes its state). Reuses $BUILD/synth/area.tsv rows that are already
there unless --fresh is given.
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import blocks  # noqa: E402
import results  # noqa: E402

BUILD = results.BUILD
os.chdir(ROOT)

UNITS = [("fp_add", "add/sub"), ("fp_mul", "mul"), ("fp_fma", "fma"),
         ("fp_divsqrt_iter", "div/sqrt, iterative"), ("fp_divsqrt_unrolled", "div/sqrt, unrolled"),
         ("fp_cmp", "compare/min/max"), ("fp_i2f", "int32 to float"), ("fp_f2i", "float to int32"),
         ("fp_rti", "round to integer")]
FORMATS = ["f32", "f16", "bf16"]


def configs():
    return [line.split()[0] for _, line in blocks.by_name("common").synth_configs()
            if line.startswith("fp_")]


read_area = results.read_area


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fresh", action="store_true", help="re-synthesize every float configuration")
    a = ap.parse_args()
    names = configs()
    have = read_area()
    todo = [n for n in names if a.fresh or n not in have or not have[n].get("cells")]
    if todo:
        p = subprocess.run("python3 synth/run_synth.py --jobs 2 --only %s" % ",".join(todo), shell=True)
        if p.returncode:
            sys.exit("bench-common: synthesis failed")
        have = read_area()
    missing = [n for n in names if n not in have]
    if missing:
        sys.exit("bench-common: no area for " + ", ".join(missing))

    md = ["Measured by `make bench-common` (Yosys 0.23; `Latency`=0, so the numbers are the "
          "combinational datapath; the iterative divider includes its registers). Generic = Yosys "
          "internal cells after `synth`; transistors = `stat -tech cmos` estimate (a lower bound, "
          "docs/synth.md); iCE40 maps multipliers to LUTs, ECP5 to DSP blocks. All configurations "
          "and flows: [area.md](area.md).", "",
          "| unit | format | generic cells | transistors (cmos est.) | iCE40 LUT4 | iCE40 FF | ECP5 LUT4 | ECP5 DSP |",
          "|---|---|---|---|---|---|---|---|"]
    tsv = []
    rows = [(u + "_" + f, label, f) for u, label in UNITS for f in FORMATS
            if u + "_" + f in names]
    rows += [("fp_f2f_f32_to_f16", "convert f32 to f16", "-"), ("fp_f2f_f16_to_f32", "convert f16 to f32", "-"),
             ("fp_f2f_f32_to_bf16", "convert f32 to bf16", "-")]
    for name, label, fmt in rows:
        r = have[name]
        md.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            label, fmt, r["cells"], r["transistors"], r["lut"], r["ff"], r.get("ecp5_lut") or "-",
            r.get("ecp5_dsp") or "-"))
        tsv.append(("area %s generic cells" % name, "-", r["cells"], "cells"))
        tsv.append(("area %s iCE40 LUT4" % name, "-", r["lut"], "LUT4"))
    table = "\n".join(md)
    doc = open("docs/float.md").read()
    new = re.sub(r"(<!-- float-area:begin -->\n).*?(\n<!-- float-area:end -->)",
                 lambda m: m.group(1) + table + m.group(2), doc, flags=re.S)
    if new == doc and table not in doc:
        sys.exit("bench-common: float-area markers not found in docs/float.md")
    with open("docs/float.md", "w") as f:
        f.write(new)
    os.makedirs(os.path.join(BUILD, "bench"), exist_ok=True)
    with open(os.path.join(BUILD, "bench", "fp.tsv"), "w") as f:
        f.write("figure\tpaper\tours\tunit\n")
        for t in tsv:
            f.write("\t".join(t) + "\n")
    print(table)
    print("wrote docs/float.md (area table) and %s/bench/fp.tsv" % BUILD)


if __name__ == "__main__":
    main()

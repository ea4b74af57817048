#!/usr/bin/env python3
"""make bench-softermax: measures the Softermax figures of the brief and writes
docs/results/softermax.md and $BUILD/bench/softermax.tsv (figure<TAB>paper<TAB>ours<TAB>unit).

  throughput  cycles per 384-element row at Vec 16 and 32, measured on the RTL (Verilator)
              over 1000 back-to-back attention rows (harness +workload, no stalls)
  accuracy    C model (bit-exact with the RTL, checked by make test) vs float64 base-2
              softmax on 384-element rows of realistic attention-score distributions
  area        Yosys generic cells, CMOS transistor estimate and iCE40 LUTs of both units
"""
import csv
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import results  # noqa: E402  (harness output, area.tsv)
BUILD = os.environ.get("BUILD", "build")
os.chdir(ROOT)


def sh(cmd):
    p = subprocess.run(cmd, shell=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = p.stdout.decode()
    if p.returncode:
        sys.exit("bench-softermax: '%s' failed:\n%s" % (cmd, out[-3000:]))
    return out


def throughput(vec, rows_file):
    out = sh("%s/tb/softermax_v%d/softermax_v%d +workload=%s" % (BUILD, vec, vec, rows_file))
    m = re.search(r"throughput workload: (\d+) rows, (\d+) beats, ([\d.]+) cycles/row, latency (\d+) "
                  r"cycles, (\d+) input stalls, (\d+) output bubbles", out)
    if not m or not results.clean_pass(out):
        sys.exit("bench-softermax: harness output not understood:\n" + out[-2000:])
    return {"rows": int(m.group(1)), "cpr": float(m.group(3)), "latency": int(m.group(4)),
            "stalls": int(m.group(5)), "bubbles": int(m.group(6))}


def accuracy(vec, sum_frac=6):
    out = sh("%s/sw/softermax/smx_accuracy --rows 2000 --len 384 --vec %d --seed 1 --sum-frac %d"
             % (BUILD, vec, sum_frac))
    rows = list(csv.DictReader(out.strip().splitlines(), delimiter="\t"))
    return {r["dist"]: r for r in rows}


def area():
    names = ["softermax_unnormed_v16", "softermax_unnormed_v32", "softermax_norm_v16",
             "softermax_norm_v32", "softermax_v16_l384", "softermax_unnormed_v16_sf10",
             "softermax_norm_v16_sf10", "softermax_fp16_unnormed_v16", "softermax_fp16_unnormed_v32",
             "softermax_fp16_norm_v16", "softermax_fp16_norm_v32"]
    read = results.read_area
    # The fp16 baseline units take about 10 (Vec 16) and 25 (Vec 32) minutes of Yosys: rows
    # already in area.tsv are reused unless FRESH=1.
    have = read()
    todo = [n for n in names if os.environ.get("FRESH") == "1" or not (have.get(n) or {}).get("cells")]
    if todo and os.environ.get("NO_SYNTH") != "1":
        sh("python3 synth/run_synth.py --jobs 2 --timeout 3600 --only %s" % ",".join(todo))
    t = read()
    return {n: t[n] for n in names if n in t}


def area_ratios(ar):
    """(unit, vec, metric, paper, softermax/baseline) for every unit, Vec and area metric."""
    out = []
    for unit, paper in (("unnormed", "0.25x"), ("norm", "0.65x")):
        for v in (16, 32):
            sm = ar.get("softermax_%s_v%d" % (unit, v))
            bl = ar.get("softermax_fp16_%s_v%d" % (unit, v))
            if not sm or not bl:   # NO_SYNTH=1 and not synthesized yet: say so, do not guess
                print("bench-softermax: no area for softermax_%s_v%d or its fp16 baseline; ratio not "
                      "measured" % (unit, v))
                continue
            for metric, key in (("generic cells", "cells"), ("transistors (cmos est.)", "transistors"),
                                ("iCE40 LUT4", "lut")):
                out.append((unit, v, metric, paper, float(sm[key]) / float(bl[key])))
    return out


def main():
    os.makedirs(os.path.join(BUILD, "bench"), exist_ok=True)
    rows_file = os.path.join(BUILD, "bench", "softermax_rows.txt")
    sh("%s/sw/softermax/smx_scores --rows 1000 --len 384 --dist mixed --seed 42 > %s" % (BUILD, rows_file))
    thr = {v: throughput(v, rows_file) for v in (16, 32)}
    acc = {v: accuracy(v) for v in (16, 32)}
    acc_sf = {sf: accuracy(16, sf) for sf in (8, 10, 12)}
    ar = area()

    tsv = []
    for v in (16, 32):
        tsv.append(("cycles per 384-element row, Vec %d" % v, "%d" % (384 // v), "%.2f" % thr[v]["cpr"], "cycles"))
        tsv.append(("throughput, Vec %d" % v, "%d" % v, "%.2f" % (384 / thr[v]["cpr"]), "elements/cycle"))
        tsv.append(("row latency (first in to first out), Vec %d" % v, "-", "%d" % thr[v]["latency"], "cycles"))
    for v in (16, 32):
        m = acc[v]["mixed"]
        tsv.append(("mean abs error vs float64 base-2 softmax, Vec %d" % v, "negligible loss",
                    m["mean_abs_err_lsb"], "output LSB"))
        tsv.append(("max abs error vs float64 base-2 softmax, Vec %d" % v, "negligible loss",
                    m["max_abs_err_lsb"], "output LSB"))
        tsv.append(("KL(p||q) vs float64, Vec %d" % v, "negligible loss", m["mean_kl_nats"], "nats"))
        tsv.append(("KL(p||q) of ideal 8-bit rounding", "-", m["ideal_mean_kl_nats"], "nats"))
    for sf, a in sorted(acc_sf.items()):
        tsv.append(("max abs error, Vec 16, power sum Q(10,%d) (paper: Q(10,6))" % sf, "-",
                    a["mixed"]["max_abs_err_lsb"], "output LSB"))
    ratios = area_ratios(ar)
    for unit, v, metric, paper, ours in ratios:
        tsv.append(("%s unit area vs fp16 baseline, Vec %d, %s" % (unit, v, metric), paper, "%.3fx" % ours, "ratio"))
    for n, r in sorted(ar.items()):
        tsv.append(("area %s generic cells" % n, "-", r["cells"], "cells"))
        tsv.append(("area %s transistors (cmos est.)" % n, "-", r["transistors"], "transistors"))
        tsv.append(("area %s iCE40" % n, "-", "%s LUT4 / %s FF / %s BRAM" % (r["lut"], r["ff"], r["bram"]), "iCE40"))
    with open(os.path.join(BUILD, "bench", "softermax.tsv"), "w") as f:
        f.write("figure\tpaper\tours\tunit\n")
        for t in tsv:
            f.write("\t".join(t) + "\n")

    md = []
    md.append("# Softermax: measured results\n")
    md.append("Generated by `make bench-softermax` (tb/softermax/bench_softermax.py); every number below is "
              "measured on this repository's RTL or its bit-exact C model. Configuration: Q(6,2) input, "
              "Q(1,15) unnormed, Q(10,6) power sum, Q(1,7) reciprocal mantissa and output, 4-segment "
              "reciprocal LPW, rows of 384 (SQuAD).\n")
    md.append("## Throughput (RTL, Verilator)\n")
    md.append("1000 back-to-back rows of 384 attention scores (`smx_scores --dist mixed --seed 42`), no "
              "stalls on either side, every output beat checked against the model.\n")
    md.append("| figure | paper | Vec 16 | Vec 32 |")
    md.append("|---|---|---|---|")
    md.append("| cycles per 384-element row | 384/Vec | %.2f | %.2f |" % (thr[16]["cpr"], thr[32]["cpr"]))
    md.append("| elements per cycle | Vec | %.2f | %.2f |" % (384 / thr[16]["cpr"], 384 / thr[32]["cpr"]))
    md.append("| latency, first slice in to first probability out | - | %d | %d |" % (thr[16]["latency"], thr[32]["latency"]))
    md.append("| input stalls / output bubbles over 1000 rows | - | %d / %d | %d / %d |\n" % (
        thr[16]["stalls"], thr[16]["bubbles"], thr[32]["stalls"], thr[32]["bubbles"]))
    md.append("## Accuracy (C model = RTL bit for bit)\n")
    md.append("2000 rows of 384 per distribution (sw/softermax/libsmx_workload.c). Reference: float64 "
              "base-2 softmax of the same quantized Q(6,2) scores, p. Error: |y - 128 p| in output LSBs "
              "(1 LSB = 2^-7). KL(p || q) in nats with q = max(y, 0.5) renormalized. The *ideal* columns "
              "apply the same metrics to round(128 p), the best any Q(1,7) output can do, so the gap "
              "between the two is what the datapath costs; most of the KL comes from the 8-bit output "
              "format itself (a 384-token row has most probabilities below one output LSB). The paper "
              "reports accuracy after Softermax-aware finetuning (Table 5.3: within 0.5% of the 8-bit "
              "baseline), which this table does not measure.\n")
    for v in (16, 32):
        md.append("Vec %d:\n" % v)
        md.append("| distribution | mean abs err (LSB) | max abs err (LSB) | mean KL (nats) | max KL | ideal mean err | ideal max err | ideal mean KL |")
        md.append("|---|---|---|---|---|---|---|---|")
        for d, r in acc[v].items():
            md.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
                d, r["mean_abs_err_lsb"], r["max_abs_err_lsb"], r["mean_kl_nats"], r["max_kl_nats"],
                r["ideal_mean_abs_err_lsb"], r["ideal_max_abs_err_lsb"], r["ideal_mean_kl_nats"]))
        md.append("")
    worst = max(float(r["max_abs_err_lsb"]) for r in acc[16].values())
    md.append("The worst-case errors (up to %.1f LSB at Vec 16) come from the paper's Q(10,6) power " % worst +
              "sum: when one score dominates, d is near its floor 2^-0.75, one LSB of d is ~2.5% of d, and "
              "the per-slice rounding of many tiny local sums (each well under one LSB) accumulates in one "
              "direction over the 24 (Vec 16) or 12 (Vec 32) slices. This is why Vec 32 is more accurate "
              "than Vec 16. Round-half-up is used at both narrowing steps of d; truncation measured "
              "23 LSB worst (docs/softermax.md).\n")
    md.append("### The power-sum width (SumFrac parameter)\n")
    md.append("Same rows, Vec 16, mixed distribution, with more fraction bits in the power sum than "
              "the paper's Q(10,6) (`SumFrac`; RTL and model follow it bit for bit, `softermax_v16_sf10` "
              "in `make test`):\n")
    md.append("| power sum | mean abs err (LSB) | max abs err (LSB) | mean KL (nats) |")
    md.append("|---|---|---|---|")
    md.append("| Q(10,6) (paper) | %s | %s | %s |" % (acc[16]["mixed"]["mean_abs_err_lsb"],
              acc[16]["mixed"]["max_abs_err_lsb"], acc[16]["mixed"]["mean_kl_nats"]))
    for sf, a in sorted(acc_sf.items()):
        m = a["mixed"]
        md.append("| Q(10,%d) | %s | %s | %s |" % (sf, m["mean_abs_err_lsb"], m["max_abs_err_lsb"], m["mean_kl_nats"]))
    md.append("")
    md.append("## Area (Yosys 0.23)\n")
    md.append("| unit | generic cells | transistors (cmos est.) | iCE40 LUT4 | iCE40 FF | iCE40 BRAM | ECP5 LUT4 | ECP5 DSP |")
    md.append("|---|---|---|---|---|---|---|---|")
    for n, r in sorted(ar.items()):
        md.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            n, r["cells"], r["transistors"], r["lut"], r["ff"], r["bram"], r.get("ecp5_lut") or "-",
            r.get("ecp5_dsp") or "-"))
    md.append("")
    md.append("`_sf10` rows: the same units with a Q(10,10) power sum (`SumFrac=10`) instead of the "
              "paper's Q(10,6). Transistors are Yosys's `stat -tech cmos` estimate, a lower bound "
              "(flip-flops with enable or reset are not costed; docs/synth.md). ECP5 maps the "
              "normalization multipliers to DSPs, iCE40 to LUTs.")
    md.append("")
    md.append("### Against the fp16 baseline\n")
    md.append("Paper (Table 5.4): the Softermax unnormed unit is 0.25x and the normalization unit 0.65x the "
              "area of a DesignWare fp16 baseline. Our baseline (`softermax_fp16_unnormed` / "
              "`softermax_fp16_norm`, docs/softermax.md) is built from this library's IEEE fp16 units "
              "(rtl/common, docs/float.md) with the same structure and Vec: fp16 max tree, subtract and "
              "e^x per lane, adder-tree sum and rescaled running sum for the unnormed unit; rescale "
              "multiply and a one-per-cycle divider per lane for the normalization unit. Same flow, "
              "same Yosys version, both sides at their default pipelining.\n")
    md.append("| unit | Vec | metric | Softermax | fp16 baseline | ratio | paper |")
    md.append("|---|---|---|---|---|---|---|")
    for unit, v, metric, paper, ours in ratios:
        sm = ar["softermax_%s_v%d" % (unit, v)]
        bl = ar["softermax_fp16_%s_v%d" % (unit, v)]
        key = {"generic cells": "cells", "transistors (cmos est.)": "transistors", "iCE40 LUT4": "lut"}[metric]
        md.append("| %s | %d | %s | %s | %s | %.3fx | %s |" % (unit, v, metric, sm[key], bl[key], ours, paper))
    missing = [v for v in (16, 32) if not any(r[1] == v for r in ratios)]
    if missing:
        md.append("")
        md.append("Vec %s: not measured in this run (`NO_SYNTH=1`; the fp16 baseline units at Vec 32 need "
                  "more than 15 minutes of Yosys per flow, run `make bench-softermax` without it)."
                  % " and ".join(str(v) for v in missing))
    md.append("")
    md.append("**Why our ratios are smaller than the paper's** (unnormed about 4x smaller, normalization "
              "about 2x): in this flow the baseline's cost is almost all float datapath. Per lane the fp16 "
              "unnormed unit has a subtract (fp_add, ~1.35k generic cells), an e^x unit (~3.1k cells, "
              "docs/softermax.md) and a share of the adder and max trees, against Softermax's 8-bit integer "
              "max, 2-bit-fraction power of two and 16-bit integer adder tree; the normalization baseline has "
              "an fp16 multiplier (~1.7k) and an unrolled fp16 divider (~3k) per lane against a 16x8 "
              "multiplier and a shifter. The paper's units come from HLS with DesignWare components and "
              "include what both designs share (pipeline registers, row state, control, interfaces), which "
              "pulls a ratio toward 1; a DesignWare exp is also an area-optimized macro. We cannot separate "
              "these without the paper's netlists; the direction (Softermax smaller, the unnormed unit by "
              "far the most) matches.\n")
    md.append("The paper measures both sides in its own ASIC flow; "
              "ours is counted in Yosys generic cells, a transistor estimate and FPGA LUTs, so the ratios are "
              "the comparable quantity, not the absolute areas.\n")
    with open("docs/results/softermax.md", "w") as f:
        f.write("\n".join(md))
    for t in tsv:
        print("%-60s %-16s %-24s %s" % t)
    print("wrote docs/results/softermax.md and %s/bench/softermax.tsv" % BUILD)


if __name__ == "__main__":
    main()

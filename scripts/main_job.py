#!/usr/bin/env python3
"""The main job (`make`, and `make sim-<block>`): runs every block's default workload on the RTL
against its golden model, synthesizes the simulated configuration, and prints one summary table
(block, workload, checks passed, cycles, key metric, area).

The workloads come from the block descriptions (rtl/<block>/block.toml, [workload]): a shell
command that makes the workload, the harness and its plusargs, a regular expression over the
harness output whose named groups feed the 'cycles' and 'metric' expressions, and the synthesis
configuration whose area is reported. This script names no block.
"""
import argparse
import os
import re
import sys

import blocks
import results

ROOT = results.ROOT
BUILD = results.BUILD


def evaluate(expr, groups, where):
    """A description's 'cycles' / 'metric' expression over the match's named groups."""
    try:
        return eval(expr, {"__builtins__": {"int": int, "round": round, "max": max, "min": min,
                                            "float": float, "abs": abs}}, groups)
    except Exception as e:  # a broken expression names its description
        raise blocks.DescriptionError("%s: [workload] expression %r: %s" % (where, expr, e))


def workload_rows(sel, trace):
    rows, failed = [], 0
    for b in sel:
        w = b.workload
        rc, out = results.run(w["make"].format(b=BUILD))
        if rc:
            print(out)
            sys.exit("main job: making the %s workload failed" % b.name)
        h = w["harness"]
        cmd = "%s/tb/%s/%s %s" % (BUILD, h, h, w["run"].format(b=BUILD))
        if trace:
            cmd += " +trace=%s/wave/%s.fst" % (BUILD, b.name)
        print("[%s] %s" % (b.name, cmd), flush=True)
        rc, out = results.run(cmd)
        with open(os.path.join(BUILD, "work", b.name + ".log"), "w") as f:
            f.write(out)
        npass, nfail = results.result_counts(out) or (0, 1)
        ok = rc == 0 and nfail == 0 and npass > 0
        failed += not ok
        m = re.search(w["match"], out)
        if m:
            g = {k: results.number(v) for k, v in m.groupdict().items()}
            cycles = str(evaluate(w["cycles"], g, b.path))
            metric = evaluate(w["metric"], g, b.path)
        else:
            cycles, metric = "?", "?"
        rows.append([b.name, w["title"], "%d/%d%s" % (npass, npass + nfail, "" if ok else " FAIL"),
                     cycles, metric, w["area"]])
        if trace:
            print("[%s] waveform: %s/wave/%s.fst" % (b.name, BUILD, b.name))
        if b.axi:
            ok, row = axi_row(b)
            failed += not ok
            rows.append(row)
    return rows, failed


def axi_row(b):
    """The same workload from C through the block's driver and <block>_axi ([axi]): its harness
    prints one 'axi workload: ... N cycles ...' line."""
    x = b.axi
    if "make" in x:
        rc, out = results.run(x["make"].format(b=BUILD))
        if rc:
            print(out)
            sys.exit("main job: making the %s AXI workload failed" % b.name)
    h = x["harness"]
    cmd = "%s/tb/%s/%s %s" % (BUILD, h, h, x["run"].format(b=BUILD))
    print("[%s-axi] %s" % (b.name, cmd), flush=True)
    rc, out = results.run(cmd)
    with open(os.path.join(BUILD, "work", b.name + "_axi.log"), "w") as f:
        f.write(out)
    npass, nfail = results.result_counts(out) or (0, 1)
    ok = rc == 0 and nfail == 0 and npass > 0
    m = re.search(r"^axi workload: (.*)$", out, re.M)
    line = m.group(1) if m else "?"
    c = re.search(r"(\d+) cycles", line)
    return ok, ["%s (AXI)" % b.name, x.get("title", "from C through %s_axi" % b.name),
                "%d/%d%s" % (npass, npass + nfail, "" if ok else " FAIL"),
                c.group(1) if c else "?", line[:100], "-"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--blocks", default="", help="block names (default: every block with a workload)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--trace", default="0")
    ap.add_argument("--no-synth", action="store_true")
    a = ap.parse_args()
    try:
        every = [b for b in blocks.load() if b.workload]
    except blocks.DescriptionError as e:
        sys.exit("main job: %s" % e)
    want = a.blocks.split()
    unknown = [n for n in want if n not in {b.name for b in every}]
    if unknown:
        sys.exit("main job: no workload for %s (rtl/<block>/block.toml, [workload])" % ", ".join(unknown))
    sel = [b for b in every if not want or b.name in want]
    os.makedirs(os.path.join(BUILD, "work"), exist_ok=True)
    os.makedirs(os.path.join(BUILD, "wave"), exist_ok=True)
    rows, failed = workload_rows(sel, a.trace == "1")
    area = {}
    if not a.no_synth:
        cfgs = ",".join(r[5] for r in rows if r[5] != "-")
        print("[synth] %s" % cfgs, flush=True)
        rc, out = results.run("python3 synth/run_synth.py --jobs %d --only %s" % (a.jobs, cfgs))
        if rc:
            print(out[-2000:])
            failed += 1
        area = results.read_area()
    for r in rows:
        if r[5] == "-":
            r[5] = "(the same workload through the AXI shell)"
            continue
        t = area.get(r[5])
        r[5] = ("%s: %s cells, %s LUT4, %s BRAM" % (r[5], t["cells"], t["lut"], t["bram"])) if t else "(not synthesized)"
    head = ["block", "workload", "checks passed", "cycles", "key metric", "area (Yosys generic / iCE40)"]
    print()
    print("\n".join(results.text_table(head, rows)))
    print()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

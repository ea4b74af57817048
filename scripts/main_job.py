#!/usr/bin/env python3
"""The main job (`make`, and `make sim-<block>`): runs every block's default workload on the RTL
against its golden model, synthesizes the simulated configuration, and prints one summary table
(block, workload, checks passed, cycles, key metric, area).

Each block registers one entry in WORKLOADS: a shell command that makes the workload, the
harness command that runs it, a parser for the harness output and the synth configuration
(synth/configs.txt) whose area is reported. Later blocks add their entry here.
"""
import argparse
import csv
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("BUILD", "build")
RESULT = re.compile(r"^(\d+) passed, (\d+) failed\s*$", re.M)


def softermax_metric(out):
    m = re.search(r"throughput workload: (\d+) rows, (\d+) beats, ([\d.]+) cycles/row", out)
    if not m:
        return None, "?"
    rows, cpr = int(m.group(1)), float(m.group(3))
    return int(round(rows * cpr)), "%.1f cycles/row of 384 (%.1f el/cycle)" % (cpr, 384 / cpr)


def neummu_metric(out):
    m = re.search(r"npu: cycles=(\d+) oracle=(\d+) perf=([\d.]+)", out)
    if not m:
        return None, "?"
    return int(m.group(1)), "%.2f%% of the oracle MMU's performance" % (100 * float(m.group(3)))


def neunoc_metric(out):
    m = re.search(r"noc: traffic cycles=(\d+) packets=(\d+) delivered=(\d+) avg_lat=([\d.]+).*"
                  r"pe_flits=(\d+) mesh_flits=(\d+)", out)
    if not m:
        return None, "?"
    return int(m.group(1)), "avg packet latency %s cycles, %d deliveries, mesh flits %.1f%% after packing" % (
        m.group(4), int(m.group(3)), 100.0 * int(m.group(6)) / max(1, int(m.group(5))))


WORKLOADS = {
    "softermax": {
        "workload": "200 attention rows x 384, Vec 16",
        "make": "{b}/sw/softermax/smx_scores --rows 200 --len 384 --dist mixed --seed 1 > {b}/work/softermax_rows.txt",
        "run": "{b}/tb/softermax_v16/softermax_v16 +workload={b}/work/softermax_rows.txt",
        "metric": softermax_metric,
        "area": "softermax_v16_l384",
    },
    "neummu": {
        "workload": "CNN-1 (AlexNet) b1, 2 tiles/layer, NeuMMU 128 walkers/32 slots/TPreg",
        "make": "{b}/sw/neummu/nmmu_trace --net cnn1 --batch 1 --tiles-per-layer 2 -o {b}/work/neummu_cnn1.trace"
                " && {b}/sw/neummu/nmmu_ptgen {b}/work/neummu_cnn1.trace {b}/work/neummu_cnn1.img",
        "run": "{b}/tb/neummu_npu128/neummu_npu128 +workload={b}/work/neummu_cnn1.trace"
               " +image={b}/work/neummu_cnn1.img +walkers=128 +slots=32 +tpreg=1",
        "metric": neummu_metric,
        "area": "neummu_small",
    },
    "neunoc": {
        "workload": "uniform random, 0.02 pkt/PE/cycle, 20% multicast, 30% zero words; 3x2 mesh of rings of 4",
        "make": "{b}/sw/neunoc/nnoc_traffic --pattern uniform --k 4 --cols 3 --rows 2 --rate 0.02 --len 1:7"
                " --cycles 5000 --mcast-frac 0.2 --mcast-dests 3 --zero-frac 0.3 -o {b}/work/neunoc_uniform.nnt",
        "run": "{b}/tb/neunoc_small/neunoc_small +traffic={b}/work/neunoc_uniform.nnt +gap=0",
        "metric": neunoc_metric,
        "area": "nnoc_mesh_router_small",
    },
}


def run(cmd):
    p = subprocess.run(cmd, shell=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=ROOT)
    return p.returncode, p.stdout.decode(errors="replace")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--blocks", default=" ".join(WORKLOADS))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--trace", default="0")
    ap.add_argument("--no-synth", action="store_true")
    a = ap.parse_args()
    blocks = [b for b in a.blocks.split() if b in WORKLOADS]
    os.makedirs(os.path.join(BUILD, "work"), exist_ok=True)
    os.makedirs(os.path.join(BUILD, "wave"), exist_ok=True)
    rows, failed = [], 0
    for blk in blocks:
        w = WORKLOADS[blk]
        rc, out = run(w["make"].format(b=BUILD))
        if rc:
            print(out)
            sys.exit("main job: making the %s workload failed" % blk)
        cmd = w["run"].format(b=BUILD)
        if a.trace == "1":
            cmd += " +trace=%s/wave/%s.fst" % (BUILD, blk)
        print("[%s] %s" % (blk, cmd), flush=True)
        rc, out = run(cmd)
        with open(os.path.join(BUILD, "work", blk + ".log"), "w") as f:
            f.write(out)
        m = list(RESULT.finditer(out))
        npass, nfail = (int(m[-1].group(1)), int(m[-1].group(2))) if m else (0, 1)
        ok = rc == 0 and nfail == 0 and npass > 0
        failed += not ok
        cycles, metric = w["metric"](out)
        rows.append([blk, w["workload"], "%d/%d%s" % (npass, npass + nfail, "" if ok else " FAIL"),
                     str(cycles) if cycles is not None else "?", metric, w["area"]])
        if a.trace == "1":
            print("[%s] waveform: %s/wave/%s.fst" % (blk, BUILD, blk))
    area = {}
    if not a.no_synth:
        cfgs = ",".join(r[5] for r in rows)
        print("[synth] %s" % cfgs, flush=True)
        rc, out = run("python3 synth/run_synth.py --jobs %d --only %s" % (a.jobs, cfgs))
        if rc:
            print(out[-2000:])
            failed += 1
        tsv = os.path.join(BUILD, "synth", "area.tsv")
        if os.path.exists(tsv):
            with open(tsv) as f:
                area = {r["config"]: r for r in csv.DictReader(f, delimiter="\t")}
    for r in rows:
        t = area.get(r[5])
        r[5] = ("%s: %s cells, %s LUT4, %s BRAM" % (r[5], t["cells"], t["lut"], t["bram"])) if t else "(not synthesized)"
    head = ["block", "workload", "checks passed", "cycles", "key metric", "area (Yosys generic / iCE40)"]
    widths = [max(len(x[i]) for x in rows + [head]) for i in range(len(head))]
    line = lambda r: "| " + " | ".join(c.ljust(widths[i]) for i, c in enumerate(r)) + " |"
    print()
    print(line(head))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print(line(r))
    print()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""make bench-tensordimm: measures the TensorDIMM figures of the brief on the RTL (every run is a
co-simulation: each output block is checked against the golden model and every DRAM command
against the JEDEC timing checker; a run that fails either is reported as failed) and writes
docs/results/tensordimm.md, docs/results/tensordimm_scaling.png and $BUILD/bench/tensordimm.tsv
(figure<TAB>paper<TAB>ours<TAB>unit).

  data-bus utilization per op  GATHER (random and sequential indices, k = 1 and k = 4), REDUCE,
                               AVERAGE (averageNum 50) on one DIMM, over queue depths, write-batch
                               length, ranks and the mapping's ColLoW; each beside the bound the
                               DDR4 timing allows for that op's reads and writes (below) and the
                               paper's 98.6%
  scaling                      aggregate bandwidth of 1, 2, 4, 8 DIMMs (GATHER random, REDUCE)
  embedding layers             NCF, YouTube, Fox, Facebook at batch 64, dimension 512, 8 DIMMs:
                               cycles and bytes to the GPU with and without near-memory reduction
  area                         from $BUILD/synth/area.tsv (synth/run_synth.py --only
                               tensordimm_core1,tdimm_alu_16) beside Table 3

Bound of a run (core cycles; one 64 B burst per core cycle is the peak):
  bus      = reads + writes
  tFAW     = ACTs x tFAW / 4 / 4 / ranks   (four ACTs per tFAW window per rank, DRAM clocks / 4)
  turn     = write batches x (RD->WR + WR->RD bubbles) = ceil(writes / (CDepth + Depth)) x 7 when an op both
             reads and writes (RD->WR: CL + 4 + 2 - CWL = 12 clocks, 8 of them idle; WR->RD other
             group: CWL + 4 + tWTR_S = 24 clocks, 20 idle; 28 clocks = 7 cycles per batch at best)
  bound    = max(bus + turn, tFAW) / (1 - refresh), refresh = (tRFC + tRP) / tREFI per rank = 4.7%
  The ACT count is the run's own (ColLoW and k decide how many rows a stream opens).
Environment: BUILD (default build), JOBS (parallel runs, default 2), QUICK=1 (smaller runs).
"""
import concurrent.futures as cf
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import results  # noqa: E402
BUILD = os.environ.get("BUILD", "build")
JOBS = int(os.environ.get("JOBS", "2"))
QUICK = os.environ.get("QUICK", "0") == "1"
os.chdir(ROOT)
WORK = os.path.join(BUILD, "bench", "tensordimm")
WLT = os.path.join(BUILD, "sw", "tensordimm", "tdimm_workload")

# DDR4-3200AA (docs/tensordimm_ddr4.md), DRAM clocks
CL, CWL, TFAW, TRFC, TRP, TREFI = 22, 16, 34, 560, 22, 12480
REFRESH = (TRFC + TRP) / TREFI
CORE_NS = 2.5                   # 400 MHz core clock: one 64 B burst per cycle = 25.6 GB/s
PAPER_UTIL = 808 / 819.2        # Fig. 11 best case, 32 DIMMs

BUILDS = {  # harness: (label, N, ranks, ColLoW, Depth, CDepth)
    "tdimm_b_q8": ("queues 8 (paper)", 1, 1, 1, 8, 8),
    "tdimm_b_q16": ("queues 16", 1, 1, 1, 16, 16),
    "tdimm_b_q32": ("queues 32", 1, 1, 1, 32, 32),
    "tdimm_b_q32c64": ("queues 32, C 64", 1, 1, 1, 32, 64),
    "tdimm_b_q32r2": ("queues 32, 2 ranks", 1, 2, 1, 32, 32),
    "tdimm_b_q32r4": ("queues 32, 4 ranks", 1, 4, 1, 32, 32),
    "tdimm_b_q32col0": ("queues 32, ColLoW 0", 1, 1, 0, 32, 32),
    "tdimm_b_q32col2": ("queues 32, ColLoW 2", 1, 1, 2, 32, 32),
    "tdimm_b_q32n2": ("queues 32, 2 DIMMs", 2, 1, 1, 32, 32),
    "tdimm_b_q32n4": ("queues 32, 4 DIMMs", 4, 1, 1, 32, 32),
    "tdimm_b_q32n8": ("queues 32, 8 DIMMs", 8, 1, 1, 32, 32),
}
COUNT = 1000 if QUICK else 4000
OPS = {  # name: workload options (one DIMM; --cores is added)
    "GATHER random k=1": "--op gather --count %d --k 1" % COUNT,
    "GATHER sequential k=1": "--op gather --count %d --k 1 --seq" % COUNT,
    "GATHER random k=4": "--op gather --count %d --k 4" % (COUNT // 4),
    "REDUCE add k=1": "--op reduce --count %d --k 1" % COUNT,
    "AVERAGE avg=50": "--op average --count %d --k 1 --avg 50" % (COUNT // 40),
}


def sh(cmd):
    p = subprocess.run(cmd, shell=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return p.returncode, p.stdout.decode(errors="replace")


def build(names):
    rc, out = sh("make -s -j%d %s" % (JOBS, " ".join("%s/tb/%s/%s" % (BUILD, n, n) for n in names)))
    if rc:
        sys.exit("bench-tensordimm: build failed\n" + out[-3000:])


def run(harness, wl_args, cores, tag):
    os.makedirs(WORK, exist_ok=True)
    wl = os.path.join(WORK, "%s.wl" % tag)
    rc, out = sh("%s %s --cores %d --seed 1 -o %s" % (WLT, wl_args, cores, wl))
    if rc:
        return {"ok": False, "why": out.strip()}
    rc, out = sh("%s/tb/%s/%s +workload=%s" % (BUILD, harness, harness, wl))
    f = results.line_fields(out, "tensordimm: insns=") or {}
    f["ok"] = rc == 0 and results.clean_pass(out)
    if not f["ok"]:
        f["why"] = out[-600:]
    return f


def bound(f, ranks, cdepth, depth):
    rd, wr, act = f["rd"], f["wr"], f["act"]
    n = f["cores"]
    bus = (rd + wr) / n
    # a write batch holds at most queue C plus what the ALU makes of queue A meanwhile
    turn = math.ceil(wr / n / (cdepth + depth)) * 7 if rd and wr else 0
    faw = act / n * TFAW / 4 / 4 / ranks
    limit = "bus" if bus + turn >= faw else "tFAW"
    cyc = max(bus + turn, faw) / (1 - REFRESH)
    return (rd + wr) / n / cyc, limit


def util(f, ranks=1):
    # ref_clocks counts the clocks in which some rank is in tRFC; with R ranks refreshing in turn
    # (staggered) one rank's refresh leaves the other ranks the bus, so the capacity lost is
    # ref_clocks / R (each rank's share)
    return (f["bus_busy"] / f["clocks"],
            f["bus_busy"] / max(1, f["clocks"] - f["ref_clocks"] / ranks))


def main():
    os.makedirs(WORK, exist_ok=True)
    build(list(BUILDS))
    jobs = {}
    with cf.ThreadPoolExecutor(max_workers=JOBS) as ex:
        for h, (label, n, ranks, col, d, c) in BUILDS.items():
            if n != 1:
                continue
            for op, args in OPS.items():
                tag = "%s_%s" % (h, op.replace(" ", "_").replace("=", ""))
                jobs[(h, op)] = ex.submit(run, h, args, 1, tag)
        for h in ("tdimm_b_q32", "tdimm_b_q32n2", "tdimm_b_q32n4", "tdimm_b_q32n8"):
            n = BUILDS[h][1]
            for op in ("GATHER random k=1", "REDUCE add k=1"):
                args = OPS[op].replace("--count %d" % COUNT, "--count %d" % (COUNT * n))
                jobs[(h, "scale " + op)] = ex.submit(run, h, args, n, "%s_scale_%s" % (h, op[:6]))
        for net in ("ncf", "youtube", "fox", "facebook"):
            batch = 16 if QUICK else 64
            jobs[("net", net)] = ex.submit(run, "tdimm_b_q32n8", "--net %s --batch %d" % (net, batch),
                                           8, "net_" + net)
        res = {k: v.result() for k, v in jobs.items()}

    tsv = []
    md = ["# TensorDIMM results", "",
          "Generated by `make bench-tensordimm` (`tb/tensordimm/bench_tensordimm.py`); do not edit "
          "by hand. Every run is a co-simulation of the RTL against the golden model with the "
          "DDR4-3200AA device model and its independent JEDEC timing checker on each DIMM "
          "(docs/tensordimm_ddr4.md): a run with a wrong block or a timing violation is marked "
          "failed. Core clock 400 MHz (a quarter of the DRAM clock): one 64 B burst per core "
          "cycle is the DIMM's 25.6 GB/s. %s" % ("QUICK=1 (short runs)." if QUICK else ""), "",
          "## Data-bus utilization per op (one DIMM)", "",
          "*all cycles*: data-bus busy clocks over all clocks; *outside refresh*: over the clocks "
          "not lost to refresh (the clocks some rank is in tRFC, divided by the rank count: "
          "ranks refresh in turn and the others keep the bus). *bound*: what DDR4 timing allows for the run's own reads, "
          "writes and ACTs (module docstring: bus, read-write turnarounds with write batches of at "
          "most CDepth + Depth, four ACTs per tFAW per rank, refresh); *of bound* = all cycles / bound. "
          "*turnarounds*: RD<->WR switches on the bus; *conflicts*: ACTs after closing another "
          "row of the bank. Paper: 808 of 819.2 GB/s = 98.6% (Fig. 11, its best case, "
          "Ramulator, no DDR4 timing stated).", ""]
    head = ["op", "configuration", "all cycles", "outside refresh", "bound (limit)", "of bound",
            "paper", "reads", "writes", "ACTs", "conflicts", "turnarounds", "check"]
    rows = []
    best = {}
    for op in OPS:
        for h, (label, n, ranks, col, d, c) in BUILDS.items():
            if n != 1:
                continue
            f = res[(h, op)]
            if "bus_busy" not in f:
                rows.append([op, label] + ["—"] * 10 + ["FAILED"])
                continue
            ua, uo = util(f, ranks)
            b, lim = bound(f, ranks, c, d)
            rows.append([op, label, "%.1f%%" % (100 * ua), "%.1f%%" % (100 * uo),
                         "%.1f%% (%s)" % (100 * b, lim), "%.0f%%" % (100 * ua / b),
                         "%.1f%%" % (100 * PAPER_UTIL), f["rd"], f["wr"], f["act"],
                         f["conflicts"], f["switches"], "ok" if f["ok"] else "FAILED"])
            tsv.append(("util %s %s" % (op, label), "%.4f" % PAPER_UTIL, "%.4f" % ua, "fraction"))
            tsv.append(("util-outside-refresh %s %s" % (op, label), "%.4f" % PAPER_UTIL,
                        "%.4f" % uo, "fraction"))
            tsv.append(("bound %s %s" % (op, label), "", "%.4f" % b, "fraction"))
            if f["ok"] and (op not in best or uo > best[op][0]):
                best[op] = (uo, label, ua, b)
    md += results.md_table(head, rows, "llrrrrrrrrrrl")
    md += ["", "Best configuration per op (cycles outside refresh):", ""]
    md += results.md_table(["op", "configuration", "outside refresh", "all cycles", "bound",
                            "target"],
                           [[op, v[1], "%.1f%%" % (100 * v[0]), "%.1f%%" % (100 * v[2]),
                             "%.1f%%" % (100 * v[3]),
                             "95%" if not op.startswith("GATHER random") else "90%"]
                            for op, v in best.items()], "llrrrr")

    md += ["", "## Aggregate bandwidth against the number of DIMMs", "",
           "Queues 32; the same per-DIMM work on every DIMM (the count scales with N). "
           "Bandwidth = 64 B x (reads + writes) / (cycles x 2.5 ns); peak = N x 25.6 GB/s. "
           "Paper: linear in the DIMM count (Fig. 12; 3.1 TB/s at 128 DIMMs with enlarged "
           "embeddings).", ""]
    srows, pts = [], {}
    for op in ("GATHER random k=1", "REDUCE add k=1"):
        for h in ("tdimm_b_q32", "tdimm_b_q32n2", "tdimm_b_q32n4", "tdimm_b_q32n8"):
            n = BUILDS[h][1]
            f = res[(h, "scale " + op)]
            if "cycles" not in f:
                srows.append([op, n, "—", "—", "—", "FAILED"])
                continue
            gbs = 64 * (f["rd"] + f["wr"]) / (f["cycles"] * CORE_NS)
            pts.setdefault(op, []).append((n, gbs))
            srows.append([op, n, "%.1f" % gbs, "%.1f" % (25.6 * n), "%.1f" % (gbs / n),
                          "ok" if f["ok"] else "FAILED"])
            tsv.append(("bandwidth %s N=%d" % (op, n), "", "%.2f" % gbs, "GB/s"))
    md += results.md_table(["op", "DIMMs", "GB/s", "peak GB/s", "GB/s per DIMM", "check"], srows,
                           "lrrrrl")
    md += ["", "![aggregate bandwidth](tensordimm_scaling.png)", ""]
    try:
        try:
            import matplotlib
        except ImportError:
            subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "matplotlib"],
                           check=False)
            import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(6, 4))
        for op, p in pts.items():
            ax.plot([x for x, _ in p], [y for _, y in p], "o-", label=op)
        ax.plot([1, 8], [25.6, 204.8], "k--", label="peak (25.6 GB/s per DIMM)")
        ax.set_xlabel("DIMMs (NMP cores)")
        ax.set_ylabel("aggregate GB/s")
        ax.legend()
        ax.grid(True, alpha=0.3)
        fig.tight_layout()
        fig.savefig(os.path.join("docs", "results", "tensordimm_scaling.png"), dpi=100)
    except ImportError:
        md += ["(matplotlib missing: no plot)", ""]

    md += ["## Embedding layers (8 DIMMs, queues 32, dimension 512 fp32, batch %d)" %
           (16 if QUICK else 64), "",
           "docs/tensordimm_workloads.md has each layer's instructions. *bytes to GPU*: with "
           "near-memory reduction only the reduced rows leave the TensorNode; without it every "
           "gathered row does.", ""]
    nrows = []
    for net in ("ncf", "youtube", "fox", "facebook"):
        f = res[("net", net)]
        if "cycles" not in f:
            nrows.append([net] + ["—"] * 6 + ["FAILED"])
            continue
        rc, out = sh("%s --net %s --batch %d --cores 8 --seed 1 --summary -o /dev/null" %
                     (WLT, net, 16 if QUICK else 64))
        s = results.line_fields(out, "net=") or {}
        ua, uo = util(f)
        nmp, no = s.get("bytes_to_gpu_nmp", 0), s.get("bytes_to_gpu_no_nmp", 0)
        nrows.append([net, f["insns"], f["cycles"], "%.1f" % (f["cycles"] * CORE_NS / 1000),
                      "%.1f%%" % (100 * ua), no, nmp, "%.1fx" % (no / nmp if nmp else 0),
                      "ok" if f["ok"] else "FAILED"])
        tsv.append(("layer cycles %s" % net, "", str(f["cycles"]), "cycles"))
        tsv.append(("bytes to GPU reduction %s" % net, "", "%.2f" % (no / nmp if nmp else 0), "x"))
    md += results.md_table(["network", "insns", "cycles", "us", "bus utilization",
                            "bytes to GPU without NMP", "with NMP", "reduction", "check"], nrows,
                           "lrrrrrrrl")

    area = results.read_area()
    # rows kept in docs/area.md from earlier runs (the float units) when area.tsv lacks them:
    # its first table (config, module, params, cells, transistors, LUT4, FF, ...) and the ECP5
    # table (config, LUT4, carry, FF, BRAM, DPRAM, DSP, ...)
    try:
        ecp5 = False
        with open(os.path.join("docs", "area.md")) as fa:
            for line in fa:
                if line.startswith("## ECP5"):
                    ecp5 = True
                c = [x.strip() for x in line.strip().strip("|").split("|")]
                if not ecp5 and len(c) >= 9 and c[0] not in area and c[3].isdigit():
                    area[c[0]] = {"cells": c[3], "lut": c[5], "ff": c[6]}
                elif ecp5 and len(c) >= 7 and c[0] in area and c[1].isdigit() and \
                        not area[c[0]].get("ecp5_lut"):
                    area[c[0]].update({"ecp5_lut": c[1], "ecp5_ff": c[3], "ecp5_dsp": c[6]})
    except OSError:
        pass
    md += ["", "## NMP core area", "",
           "From `make synth` rows (docs/area.md): `tensordimm_core1` (one core, paper queues, "
           "16 lanes kept as modules and summed) and `tdimm_alu_16` (the vector ALU). Table 3 of "
           "the paper in absolute numbers (its percentages of a VU9P's 1,182,240 LUTs and 6,840 "
           "DSPs): FPU about 2,250 LUTs and 14 DSPs, ALU about 1,060 LUTs.", ""]
    arows = []
    for cfg in ("tensordimm_core1", "tdimm_alu_16", "fp_add_f32", "fp_mul_f32", "fp_cmp_f32",
                "fp_divsqrt_iter_f32"):
        r = area.get(cfg)
        if not r:
            arows.append([cfg, "not synthesized"] + [""] * 5)
            continue
        arows.append([cfg, r.get("cells", ""), r.get("lut", ""), r.get("ff", ""),
                      r.get("ecp5_lut", ""), r.get("ecp5_dsp", ""), r.get("ecp5_ff", "")])
    md += results.md_table(["configuration", "generic cells", "iCE40 LUT4", "iCE40 FF",
                            "ECP5 LUT4", "ECP5 DSP", "ECP5 FF"], arows, "lrrrrrr")
    md.append("")
    with open(os.path.join("docs", "results", "tensordimm.md"), "w") as f:
        f.write("\n".join(md))
    os.makedirs(os.path.join(BUILD, "bench"), exist_ok=True)
    with open(os.path.join(BUILD, "bench", "tensordimm.tsv"), "w") as f:
        f.write("figure\tpaper\tours\tunit\n")
        for r in tsv:
            f.write("\t".join(r) + "\n")
    print("\n".join(md))
    bad = [k for k, v in res.items() if not v.get("ok")]
    if bad:
        print("bench-tensordimm: %d runs FAILED: %s" % (len(bad), bad))
        for k in bad[:3]:
            print(k, res[k].get("why", "")[-400:])
        sys.exit(1)


if __name__ == "__main__":
    main()

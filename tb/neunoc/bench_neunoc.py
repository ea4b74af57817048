#!/usr/bin/env python3
"""make bench-neunoc: measures the Neu-NoC figures of the brief on this repository's RTL and tools
and writes docs/results/neunoc.md, docs/results/neunoc_latency.png and $BUILD/bench/neunoc.tsv
(figure<TAB>paper<TAB>ours<TAB>unit).

  mapping (Table 11)       sw/neunoc/nnoc_map: hop count and max link load, random (mean of 100
                           seeds) vs NN-aware; packets without / with multicast merging
  zero-flit traffic        NN layer traffic (sw/neunoc/nnoc_traffic --pattern nn) through the RTL:
                           flits entering the mesh / flits the PEs sent (stat counters)
  latency vs injection     uniform random traffic on 64 PEs: Neu-NoC (rings of 8 on a 4 x 2 mesh)
                           and the 8 x 8 mesh, same router; zero-load latency against the
                           pipeline's analytic latency; saturation throughput
  NN latency, Neu-NoC/mesh mnist_mlp_1 / mnist_mlp_2 at Table 10's sizes (Neu-NoC 3x3 / 4x4 rings
                           of 8 with multicast and packing; mesh 6x6 / 10x10 unicast, no packing)
  pack/unpack area         from $BUILD/synth/area.tsv (python3 synth/run_synth.py --only ...)

Every RTL run checks each delivered packet against the C model (the harness fails otherwise).
Environment: BUILD (default build), JOBS (parallel runs, default 2).
"""
import concurrent.futures as cf
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import results  # noqa: E402  (harness output, area.tsv)
BUILD = os.environ.get("BUILD", "build")
JOBS = int(os.environ.get("JOBS", "2"))
os.chdir(ROOT)
WORK = os.path.join(BUILD, "bench", "neunoc")
MAP = os.path.join(BUILD, "sw", "neunoc", "nnoc_map")
TRAFFIC = os.path.join(BUILD, "sw", "neunoc", "nnoc_traffic")

BENCHES = ["mnist_mlp_1", "mnist_mlp_2", "mnist_mlp_3", "mnist_mlp_4", "mnist_mlp_5", "alexnet_cnn_cla"]
# Table 11: hops random / NN, max load random / NN, packets NN / multicast, traffic left
PAPER_T11 = {
    "mnist_mlp_1": (12, 4, 3, 1, None, None, 63.8),
    "mnist_mlp_2": (124, 76, 16, 4, 36, 20, 55.8),
    "mnist_mlp_3": (550, 421, 24, 14, 132, 87, 58.3),
    "mnist_mlp_4": (1774, 1308, 36, 11, 324, 224, 53.2),
    "mnist_mlp_5": (3958, 3074, 27, 16, 644, 419, 56.8),
    "alexnet_cnn_cla": (8218, 7024, 90, 54, 1260, 563, 48.3),
}
UNIFORM_RATES = [0.002, 0.005, 0.01, 0.015, 0.02, 0.025, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.10, 0.12]
UNIFORM_LEN = 4          # data words per packet
UNIFORM_CYCLES = 4000
ZERO_LOAD_RATE, ZERO_LOAD_CYCLES = 0.0005, 20000   # ~640 packets, almost never two in flight at once
NN_RUNS = {              # benchmark: (Neu-NoC build, mesh build)
    "mnist_mlp_1": ("neunoc_b3x3", "neunoc_m6x6"),
    "mnist_mlp_2": ("neunoc_b4x4", "neunoc_m10x10"),
}
# Images per cycle. Each image makes every PE of a layer send its 16 activations to every ring
# (Neu-NoC) or PE (mesh) of the next layer, so a destination receives a layer's whole output:
# ~19 x 17 flits per image in mnist_mlp_1 and ~63 x 17 in mnist_mlp_2 through its one ejection
# channel, which bounds the rate near 1/320 and 1/1100 images per cycle.
NN_RATES = {"mnist_mlp_1": [0.0002, 0.0005, 0.001, 0.002], "mnist_mlp_2": [0.0001, 0.0002, 0.0004, 0.0008]}
NN_IMAGES = 24
THRESHOLD = 0.5          # activation threshold of the NN traffic (zero fraction Phi(0.5) = 69%)


def die(msg):
    sys.stderr.write("bench-neunoc: %s\n" % msg)
    sys.exit(1)


run = results.run


def harness(name):
    path = os.path.join(BUILD, "tb", name, name)
    if not os.path.exists(path):
        die("%s missing (make bench-neunoc builds it)" % path)
    return path


def summary(out, prefix):
    """key=value pairs (strings) of the last line starting with prefix."""
    return results.line_fields(out, prefix, numbers=False) or {}


NOC_KEYS = ("cycles", "packets", "delivered", "avg_lat", "avg_net_lat", "max_lat", "pe_flits", "mesh_flits")


def sim(build, traffic):
    """Runs a traffic file through a harness; returns the statistics (or dies on a failed check)."""
    rc, out = run("%s +traffic=%s +gap=0 +timeout=20000000" % (harness(build), traffic))
    m, r = results.line_fields(out, "noc: "), results.result_counts(out)
    if rc != 0 or not m or any(k not in m for k in NOC_KEYS) or not r or r[1] != 0:
        die("%s on %s failed:\n%s" % (build, traffic, out[-2000:]))
    return {"cycles": int(m["cycles"]), "packets": int(m["packets"]), "delivered": int(m["delivered"]),
            "lat": float(m["avg_lat"]), "net_lat": float(m["avg_net_lat"]), "max_lat": int(m["max_lat"]),
            "pe_flits": int(m["pe_flits"]), "mesh_flits": int(m["mesh_flits"]), "checks": r[0]}


# ---------------------------------------------------------------- mapping (Table 11)
def mapping():
    rows = {}
    for b in BENCHES:
        rc, out = run("%s --bench %s --seeds 100 --scheme all -o %s/%s.map" % (MAP, b, WORK, b))
        if rc != 0:
            die("nnoc_map %s: %s" % (b, out.strip()))
        rnd, nn = summary_scheme(out, "random_mean"), summary_scheme(out, "nn")
        rows[b] = {"hops_r": float(rnd["hops"]), "hops_nn": int(nn["hops"]), "load_r": float(rnd["max_load"]),
                   "load_nn": int(nn["max_load"]), "pkts": int(nn["pkts"]), "merged": int(nn["pkts_merged"]),
                   "mesh": nn["mesh"], "rings": nn["rings"]}
    return rows


def summary_scheme(out, scheme):
    for line in out.splitlines():
        if line.startswith("summary ") and (" scheme=%s " % scheme) in line + " ":
            return dict(p.split("=", 1) for p in line.split()[1:] if "=" in p)
    die("nnoc_map printed no summary for scheme %s" % scheme)
    return {}


# ---------------------------------------------------------------- traffic files
def nn_traffic(bench, k, rate, multicast, tag, dense=False):
    path = "%s/%s_%s_%g.nnt" % (WORK, bench, tag, rate)
    mapfile = "%s/%s_k%d.map" % (WORK, bench, k)
    if not os.path.exists(mapfile):
        rc, out = run("%s --bench %s --k %d --scheme nn -o %s" % (MAP, bench, k, mapfile))
        if rc != 0:
            die("nnoc_map %s k %d: %s" % (bench, k, out.strip()))
    rc, out = run("%s --pattern nn --map %s --images %d --rate %g %s %s -o %s" % (
        TRAFFIC, mapfile, NN_IMAGES, rate, "--dense" if dense else "--threshold %g" % THRESHOLD,
        "" if multicast else "--no-multicast", path))
    if rc != 0:
        die("nnoc_traffic nn %s: %s" % (bench, out.strip()))
    return path, summary(out, "nnoc_traffic: summary ")


def uniform_traffic(k, cols, rows, rate, cycles=UNIFORM_CYCLES):
    path = "%s/uniform_k%d_%dx%d_%g_%d.nnt" % (WORK, k, cols, rows, rate, cycles)
    rc, out = run("%s --pattern uniform --k %d --cols %d --rows %d --rate %g --len %d --cycles %d -o %s" % (
        TRAFFIC, k, cols, rows, rate, UNIFORM_LEN, cycles, path))
    if rc != 0:
        die("nnoc_traffic uniform: %s" % out.strip())
    return path


# ---------------------------------------------------------------- analytic zero-load latency
def analytic_uniform(k, cols, rows, words):
    """Mean of the pipeline's zero-load latency (docs/neunoc.md) over uniform source/destination
    pairs of distinct PEs (what nnoc_traffic --pattern uniform draws)."""
    npe = k * cols * rows
    total, n = 0, 0
    for s in range(npe):
        for d in range(npe):
            if s == d:
                continue
            rs, rd = s // k, d // k
            h = abs(rs % cols - rd % cols) + abs(rs // cols - rd // cols)
            if k > 1:
                lat = (k - s % k) + 1 + 3 * (h + 1) + (2 + d % k) + words
            else:
                lat = 1 + 3 * (h + 1) + 1 + words
            total += lat
            n += 1
    return total / n


def channel_bound(k, cols, rows, words):
    """Throughput bound (packets/PE/cycle) of uniform random traffic: every channel carries at most
    one flit per cycle. Loads per unit injection rate are summed over the XY paths of all source /
    destination PE pairs (each packet also crosses its router's injection channel -- the send ring
    when K > 1 -- and the ejection channel at the destination). Returns (bound, bottleneck)."""
    npe = k * cols * rows
    load = {}
    for s in range(npe):
        for d in range(npe):
            if s == d:
                continue
            w = 1.0 / (npe - 1)
            rs, rd = s // k, d // k
            x, y = rs % cols, rs // cols
            xd, yd = rd % cols, rd // cols
            chans = [("inject", rs), ("eject", rd)]
            while x != xd:
                nx = x + (1 if xd > x else -1)
                chans.append(("link", (x, y), (nx, y)))
                x = nx
            while y != yd:
                ny = y + (1 if yd > y else -1)
                chans.append(("link", (x, y), (x, ny)))
                y = ny
            for c in chans:
                load[c] = load.get(c, 0.0) + w
    worst = max(load, key=load.get)
    return 1.0 / (load[worst] * (words + 1)), worst[0]


# ---------------------------------------------------------------- area
AREA_CONFIGS = ["nnoc_%s_%s" % (b, w) for w in ("small", "paper")
                for b in ("mesh_router", "ring_send", "ring_recv", "inject", "eject", "pack", "unpack")]


def area():
    """The nnoc_* rows of $BUILD/synth/area.tsv; synthesizes the missing ones first (the paper-width
    mesh router takes about 13 minutes)."""
    def rows():
        return {n: r for n, r in results.read_area().items() if n.startswith("nnoc_")}
    missing = [c for c in AREA_CONFIGS if c not in rows()]
    if missing:
        print("bench-neunoc: synthesizing %s" % ", ".join(missing), flush=True)
        rc, out = run("python3 synth/run_synth.py --jobs %d --timeout 3600 --only %s" % (JOBS, ",".join(missing)))
        if rc != 0:
            sys.stderr.write("bench-neunoc: warning: synthesis failed, area rows left out:\n%s\n" % out[-1500:])
    return rows()


def pack_overhead(ar, size, k):
    need = ["nnoc_mesh_router_" + size, "nnoc_ring_send_" + size, "nnoc_ring_recv_" + size, "nnoc_inject_" + size,
            "nnoc_eject_" + size, "nnoc_pack_" + size, "nnoc_unpack_" + size]
    if any(n not in ar for n in need):
        return None
    c = {n: int(ar[n]["cells"]) for n in need}
    router = (c[need[0]] + k * (c[need[1]] + c[need[2]]) + c[need[3]] + c[need[4]])
    pu = c[need[5]] + c[need[6]]
    ring = router - c[need[0]]
    return {"router": router, "pack": pu, "pct": 100.0 * pu / (router + pu),
            "mesh_share": 100.0 * c[need[0]] / router, "ring_pct": 100.0 * pu / (ring + pu),
            "lut_router": int(ar[need[0]]["lut"]) + k * (int(ar[need[1]]["lut"]) + int(ar[need[2]]["lut"])) +
            int(ar[need[3]]["lut"]) + int(ar[need[4]]["lut"]),
            "lut_pack": int(ar[need[5]]["lut"]) + int(ar[need[6]]["lut"])}


# ---------------------------------------------------------------- plot
def plot(curves, nn_curves, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "matplotlib"], check=False)
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            return False
    fig, axes = plt.subplots(1, 1 + len(nn_curves), figsize=(5 * (1 + len(nn_curves)), 4))
    ax = axes[0]
    for label, pts in curves.items():
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=label)
    ax.set_xlabel("injection rate (packets / PE / cycle)")
    ax.set_ylabel("average packet latency (cycles)")
    ax.set_title("uniform random, 64 PEs, %d-word packets" % UNIFORM_LEN)
    ax.set_yscale("log")
    ax.legend()
    ax.grid(True, alpha=0.3)
    for ax, (bench, cs) in zip(axes[1:], nn_curves.items()):
        for label, pts in cs.items():
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=label)
        ax.set_xlabel("injection rate (images / cycle)")
        ax.set_ylabel("average packet latency (cycles)")
        ax.set_title("%s, NN layer traffic (Table 10 sizes)" % bench)
        ax.tick_params(axis="x", labelrotation=30)
        ax.set_yscale("log")
        ax.legend()
        ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return True


# Printed under the NN latency table (filled with measured values).
NN_NOTE = ("Reading the comparison: the paper's 23.2%% is an average over six benchmarks; we run the two "
           "whose Table 10 networks Verilator builds in reasonable time (a 10 x 10 mesh takes about 20 "
           "minutes; mnist_mlp_3..5 and AlexNet need up to 24 x 24). Per benchmark our dense reduction is "
           "%(per_bench)s (mean over the rates). The mesh baseline sends one unicast packet per destination PE, "
           "while a Neu-NoC packet reaches all PEs of a ring at once, so the mesh injects %(flit_ratio)s the "
           "flits of Neu-NoC (mnist_mlp_1 / mnist_mlp_2) and queues longer at the destinations' ejection "
           "channels, which bound both networks under this bursty traffic. mnist_mlp_2's 63-PE layer fans out "
           "to 32 PEs (4 full rings), which favours rings more than mnist_mlp_1's 19 -> 7. Our layers send on "
           "a fixed schedule, not when all their inputs have arrived, so a loaded network keeps receiving new "
           "bursts; the paper's closed loop would throttle them. Both networks use the same 3-cycle mesh "
           "router; the paper's mesh baseline has a 4-stage router, which would favour Neu-NoC further.")


# Why a figure differs from the paper by more than 2x (matched by the start of the figure name).
EXPLAIN = {
    "max load random": "The paper's random column is one random mapping (the one drawn in its Figure 37); "
    "ours is the mean over 100 seeds. Over 200 seeds our single-draw max loads on mnist_mlp_2 range from 5 "
    "to 14, so 16 is an unusually bad draw, or a random placement that clumps whole layers. The NN-aware "
    "column, the mapper's actual result, agrees (4 vs 4) (docs/neunoc_workloads.md).",
    "pack/unpack area overhead": "The paper does not say what \"the router design\" includes. Ours is the "
    "whole Neu-NoC router: the 5-port mesh router with V x Depth flit buffers per port in flip-flops, K ring "
    "routers and the inject/eject adapters. The buffers dominate it (the mesh router alone is %(mesh_share)s of "
    "the cells), while packing and unpacking are a CntW-bit run counter, a zero-word comparator and output muxes each (no flit storage: 4 flip-flops each). Against the "
    "ring side alone (K ring routers and inject/eject, the Figure 36b ring router that holds the pack and "
    "unpack blocks) pack and unpack are %(ring_pct)s.",
}


# ---------------------------------------------------------------- main
def main():
    t0 = time.time()
    os.makedirs(WORK, exist_ok=True)
    os.makedirs("docs/results", exist_ok=True)
    for tool in (MAP, TRAFFIC):
        if not os.path.exists(tool):
            die("%s missing (make build-tests)" % tool)
    nruns, nchecks = 0, 0

    maps = mapping()

    # uniform random latency curves, 64 PEs
    nets = {"Neu-NoC (K 8, 4x2 mesh)": ("neunoc_b64", 8, 4, 2), "mesh 8x8": ("neunoc_m64", 1, 8, 8)}
    jobs = {}
    with cf.ThreadPoolExecutor(max_workers=JOBS) as ex:
        for label, (b, k, c, r) in nets.items():
            for rate in UNIFORM_RATES:
                jobs[(label, rate)] = ex.submit(sim, b, uniform_traffic(k, c, r, rate))
            jobs[(label, "zero")] = ex.submit(sim, b, uniform_traffic(k, c, r, ZERO_LOAD_RATE, ZERO_LOAD_CYCLES))
        uni = {key: f.result() for key, f in jobs.items()}
    nruns += len(uni)
    nchecks += sum(v["checks"] for v in uni.values())
    curves = {label: [(rate, uni[(label, rate)]["lat"]) for rate in UNIFORM_RATES] for label in nets}
    zero = {label: uni[(label, "zero")]["net_lat"] for label in nets}
    analytic = {label: analytic_uniform(k, c, r, UNIFORM_LEN) for label, (b, k, c, r) in nets.items()}
    bound = {label: channel_bound(k, c, r, UNIFORM_LEN) for label, (b, k, c, r) in nets.items()}
    sat = {}
    for label in nets:
        sat[label] = None   # highest rate up to which every measured latency stays below 3x zero-load
        for rate in UNIFORM_RATES:
            if uni[(label, rate)]["lat"] >= 3 * zero[label]:
                break
            sat[label] = rate

    # NN workloads: Neu-NoC (multicast) vs mesh (unicast) on dense activations (no zero words: the
    # paper's 23.2% compares Neu-NoC without the zero-flit design), and Neu-NoC with packing on
    # activations thresholded at THRESHOLD
    nn, nn_curves, traffic_left = {}, {}, {}
    with cf.ThreadPoolExecutor(max_workers=JOBS) as ex:
        futs = {}
        for bench, (bb, mb) in NN_RUNS.items():
            for rate in NN_RATES[bench]:
                pb, sb = nn_traffic(bench, 8, rate, True, "neunoc_dense", dense=True)
                pm, sm = nn_traffic(bench, 1, rate, False, "mesh_dense", dense=True)
                pz, sz = nn_traffic(bench, 8, rate, True, "neunoc_zf")
                futs[(bench, "neunoc", rate)] = (ex.submit(sim, bb, pb), sb)
                futs[(bench, "mesh", rate)] = (ex.submit(sim, mb, pm), sm)
                futs[(bench, "neunoc_zf", rate)] = (ex.submit(sim, bb, pz), sz)
        for key, (f, s) in futs.items():
            nn[key] = f.result()
            nn[key]["tool"] = s
    nruns += len(nn)
    nchecks += sum(v["checks"] for v in nn.values())
    reductions, reductions_zf = {}, {}
    for bench in NN_RUNS:
        rates = NN_RATES[bench]
        nn_curves[bench] = {
            "Neu-NoC (dense)": [(r, nn[(bench, "neunoc", r)]["lat"]) for r in rates],
            "Neu-NoC, zero flits (threshold %g)" % THRESHOLD: [(r, nn[(bench, "neunoc_zf", r)]["lat"]) for r in rates],
            "mesh (dense)": [(r, nn[(bench, "mesh", r)]["lat"]) for r in rates]}
        reductions[bench] = [100.0 * (1 - nn[(bench, "neunoc", r)]["lat"] / nn[(bench, "mesh", r)]["lat"])
                             for r in rates]
        reductions_zf[bench] = [100.0 * (1 - nn[(bench, "neunoc_zf", r)]["lat"] / nn[(bench, "mesh", r)]["lat"])
                                for r in rates]
        x = nn[(bench, "neunoc_zf", rates[0])]
        traffic_left[bench] = 100.0 * x["mesh_flits"] / x["pe_flits"]
    # traffic left for every benchmark from the model (nnoc_mesh_flits), at the same threshold
    model_left = {}
    for b in BENCHES:
        _, s = nn_traffic(b, 8, 0.01, True, "model")
        model_left[b] = 100.0 * float(s["packed_ratio"])
    ar = area()
    ov_small, ov_paper = pack_overhead(ar, "small", 4), pack_overhead(ar, "paper", 8)
    have_png = plot(curves, nn_curves, "docs/results/neunoc_latency.png")

    # ---------------------------------------------------------------- tsv
    tsv = []
    for b in BENCHES:
        p, m = PAPER_T11[b], maps[b]
        tsv += [("hops random %s" % b, str(p[0]), "%.1f" % m["hops_r"], "hops"),
                ("hops NN-aware %s" % b, str(p[1]), str(m["hops_nn"]), "hops"),
                ("max load random %s" % b, str(p[2]), "%.2f" % m["load_r"], "packets"),
                ("max load NN-aware %s" % b, str(p[3]), str(m["load_nn"]), "packets"),
                ("packets without multicast %s" % b, "-" if p[4] is None else str(p[4]), str(m["pkts"]), "packets"),
                ("packets with multicast %s" % b, "-" if p[5] is None else str(p[5]), str(m["merged"]), "packets"),
                ("traffic left after zero-flit packing %s (model)" % b, "%.1f" % p[6], "%.1f" % model_left[b], "%")]
    for b, v in traffic_left.items():
        tsv.append(("traffic left after zero-flit packing %s (RTL)" % b, "%.1f" % PAPER_T11[b][6], "%.1f" % v, "%"))
    avg_red = sum(sum(v) / len(v) for v in reductions.values()) / len(reductions)
    avg_red_zf = sum(sum(v) / len(v) for v in reductions_zf.values()) / len(reductions_zf)
    tsv.append(("NN packet latency reduction, Neu-NoC vs mesh (mean)", "23.2", "%.1f" % avg_red, "%"))
    tsv.append(("NN packet latency reduction, Neu-NoC with zero flits vs mesh (mean)", "-", "%.1f" % avg_red_zf, "%"))
    for label in nets:
        tsv.append(("zero-load latency uniform %s" % label, "-", "%.2f" % zero[label], "cycles"))
        tsv.append(("zero-load latency uniform %s, analytic" % label, "-", "%.2f" % analytic[label], "cycles"))
        tsv.append(("saturation throughput uniform %s" % label, "-",
                    "%s" % ("-" if sat[label] is None else "%g" % sat[label]), "packets/PE/cycle"))
        tsv.append(("saturation throughput uniform %s, channel bound" % label, "-", "%.4f" % bound[label][0],
                    "packets/PE/cycle"))
    for name, ov in (("test widths", ov_small), ("paper widths", ov_paper)):
        if ov:
            tsv.append(("pack/unpack area overhead (%s)" % name, "3.1", "%.2f" % ov["pct"], "% of router cells"))
            tsv.append(("pack/unpack area vs the ring side only (%s)" % name, "-", "%.2f" % ov["ring_pct"],
                        "% of ring-side cells"))
    os.makedirs(os.path.join(BUILD, "bench"), exist_ok=True)
    with open(os.path.join(BUILD, "bench", "neunoc.tsv"), "w") as f:
        f.write("figure\tpaper\tours\tunit\n")
        for t in tsv:
            f.write("\t".join(t) + "\n")

    # ---------------------------------------------------------------- markdown
    md = ["# Neu-NoC: measured results\n",
          "Generated by `make bench-neunoc` (tb/neunoc/bench_neunoc.py); do not edit by hand. %d RTL runs "
          "(%d checks against the C model, all passed), %.0f s. Paper: Liu, Neu-NoC (seed 004, Section 3.5). "
          "Networks, flits and the pipeline: docs/neunoc.md; tools: docs/neunoc_workloads.md.\n" % (
              nruns, nchecks, time.time() - t0),
          "## Summary\n",
          "| figure | paper | ours |", "|---|---|---|"]
    md.append("| hop count, random vs NN-aware mapping (mnist_mlp_2) | 124 -> 76 | %.1f -> %d |" % (
        maps["mnist_mlp_2"]["hops_r"], maps["mnist_mlp_2"]["hops_nn"]))
    md.append("| max link load, random vs NN-aware (mnist_mlp_2) | 16 -> 4 | %.2f -> %d |" % (
        maps["mnist_mlp_2"]["load_r"], maps["mnist_mlp_2"]["load_nn"]))
    md.append("| packets without / with multicast (mnist_mlp_2) | 36 -> 20 | %d -> %d |" % (
        maps["mnist_mlp_2"]["pkts"], maps["mnist_mlp_2"]["merged"]))
    md.append("| traffic left after zero-flit packing (threshold %g, RTL, mnist_mlp_1 / _2) | 63.8%% / 55.8%% | %s |" % (
        THRESHOLD, " / ".join("%.1f%%" % traffic_left[b] for b in NN_RUNS)))
    md.append("| average packet latency, Neu-NoC vs mesh (NN traffic, dense activations, mean over rates and "
              "mnist_mlp_1 / _2) | 23.2%% lower (6 benchmarks) | %.1f%% lower |" % avg_red)
    md.append("| the same with zero-flit packing on Neu-NoC (threshold %g) | further reduction, Section 3.5.4.5 | "
              "%.1f%% lower |" % (THRESHOLD, avg_red_zf))
    for label in nets:
        md.append("| zero-load latency, uniform random, %s | - | %.2f cycles (pipeline formula %.2f) |" % (
            label, zero[label], analytic[label]))
        md.append("| saturation throughput, uniform random, %s | - | %s packets/PE/cycle (channel bound %.4f) |" % (
            label, "-" if sat[label] is None else "%g" % sat[label], bound[label][0]))
    if ov_paper:
        md.append("| router area overhead of pack/unpack (paper widths) | 3.1%% | %.2f%% |" % ov_paper["pct"])
    if ov_small:
        md.append("| router area overhead of pack/unpack (test widths) | 3.1%% | %.2f%% |" % ov_small["pct"])
    md.append("")

    facts = {
        "flit_ratio": " / ".join("%.1fx" % (nn[(b, "mesh", NN_RATES[b][0])]["mesh_flits"] /
                                         nn[(b, "neunoc", NN_RATES[b][0])]["mesh_flits"]) for b in NN_RUNS),
        "per_bench": " / ".join("%.1f%% on %s" % (sum(reductions[b]) / len(reductions[b]), b) for b in NN_RUNS),
        "mesh_share": " / ".join("%.0f%% (%s widths)" % (o["mesh_share"], n) for n, o in
                                 (("test", ov_small), ("paper", ov_paper)) if o),
        "ring_pct": " / ".join("%.1f%% (%s widths)" % (o["ring_pct"], n) for n, o in
                               (("test", ov_small), ("paper", ov_paper)) if o),
    }
    far = []
    for fig, paper, ours, unit in tsv:
        try:
            pv, ov = float(paper), float(ours)
        except ValueError:
            continue
        if pv > 0 and ov > 0 and max(pv / ov, ov / pv) > 2:
            why = next((v % facts for k, v in EXPLAIN.items() if fig.startswith(k)), None)
            if why is None:
                sys.stderr.write("bench-neunoc: warning: no explanation for '%s' (paper %s, ours %s)\n" % (fig, paper, ours))
                why = "not explained yet"
            far.append("- **%s**: paper %s, ours %s %s. %s" % (fig, paper, ours, unit, why))
    md.append("## Figures more than a factor of two from the paper\n")
    md += far if far else ["None."]
    md.append("")

    md.append("## Mapping (Table 11)\n")
    md.append("`nnoc_map --bench B --seeds 100`: random is the mean of 100 seeded random mappings; NN-aware is "
              "the mapper's heuristic (docs/neunoc_workloads.md). Paper / ours.\n")
    md.append("| benchmark | rings | Neu-NoC mesh | hops random | hops NN | max load random | max load NN | packets | multicast |")
    md.append("|---|---|---|---|---|---|---|---|---|")
    for b in BENCHES:
        p, m = PAPER_T11[b], maps[b]
        md.append("| %s | %s | %s | %d / %.1f | %d / %d | %d / %.2f | %d / %d | %s / %d | %s / %d |" % (
            b, m["rings"], m["mesh"], p[0], m["hops_r"], p[1], m["hops_nn"], p[2], m["load_r"], p[3], m["load_nn"],
            "-" if p[4] is None else p[4], m["pkts"], "-" if p[5] is None else p[5], m["merged"]))
    md.append("")
    md.append("## Zero-flit packing\n")
    md.append("NN layer traffic with activations a = max(0, z), z ~ N(0, 1), zeroed below %g (%.0f%% zero words; "
              "we have no trained MNIST/ImageNet networks, so the activations are synthetic, "
              "docs/neunoc_workloads.md). Flits on the mesh after packing / flits sent by the PEs.\n" % (
                  THRESHOLD, 100 * 0.6915))
    md.append("| benchmark | paper (Table 11 traffic) | model (nnoc_mesh_flits) | RTL (stat counters) |")
    md.append("|---|---|---|---|")
    for b in BENCHES:
        md.append("| %s | %.1f%% | %.1f%% | %s |" % (b, PAPER_T11[b][6], model_left[b],
                                                  "%.1f%%" % traffic_left[b] if b in traffic_left else "not run"))
    md.append("")
    md.append("## Latency versus injection rate\n")
    if have_png:
        md.append("![latency](neunoc_latency.png)\n")
    else:
        md.append("(matplotlib could not be installed: no plot; the numbers are below.)\n")
    md.append("Uniform random traffic, %d-word unicast packets, %d cycles of injection, 64 PEs. Average packet "
              "latency in cycles from creation at the source (source queueing included) to the tail's delivery.\n" % (
                  UNIFORM_LEN, UNIFORM_CYCLES))
    md.append("| rate (packets/PE/cycle) | " + " | ".join(nets) + " |")
    md.append("|---|" + "---|" * len(nets))
    for rate in UNIFORM_RATES:
        md.append("| %g | %s |" % (rate, " | ".join("%.2f" % uni[(l, rate)]["lat"] for l in nets)))
    md.append("")
    md.append("Zero-load latency is the network latency (injection of the head to delivery of the tail) at %g "
              "packets/PE/cycle over %d cycles; the analytic value is the mean of the pipeline formula of docs/neunoc.md over the uniform "
              "source/destination pairs. Saturation throughput: the highest rate measured whose average latency "
              "stays below 3x the zero-load latency. The channel bound is the rate at which the busiest channel "
              "(mesh link, injection or ejection) would carry one flit per cycle under XY routing, %d-flit packets.\n"
              % (ZERO_LOAD_RATE, ZERO_LOAD_CYCLES, UNIFORM_LEN + 1))
    nb, mb = list(nets)
    md.append("Under uniform random traffic Neu-NoC saturates at %s of the mesh's rate: its 64 PEs share 8 mesh "
              "routers, each reached through one send ring, so the network has an eighth of the injection "
              "channels and a quarter of the bisection links of the 8 x 8 mesh (bounds %.4f vs %.4f, busiest "
              "channel: %s vs %s). Both saturate at about %.0f%% / %.0f%% of their bound, as expected of "
              "wormhole XY routing. At zero load Neu-NoC is %.1f cycles faster: fewer mesh hops outweigh the "
              "ring stages. Uniform traffic is not the workload the rings are for: NN layers send the same data "
              "to every PE of a ring, which one Neu-NoC packet delivers (NN rows below).\n" % (
                  "%.0f%%" % (100.0 * sat[nb] / sat[mb]) if sat[nb] and sat[mb] else "-",
                  bound[nb][0], bound[mb][0], bound[nb][1], bound[mb][1],
                  100.0 * (sat[nb] or 0) / bound[nb][0], 100.0 * (sat[mb] or 0) / bound[mb][0],
                  zero[mb] - zero[nb]))
    md.append("NN traffic (%d images arriving by a Bernoulli process at the given rate; each mapped layer sends "
              "a fixed 100 cycles after the previous one). Neu-NoC: Table 10's Neu-NoC size, rings of 8, NN-aware "
              "mapping, multicast (one packet per destination-ring set, cut to the VC depth), build with packing. "
              "Mesh: Table 10's mesh size (K = 1), NN-aware mapping, one unicast packet per destination PE "
              "(`--no-multicast`), no packing. *Dense*: activations with no zero word (`--dense`), so packing "
              "changes nothing: the paper's Neu-NoC-versus-mesh comparison. *Zero flits*: activations zeroed "
              "below %g, packed on Neu-NoC. Latency from the packet's creation to its tail's delivery, averaged "
              "over every destination PE's copy, source queueing included.\n" % (NN_IMAGES, THRESHOLD))
    md.append(NN_NOTE % facts + "\n")
    md.append("| benchmark | images/cycle | Neu-NoC dense | mesh dense | reduction | Neu-NoC zero flits | reduction |")
    md.append("|---|---|---|---|---|---|---|")
    for bench in NN_RUNS:
        for r, red, redz in zip(NN_RATES[bench], reductions[bench], reductions_zf[bench]):
            md.append("| %s | %g | %.2f | %.2f | %.1f%% | %.2f | %.1f%% |" % (
                bench, r, nn[(bench, "neunoc", r)]["lat"], nn[(bench, "mesh", r)]["lat"], red,
                nn[(bench, "neunoc_zf", r)]["lat"], redz))
    md.append("")
    md.append("## Router area\n")
    for name, ov in (("test widths (26-bit flits, K 4)", ov_small), ("paper widths (110-bit flits, K 8, 4 VCs x 8)", ov_paper)):
        if ov:
            md.append("- %s: mesh router + K ring routers + inject/eject %d generic cells (%d iCE40 LUT4); "
                      "pack + unpack %d cells (%d LUT4): %.2f%% of the router." % (
                          name, ov["router"], ov["lut_router"], ov["pack"], ov["lut_pack"], ov["pct"]) +
                      " The mesh router is %.0f%% of the router; against the ring side alone (K ring routers, "
                      "inject, eject) pack + unpack are %.2f%%." % (ov["mesh_share"], ov["ring_pct"]))
        else:
            md.append("- %s: not synthesized yet (`python3 synth/run_synth.py --only nnoc_...`)." % name)
    md.append("")
    with open("docs/results/neunoc.md", "w") as f:
        f.write("\n".join(md) + "\n")
    print("bench-neunoc: %d runs, %.0f s; wrote docs/results/neunoc.md and %s/bench/neunoc.tsv" % (
        nruns, time.time() - t0, BUILD))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""make bench-neunoc: measures the Neu-NoC figures of the brief on this repository's RTL and tools
and writes docs/results/neunoc.md, docs/results/neunoc_latency.png, $BUILD/bench/neunoc.tsv
(figure<TAB>paper<TAB>ours<TAB>unit) and $BUILD/bench/neunoc_load.tsv (every load point).

  mapping (Table 11)       sw/neunoc/nnoc_map: hop count and max link load, random (mean of 100
                           seeds) vs NN-aware; packets without / with multicast merging
  zero-flit traffic        NN layer traffic (sw/neunoc/nnoc_traffic --pattern nn) through the RTL:
                           flits entering the mesh / flits the PEs sent (stat counters)
  throughput and latency   64 PEs, Neu-NoC (rings of 8 on a 4 x 2 mesh) and the 8 x 8 mesh, same
  under load               router: uniform random, transpose, bit-complement and hotspot traffic.
                           Per network and pattern: the channel bound (XY routing, bottleneck
                           channel), zero-load latency (measured, and the pipeline's analytic mean),
                           a load sweep (coarse grid to the knee, then steps of 2% of the bound,
                           and 1.1x / 1.3x the bound) with a warm-up and a measurement window,
                           saturation by latency (3x zero-load) and by accepted throughput above
                           the bound, fairness (worst source's mean latency / mean) at 90% of
                           saturation; latency-vs-load plots (docs/results/neunoc_latency.png)
  router ablation          the same uniform-random figures for each router choice turned back to
                           the first design's (neunoc_m64_* and neunoc_b64_* builds)
  build times              $BUILD/tb/<harness>/build_seconds of every bench network
  NN study (Figs. 41-43)   the six benchmarks at the mapper's sizes (Neu-NoC 3x3 .. 9x9 rings of 8;
                           mesh 6x6 .. 24x24): latency vs injection rate for three mappings
                           (Fig. 41), without / with multicast (Fig. 42), Neu-NoC (dense, zero
                           flits) vs mesh latency and energy (Fig. 43; energy from the RTL's event
                           counts x Noxim's per-event energies)
  pack/unpack area         from $BUILD/synth/area.tsv (python3 synth/run_synth.py --only ...)

Every RTL run checks each delivered packet against the C model (the harness fails otherwise).
Environment: BUILD (default build), JOBS (parallel runs, default 2), NEUNOC_ONLY=uniform (only the
throughput/latency-under-load and ablation sections; writes $BUILD/bench/neunoc/neunoc_load.md and
neunoc_load.png there instead of touching docs/results), NEUNOC_SYNTH=0 (no synthesis: area rows
missing from $BUILD/synth/area.tsv are left out).
"""
import concurrent.futures as cf
import functools
import math
import os
import subprocess
import sys
import threading
import time
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import results  # noqa: E402  (harness output, area.tsv)
import blocks  # noqa: E402  (the RTL's parameter defaults)
BUILD = os.environ.get("BUILD", "build")
JOBS = int(os.environ.get("JOBS", "2"))
ONLY = os.environ.get("NEUNOC_ONLY", "")
SYNTH = os.environ.get("NEUNOC_SYNTH", "1") != "0"
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

# ---- throughput and latency under load (synthetic traffic, 64 PEs)
NETS = {"mesh 8x8": "neunoc_m64", "Neu-NoC (K 8, 4x2 mesh)": "neunoc_b64"}   # label: harness
PATTERNS = ["uniform", "transpose", "bitcomp", "hotspot"]
HOTSPOT_FRAC = 0.2
PATTERN_NAME = {"uniform": "uniform random", "transpose": "transpose", "bitcomp": "bit complement",
                "hotspot": "hotspot (%d%%)" % round(100 * HOTSPOT_FRAC)}
LOAD_LEN = 4             # data words per packet (5 flits)
WARMUP, MEASURE = 3000, 10000   # cycles; packets created in [WARMUP, WARMUP + MEASURE) are measured
GRID = 0.02              # load grid step, as a fraction of the pattern's channel bound
COARSE = [10, 20, 30, 40, 50]   # grid indices (20% .. 100% of the bound), run upwards to the knee
FINE_FROM = 30           # the fine grid starts at 60% of the bound (or lower when the knee is lower)
OVER = [55, 65]          # 110% and 130% of the bound: accepted throughput
FINE_BATCH = 3           # fine points above the last coarse point below the knee, run per batch
SAT_FACTOR = 3.0         # saturation (latency definition): mean latency reaches 3x zero-load
SPREAD_SEEDS = [2, 3, 4]   # more traffic seeds for the two uniform sweeps' saturation (seed 1: the sweep)
SPREAD_STEPS = 3           # ... grid points run either side of the sweep's crossing
ZERO_LOAD_RATE, ZERO_LOAD_CYCLES = 0.0005, 20000   # ~640 packets, almost never two in flight at once
# Router choices of the redesign (block.toml harness parameters; default 1 = the new design).
CHOICES = [("VaPerPort", "one VC allocation per router per cycle (not per output port)"),
           ("TailFree", "an output VC is reused only once empty (not when the tail leaves)"),
           ("SpecSa", "no speculative switch allocation (3-cycle hops)"),
           ("SaGreedy", "separable switch allocation (not greedy maximal)"),
           ("SaHold", "flit-by-flit switch allocation (a started packet does not keep its ports)"),
           ("VcMost", "a head takes the lowest free output VC (not the one with the most credits)"),
           ("SaPrio", "every input port is equal in switch allocation (the redesign: 1 = through traffic "
                      "first in the plain meshes, 2 = the local port first in Neu-NoC; a lower-priority "
                      "port is equal again after 16 cycles lost in a row)"),
           ("EjWhole", "the ejection queue streams packets in arrival order (not whole packets first)"),
           ("RingFair", "in-flight-first send rings (the paper's rule, not fair)")]
ABLATION_BASE = {"neunoc_m64": ["neunoc_m64_va1", "neunoc_m64_empty", "neunoc_m64_nospec", "neunoc_m64_sep",
                                "neunoc_m64_nohold", "neunoc_m64_vclow", "neunoc_m64_ejany", "neunoc_m64_prio0",
                                "neunoc_m64_prio2", "neunoc_m64_first"],
                 "neunoc_b64": ["neunoc_b64_nohold", "neunoc_b64_vclow", "neunoc_b64_ejany", "neunoc_b64_prio0",
                                "neunoc_b64_prio1", "neunoc_b64_ring0", "neunoc_b64_first"]}

NN_RUNS = {              # benchmark: (Neu-NoC build, mesh build), the mapper's sizes (Table 10)
    "mnist_mlp_1": ("neunoc_b3x3", "neunoc_m6x6"),
    "mnist_mlp_2": ("neunoc_b4x4", "neunoc_m10x10"),
    "mnist_mlp_3": ("neunoc_b5x5", "neunoc_m14x14"),
    "mnist_mlp_4": ("neunoc_b7x7", "neunoc_m18x18"),
    "mnist_mlp_5": ("neunoc_b8x8", "neunoc_m22x22"),
    "alexnet_cnn_cla": ("neunoc_b9x9", "neunoc_m24x24"),
}
# The meshes use coordinate heads (DstCoord = 1, a 10-bit destination at 24 x 24): with the
# bit-string head the 24 x 24 mesh's flits were 599 bits, it took 23 min to build and simulated
# about 15 cycles/s (docs/neunoc.md, "Build time of large networks").
MESH_SIZES = {"mnist_mlp_3": "14 x 14", "mnist_mlp_4": "18 x 18", "mnist_mlp_5": "22 x 22",
              "alexnet_cnn_cla": "24 x 24"}
# Injection rates (images per cycle) as fractions of the ejection bound: each image makes every
# PE of a mapped layer send its 16 activations (17 flits) to every PE of the next layer, so the
# busiest destination receives (the largest sending layer's PEs) x 17 flits per image through
# its one ejection channel; 1 / that is the bound (NN_WORDS below).
NN_FRACS = [0.2, 0.45, 0.7]
NN_WORDS = 16            # neurons (activations) per PE = words per layer-to-layer message
# images per run: fewer on the large benchmarks (the run length is images / rate)
NN_IMAGES = {"mnist_mlp_1": 16, "mnist_mlp_2": 12, "mnist_mlp_3": 8, "mnist_mlp_4": 4, "mnist_mlp_5": 3,
             "alexnet_cnn_cla": 2}
# The runs of the NN study, per benchmark and rate: network (b = Neu-NoC, m = mesh), mapping,
# multicast, activations (dense / thresholded). Figures 41 (mapping), 42 (multicast), 43
# (latency and energy of the designs).
NN_VARIANTS = {
    "mesh":         ("m", "nn", False, True),    # the baseline: unicast to every PE
    "neunoc":       ("b", "nn", True, True),     # Neu-NoC, NN-aware mapping, multicast
    "neunoc_nomc":  ("b", "nn", False, True),    # Figure 42: one packet per destination ring
    "neunoc_rand":  ("b", "random", True, True), # Figure 41: random mapping (seed 1)
    "neunoc_seq":   ("b", "seq", True, True),    # Figure 41: sequential mapping
    "neunoc_zf":    ("b", "nn", True, False),    # Figure 43: zero-flit packing on thresholded data
}
# Energy per event (Figure 43), Noxim's router power table (V. Catania et al., "Cycle-accurate
# network on chip simulation with Noxim", ACM TOMACS 27(1), 2016; bin/power.yaml of
# github.com/davidepatti/noxim; 45 nm): 64-bit flits, 8-flit buffers, 5-port crossbar. Both
# networks are charged at the same 64-bit width (the events differ, not the wires). Joules.
E_PUSH, E_POP, E_XBAR = 2.08e-12, 1.58e-12, 4.00e-13         # buffer write, read; crossbar, per flit
E_LINK_BIT_MM = 4.88e-14                                     # link, per bit per mm (1 mm entry)
E_RING_PUSH, E_RING_POP = 1.21e-12, 7.23e-13                 # ring stage: 2-flit buffer, 64 bits
E_WIDTH = 64
PE_PITCH_MM = 1.0        # distance between neighbouring PEs: a mesh link (one PE per router) and a
                         # ring link; a Neu-NoC mesh link spans sqrt(K) PE pitches (K PEs per router)
THRESHOLD = 0.5          # activation threshold of the NN traffic (zero fraction Phi(0.5) = 69%)


def die(msg):
    """Fatal error from any thread: the message, then the whole bench stops with status 1."""
    sys.stderr.write("bench-neunoc: %s\n" % msg)
    sys.stderr.flush()
    sys.stdout.flush()
    os._exit(1)


run = results.run


def harness(name):
    path = os.path.join(BUILD, "tb", name, name)
    if not os.path.exists(path):
        die("%s missing (make bench-neunoc builds it)" % path)
    return path


def summary(out, prefix):
    """key=value pairs (strings) of the last line starting with prefix."""
    return results.line_fields(out, prefix, numbers=False) or {}


def harness_params():
    """{harness: params} of the block's bench harnesses (rtl/neunoc/block.toml), in file order."""
    with open("rtl/neunoc/block.toml", "rb") as f:
        d = tomllib.load(f)
    return {n: h.get("params", {}) for n, h in d.get("harness", {}).items() if h.get("bench")}


PARAMS = harness_params()
RTL_DEFAULTS = blocks.rtl_param_defaults("rtl/neunoc/neunoc.v")   # the router choices' defaults


def net_shape(build):
    """(K, Cols, Rows) of a bench harness."""
    if build not in PARAMS:
        die("%s is not a bench harness of rtl/neunoc/block.toml" % build)
    p = PARAMS[build]
    return int(p["K"]), int(p["Cols"]), int(p["Rows"])


def per_router(build):
    """A head's cycles per router at zero load: 2 with speculative switch allocation, else 3."""
    return 2 if int(PARAMS[build].get("SpecSa", 1)) else 3


def flit_width(build):
    """FlitW = max(DataW, HdrW, CntW) + 2 (docs/neunoc.md, Flits and packets)."""
    p = PARAMS[build]
    k, nr = int(p["K"]), int(p["Cols"]) * int(p["Rows"])
    clog2 = lambda n: max(0, (n - 1).bit_length())  # noqa: E731
    cols, rows = int(p["Cols"]), int(p["Rows"])
    dst = (max(1, clog2(cols)) + max(1, clog2(rows))) if int(p.get("DstCoord", 0)) else nr
    hdr = dst + k + max(1, clog2(nr)) + max(1, clog2(k)) + int(p["TagW"]) + 1
    return max(int(p["DataW"]), hdr, int(p["CntW"])) + 2


# per harness: (runs, seconds of simulation, simulated cycles), for the run-time table
SIM_TIME = {}
SIM_LOCK = threading.Lock()

NOC_KEYS = ("cycles", "packets", "delivered", "avg_lat", "avg_net_lat", "max_lat", "pe_flits", "mesh_flits",
            "hop_flits", "eject_flits", "ring_passes")
WIN_KEYS = ("offered", "accepted", "accepted_flits", "m_pkts", "m_lat", "src_worst_lat", "src_worst_pe", "fairness")


def sim(build, traffic, warmup=None, measure=None):
    """Runs a traffic file through a harness; returns the statistics (or dies on a failed check).
    With measure: the measurement window's figures too (res["win"])."""
    win = " +warmup=%d +measure=%d" % (warmup, measure) if measure else ""
    t = time.time()
    rc, out = run("%s +traffic=%s +gap=0 +timeout=20000000%s" % (harness(build), traffic, win))
    with SIM_LOCK:
        n, secs, cyc = SIM_TIME.get(build, (0, 0.0, 0))
        m = results.line_fields(out, "noc: traffic ") or {}
        SIM_TIME[build] = (n + 1, secs + time.time() - t, cyc + int(m.get("cycles", 0)))
    m, r = results.line_fields(out, "noc: traffic "), results.result_counts(out)
    if rc != 0 or not m or any(k not in m for k in NOC_KEYS) or not r or r[1] != 0:
        die("%s on %s failed:\n%s" % (build, traffic, out[-2000:]))
    res = {"cycles": int(m["cycles"]), "packets": int(m["packets"]), "delivered": int(m["delivered"]),
           "lat": float(m["avg_lat"]), "net_lat": float(m["avg_net_lat"]), "max_lat": int(m["max_lat"]),
           "pe_flits": int(m["pe_flits"]), "mesh_flits": int(m["mesh_flits"]), "hop_flits": int(m["hop_flits"]),
           "eject_flits": int(m["eject_flits"]), "ring_passes": int(m["ring_passes"]), "checks": r[0]}
    if measure:
        w = results.line_fields(out, "noc: window ")
        if not w or any(k not in w for k in WIN_KEYS):
            die("%s on %s printed no measurement window:\n%s" % (build, traffic, out[-2000:]))
        res["win"] = {k: float(w[k]) for k in WIN_KEYS}
    return res


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
def nn_traffic(bench, k, rate, multicast, tag, dense=False, scheme="nn"):
    path = "%s/%s_%s_%g.nnt" % (WORK, bench, tag, rate)
    mapfile = "%s/%s_k%d_%s.map" % (WORK, bench, k, scheme)
    if not os.path.exists(mapfile):
        rc, out = run("%s --bench %s --k %d --scheme %s --seed 1 -o %s" % (MAP, bench, k, scheme, mapfile))
        if rc != 0:
            die("nnoc_map %s k %d: %s" % (bench, k, out.strip()))
    rc, out = run("%s --pattern nn --map %s --images %d --rate %g %s %s -o %s" % (
        TRAFFIC, mapfile, NN_IMAGES.get(bench, 4), rate, "--dense" if dense else "--threshold %g" % THRESHOLD,
        "" if multicast else "--no-multicast", path))
    if rc != 0:
        die("nnoc_traffic nn %s: %s" % (bench, out.strip()))
    return path, summary(out, "nnoc_traffic: summary ")


def synth_traffic(path, pattern, k, cols, rows, rate, cycles, seed=None):
    """A synthetic traffic file (nnoc_traffic --pattern ...), LOAD_LEN-word unicast packets; seed None:
    the generator's default seed (1)."""
    rc, out = run("%s --pattern %s --k %d --cols %d --rows %d --rate %s --len %d --cycles %d%s%s -o %s" % (
        TRAFFIC, pattern, k, cols, rows, rate, LOAD_LEN, cycles,
        " --hotspot-frac %g" % HOTSPOT_FRAC if pattern == "hotspot" else "",
        "" if seed is None else " --seed %d" % seed, path))
    if rc != 0:
        die("nnoc_traffic %s: %s" % (pattern, out.strip()))
    return path


# ---------------------------------------------------------------- traffic patterns: bound, zero load
def destinations(pattern, k, cols, rows):
    """{source PE: [(destination PE, probability)]} of a synthetic pattern, as nnoc_traffic draws
    it (sw/neunoc/nnoc_traffic.c); sources that send nothing are left out."""
    npe = k * cols * rows
    bits = (npe - 1).bit_length()
    out = {}
    for s in range(npe):
        if pattern == "uniform":
            dl = [(d, 1.0 / (npe - 1)) for d in range(npe) if d != s]
        elif pattern == "transpose":
            if cols == rows:           # router (x, y) -> (y, x), same ring position
                r = s // k
                d = ((r % cols) * cols + r // cols) * k + s % k
            else:                      # 4^n PEs: the id's bit halves swap
                if 1 << bits != npe or bits % 2:
                    die("transpose needs a square mesh or 4^n PEs")
                h = bits // 2
                d = ((s & ((1 << h) - 1)) << h) | (s >> h)
            dl = [] if d == s else [(d, 1.0)]
        elif pattern == "bitcomp":
            d = npe - 1 - s
            dl = [] if d == s else [(d, 1.0)]
        elif pattern == "hotspot":
            hot = ((rows // 2) * cols + cols // 2) * k
            f = 0.0 if s == hot else HOTSPOT_FRAC
            dl = [(d, (1 - f) / (npe - 1) + (f if d == hot else 0.0)) for d in range(npe) if d != s]
        else:
            die("unknown pattern %s" % pattern)
        if dl:
            out[s] = dl
    return out


def xy_channels(k, cols, s, d):
    """Channels a unicast s -> d crosses under XY routing: the injection channel of the source
    router (the send ring into it when K > 1), the mesh links, the ejection channel of the
    destination router (its receive ring when K > 1). Also returns the mesh hop count."""
    rs, rd = s // k, d // k
    x, y, xd, yd = rs % cols, rs // cols, rd % cols, rd // cols
    chans = [("injection", rs), ("ejection", rd)]
    h = 0
    while x != xd:
        nx = x + (1 if xd > x else -1)
        chans.append(("link", (x, y), (nx, y)))
        x, h = nx, h + 1
    while y != yd:
        ny = y + (1 if yd > y else -1)
        chans.append(("link", (x, y), (x, ny)))
        y, h = ny, h + 1
    return chans, h


def channel_bound(pattern, k, cols, rows, words):
    """Throughput bound (packets per sending PE per cycle) of a pattern: every channel carries at
    most one flit per cycle. The load per unit injection rate of each channel is summed over the
    XY paths of every sending PE's destination distribution (injection channel per router -- the
    send ring when K > 1 --, mesh links, ejection channel). Returns (bound, bottleneck kinds)."""
    load = {}
    for s, dl in destinations(pattern, k, cols, rows).items():
        for d, p in dl:
            for c in xy_channels(k, cols, s, d)[0]:
                load[c] = load.get(c, 0.0) + p
    worst = max(load.values())
    kinds = sorted({c[0] for c, v in load.items() if v > worst * (1 - 1e-9)})
    return 1.0 / (worst * (words + 1)), " = ".join(kinds)


def analytic_latency(pattern, k, cols, rows, words, per_router):
    """Mean of the pipeline's zero-load latency (docs/neunoc.md, Latency; per_router = 2 with
    speculative switch allocation, 3 without) over the pattern's source/destination pairs."""
    total, n = 0.0, 0.0
    for s, dl in destinations(pattern, k, cols, rows).items():
        for d, p in dl:
            h = xy_channels(k, cols, s, d)[1]
            if k > 1:
                lat = (k - s % k) + 1 + per_router * (h + 1) + (2 + d % k) + words
            else:
                lat = 1 + per_router * (h + 1) + 1 + words
            total += p * lat
            n += p
    return total / n


def analytic_uniform(k, cols, rows, words, per_router=2):
    """The same over uniform source/destination pairs of distinct PEs."""
    return analytic_latency("uniform", k, cols, rows, words, per_router)


def senders(pattern, k, cols, rows):
    return len(destinations(pattern, k, cols, rows))


# ---------------------------------------------------------------- load sweeps
def load_point(build, pattern, rate, cycles, warmup, measure, seed=None):
    """One run of a synthetic pattern at a rate (string, packets per sending PE per cycle)."""
    k, cols, rows = net_shape(build)
    path = "%s/%s_%s_%s_%d_s%s.nnt" % (WORK, build, pattern, rate, cycles, seed)
    synth_traffic(path, pattern, k, cols, rows, rate, cycles, seed)
    res = sim(build, path, warmup, measure)
    os.remove(path)
    return res


def crossing(zero, points, thr):
    """The load at which the mean latency first reaches thr: linear interpolation between the grid
    points around the crossing (the zero-load run below the first); None if it never does."""
    prev = (ZERO_LOAD_RATE, zero)
    for p in points:
        if p["lat"] >= thr:
            if thr <= prev[1]:
                return prev[0]
            return prev[0] + (thr - prev[1]) * (p["rate"] - prev[0]) / (p["lat"] - prev[1])
        prev = (p["rate"], p["lat"])
    return None


def sweep(pool, build, pattern):
    """The load sweep of one harness and pattern (runs through pool, JOBS at a time):
    zero-load latency; the coarse grid (20%, 40%, ... of the bound) upwards until the mean latency
    reaches SAT_FACTOR x zero-load; the fine grid (GRID steps) from FINE_FROM (or the last coarse
    point below the knee when that is lower) up to the first point at SAT_FACTOR x zero-load (at
    most the coarse crossing); 1.1x and 1.3x the bound; the grid point nearest 90% of the
    saturation rate."""
    k, cols, rows = net_shape(build)
    bound, kind = channel_bound(pattern, k, cols, rows, LOAD_LEN)
    nsend = senders(pattern, k, cols, rows)
    scale = float(k * cols * rows) / nsend       # harness rates are per PE; ours per sending PE
    rate = lambda j: "%.5g" % (j * GRID * bound)  # noqa: E731
    futs = {}

    def submit(j):
        if j not in futs:
            futs[j] = pool.submit(load_point, build, pattern, rate(j), WARMUP + MEASURE, WARMUP, MEASURE)

    def get(j):
        submit(j)
        r = futs[j].result()
        w = r["win"]
        return {"j": j, "rate": float(rate(j)), "lat": w["m_lat"], "accepted": w["accepted"] * scale,
                "offered": w["offered"] * scale, "fairness": w["fairness"], "worst_pe": int(w["src_worst_pe"]),
                "worst_lat": w["src_worst_lat"], "m_pkts": int(w["m_pkts"]), "checks": r["checks"]}

    zf = pool.submit(load_point, build, pattern, "%g" % ZERO_LOAD_RATE, ZERO_LOAD_CYCLES, 0, ZERO_LOAD_CYCLES)
    submit(COARSE[0])
    for j in OVER:
        submit(j)
    z = zf.result()
    zero = z["win"]["m_lat"]
    thr = SAT_FACTOR * zero
    pts = {}
    cross = None
    for j in COARSE + OVER:
        pts[j] = get(j)
        if pts[j]["lat"] >= thr:
            cross = j
            break
    below = max([j for j in pts if j != cross] + [0])
    top = cross if cross is not None else COARSE[-1]
    # the fine grid up to the last coarse point below the knee at once, then upwards in batches
    # of FINE_BATCH until a point reaches thr (or the coarse crossing)
    start = max(1, min(FINE_FROM, below))
    for j in range(start, below):
        submit(j)
    j = below + 1
    while j < top:
        batch = list(range(j, min(top, j + FINE_BATCH)))
        for i in batch:
            submit(i)
        if any(get(i)["lat"] >= thr for i in batch):
            break
        j += FINE_BATCH
    for j in list(futs):
        pts[j] = get(j)
    # saturation, latency definition: first crossing of thr, interpolated from the point below
    sat = crossing(zero, [pts[j] for j in sorted(pts)], thr)
    j90 = None
    if sat is not None:
        j90 = max(1, int(round(0.9 * sat / (GRID * bound))))
        pts[j90] = get(j90)
        j90 = min(pts, key=lambda j: abs(pts[j]["rate"] - 0.9 * sat))
    over = [pts[j] for j in pts if j * GRID >= 1.0 - 1e-9]
    acc = max(over, key=lambda p: p["accepted"])
    return {"build": build, "pattern": pattern, "bound": bound, "kind": kind, "senders": nsend,
            "zero": zero, "zero_net": z["net_lat"], "zero_pkts": int(z["win"]["m_pkts"]),
            "analytic": analytic_latency(pattern, k, cols, rows, LOAD_LEN, per_router(build)),
            "thr": thr, "sat": sat, "acc": acc, "p90": pts[j90] if j90 is not None else None,
            "points": [pts[j] for j in sorted(pts)],
            "runs": len(pts) + 1, "checks": sum(p["checks"] for p in pts.values()) + z["checks"]}


def seed_spread(pool, s):
    """Saturation (latency definition) of a uniform sweep under the traffic generator's seeds
    SPREAD_SEEDS: the grid points around the sweep's crossing (SPREAD_STEPS grid steps either side)
    with each seed, the crossing of the same threshold interpolated the same way. Returns
    [(seed, saturation or None)], the sweep's own (seed 1) first."""
    b, bound = s["build"], s["bound"]
    if s["sat"] is None:
        return []
    j0 = int(s["sat"] / (GRID * bound))
    js = range(max(1, j0 - SPREAD_STEPS + 1), j0 + SPREAD_STEPS + 1)
    rate = lambda j: "%.5g" % (j * GRID * bound)  # noqa: E731
    futs = {(seed, j): pool.submit(load_point, b, "uniform", rate(j), WARMUP + MEASURE, WARMUP, MEASURE, seed)
            for seed in SPREAD_SEEDS for j in js}
    out = [(1, s["sat"])]
    for seed in SPREAD_SEEDS:
        pts = [{"rate": float(rate(j)), "lat": futs[(seed, j)].result()["win"]["m_lat"]} for j in js]
        below = pts[0]["lat"] < s["thr"]
        out.append((seed, crossing(s["zero"], pts, s["thr"]) if below else None))
        s["checks"] += sum(futs[(seed, j)].result()["checks"] for j in js)
    return out


def load_sweeps():
    """Every (network, pattern) sweep and every ablation build's uniform sweep, in parallel: sweeps
    are threads, their runs share one pool of JOBS workers. Returns {(harness, pattern): sweep}."""
    todo = [(b, p) for b in NETS.values() for p in PATTERNS]
    todo += [(a, "uniform") for base in NETS.values() for a in ABLATION_BASE.get(base, [])]
    for b, _ in todo:
        harness(b)
    with cf.ThreadPoolExecutor(max_workers=JOBS) as pool, cf.ThreadPoolExecutor(max_workers=len(todo)) as sw:
        futs = {(b, p): sw.submit(sweep, pool, b, p) for b, p in todo}
        out = {}
        for key, f in futs.items():
            out[key] = f.result()
            s = out[key]
            print("bench-neunoc: %-18s %-9s zero-load %.2f, saturation %s (%s of the bound %.4f), accepted %.4f" % (
                key[0], key[1], s["zero"], "-" if s["sat"] is None else "%.4f" % s["sat"],
                "-" if s["sat"] is None else "%.0f%%" % (100 * s["sat"] / s["bound"]), s["bound"],
                s["acc"]["accepted"]), flush=True)
        for b in NETS.values():
            s = out[(b, "uniform")]
            s["seeds"] = seed_spread(pool, s)
            s["runs"] += len(SPREAD_SEEDS) * 2 * SPREAD_STEPS
            print("bench-neunoc: %-18s uniform   saturation by traffic seed: %s" % (b, ", ".join(
                "%d: %s" % (sd, "-" if v is None else "%.1f%%" % (100 * v / s["bound"])) for sd, v in s["seeds"])),
                flush=True)
    return out


# ---------------------------------------------------------------- area
AREA_CONFIGS = ["nnoc_%s_%s" % (b, w) for w in ("small", "paper")
                for b in ("mesh_router", "ring_send", "ring_recv", "inject", "eject", "pack", "unpack")]


def area(jobs=JOBS):
    """The nnoc_* rows of $BUILD/synth/area.tsv; synthesizes the missing ones first, jobs at a time
    (the paper-width mesh router alone takes about 8 minutes of one core)."""
    def rows():
        return {n: r for n, r in results.read_area().items() if n.startswith("nnoc_")}
    missing = [c for c in AREA_CONFIGS if c not in rows()]
    if missing and not SYNTH:
        print("bench-neunoc: NEUNOC_SYNTH=0: %d area rows missing, left out" % len(missing), flush=True)
    elif missing:
        print("bench-neunoc: synthesizing %s" % ", ".join(missing), flush=True)
        rc, out = run("python3 synth/run_synth.py --jobs %d --timeout 3600 --only %s" % (jobs, ",".join(missing)))
        if rc != 0:
            sys.stderr.write("bench-neunoc: warning: synthesis failed, area rows left out:\n%s\n" % out[-1500:])
    return rows()


def timed(fn, *args):
    """(fn(*args), its wall seconds)."""
    t = time.time()
    return fn(*args), time.time() - t


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
def plot(load, path):
    """Latency vs offered load: one row per network (a panel per pattern), a row of the ablation
    builds' uniform sweeps and of the NN curves. Log y; the dashed line is 3x zero-load, the
    dotted one the channel bound."""
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
    ncol = max(len(PATTERNS), len(ABLATION_BASE))
    fig, axes = plt.subplots(len(NETS) + 1, ncol, figsize=(4.6 * ncol, 3.9 * (len(NETS) + 1)), squeeze=False)
    for row, (label, b) in enumerate(NETS.items()):
        for col, pat in enumerate(PATTERNS):
            ax, s = axes[row][col], load[(b, pat)]
            ax.plot([p["rate"] for p in s["points"]], [p["lat"] for p in s["points"]], marker="o", ms=3,
                    label="mean latency (window)")
            ax.axhline(s["thr"], ls="--", color="gray", lw=1, label="%gx zero-load" % SAT_FACTOR)
            ax.axvline(s["bound"], ls=":", color="k", lw=1, label="channel bound")
            if s["sat"] is not None:
                ax.plot([s["sat"]], [s["thr"]], marker="x", color="red", ms=9, label="saturation")
            ax.set_yscale("log")
            ax.set_title("%s, %s" % (label, PATTERN_NAME[pat]), fontsize=10)
            ax.set_xlabel("offered load (packets / sending PE / cycle)", fontsize=8)
            ax.set_ylabel("mean packet latency (cycles)", fontsize=8)
            ax.grid(True, alpha=0.3)
            if col == 0:
                ax.legend(fontsize=7)
    row = len(NETS)
    col = 0
    for base, abl in ABLATION_BASE.items():
        ax = axes[row][col]
        for b in [base] + abl:
            s = load[(b, "uniform")]
            ax.plot([p["rate"] for p in s["points"]], [p["lat"] for p in s["points"]], marker="o", ms=2,
                    label=b.replace("neunoc_", ""))
        ax.axvline(load[(base, "uniform")]["bound"], ls=":", color="k", lw=1)
        ax.set_yscale("log")
        ax.set_title("router ablation, uniform random (%s)" % base.replace("neunoc_", ""), fontsize=10)
        ax.set_xlabel("offered load (packets / PE / cycle)", fontsize=8)
        ax.set_ylabel("mean packet latency (cycles)", fontsize=8)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
        col += 1
    for c in range(col, ncol):
        axes[row][c].axis("off")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


# ---------------------------------------------------------------- load section: tables
def pct(x, of):
    return "-" if x is None else "%.0f%%" % (100.0 * x / of)


def fmt_rate(x):
    return "-" if x is None else "%.4f" % x


def fairness_cell(s):
    p = s["p90"]
    if p is None:
        return "-"
    return "%.2f (PE %d, %.1f / %.1f cycles, at %.4f = %.0f%%)" % (
        p["fairness"], p["worst_pe"], p["worst_lat"], p["lat"], p["rate"], 100.0 * p["rate"] / s["sat"])


def choices_changed(build):
    """'Choice = value' for each router choice a harness sets differently from its network's
    redesigned build (the ABLATION_BASE key it belongs to)."""
    base = next((b for b, abl in ABLATION_BASE.items() if build in abl), build)
    val = lambda b, c: int(PARAMS[b].get(c, RTL_DEFAULTS[c]))  # noqa: E731
    return ["%s = %d" % (c, val(build, c)) for c, _ in CHOICES if val(build, c) != val(base, c)]


def build_time_rows():
    rows = []
    for b, p in PARAMS.items():
        k, c, r = int(p["K"]), int(p["Cols"]), int(p["Rows"])
        f = os.path.join(BUILD, "tb", b, "build_seconds")
        secs = open(f).read().strip() if os.path.exists(f) else ""
        n, sim_s, cyc = SIM_TIME.get(b, (0, 0.0, 0))
        sim = ("%d runs, %.0f s, %.0f cycles/s" % (n, sim_s, cyc / sim_s)) if n and sim_s > 0 else "not run"
        rows.append((b, "%d (%d x %d)" % (c * r, c, r), k * c * r, flit_width(b), secs or "not recorded", sim))
    return rows


def load_markdown(load, png):
    md = ["## Throughput and latency under load\n"]
    if png:
        md.append("![latency vs load](%s)\n" % png)
    else:
        md.append("(matplotlib could not be installed: no plot; the numbers are below.)\n")
    m64, b64 = NETS["mesh 8x8"], NETS["Neu-NoC (K 8, 4x2 mesh)"]
    hot = {b: ((net_shape(b)[2] // 2) * net_shape(b)[1] + net_shape(b)[1] // 2) * net_shape(b)[0] for b in NETS.values()}
    nt = {b: net_shape(b)[0] * net_shape(b)[1] * net_shape(b)[2] - load[(b, "transpose")]["senders"]
          for b in NETS.values()}
    md.append(
        "Synthetic traffic from `nnoc_traffic`, %d-word unicast packets (%d flits); every PE creates a packet "
        "with probability r per cycle. Patterns: *uniform random* (any other PE); *transpose* (8 x 8 mesh: "
        "router (x, y) to (y, x); Neu-NoC: the PE id's bit halves swap, so ring position p of router q sends "
        "to position q of router p); *bit complement* (PE 63 - s); *hotspot* (%d%% of each PE's packets to "
        "PE 0 of the centre router -- PE %d of the mesh, PE %d of the Neu-NoC --, the rest uniform). Loads "
        "and throughputs are packets per **sending** PE per cycle: under transpose %d / %d PEs map to "
        "themselves and send nothing (mesh / Neu-NoC).\n" % (
            LOAD_LEN, LOAD_LEN + 1, round(100 * HOTSPOT_FRAC), hot[m64], hot[b64], nt[m64], nt[b64]))
    md.append(
        "**Windows.** Every load point injects for %d cycles; the packets created in the measurement "
        "window [%d, %d) -- after a %d-cycle warm-up, over %d cycles -- are the measured ones: their mean "
        "latency from creation to the tail's delivery, source queueing included. The harness then drains "
        "the network (every delivered packet is checked against the C model). Accepted throughput: packets "
        "delivered within the window. Zero-load latency: the same mean at r = %g over %d cycles (all of "
        "them measured); the analytic value averages the pipeline formula of docs/neunoc.md (2 cycles per "
        "router; 3 without speculative switch allocation) over the pattern's pairs.\n" % (
            WARMUP + MEASURE, WARMUP, WARMUP + MEASURE, WARMUP, MEASURE, ZERO_LOAD_RATE, ZERO_LOAD_CYCLES))
    md.append(
        "**Bound and grid.** The channel bound is the load at which the busiest channel carries one flit "
        "per cycle, from the pattern's destination distribution per source under XY routing; the channels "
        "are the mesh links, the injection channel of each router (the send ring into it on Neu-NoC, the "
        "PE's port on the mesh) and its ejection channel (the receive ring). Each sweep runs a coarse grid "
        "(20%%, 40%%, ... of the bound) up to the first point at %gx zero-load latency, then every %d%% of the "
        "bound from %d%% (or the last coarse point below the knee, if lower) up to the first point at %gx "
        "zero-load latency, and %s of the bound.\n" % (SAT_FACTOR, round(100 * GRID), round(100 * FINE_FROM * GRID),
                                                      SAT_FACTOR,
                      " and ".join("%.0f%%" % (100 * j * GRID) for j in OVER)))
    md.append(
        "**Saturation.** *Latency definition*: the load at which the mean latency reaches %gx the zero-load "
        "latency (linear interpolation between the two grid points around the crossing). *Throughput "
        "definition*: the highest accepted throughput at an offered load at or above the channel bound. "
        "**Fairness**: the worst source PE's mean latency over the mean of all measured packets, at the grid "
        "point nearest 90%% of the latency-definition saturation (in brackets: that PE, its and the mean "
        "latency, the load and its share of the saturation load).\n" % SAT_FACTOR)
    md.append("| network | pattern | channel bound (bottleneck) | zero-load, measured / analytic (cycles) | "
              "saturation, %gx zero-load | accepted above the bound | fairness at 90%% of saturation |" % SAT_FACTOR)
    md.append("|---|---|---|---|---|---|---|")
    for label, b in NETS.items():
        for pat in PATTERNS:
            s = load[(b, pat)]
            md.append("| %s | %s | %.4f (%s) | %.2f / %.2f | %s (%s) | %.4f (%s, offered %.0f%%) | %s |" % (
                label, PATTERN_NAME[pat], s["bound"], s["kind"], s["zero"], s["analytic"], fmt_rate(s["sat"]),
                pct(s["sat"], s["bound"]), s["acc"]["accepted"], pct(s["acc"]["accepted"], s["bound"]),
                100.0 * s["acc"]["rate"] / s["bound"], fairness_cell(s)))
    md.append("")
    um, ub = load[(m64, "uniform")], load[(b64, "uniform")]
    notes = []
    spread = []
    for label, b in NETS.items():
        sd = [(k, v) for k, v in load[(b, "uniform")].get("seeds", []) if v is not None]
        if len(sd) > 1:
            v = [100.0 * x / load[(b, "uniform")]["bound"] for _, x in sd]
            spread.append("%s %s (mean %.1f%%, %.1f%% to %.1f%%)" % (
                label, ", ".join("seed %d %.1f%%" % (k, x) for (k, _), x in zip(sd, v)), sum(v) / len(v),
                min(v), max(v)))
    if spread:
        notes.append(
            "**Seed spread.** The sweeps above use the traffic generator's seed 1. Near the knee one seed's "
            "latency is noisy, so the uniform sweeps' %d grid points around the crossing were also run with "
            "seeds %s (same threshold, same interpolation); saturation by the latency definition, as a share "
            "of the bound: %s." % (2 * SPREAD_STEPS, ", ".join(str(x) for x in SPREAD_SEEDS), "; ".join(spread)))
    if um["sat"] and ub["sat"]:
        notes.append(
            "Under uniform random traffic Neu-NoC saturates at %.0f%% of the mesh's load (latency definition): "
            "its 64 PEs share 8 mesh routers, each reached through one send ring, so it has an eighth of the "
            "injection channels and a quarter of the bisection links of the 8 x 8 mesh (bounds %.4f vs %.4f; "
            "busiest channels: %s vs %s). The mesh reaches %s and Neu-NoC %s of its bound before the latency "
            "triples; above the bound they accept %s and %s of it. At zero load Neu-NoC is %.1f cycles %s: "
            "%s. Uniform traffic is not the workload the rings are for: NN layers send the same data to every "
            "PE of a ring, which one Neu-NoC packet delivers (NN rows below)." % (
                100.0 * ub["sat"] / um["sat"], ub["bound"], um["bound"], ub["kind"], um["kind"],
                pct(um["sat"], um["bound"]), pct(ub["sat"], ub["bound"]),
                pct(um["acc"]["accepted"], um["bound"]), pct(ub["acc"]["accepted"], ub["bound"]),
                abs(um["zero"] - ub["zero"]), "faster" if ub["zero"] < um["zero"] else "slower",
                "fewer mesh hops outweigh the ring stages" if ub["zero"] < um["zero"]
                else "the ring stages cost more than the mesh hops they save"))
    low = ["%s on %s (%s)" % (PATTERN_NAME[p], lab, pct(load[(b, p)]["sat"], load[(b, p)]["bound"]))
           for lab, b in NETS.items() for p in PATTERNS
           if load[(b, p)]["sat"] is not None and load[(b, p)]["sat"] < 0.5 * load[(b, p)]["bound"]]
    if low:
        notes.append("Saturating below half of the channel bound (latency definition): %s." % "; ".join(low))
    off = ["%s on %s (%.2f vs %.2f)" % (PATTERN_NAME[p], lab, load[(b, p)]["zero"], load[(b, p)]["analytic"])
           for lab, b in NETS.items() for p in PATTERNS
           if abs(load[(b, p)]["zero"] - load[(b, p)]["analytic"]) > 0.05 * load[(b, p)]["analytic"]]
    if off:
        notes.append("Zero-load latency more than 5%% from the pipeline formula: %s." % "; ".join(off))
    above = ["%s on %s (%s)" % (PATTERN_NAME[p], lab, pct(load[(b, p)]["acc"]["accepted"], load[(b, p)]["bound"]))
             for lab, b in NETS.items() for p in PATTERNS
             if load[(b, p)]["acc"]["accepted"] > 1.02 * load[(b, p)]["bound"]]
    if above:
        notes.append("Accepted throughput above the channel bound: %s. The bound limits only the flows that "
                     "cross the busiest channels; under a permutation the other sources' paths are less "
                     "loaded and keep up with the offered load, and the throughput is the mean over all "
                     "sending PEs." % "; ".join(above))
    md += [n + "\n" for n in notes]

    md.append("### Router ablation\n")
    md.append("Uniform random traffic, the same sweep and windows, on builds with one router choice of the "
              "redesign turned back to the first design's (`rtl/neunoc/block.toml`, harnesses `*_va1`, "
              "`*_empty`, `*_nospec`, `*_sep`, `*_nohold`, `*_vclow`, `*_ejany`, `*_prio0`, `*_ring0`) and "
              "with all of them (`*_first`), and each network with the other's port priority (`m64_prio2`: "
              "the local port first; `b64_prio1`: through traffic first). "
              "Change: saturation by latency / accepted throughput above the bound against the build with "
              "every choice on. The parameters (1 = the redesign):\n")
    md += ["- `%s = 0`: %s" % c for c in CHOICES]
    md.append("")
    md.append("The latency definition is relative to each build's own zero-load latency, so a build with "
              "3-cycle hops gets a 1.5x higher threshold; the column *at the redesign's threshold* gives the "
              "load at which each build's mean latency reaches %gx the zero-load latency of the build with every "
              "choice on (the same number of cycles for all), interpolated on the same grid. Fairness above the "
              "bound: at the highest offered load (%.0f%% of the bound), where the send rings and allocators are "
              "contended most.\n" % (SAT_FACTOR, 100 * OVER[-1] * GRID))
    md.append("| build | differs from the redesign in | zero-load, measured / analytic | saturation, %gx "
              "own zero-load | at the redesign's threshold | accepted above the bound | change (the three "
              "saturation figures) | fairness at 90%% of saturation | fairness above the bound |" % SAT_FACTOR)
    md.append("|---|---|---|---|---|---|---|---|---|")
    for base, abl in ABLATION_BASE.items():
        r = load[(base, "uniform")]
        for b in [base] + abl:
            s = load[(b, "uniform")]
            fixed = crossing(s["zero"], s["points"], r["thr"])
            what = ", ".join(choices_changed(b)) or "none (the redesigned router)"
            rel = lambda x, y: "-" if x is None or not y else "%+.1f%%" % (100.0 * (x / y - 1))  # noqa: E731
            chg = "-" if b == base else " / ".join((rel(s["sat"], r["sat"]), rel(fixed, r["sat"]),
                                                    rel(s["acc"]["accepted"], r["acc"]["accepted"])))
            top = max(s["points"], key=lambda p: p["rate"])
            md.append("| %s | %s | %.2f / %.2f | %s (%s) | %s (%.0f cycles) | %.4f (%s) | %s | %s | %.2f (PE %d) |" % (
                b, what, s["zero"], s["analytic"], fmt_rate(s["sat"]), pct(s["sat"], s["bound"]), fmt_rate(fixed),
                r["thr"], s["acc"]["accepted"], pct(s["acc"]["accepted"], s["bound"]), chg, fairness_cell(s),
                top["fairness"], top["worst_pe"]))
    md.append("")
    md.append("Bounds: %s.\n" % "; ".join("%s %.4f" % (b, load[(b, "uniform")]["bound"]) for b in ABLATION_BASE))
    md.append("<details><summary>Every load point (offered load, mean latency, accepted throughput, fairness)"
              "</summary>\n")
    for (b, pat), s in load.items():
        md.append("**%s, %s** (bound %.4f, zero-load %.2f, %gx = %.1f cycles)\n" % (
            b, PATTERN_NAME[pat], s["bound"], s["zero"], SAT_FACTOR, s["thr"]))
        md.append("| offered | % of bound | mean latency | accepted | fairness | measured packets |")
        md.append("|---|---|---|---|---|---|")
        for p in s["points"]:
            md.append("| %.4f | %.0f%% | %.2f | %.4f | %.2f | %d |" % (
                p["rate"], 100.0 * p["rate"] / s["bound"], p["lat"], p["accepted"], p["fairness"], p["m_pkts"]))
        md.append("")
    md.append("</details>\n")
    md.append("### Build times\n")
    md.append("Wall seconds of `make build/tb/<harness>/<harness>` ($BUILD/tb/<harness>/build_seconds, written "
              "by the Makefile: the wall time of the last build, so it grows when other jobs share the machine and "
              "drops to seconds when ccache already holds the compiled code; the mesh router is Verilated once "
              "as a hierarchical block). Flit width from docs/neunoc.md (the destination field "
              "has one bit per router, or one router's column and row with coordinate heads). Simulation: "
              "this bench's runs on the harness, their summed wall seconds (%d at a time, so each ran on about "
              "one core) and the simulated cycles per second.\n" % JOBS)
    md.append("| harness | routers | PEs | flit width (bits) | build (s) | simulation in this bench |")
    md.append("|---|---|---|---|---|---|")
    for r in build_time_rows():
        md.append("| %s | %s | %d | %d | %s | %s |" % r)
    md.append("")
    return md


def load_tsv(load):
    """Rows of $BUILD/bench/neunoc.tsv (figure, paper, ours, unit) of the load section."""
    tsv = []
    for (b, pat), s in load.items():
        tag = "%s %s" % (PATTERN_NAME[pat], b)
        tsv.append(("channel bound %s" % tag, "-", "%.4f" % s["bound"], "packets/PE/cycle"))
        tsv.append(("zero-load latency %s" % tag, "-", "%.2f" % s["zero"], "cycles"))
        tsv.append(("zero-load latency %s, analytic" % tag, "-", "%.2f" % s["analytic"], "cycles"))
        tsv.append(("saturation (%gx zero-load latency) %s" % (SAT_FACTOR, tag), "-", fmt_rate(s["sat"]),
                    "packets/PE/cycle"))
        tsv.append(("accepted throughput above the bound %s" % tag, "-", "%.4f" % s["acc"]["accepted"],
                    "packets/PE/cycle"))
        tsv.append(("fairness at 90%% of saturation %s" % tag, "-",
                    "-" if s["p90"] is None else "%.3f" % s["p90"]["fairness"], "worst/mean source latency"))
    return tsv


def write_load_points(load, path):
    with open(path, "w") as f:
        f.write("harness\tpattern\toffered\tpct_bound\tmean_lat\taccepted\tfairness\tworst_pe\tm_pkts\n")
        for (b, pat), s in load.items():
            for p in s["points"]:
                f.write("%s\t%s\t%.5g\t%.1f\t%.2f\t%.5f\t%.3f\t%d\t%d\n" % (
                    b, pat, p["rate"], 100.0 * p["rate"] / s["bound"], p["lat"], p["accepted"], p["fairness"],
                    p["worst_pe"], p["m_pkts"]))


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
    "NN packet latency reduction": "Both networks run at the same rates, set by Neu-NoC's ejection bound; from "
    "%(over_from)s on they exceed the mesh's own link bound (up to %(over_max)s of it), where the mesh sends "
    "%(pkt_ratio)s times Neu-NoC's packets (one unicast per destination PE) and its latency is mostly source "
    "queueing that grows with the run. Over the benchmarks whose rates all stay below the mesh's bound "
    "(%(below)s) Neu-NoC's latency is %(below_lat)s (docs/results/neunoc_nn.md, Figure 43).",
    "NN energy reduction": "The mesh moves each activation to every destination PE as a separate unicast "
    "packet (%(pkt_ratio)s times Neu-NoC's packets) over more routers, where Neu-NoC sends one multicast per "
    "ring; the energy is per image from the RTL's event counts, so it does not depend on the queueing above. "
    "Over %(below)s its energy is %(below_en)s.",
}


# ---------------------------------------------------------------- NN study (Figures 41-43)
@functools.lru_cache(maxsize=None)
def nn_bound(bench):
    """Images per cycle the busiest ejection channel allows: 1 / (largest sending layer's PEs x
    (1 + NN_WORDS) flits) (docs/neunoc.md)."""
    rc, out = run("%s --bench %s --k 1 --scheme seq" % (MAP, bench))
    if rc != 0:
        die("nnoc_map %s: %s" % (bench, out.strip()))
    pes = [int(x) for x in summary_scheme(out, "seq")["pes"].split("-")]
    return 1.0 / (max(pes[:-1]) * (1 + NN_WORDS))


@functools.lru_cache(maxsize=None)   # a mapper run (seconds on the large benchmarks), asked for often
def mesh_link_bound(bench):
    """Images per cycle the mesh baseline's busiest link allows: 1 / (the mapper's maximum link load
    of the NN-aware mapping at K = 1, in unicast packets per image, x (1 + NN_WORDS) flits)."""
    rc, out = run("%s --bench %s --k 1 --scheme nn --seed 1" % (MAP, bench))
    if rc != 0:
        die("nnoc_map %s: %s" % (bench, out.strip()))
    return 1.0 / (int(summary_scheme(out, "nn")["max_load"]) * (1 + NN_WORDS))


def nn_rates(bench):
    b = nn_bound(bench)
    return [float("%.3g" % (f * b)) for f in NN_FRACS]


def energy(res, k):
    """Dynamic energy (joules) of a run from its event counts: a flit entering a router (injected
    or over a link) is one buffer write and one read; a flit leaving one (over a link or to the
    local port) one crossbar traversal; a link traversal W bits over sqrt(K) PE pitches; a ring
    stage pass one 2-flit buffer write and read and a PE-pitch wire. Returns (total, parts)."""
    arrive = res["mesh_flits"] + res["hop_flits"]
    link_mm = PE_PITCH_MM * math.sqrt(k)
    parts = {"buffers": arrive * (E_PUSH + E_POP),
             "crossbar": (res["hop_flits"] + res["eject_flits"]) * E_XBAR,
             "links": res["hop_flits"] * E_WIDTH * E_LINK_BIT_MM * link_mm,
             "rings": res["ring_passes"] * (E_RING_PUSH + E_RING_POP + E_WIDTH * E_LINK_BIT_MM * PE_PITCH_MM)}
    return sum(parts.values()), parts


def nn_study():
    """Every benchmark at NN_FRACS of its ejection bound, every variant of NN_VARIANTS, on the
    RTL (each delivered packet checked against the model)."""
    for pair in NN_RUNS.values():
        for b in pair:
            if b:
                harness(b)
    rates = {bench: nn_rates(bench) for bench in NN_RUNS}
    runs, tool = {}, {}
    with cf.ThreadPoolExecutor(max_workers=JOBS) as ex:
        futs = {}
        # the largest networks first, so the pool does not end on one long run
        for bench in reversed(list(NN_RUNS)):
            bb, mb = NN_RUNS[bench]
            for rate in rates[bench]:
                for v, (net, scheme, mc, dense) in NN_VARIANTS.items():
                    if net == "m" and mb is None:
                        continue
                    k = 8 if net == "b" else 1
                    path, summ = nn_traffic(bench, k, rate, mc, v, dense=dense, scheme=scheme)
                    futs[(bench, v, rate)] = ex.submit(sim, bb if net == "b" else mb, path)
                    tool[(bench, v, rate)] = summ
        for key, f in futs.items():
            runs[key] = f.result()
            runs[key]["tool"] = tool[key]
    lat = {}      # (bench, variant): mean latency over the rates
    en = {}       # (bench, variant): energy per image (J), parts
    for bench in NN_RUNS:
        for v, (net, _, _, _) in NN_VARIANTS.items():
            if (bench, v, rates[bench][0]) not in runs:
                continue
            rs = [runs[(bench, v, r)] for r in rates[bench]]
            lat[(bench, v)] = sum(x["lat"] for x in rs) / len(rs)
            k = 8 if net == "b" else 1
            tot = [energy(x, k) for x in rs]
            en[(bench, v)] = (sum(t[0] for t in tot) / len(tot) / NN_IMAGES[bench],
                              {p: sum(t[1][p] for t in tot) / len(tot) / NN_IMAGES[bench] for p in tot[0][1]})
    traffic_left = {b: 100.0 * runs[(b, "neunoc_zf", rates[b][0])]["mesh_flits"] /
                    runs[(b, "neunoc_zf", rates[b][0])]["pe_flits"] for b in NN_RUNS}
    return {"runs": runs, "rates": rates, "lat": lat, "energy": en, "traffic_left": traffic_left}


def with_mesh():
    return [b for b, (_, mb) in NN_RUNS.items() if mb]


def below_mesh_bound(nn):
    """The benchmarks with a mesh baseline whose rates all stay below the mesh's link bound."""
    return [b for b in with_mesh() if all(r < mesh_link_bound(b) for r in nn["rates"][b])]


def nn_red(nn, bench, v, what="lat"):
    """Reduction (%) of variant v against the mesh: mean over the rates of the per-rate latency
    reduction, or of the energy per image."""
    if what == "energy":
        return 100.0 * (1 - nn["energy"][(bench, v)][0] / nn["energy"][(bench, "mesh")][0])
    rs = nn["rates"][bench]
    return sum(100.0 * (1 - nn["runs"][(bench, v, r)]["lat"] / nn["runs"][(bench, "mesh", r)]["lat"])
               for r in rs) / len(rs)


def plot_nn(nn):
    """Figures 41 (mappings), 42 (multicast) and 43 (normalized latency and energy) as
    docs/results/neunoc_fig41.png, _fig42.png, _fig43.png."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    benches = list(NN_RUNS)
    for fig_no, variants, names in (
            (41, ["neunoc", "neunoc_rand", "neunoc_seq"], ["NN-aware", "random", "sequential"]),
            (42, ["neunoc_nomc", "neunoc"], ["without multicast", "with multicast"])):
        bl = benches if fig_no == 41 else benches[1:]
        fig, axes = plt.subplots(1, len(bl), figsize=(3.6 * len(bl), 3.4), squeeze=False)
        for ax, bench in zip(axes[0], bl):
            rs = nn["rates"][bench]
            for v, name in zip(variants, names):
                ax.plot(rs, [nn["runs"][(bench, v, r)]["lat"] for r in rs], marker="o", ms=3, label=name)
            ax.set_title(bench, fontsize=9)
            ax.set_xlabel("injection rate (images / cycle)", fontsize=7)
            ax.set_ylabel("average packet latency (cycles)", fontsize=7)
            ax.tick_params(labelsize=6)
            ax.tick_params(axis="x", labelrotation=30)
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=6)
        fig.suptitle("Figure %d (measured on the RTL): Neu-NoC, rings of 8, %s" % (
            fig_no, "mapping schemes" if fig_no == 41 else "before and after multicast"), fontsize=10)
        fig.tight_layout()
        fig.savefig("docs/results/neunoc_fig%d.png" % fig_no, dpi=90)
        plt.close(fig)
    fig, axes = plt.subplots(1, 2, figsize=(12, 3.6))
    designs = [("mesh", "2D mesh"), ("neunoc", "Neu-NoC"), ("neunoc_zf", "Neu-NoC, zero flits")]
    benches = with_mesh()
    for ax, what, title in ((axes[0], "lat", "normalized average packet latency"),
                            (axes[1], "energy", "normalized NoC energy per image")):
        w = 0.8 / len(designs)
        for i, (v, name) in enumerate(designs):
            ys = [1 - nn_red(nn, b, v, what) / 100.0 for b in benches]
            ax.bar([j + (i - 1) * w for j in range(len(benches))], ys, w, label=name)
        ax.set_xticks(range(len(benches)))
        ax.set_xticklabels(benches, fontsize=7, rotation=20)
        ax.set_title(title, fontsize=9)
        ax.grid(True, axis="y", alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle("Figure 43 (measured on the RTL; energy from event counts, Noxim 45 nm table)", fontsize=10)
    fig.tight_layout()
    fig.savefig("docs/results/neunoc_fig43.png", dpi=90)
    plt.close(fig)
    return True


def write_nn(nn, secs):
    """docs/results/neunoc_nn.md and the figures: the NN study alone (NEUNOC_ONLY=nn, and part of
    the full bench)."""
    have_png = plot_nn(nn)
    md = ["# Neu-NoC: the six NN benchmarks (Figures 41-43)\n",
          "Generated by `make bench-neunoc` (or `NEUNOC_ONLY=nn`, tb/neunoc/bench_neunoc.py); do not edit by "
          "hand. %d RTL runs (%d checks against the C model, all passed), %.0f s. The rest of the Neu-NoC "
          "figures: [neunoc.md](neunoc.md).\n" % (len(nn["runs"]), sum(v["checks"] for v in nn["runs"].values()), secs)]
    md += nn_markdown(nn, have_png)
    with open("docs/results/neunoc_nn.md", "w") as f:
        f.write("\n".join(md) + "\n")


def nn_markdown(nn, have_png):
    md = ["## NN layer traffic: the six benchmarks (Figures 41-43)\n"]
    md.append("NN traffic (`nnoc_traffic --pattern nn`): images arrive by a Bernoulli process at the given rate; each "
              "mapped layer sends a fixed 100 cycles after the previous one; every PE of a layer sends its %d "
              "activations to every PE of the next. Images per run: %s. Rates are %s of each benchmark's ejection "
              "bound (1 / (largest sending layer's PEs x %d flits) images per cycle). Neu-NoC: the mapper's size "
              "(Table 10), rings of 8, packing built in; mesh: the mapper's size (K = 1), one unicast packet per "
              "destination PE, no packing, coordinate heads (`DstCoord = 1`). Both use the same mesh router (2-cycle hops, 4 VCs x 8 flits). "
              "*Dense*: no zero activation (`--dense`), the paper's Neu-NoC without the zero-flit design. *Zero "
              "flits*: activations zeroed below %g, packed. Latency from the packet's creation to its tail's "
              "delivery, over every destination PE's copy, source queueing included; every delivered packet is "
              "checked against the model.\n" % (
                  NN_WORDS, ", ".join("%s %d" % (b, NN_IMAGES[b]) for b in NN_RUNS),
                  " / ".join("%.0f%%" % (100 * f) for f in NN_FRACS), NN_WORDS + 1, THRESHOLD))
    for n in (41, 42, 43):
        if have_png:
            md.append("![Figure %d](neunoc_fig%d.png)\n" % (n, n))
    md.append("### Figure 43: latency and energy against the mesh\n")
    md.append("Reduction against the mesh: latency, mean over the rates of the per-rate reduction; energy, per image "
              "(mean over the rates). Paper: 23.2% lower latency and 31.1% lower energy on average (Neu-NoC vs "
              "2D mesh; the Fattree-mesh design of Figure 43 is not built here).\n")
    md.append("The rates are set by Neu-NoC's ejection bound; the column *rates / mesh link bound* puts them against "
              "the mesh's own limit, its busiest link under the NN-aware mapping (the mapper's maximum link load "
              "x 17 flits per image). Above 100% the mesh cannot carry the traffic in steady state: its latency "
              "is then mostly source queueing and grows with the run's length, so that benchmark's reduction "
              "measures the traffic the mesh cannot carry, not the network's latency.\n")
    md.append("| benchmark | Neu-NoC / mesh | rates / mesh link bound | mesh latency | Neu-NoC latency | latency | "
              "zero flits | mesh energy/image | Neu-NoC energy/image | energy | zero flits |")
    md.append("|---|---|---|---|---|---|---|---|---|---|---|")
    for b, (bb, mb) in NN_RUNS.items():
        if not mb:
            md.append("| %s | %s / - | | not run (mesh %s) | %.1f | | | | %.1f nJ | | |" % (
                b, bb.replace("neunoc_", ""), MESH_SIZES[b], nn["lat"][(b, "neunoc")],
                1e9 * nn["energy"][(b, "neunoc")][0]))
            continue
        mlb = mesh_link_bound(b)
        md.append("| %s | %s / %s | %s | %.1f | %.1f | %.1f%% lower | %.1f%% lower | %.1f nJ | %.1f nJ | %.1f%% lower | "
                  "%.1f%% lower |" % (
                      b, bb.replace("neunoc_", ""), mb.replace("neunoc_", ""),
                      " / ".join("%.0f%%" % (100.0 * r / mlb) for r in nn["rates"][b]), nn["lat"][(b, "mesh")],
                      nn["lat"][(b, "neunoc")], nn_red(nn, b, "neunoc"), nn_red(nn, b, "neunoc_zf"),
                      1e9 * nn["energy"][(b, "mesh")][0], 1e9 * nn["energy"][(b, "neunoc")][0],
                      nn_red(nn, b, "neunoc", "energy"), nn_red(nn, b, "neunoc_zf", "energy")))
    avg = lambda v, w="lat": sum(nn_red(nn, b, v, w) for b in with_mesh()) / len(with_mesh())  # noqa: E731
    md.append("| **mean of %d** | | | | | **%.1f%% lower** (paper 23.2%%, 6 benchmarks) | %.1f%% lower | | | **%.1f%% lower** (paper "
              "31.1%%) | %.1f%% lower |" % (len(with_mesh()), avg("neunoc"), avg("neunoc_zf"),
                                            avg("neunoc", "energy"), avg("neunoc_zf", "energy")))
    below = below_mesh_bound(nn)
    if below:
        md.append("| mean of the %d with every rate below the mesh's link bound (%s) | | | | | %.1f%% lower | %.1f%% lower "
                  "| | | %.1f%% lower | %.1f%% lower |" % (
                      len(below), ", ".join(below),
                      sum(nn_red(nn, b, "neunoc") for b in below) / len(below),
                      sum(nn_red(nn, b, "neunoc_zf") for b in below) / len(below),
                      sum(nn_red(nn, b, "neunoc", "energy") for b in below) / len(below),
                      sum(nn_red(nn, b, "neunoc_zf", "energy") for b in below) / len(below)))
    md.append("")
    md.append("Energy model: dynamic energy per event from Noxim's router power table (Catania et al., ACM TOMACS "
              "2016, `bin/power.yaml`, 45 nm) at %d-bit flits and 8-flit buffers: buffer write %.2f pJ, read %.2f "
              "pJ, 5-port crossbar %.2f pJ per flit; link %.1f fJ per bit per mm; a ring stage is a 2-flit buffer "
              "(write %.2f pJ, read %.2f pJ) and a %.0f mm wire. Events, from the RTL's counters: flits injected "
              "into and sent between routers (buffer write and read each), flits leaving routers on links and "
              "local ports (crossbar), link traversals; ring-stage passes are counted by the harness from each "
              "packet's fixed ring path. Wire lengths: PE pitch %.0f mm; a mesh link spans one PE pitch in the "
              "mesh and sqrt(8) = 2.83 in Neu-NoC (8 PEs per router). Both networks are charged at the same "
              "width (the mesh's coordinate-head flits are 31-33 bits, Neu-NoC's 37-110 with its bit strings; "
              "charging the real widths would favour the mesh). Leakage, the network interfaces (Noxim leaves them "
              "uncharacterized) and allocation (Noxim: 0.11 pJ per head flit and router) are left out.\n" % (
                  E_WIDTH, 1e12 * E_PUSH, 1e12 * E_POP, 1e12 * E_XBAR, 1e15 * E_LINK_BIT_MM,
                  1e12 * E_RING_PUSH, 1e12 * E_RING_POP, PE_PITCH_MM, PE_PITCH_MM))
    md.append("| benchmark | design | buffers | crossbar | links | rings | total per image |")
    md.append("|---|---|---|---|---|---|---|")
    for b in NN_RUNS:
        for v in ("mesh", "neunoc", "neunoc_zf"):
            if (b, v) not in nn["energy"]:
                continue
            e, parts = nn["energy"][(b, v)]
            md.append("| %s | %s | %s | %.2f nJ |" % (b, v, " | ".join("%.2f nJ" % (1e9 * parts[p]) for p in
                                                                     ("buffers", "crossbar", "links", "rings")),
                                                       1e9 * e))
    md.append("")
    md.append("### Figures 41 and 42: mapping and multicast on Neu-NoC\n")
    md.append("Average packet latency (cycles) per rate. Mapping: NN-aware (the mapper's heuristic), random (seed 1), "
              "sequential. Multicast: without, one packet per destination ring (`--no-multicast`). Paper: NN-aware "
              "mapping best in all six benchmarks; multicast lowers latency in all five (mnist_mlp_1 has nothing "
              "to merge).\n")
    md.append("| benchmark | images/cycle | NN-aware | random | sequential | without multicast | mesh |")
    md.append("|---|---|---|---|---|---|---|")
    for b in NN_RUNS:
        for r in nn["rates"][b]:
            md.append("| %s | %g | %s |" % (b, r, " | ".join(
                "%.1f" % nn["runs"][(b, v, r)]["lat"] if (b, v, r) in nn["runs"] else "not run"
                for v in ("neunoc", "neunoc_rand", "neunoc_seq", "neunoc_nomc", "mesh"))))
    md.append("")
    wins = sum(1 for b in NN_RUNS if nn["lat"][(b, "neunoc")] <= min(nn["lat"][(b, "neunoc_rand")],
                                                                    nn["lat"][(b, "neunoc_seq")]))
    mc = sum(1 for b in list(NN_RUNS)[1:] if nn["lat"][(b, "neunoc")] < nn["lat"][(b, "neunoc_nomc")])
    md.append("NN-aware mapping has the lowest mean latency in %d of %d benchmarks; multicast lowers it in %d of %d.\n" % (
        wins, len(NN_RUNS), mc, len(NN_RUNS) - 1))
    return md


# ---------------------------------------------------------------- main
def main():
    t0 = time.time()
    os.makedirs(WORK, exist_ok=True)
    os.makedirs("docs/results", exist_ok=True)
    for tool in (MAP, TRAFFIC):
        if not os.path.exists(tool):
            die("%s missing (make build-tests)" % tool)
    nruns, nchecks = 0, 0

    if ONLY == "uniform":
        load = load_sweeps()
        runs = sum(s["runs"] for s in load.values())
        have_png = plot(load, os.path.join(WORK, "neunoc_load.png"))
        md = ["# Neu-NoC load sweeps (NEUNOC_ONLY=uniform)\n",
              "%d RTL runs (%d checks against the C model, all passed), %.0f s.\n" % (
                  runs, sum(s["checks"] for s in load.values()), time.time() - t0)]
        md += load_markdown(load, "neunoc_load.png" if have_png else None)
        with open(os.path.join(WORK, "neunoc_load.md"), "w") as f:
            f.write("\n".join(md) + "\n")
        write_load_points(load, os.path.join(BUILD, "bench", "neunoc_load.tsv"))
        print("bench-neunoc: %d runs, %.0f s; wrote %s/neunoc_load.md, neunoc_load.png and %s/bench/neunoc_load.tsv" % (
            runs, time.time() - t0, WORK, BUILD))
        return
    elif ONLY == "nn":
        nn = nn_study()
        write_nn(nn, time.time() - t0)
        print("bench-neunoc: NN study, %d runs, %.0f s; wrote docs/results/neunoc_nn.md and neunoc_fig41..43.png" % (
            len(nn["runs"]), time.time() - t0))
        return
    elif ONLY:
        die("NEUNOC_ONLY=%s: the partial runs are NEUNOC_ONLY=uniform and NEUNOC_ONLY=nn" % ONLY)

    for b in list(NETS.values()) + [a for v in ABLATION_BASE.values() for a in v] + \
            [b for pair in NN_RUNS.values() for b in pair if b]:
        harness(b)   # every harness first: a missing one fails now, not after the sweeps
    maps = mapping()
    # The area rows' synthesis (one Yosys run at a time) runs beside the simulations rather than
    # after them: alone, its longest run (the paper-width mesh router) left the second core idle.
    area_bg = cf.ThreadPoolExecutor(max_workers=1)
    area_fut = area_bg.submit(timed, area, 1)

    # throughput and latency under load, 64 PEs; the router ablation
    t_load = time.time()
    load = load_sweeps()
    t_load = time.time() - t_load
    nruns += sum(s["runs"] for s in load.values())
    nchecks += sum(s["checks"] for s in load.values())
    uni = {label: load[(b, "uniform")] for label, b in NETS.items()}

    # NN workloads, all six benchmarks (Figures 41-43)
    t_nn = time.time()
    nn = nn_study()
    t_nn = time.time() - t_nn
    nruns += len(nn["runs"])
    nchecks += sum(v["checks"] for v in nn["runs"].values())
    traffic_left = nn["traffic_left"]
    # traffic left for every benchmark from the model (nnoc_mesh_flits), at the same threshold
    model_left = {}
    for b in BENCHES:
        _, s = nn_traffic(b, 8, 0.01, True, "model")
        model_left[b] = 100.0 * float(s["packed_ratio"])
    ar, t_area = area_fut.result()
    area_bg.shutdown()
    ov_small, ov_paper = pack_overhead(ar, "small", 4), pack_overhead(ar, "paper", 8)
    have_png = plot(load, "docs/results/neunoc_latency.png")
    write_nn(nn, t_nn)

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
    wm = with_mesh()
    avg_red = sum(nn_red(nn, b, "neunoc") for b in wm) / len(wm)
    avg_red_zf = sum(nn_red(nn, b, "neunoc_zf") for b in wm) / len(wm)
    avg_en = sum(nn_red(nn, b, "neunoc", "energy") for b in wm) / len(wm)
    avg_en_zf = sum(nn_red(nn, b, "neunoc_zf", "energy") for b in wm) / len(wm)
    for b in wm:
        tsv.append(("NN packet latency reduction, Neu-NoC vs mesh, %s" % b, "-", "%.1f" % nn_red(nn, b, "neunoc"), "%"))
        tsv.append(("NN energy reduction, Neu-NoC vs mesh, %s" % b, "-", "%.1f" % nn_red(nn, b, "neunoc", "energy"), "%"))
    tsv.append(("NN packet latency reduction, Neu-NoC vs mesh (mean)", "23.2", "%.1f" % avg_red, "%"))
    tsv.append(("NN packet latency reduction, Neu-NoC with zero flits vs mesh (mean)", "-", "%.1f" % avg_red_zf, "%"))
    tsv.append(("NN energy reduction, Neu-NoC vs mesh (mean)", "31.1", "%.1f" % avg_en, "%"))
    tsv.append(("NN energy reduction, Neu-NoC with zero flits vs mesh (mean)", "-", "%.1f" % avg_en_zf, "%"))
    tsv += load_tsv(load)
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
    write_load_points(load, os.path.join(BUILD, "bench", "neunoc_load.tsv"))

    # ---------------------------------------------------------------- markdown
    md = ["# Neu-NoC: measured results\n",
          "Generated by `make bench-neunoc` (tb/neunoc/bench_neunoc.py); do not edit by hand. %d RTL runs "
          "(%d checks against the C model, all passed), %.0f s after the harnesses were built: load sweeps %.0f s, "
          "NN study %.0f s, synthesis %.0f s beside them (none when $BUILD/synth/area.tsv has the rows; harness build times "
          "under Build times). Paper: Liu, Neu-NoC (seed 004, Section 3.5). "
          "Networks, flits and the pipeline: docs/neunoc.md; tools: docs/neunoc_workloads.md.\n" % (
              nruns, nchecks, time.time() - t0, t_load, t_nn, t_area),
          "## Summary\n",
          "| figure | paper | ours |", "|---|---|---|"]
    md.append("| hop count, random vs NN-aware mapping (mnist_mlp_2) | 124 -> 76 | %.1f -> %d |" % (
        maps["mnist_mlp_2"]["hops_r"], maps["mnist_mlp_2"]["hops_nn"]))
    md.append("| max link load, random vs NN-aware (mnist_mlp_2) | 16 -> 4 | %.2f -> %d |" % (
        maps["mnist_mlp_2"]["load_r"], maps["mnist_mlp_2"]["load_nn"]))
    md.append("| packets without / with multicast (mnist_mlp_2) | 36 -> 20 | %d -> %d |" % (
        maps["mnist_mlp_2"]["pkts"], maps["mnist_mlp_2"]["merged"]))
    md.append("| traffic left after zero-flit packing (threshold %g, RTL, mean of six benchmarks) | 56.0%% "
              "(Table 11, mean) | %.1f%% |" % (THRESHOLD, sum(traffic_left.values()) / len(traffic_left)))
    md.append("| average packet latency, Neu-NoC vs mesh (NN traffic, dense activations, mean over rates and "
              "%s) | 23.2%% lower (six benchmarks) | %.1f%% lower |" % (" / ".join(wm), avg_red))
    md.append("| the same with zero-flit packing on Neu-NoC (threshold %g) | 11.7%% lower than Fattree-mesh | "
              "%.1f%% lower than the mesh |" % (THRESHOLD, avg_red_zf))
    md.append("| NoC energy, Neu-NoC vs mesh (per image, RTL event counts x Noxim's 45 nm energies, %s) | "
              "31.1%% lower | %.1f%% lower (%.1f%% with zero flits) |" % (" / ".join(wm), avg_en, avg_en_zf))
    for label, s in uni.items():
        md.append("| zero-load latency, uniform random, %s | - | %.2f cycles (pipeline formula %.2f) |" % (
            label, s["zero"], s["analytic"]))
        md.append("| saturation, uniform random, %s: latency %gx zero-load / accepted throughput above the "
                  "bound | - | %s (%s) / %.4f (%s) packets/PE/cycle (channel bound %.4f) |" % (
                      label, SAT_FACTOR, fmt_rate(s["sat"]), pct(s["sat"], s["bound"]), s["acc"]["accepted"],
                      pct(s["acc"]["accepted"], s["bound"]), s["bound"]))
    if ov_paper:
        md.append("| router area overhead of pack/unpack (paper widths) | 3.1%% | %.2f%% |" % ov_paper["pct"])
    if ov_small:
        md.append("| router area overhead of pack/unpack (test widths) | 3.1%% | %.2f%% |" % ov_small["pct"])
    md.append("")

    facts = {
        "mesh_share": " / ".join("%.0f%% (%s widths)" % (o["mesh_share"], n) for n, o in
                                 (("test", ov_small), ("paper", ov_paper)) if o),
        "ring_pct": " / ".join("%.1f%% (%s widths)" % (o["ring_pct"], n) for n, o in
                               (("test", ov_small), ("paper", ov_paper)) if o),
    }
    wm_b = with_mesh()
    below = below_mesh_bound(nn)
    over = [b for b in wm_b if b not in below]
    ratios = [nn["runs"][(b, "mesh", r)]["packets"] / float(nn["runs"][(b, "neunoc", r)]["packets"])
              for b in wm_b for r in nn["rates"][b]]
    facts.update({
        "over_from": over[0] if over else "none",
        "over_max": "%.0f%%" % max(100.0 * max(nn["rates"][b]) / mesh_link_bound(b) for b in wm_b),
        "pkt_ratio": "%.1f to %.1f" % (min(ratios), max(ratios)),
        "below": ", ".join(below) if below else "none",
        "below_lat": ("%.1f%% lower" % (sum(nn_red(nn, b, "neunoc") for b in below) / len(below))) if below else "-",
        "below_en": ("%.1f%% lower" % (sum(nn_red(nn, b, "neunoc", "energy") for b in below) / len(below)))
        if below else "-",
    })
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
    md += load_markdown(load, "neunoc_latency.png" if have_png else None)
    md.append("## NN layer traffic: the six benchmarks (Figures 41-43)\n")
    md.append("In [neunoc_nn.md](neunoc_nn.md): latency against injection rate for three mappings and without / "
              "with multicast on Neu-NoC, and latency and energy against the mesh.\n")
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
    print("bench-neunoc: %d runs, %.0f s (load sweeps %.0f s, NN study %.0f s); wrote docs/results/neunoc.md, "
          "docs/results/neunoc_latency.png, neunoc_fig41..43.png, %s/bench/neunoc.tsv and %s/bench/neunoc_load.tsv" % (
              nruns, time.time() - t0, t_load, t_nn, BUILD, BUILD))


if __name__ == "__main__":
    main()

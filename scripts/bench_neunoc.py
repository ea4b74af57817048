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
import csv
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
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
UNIFORM_RATES = [0.002, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.10, 0.12]
UNIFORM_LEN = 4          # data words per packet
UNIFORM_CYCLES = 4000
NN_RUNS = {              # benchmark: (Neu-NoC build, K, mesh build)
    "mnist_mlp_1": ("neunoc_b3x3", "neunoc_m6x6"),
    "mnist_mlp_2": ("neunoc_b4x4", "neunoc_m10x10"),
}
NN_RATES = [0.002, 0.005, 0.01, 0.02, 0.04]   # images per cycle
NN_IMAGES = 40
THRESHOLD = 0.5          # activation threshold of the NN traffic (zero fraction Phi(0.5) = 69%)


def die(msg):
    sys.stderr.write("bench-neunoc: %s\n" % msg)
    sys.exit(1)


def run(cmd):
    p = subprocess.run(cmd, shell=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return p.returncode, p.stdout.decode(errors="replace")


def harness(name):
    path = os.path.join(BUILD, "tb", name, name)
    if not os.path.exists(path):
        die("%s missing (make bench-neunoc builds it)" % path)
    return path


def summary(out, prefix):
    """key=value pairs of the last line starting with prefix."""
    kv = {}
    for line in out.splitlines():
        if line.startswith(prefix):
            kv = dict(p.split("=", 1) for p in line[len(prefix):].split() if "=" in p)
    return kv


NOC = re.compile(r"noc: \w+ cycles=(\d+) packets=(\d+) delivered=(\d+) avg_lat=([\d.]+) avg_net_lat=([\d.]+) "
                 r"max_lat=(\d+) pe_flits=(\d+) mesh_flits=(\d+)")
RESULT = re.compile(r"^(\d+) passed, (\d+) failed\s*$", re.M)


def sim(build, traffic):
    """Runs a traffic file through a harness; returns the statistics (or dies on a failed check)."""
    rc, out = run("%s +traffic=%s +gap=0 +timeout=20000000" % (harness(build), traffic))
    m, r = NOC.search(out), RESULT.search(out)
    if rc != 0 or not m or not r or int(r.group(2)) != 0:
        die("%s on %s failed:\n%s" % (build, traffic, out[-2000:]))
    g = m.groups()
    return {"cycles": int(g[0]), "packets": int(g[1]), "delivered": int(g[2]), "lat": float(g[3]),
            "net_lat": float(g[4]), "max_lat": int(g[5]), "pe_flits": int(g[6]), "mesh_flits": int(g[7]),
            "checks": int(r.group(1))}


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
def nn_traffic(bench, k, rate, multicast, tag):
    path = "%s/%s_%s_%g.nnt" % (WORK, bench, tag, rate)
    mapfile = "%s/%s_k%d.map" % (WORK, bench, k)
    if not os.path.exists(mapfile):
        rc, out = run("%s --bench %s --k %d --scheme nn -o %s" % (MAP, bench, k, mapfile))
        if rc != 0:
            die("nnoc_map %s k %d: %s" % (bench, k, out.strip()))
    rc, out = run("%s --pattern nn --map %s --images %d --rate %g --threshold %g %s -o %s" % (
        TRAFFIC, mapfile, NN_IMAGES, rate, THRESHOLD, "" if multicast else "--no-multicast", path))
    if rc != 0:
        die("nnoc_traffic nn %s: %s" % (bench, out.strip()))
    return path, summary(out, "nnoc_traffic: summary ")


def uniform_traffic(k, cols, rows, rate):
    path = "%s/uniform_k%d_%dx%d_%g.nnt" % (WORK, k, cols, rows, rate)
    rc, out = run("%s --pattern uniform --k %d --cols %d --rows %d --rate %g --len %d --cycles %d -o %s" % (
        TRAFFIC, k, cols, rows, rate, UNIFORM_LEN, UNIFORM_CYCLES, path))
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


# ---------------------------------------------------------------- area
def area():
    path = os.path.join(BUILD, "synth", "area.tsv")
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return {r["config"]: r for r in csv.DictReader(f, delimiter="\t") if r["config"].startswith("nnoc_")}


def pack_overhead(ar, size, k):
    need = ["nnoc_mesh_router_" + size, "nnoc_ring_send_" + size, "nnoc_ring_recv_" + size, "nnoc_inject_" + size,
            "nnoc_eject_" + size, "nnoc_pack_" + size, "nnoc_unpack_" + size]
    if any(n not in ar for n in need):
        return None
    c = {n: int(ar[n]["cells"]) for n in need}
    router = (c[need[0]] + k * (c[need[1]] + c[need[2]]) + c[need[3]] + c[need[4]])
    pu = c[need[5]] + c[need[6]]
    return {"router": router, "pack": pu, "pct": 100.0 * pu / (router + pu),
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
        ax.set_title("%s (threshold %g)" % (bench, THRESHOLD))
        ax.set_yscale("log")
        ax.legend()
        ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return True


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
        uni = {key: f.result() for key, f in jobs.items()}
    nruns += len(uni)
    nchecks += sum(v["checks"] for v in uni.values())
    curves = {label: [(rate, uni[(label, rate)]["lat"]) for rate in UNIFORM_RATES] for label in nets}
    zero = {label: uni[(label, UNIFORM_RATES[0])]["net_lat"] for label in nets}
    analytic = {label: analytic_uniform(k, c, r, UNIFORM_LEN) for label, (b, k, c, r) in nets.items()}
    sat = {}
    for label in nets:
        ok = [rate for rate in UNIFORM_RATES if uni[(label, rate)]["lat"] < 3 * zero[label]]
        sat[label] = max(ok) if ok else None

    # NN workloads: Neu-NoC (multicast, packing) vs mesh (unicast, no packing)
    nn, nn_curves, traffic_left = {}, {}, {}
    with cf.ThreadPoolExecutor(max_workers=JOBS) as ex:
        futs = {}
        for bench, (bb, mb) in NN_RUNS.items():
            for rate in NN_RATES:
                pb, sb = nn_traffic(bench, 8, rate, True, "neunoc")
                pm, sm = nn_traffic(bench, 1, rate, False, "mesh")
                futs[(bench, "neunoc", rate)] = (ex.submit(sim, bb, pb), sb)
                futs[(bench, "mesh", rate)] = (ex.submit(sim, mb, pm), sm)
        for key, (f, s) in futs.items():
            nn[key] = f.result()
            nn[key]["tool"] = s
    nruns += len(nn)
    nchecks += sum(v["checks"] for v in nn.values())
    reductions = {}
    for bench in NN_RUNS:
        nn_curves[bench] = {
            "Neu-NoC": [(r, nn[(bench, "neunoc", r)]["lat"]) for r in NN_RATES],
            "mesh": [(r, nn[(bench, "mesh", r)]["lat"]) for r in NN_RATES]}
        reductions[bench] = [100.0 * (1 - nn[(bench, "neunoc", r)]["lat"] / nn[(bench, "mesh", r)]["lat"])
                             for r in NN_RATES]
        x = nn[(bench, "neunoc", NN_RATES[0])]
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
    tsv.append(("NN packet latency reduction, Neu-NoC vs mesh (mean)", "23.2", "%.1f" % avg_red, "%"))
    for label in nets:
        tsv.append(("zero-load latency uniform %s" % label, "-", "%.2f (analytic %.2f)" % (zero[label], analytic[label]), "cycles"))
        tsv.append(("saturation throughput uniform %s" % label, "-",
                    "%s" % ("-" if sat[label] is None else "%g" % sat[label]), "packets/PE/cycle"))
    if ov_small:
        tsv.append(("pack/unpack area overhead (small widths)", "3.1", "%.2f" % ov_small["pct"], "% of router cells"))
    if ov_paper:
        tsv.append(("pack/unpack area overhead (paper widths)", "3.1", "%.2f" % ov_paper["pct"], "% of router cells"))
    os.makedirs(os.path.join(BUILD, "bench"), exist_ok=True)
    with open(os.path.join(BUILD, "bench", "neunoc.tsv"), "w") as f:
        f.write("figure\tpaper\tours\tunit\n")
        for t in tsv:
            f.write("\t".join(t) + "\n")

    # ---------------------------------------------------------------- markdown
    md = ["# Neu-NoC: measured results\n",
          "Generated by `make bench-neunoc` (scripts/bench_neunoc.py); do not edit by hand. %d RTL runs "
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
    md.append("| average packet latency, Neu-NoC vs mesh (NN traffic, mean over rates) | 23.2%% lower | %.1f%% lower |" % avg_red)
    for label in nets:
        md.append("| zero-load latency, uniform random, %s | - | %.2f cycles (analytic %.2f) |" % (label, zero[label], analytic[label]))
        md.append("| saturation throughput, uniform random, %s | - | %s packets/PE/cycle |" % (
            label, "-" if sat[label] is None else "%g" % sat[label]))
    if ov_paper:
        md.append("| router area overhead of pack/unpack (paper widths) | 3.1%% | %.2f%% |" % ov_paper["pct"])
    if ov_small:
        md.append("| router area overhead of pack/unpack (test widths) | 3.1%% | %.2f%% |" % ov_small["pct"])
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
    md.append("Zero-load latency is the network latency (injection of the head to delivery of the tail) at rate "
              "%g; the analytic value is the mean of the pipeline formula of docs/neunoc.md over the uniform "
              "source/destination pairs. Saturation throughput: the highest rate measured whose average latency "
              "stays below 3x the zero-load latency.\n" % UNIFORM_RATES[0])
    md.append("NN traffic (%d images; each layer sends a fixed 100 cycles after the previous one; rate = images "
              "per cycle): Neu-NoC with multicast and packing at Table 10's Neu-NoC size; the mesh (K = 1) with one "
              "unicast packet per destination PE (`--no-multicast`) and no packing, at Table 10's mesh size.\n" % NN_IMAGES)
    md.append("| benchmark | rate | Neu-NoC latency | mesh latency | reduction |")
    md.append("|---|---|---|---|---|")
    for bench in NN_RUNS:
        for r, red in zip(NN_RATES, reductions[bench]):
            md.append("| %s | %g | %.2f | %.2f | %.1f%% |" % (bench, r, nn[(bench, "neunoc", r)]["lat"],
                                                            nn[(bench, "mesh", r)]["lat"], red))
    md.append("")
    md.append("## Router area\n")
    for name, ov in (("test widths (26-bit flits, K 4)", ov_small), ("paper widths (110-bit flits, K 8, 4 VCs x 8)", ov_paper)):
        if ov:
            md.append("- %s: mesh router + K ring routers + inject/eject %d generic cells (%d iCE40 LUT4); "
                      "pack + unpack %d cells (%d LUT4): %.2f%% of the router." % (
                          name, ov["router"], ov["lut_router"], ov["pack"], ov["lut_pack"], ov["pct"]))
        else:
            md.append("- %s: not synthesized yet (`python3 synth/run_synth.py --only nnoc_...`)." % name)
    md.append("")
    with open("docs/results/neunoc.md", "w") as f:
        f.write("\n".join(md) + "\n")
    print("bench-neunoc: %d runs, %.0f s; wrote docs/results/neunoc.md and %s/bench/neunoc.tsv" % (
        nruns, time.time() - t0, BUILD))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Runs the cocotb AXI protocol tests of every <blk>_axi shell on Icarus
(docs/axi_verification.md).

  python3 tests/cocotb/run.py [--quick] [--top softermax_axi] [--no-faults] [--faults 1,3]

For each top: the wrapper is generated (gen_wrapper.py), built with Icarus (-g2005; the
wrapper is plain Verilog-2005 too) with FAULT = 0 and its functional and register tests run;
then every fault of FAULT_RUNS is built into its own wrapper and test_fault_injection must see
the checker report the fault's expected message. One line per test, then
'N passed, N failed'; the exit status is non-zero on any failure. Builds and logs go to
build/cocotb/ (BUILD in the environment moves build/).

--quick (TB_QUICK=1): the random parts at their base size; without it they are 3x longer
(rw-register rounds, concurrent accesses, softermax rows, neummu repeats, neunoc packets).
Every fault runs in both modes. The seed is fixed (TB_SEED, default 1).
"""
import argparse
import os
import sys
import time
import tomllib
import xml.etree.ElementTree as ET

sys.dont_write_bytecode = True           # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import gen_wrapper  # noqa: E402

BUILD = os.path.join(ROOT, os.environ.get("BUILD", "build"), "cocotb")

TOPS = {
    "softermax_axi": {"blk": "softermax", "tests": ["test_regs", "test_jobs"]},
    "neummu_axi": {"blk": "neummu", "tests": ["test_regs", "test_translate", "test_errors"]},
    "neunoc_axi": {"blk": "neunoc", "tests": ["test_regs", "test_packets"]},
}

# fault -> (top it is injected into, text the checker must report); fault 0: the same
# scenario on the intact shell must pass with the checker silent
FAULT_RUNS = [
    (0, "softermax_axi", None),
    (0, "neummu_axi", None),
    (0, "neunoc_axi", None),
    (1, "softermax_axi", "m_axi AR: VALID dropped before READY"),
    (1, "neummu_axi", "m_axi AR: VALID dropped before READY"),
    (2, "softermax_axi", "m_axi W: payload changed while VALID && !READY"),
    (2, "neummu_axi", "m_axis_rsp: payload changed while VALID && !READY"),
    (2, "neunoc_axi", "payload changed while VALID && !READY"),
    (3, "softermax_axi", "burst crosses a 4 KB boundary"),
    (4, "softermax_axi", "WLAST wrong"),
    (5, "neunoc_axi", "unmapped address"),
    (6, "neummu_axi", "write-only bits of CTRL read non-zero"),
    (7, "neummu_axi", "ARBURST != INCR"),
    (8, "softermax_axi", "R burst not consumed"),
    (9, "neunoc_axi", "s_axil R: VALID dropped before READY"),
    (10, "softermax_axi", "read-only register ID changed"),
    (11, "neunoc_axi", "VALID dropped before READY"),
    (12, "neunoc_axi", "write to read-only register ID answered OKAY, not SLVERR"),
    (13, "neummu_axi", "rw register"),
]


def sources(blk):
    out = []
    for b in ("common", blk):
        t = tomllib.load(open(os.path.join(ROOT, "rtl", b, "block.toml"), "rb"))
        out += [os.path.join(ROOT, "rtl", b, f) for f in t["rtl"]]
    return out


def build(runner, top, fault):
    blk = TOPS[top]["blk"]
    wrap = gen_wrapper.generate(top, os.path.join(BUILD, f"{top}_wrap.v"))
    bdir = os.path.join(BUILD, top, f"fault{fault}")
    os.makedirs(bdir, exist_ok=True)
    runner.build(
        sources=sources(blk) + [wrap],
        includes=[os.path.join(ROOT, "rtl", "common"), os.path.join(ROOT, "rtl", blk)],
        hdl_toplevel=f"{top}_wrap",
        parameters={"FAULT": fault},
        # -g2005 after the runner's -g2012: the last one wins. -y: modules the block list does
        # not name yet are found by file name (module m in rtl/<blk>/m.v).
        build_args=["-g2005", "-y", os.path.join(ROOT, "rtl", blk),
                    "-y", os.path.join(ROOT, "rtl", "common")],
        build_dir=bdir,
        timescale=("1ns", "1ps"),
        log_file=os.path.join(bdir, "build.log"),
    )
    return bdir


def run_sim(runner, top, fault, tests, env, tag="sim"):
    bdir = os.path.join(BUILD, top, f"fault{fault}")
    xml = os.path.join(bdir, f"{tag}.xml")
    log = os.path.join(bdir, f"{tag}.log")
    try:
        runner.test(test_module=f"test_{top}", hdl_toplevel=f"{top}_wrap", testcase=tests,
                    build_dir=bdir, test_dir=bdir, results_xml=xml, extra_env=env,
                    log_file=log, timescale=("1ns", "1ps"))
    except SystemExit as e:
        print(f"  (simulator exited with {e.code}; log {os.path.relpath(log, ROOT)})")
    res = {}
    if os.path.exists(xml):
        for tc in ET.parse(xml).getroot().iter("testcase"):
            ok = tc.find("failure") is None and tc.find("error") is None
            skipped = tc.find("skipped") is not None
            props = {p.get("name"): p.get("value") for p in tc.iter("property")}
            res[tc.get("name")] = (ok, skipped, float(tc.get("time", 0)),
                                   float(props.get("sim_time_duration", 0)))
    return res, log


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--top", action="append", choices=sorted(TOPS))
    ap.add_argument("--no-faults", action="store_true")
    ap.add_argument("--faults", help="comma-separated fault numbers (default: all)")
    a = ap.parse_args()

    import logging
    import warnings
    from cocotb_tools.runner import get_runner
    warnings.simplefilter("ignore", DeprecationWarning)

    def quiet_runner():
        r = get_runner("icarus")
        r.log.setLevel(logging.ERROR)                         # "Skipping compilation ..."
        return r
    tops = a.top or list(TOPS)
    base_env = {"TB_SEED": os.environ.get("TB_SEED", "1"), "TB_QUICK": "1" if a.quick else "0",
                "PYTHONDONTWRITEBYTECODE": "1",
                "COCOTB_LOG_LEVEL": os.environ.get("COCOTB_LOG_LEVEL", "INFO")}
    passed = failed = 0
    t_all = time.time()

    def report(ok, name, dt, extra=""):
        nonlocal passed, failed
        passed += ok
        failed += not ok
        print(f"{'PASS' if ok else 'FAIL'}  {name:<48} {dt:6.1f}s  {extra}".rstrip(), flush=True)

    for top in tops:
        runner = quiet_runner()
        t0 = time.time()
        try:
            build(runner, top, 0)
        except (SystemExit, Exception) as e:  # noqa: BLE001
            report(False, f"{top} build", time.time() - t0, repr(e))
            continue
        bt = time.time() - t0
        env = dict(base_env, FAULT="0",
                   AXI_CHECK_LOG=os.path.join(BUILD, top, "fault0", "checker.log"))
        if os.path.exists(env["AXI_CHECK_LOG"]):
            os.remove(env["AXI_CHECK_LOG"])
        t0 = time.time()
        res, log = run_sim(runner, top, 0, TOPS[top]["tests"], env)
        for t in TOPS[top]["tests"]:
            if t not in res:
                report(False, f"{top}/{t}", 0.0, f"no result (log {os.path.relpath(log, ROOT)})")
                continue
            ok, _, dt, ns = res[t]
            report(ok, f"{top}/{t}", dt, f"{ns / 1000:.0f} us sim" +
                   ("" if ok else f"  log {os.path.relpath(log, ROOT)}"))
        print(f"      ({top}: build {bt:.1f}s, simulation {time.time() - t0:.1f}s)", flush=True)

    if not a.no_faults:
        only = {int(x) for x in a.faults.split(",")} if a.faults else None
        for fault, top, expect in FAULT_RUNS:
            if top not in tops or (only and fault not in only):
                continue
            runner = quiet_runner()
            name = f"fault {fault:2d} on {top}"
            t0 = time.time()
            try:
                build(runner, top, fault)
            except (SystemExit, Exception) as e:  # noqa: BLE001
                report(False, name, time.time() - t0, f"build failed: {e!r}")
                continue
            chk_log = os.path.join(BUILD, top, f"fault{fault}", "checker_fault.log")
            if os.path.exists(chk_log):
                os.remove(chk_log)
            env = dict(base_env, FAULT=str(fault), FAULT_EXPECT=expect or "",
                       AXI_CHECK_LOG=chk_log)
            res, log = run_sim(runner, top, fault, ["test_fault_injection"], env, "fault")
            msgs = open(chk_log).read().splitlines() if os.path.exists(chk_log) else []
            if fault == 0:
                ok = res.get("test_fault_injection", (False,))[0] and not msgs
                extra = ("intact shell, same scenario: checker silent" if ok else
                         f"FAILED on the intact shell: {msgs[:2]}; "
                         f"log {os.path.relpath(log, ROOT)}")
                report(ok, f"fault  0 on {top} (no fault)", time.time() - t0, extra)
                continue
            hit = next((m for m in msgs if expect in m), None)
            # the checker's own record decides (a fault may also crash the memory model)
            ok = hit is not None
            extra = (f"detected: {hit.replace('AXI-CHECK: ', '')}" if ok else
                     f"NOT detected ('{expect}'); checker said {msgs[:2]}; "
                     f"log {os.path.relpath(log, ROOT)}")
            report(ok, name, time.time() - t0, extra)

    print(f"(total {time.time() - t_all:.0f}s)")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed or not passed else 0)


if __name__ == "__main__":
    main()

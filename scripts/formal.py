#!/usr/bin/env python3
"""make formal: formal proofs of the shared handshake cells, and a seeded bug for each proof.

Tools: Yosys (read_verilog -formal, write_smt2), yosys-smtbmc and z3 -- all from Debian; no
SymbiYosys. Each proof is a property wrapper under tb/common/formal/ around one cell of
rtl/common with fixed parameters (the PROOFS table below; docs/formal.md lists what each proves).

Per proof:
  1. Yosys flattens the wrapper and the cell and writes an SMT-LIB2 model. Wires the wrapper
     declares with (* fv_probe = "<path>" *) are connected to the cell's internal registers after
     flattening (Yosys 0.23 has no hierarchical references): the helper invariants that make
     induction work need them. X in the RTL (e.g. a RAM's undefined collision read) becomes a
     free value in every cycle (setundef -anyseq), so no X is ever resolved in the design's
     favour.
  2. 'prove' proofs (unbounded, k-induction): the base case (BMC of depth k from reset, with
     --presat: the assumptions are checked satisfiable first) and the induction step (any k
     consecutive states that satisfy every assertion are followed by one that does). 'bmc'
     proofs run the base case only (bounded; the docs say so).
  3. Cover run: every cover statement of the wrapper is reached from reset (not vacuous).
  4. Seeded bug: a copy of one RTL file with a small textual change (in
     build/formal/<proof>/bug/), checked by BMC from reset without the wrapper's helper
     invariants (FV_NO_HELPERS), must make the named contract property fail: a real trace,
     not an induction artefact. The change must apply exactly once, so a bug that no longer
     matches the RTL is an error instead of a silent pass.

Prints one line per proof and per seeded bug (result, method, time), then 'N passed, N failed';
exit status 1 on any failure. Traces (VCD) and logs go to $BUILD/formal/<proof>/.

  scripts/formal.py                 every proof and every seeded bug
  scripts/formal.py fifo_d3 rr_*    the named proofs only (shell-style patterns)
  scripts/formal.py --list          the proofs and what each covers
  --jobs N                          proofs run N at a time (default 2)
  --no-bugs                         skip the seeded-bug runs
  --timeout S                       seconds per solver run (default 600)
"""
import argparse
import concurrent.futures as cf
import fnmatch
import os
import re
import shutil
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RTL = "rtl/common"
FV = "tb/common/formal"
OUT = os.path.join(os.environ.get("BUILD", "build"), "formal")
TIMEOUT = 600  # seconds per solver run (--timeout); every proof takes a few seconds

# cc_hold_check is a simulation checker: it stops the simulation ($stop), which Yosys cannot
# read. Its formal view (applied to a copy) turns each $stop into a toggle of a new register,
# so the proof sees every edge at which the checker would stop, and changes nothing else.
HOLD_CHECK_VIEW = [
    ("cc_hold_check.v", "`ifndef SYNTHESIS\n",
     "`ifndef SYNTHESIS\n  reg fv_stop_q = 1'b0;  // formal view: toggles where $stop was\n"),
    ("cc_hold_check.v", "$stop;", "fv_stop_q <= !fv_stop_q;"),
]


# Each proof: the wrapper (top) and its files, the cell's files (rtl), the parameters, the
# induction depth k ('prove': base case and induction step of depth k; 'bmc': base case only),
# the depth of the cover run, and the seeded bug: a textual change to one RTL file, what it
# breaks (why), the contract property that must catch it (expect) and the BMC depth to find it
# (the helper invariants are left out there, so the contract itself has to fail).
def bug(rtl_file, old, new, why, expect, depth=12):
    return dict(file=rtl_file, old=old, new=new, why=why, expect=expect, depth=depth)


def fifo(name, depth, ft, b):
    return dict(name=name, top="fv_cc_fifo", rtl=["cc_hold_check.v", "cc_fifo.v"],
                fv=["fv_handshake.sv", "fv_queue_model.sv", "fv_cc_fifo.sv"],
                params=dict(Width=3, Depth=depth, FallThrough=ft), mode="prove", k=3,
                cover=12, bug=b)


def fifo_sram(name, depth, b):
    return dict(name=name, top="fv_cc_fifo_sram",
                rtl=["cc_hold_check.v", "cc_sram_1r1w.v", "cc_fifo_sram.v"],
                fv=["fv_handshake.sv", "fv_queue_model.sv", "fv_cc_fifo_sram.sv"],
                params=dict(Width=3, Depth=depth), mode="prove", k=3, cover=depth + 8, bug=b)


def arbiter(name, n, b):
    return dict(name=name, top="fv_cc_rr_arbiter", rtl=["cc_rr_arbiter.v"],
                fv=["fv_cc_rr_arbiter.sv"], params=dict(N=n), mode="prove", k=3,
                cover=2 * n + 4, bug=b)


def cam(name, keyw, entries, b):
    return dict(name=name, top="fv_cc_cam", rtl=["cc_cam.v"], fv=["fv_cc_cam.sv"],
                params=dict(KeyWidth=keyw, Entries=entries), mode="prove", k=2,
                cover=entries + 4, bug=b)


def hold_check(name, width, b):
    return dict(name=name, top="fv_cc_hold_check", rtl=["cc_hold_check.v"],
                fv=["fv_handshake.sv", "fv_cc_hold_check.sv"], params=dict(Width=width),
                mode="prove", k=2, cover=6, view=HOLD_CHECK_VIEW, nosynth=True, bug=b)


F, S, A, C, H = "cc_fifo.v", "cc_fifo_sram.v", "cc_rr_arbiter.v", "cc_cam.v", "cc_hold_check.v"
PROOFS = [
    # cc_fifo: the regression's configurations (Depth 1, 3, 4 with fall-through) and the rest of
    # Depth 1..4 x FallThrough 0/1 that the wrapper's helpers need no change for.
    fifo("fifo_d1", 1, 0, bug(
        F, "wire full  = (count_q == DepthCnt);", "wire full  = (count_q > DepthCnt);",
        "never full: a second beat is accepted", "p_ready_not_full")),
    fifo("fifo_d1_ft", 1, 1, bug(
        F, "assign out_data_o  = ((FallThrough != 0) && empty) ? in_data_i : mem_q[rptr_q];",
        "assign out_data_o  = (FallThrough != 0) ? in_data_i : mem_q[rptr_q];",
        "the output shows the input bus also when a beat is stored", "p_tracked_head")),
    fifo("fifo_d2", 2, 0, bug(
        F, "if (pop)  rptr_d = (rptr_q == LastPtr)", "if (push) rptr_d = (rptr_q == LastPtr)",
        "the read pointer advances on a push instead of a pop", "p_tracked_head")),
    fifo("fifo_d3", 3, 0, bug(
        F, "if (pop && !push) count_d = count_q - 1'b1;", "if (pop) count_d = count_q - 1'b1;",
        "a push and a pop in one cycle lose a beat from the count", "p_count")),
    fifo("fifo_d3_ft", 3, 1, bug(
        F, "if (push) wptr_d = (wptr_q == LastPtr) ? {PtrWidth{1'b0}} : wptr_q + 1'b1;",
        "if (push) wptr_d = (wptr_q == LastPtr) ? LastPtr : wptr_q + 1'b1;",
        "the write pointer sticks at the last entry (a beat is overwritten)", "p_tracked_head")),
    fifo("fifo_d4", 4, 0, bug(
        F, "      count_d = {CntWidth{1'b0}};\n", "      count_d = count_q;\n",
        "clr_i resets the pointers but not the count", "p_count")),
    fifo("fifo_d4_ft", 4, 1, bug(
        F, "wire push = in_valid_i && !full && !(pass && out_ready_i);",
        "wire push = in_valid_i && !full;",
        "a fall-through beat taken by the consumer is stored too (delivered twice)",
        "p_valid_not_empty")),
    # cc_fifo_sram: the regression's Depth 5 and 16, and Depth 1 and 2.
    fifo_sram("fifo_sram_d1", 1, bug(
        S, "assign out_data_o  = byp_valid_q ? byp_data_q : ram_rdata;",
        "assign out_data_o  = ram_rdata;",
        "no bypass: the RAM's undefined collided read is shown", "p_tracked_head")),
    fifo_sram("fifo_sram_d2", 2, bug(
        "cc_sram_1r1w.v", "if (re_i) rdata_q <= collide ? {Width{1'bx}} : mem_q[raddr_i];",
        "if (re_i && !we_i) rdata_q <= collide ? {Width{1'bx}} : mem_q[raddr_i];",
        "the RAM skips its read in a write cycle (a stale head after a push and a pop)",
        "p_tracked_head")),
    fifo_sram("fifo_sram_d5", 5, bug(
        S, "wire byp_d = push && !clr_i && (wptr_q == rptr_d);",
        "wire byp_d = push && !clr_i && (wptr_q == rptr_q);",
        "the bypass compares with the read pointer before the pop", "p_tracked_head")),
    fifo_sram("fifo_sram_d16", 16, bug(
        S, "wire pop   = !empty && out_ready_i;", "wire pop   = out_ready_i;",
        "a pop of the empty FIFO (the count wraps, the read pointer runs ahead)", "p_count")),
    dict(name="skid_buffer", top="fv_cc_skid_buffer", rtl=["cc_hold_check.v", "cc_skid_buffer.v"],
         fv=["fv_handshake.sv", "fv_queue_model.sv", "fv_cc_skid_buffer.sv"],
         params=dict(Width=3), mode="prove", k=3, cover=8, bug=bug(
             "cc_skid_buffer.v", "out_data_d  = skid_data_q;", "out_data_d  = in_data_i;",
             "the skid register is drained from the input bus (its beat is lost)",
             "p_tracked_head")),
    # cc_rr_arbiter: the regression's N = 1, 3, 8, and 4, 5.
    arbiter("rr_arbiter_n1", 1, bug(
        A, "assign gnt_o       = req_sel & (-req_sel);", "assign gnt_o       = 1'b1;",
        "a grant without a request", "p_subset")),
    arbiter("rr_arbiter_n3", 3, bug(
        A, "if (ack_i) ptr_d = (gnt_idx_o == LastIdx) ? {IdxWidth{1'b0}} : gnt_idx_o + 1'b1;",
        "if (ack_i) ptr_d = gnt_idx_o;",
        "after an ack the pointer stays on the grantee, which wins again", "p_bounded_wait")),
    arbiter("rr_arbiter_n4", 4, bug(
        A, "wire [N-1:0] req_sel    = (|req_upper) ? req_upper : req_i;",
        "wire [N-1:0] req_sel    = req_i;",
        "fixed priority (the pointer is ignored): the highest index starves", "p_no_starve")),
    arbiter("rr_arbiter_n5", 5, bug(
        A, "else       ptr_d = gnt_idx_o;", "else       ptr_d = ptr_q;",
        "no lock-in: an unacknowledged grant is taken away", "p_lock_in")),
    arbiter("rr_arbiter_n8", 8, bug(
        A, "if (gnt_o[i]) gnt_idx_o = gnt_idx_o | i[IdxWidth-1:0];",
        "if (req_i[i]) gnt_idx_o = gnt_idx_o | i[IdxWidth-1:0];",
        "gnt_idx_o encodes the requests instead of the grant", "p_idx")),
    # cc_cam: the regression's 8 entries (4-bit keys), a non-power-of-two count, one entry.
    cam("cam_e1", 3, 1, bug(
        C, "else if (flush_i) valid_q[g] <= 1'b0;", "else if (flush_i && !sel) valid_q[g] <= 1'b0;",
        "a write in a flush cycle wins over the flush", "p_valid")),
    cam("cam_e5", 3, 5, bug(
        C, "wire               sel = wr_en_i && (wr_idx_i == EntryIdx);",
        "wire               sel = wr_en_i && (wr_idx_i[1:0] == EntryIdx[1:0]);",
        "an index 5..7 writes entry index mod 4 instead of nothing", "p_valid")),
    cam("cam_e8", 4, 8, bug(
        C, "wire [Entries-1:0] hit_lowest = hit_onehot_o & (-hit_onehot_o);",
        "wire [Entries-1:0] hit_lowest = hit_onehot_o;",
        "several hits: hit_idx_o ORs their indices instead of giving the lowest", "p_idx")),
    # cc_hold_check against the rule (fv_handshake).
    hold_check("hold_check_w1", 1, bug(
        H, "wait_q <= valid_i && !ready_i && !release_i;", "wait_q <= valid_i && !ready_i;",
        "release_i is ignored: a false alarm when a released beat is withdrawn",
        "p_no_false_alarm")),
    hold_check("hold_check_w3", 3, bug(
        H, "if (wait_q && (!valid_i || data_i !== data_q)) begin", "if (wait_q && !valid_i) begin",
        "only a dropped valid is flagged, not changed data", "p_catches_all")),
]


def probes(wrapper_text, params):
    """(wire, [(lhs slice or None, internal wire)]) for every (* fv_probe ... *) of a wrapper.

    Forms: (* fv_probe = "u_dut.x_q" *) wire [..] f_x;  -- one internal wire
           (* fv_probe = "u_dut.mem_q[{i}]", fv_count = "Depth", fv_width = "Width" *)
           wire [Depth*Width-1:0] f_mem;               -- element i at f_mem[i*Width +: Width]
    """
    out = []
    for m in re.finditer(r"\(\*([^*]*fv_probe[^*]*)\*\)\s*wire\s*(?:\[[^\]]*\])?\s*(\w+)\s*;",
                         wrapper_text):
        attrs = dict(re.findall(r'(\w+)\s*=\s*"([^"]*)"', m.group(1)))
        path = attrs["fv_probe"]
        if "fv_count" not in attrs:
            out.append((m.group(2), [(None, path)]))
            continue
        try:
            n, w = params[attrs["fv_count"]], params[attrs["fv_width"]]
        except KeyError as e:
            raise RuntimeError("probe %s needs parameter %s in the proof table"
                               % (m.group(2), e))
        out.append((m.group(2), [("[%d:%d]" % ((i + 1) * w - 1, i * w), path.format(i=i))
                                 for i in range(n)]))
    return out


def patch(text, old, new, what):
    n = text.count(old)
    if n != 1:
        raise RuntimeError("%s: the text to replace occurs %d times (expected once): %r"
                           % (what, n, old))
    return text.replace(old, new)


def yosys_model(p, d, b):
    """Writes d/model.smt2 from the proof's sources (the RTL with the seeded bug b, if given)."""
    os.makedirs(d, exist_ok=True)
    edits = list(p.get("view", [])) + ([(b["file"], b["old"], b["new"])] if b else [])
    rtl = []
    for f in p["rtl"]:
        src = os.path.join(ROOT, RTL, f)
        mine = [e for e in edits if e[0] == f]
        if mine:
            with open(src) as fh:
                text = fh.read()
            for _, old, new in mine:
                text = patch(text, old, new, "%s (%s)" % (f, p["name"]))
            src = os.path.join(d, f)
            with open(src, "w") as fh:
                fh.write(text)
        rtl.append(src)
    fv = [os.path.join(ROOT, FV, f) for f in p["fv"]]
    with open(fv[-1]) as fh:
        wires = probes(fh.read(), p["params"])
    # SYNTHESIS leaves out the cells' simulation-only hold checkers (the rule is a property of
    # the wrapper instead); the cc_hold_check proof reads the checker itself.
    defs = "" if p.get("nosynth") else "-DSYNTHESIS "
    params = " ".join("-chparam %s %d" % kv for kv in sorted(p["params"].items()))
    lines = ["read_verilog %s-formal -sv -mem2reg -I %s %s"
             % (defs, os.path.join(ROOT, RTL), " ".join(rtl)),
             "read_verilog -formal -sv %s%s" % ("-DFV_NO_HELPERS " if b else "", " ".join(fv)),
             "hierarchy -check -top %s %s" % (p["top"], params),
             "proc", "flatten",
             # keep: opt_merge would fold properties that are the same logic in one
             # configuration into one, under one of their names.
             "setattr -set keep 1 t:$assert t:$cover"]
    # -nounset: a probe wire may already be an alias of logic that proc made from it; only a
    # driver is added (a probe that had one would be a conflict, which 'check' reports).
    for wire, parts in wires:
        for sl, path in parts:
            lines.append("connect -nounset -set %s%s \\%s" % (wire, sl or "", path))
    # Every probe must now be driven: an unconnected one would be a free value and weaken the
    # helper invariants, so 'check -assert' stops on it. Then X becomes a free value per cycle,
    # and the asynchronous resets act at the edge and on the flops' outputs in the same cycle.
    lines += ["opt_clean", "check -assert", "setundef -anyseq", "async2sync",
              "opt -keepdc -fast", "dffunmap", "check -assert",
              "write_smt2 -wires %s" % os.path.join(d, "model.smt2")]
    with open(os.path.join(d, "model.ys"), "w") as fh:
        fh.write("\n".join(lines) + "\n")
    r = subprocess.run(["yosys", "-q", "-l", os.path.join(d, "yosys.log"), "-s",
                        os.path.join(d, "model.ys")], cwd=ROOT, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    if r.returncode:
        tail = r.stdout.decode(errors="replace").strip().splitlines()[-5:]
        raise RuntimeError("yosys failed (%s): %s" % (os.path.join(d, "yosys.log"),
                                                      " | ".join(tail)))
    return os.path.join(d, "model.smt2")


def smtbmc(model, args, log, vcd=None):
    """Runs yosys-smtbmc; returns (status 'PASSED' / 'FAILED' / 'TIMEOUT' / 'ERROR', output)."""
    # --unroll: yosys-smtbmc expands the model's define-funs itself. z3 4.8.12 (Debian 12)
    # expands them when it parses the transition relation, and that takes time exponential in
    # the logic depth: from seconds to beyond any timeout on these small cells.
    cmd = ["yosys-smtbmc", "-s", "z3", "--unroll", "--noprogress"] + args + \
        (["--dump-vcd", vcd] if vcd else []) + [model]
    # Own process group: on a timeout the solver (a child of yosys-smtbmc) is stopped too.
    pr = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          start_new_session=True)
    try:
        out = pr.communicate(timeout=TIMEOUT)[0].decode(errors="replace")
    except subprocess.TimeoutExpired:
        os.killpg(pr.pid, signal.SIGKILL)
        out = pr.communicate()[0].decode(errors="replace") + "\nStatus: TIMEOUT\n"
    with open(log, "w") as fh:
        fh.write("$ " + " ".join(cmd) + "\n" + out)
    m = re.findall(r"Status: (\w+)", out)
    status = m[-1] if m else "ERROR"
    if pr.returncode and status == "PASSED":
        status = "ERROR"
    return status, out


def failures(out):
    """[(step, property)] of the assertions a run reports failed, in order (property names
    without their instance path: u_model.p_count -> p_count)."""
    res, step = [], None
    for line in out.splitlines():
        m = re.search(r"Checking assertions in step (\d+)", line)
        if m:
            step = int(m.group(1))
        m = re.search(r"Assert failed in \S+: (\S+)", line)
        if m and "[failed before]" not in line:
            res.append((step, m.group(1).split(".")[-1]))
    return res


def run_proof(p):
    """The proof itself: base case, induction step, covers. Returns (ok, detail, seconds)."""
    t0 = time.time()
    d = os.path.join(OUT, p["name"])
    shutil.rmtree(d, ignore_errors=True)
    try:
        model = yosys_model(p, d, None)
    except RuntimeError as e:
        return False, str(e), time.time() - t0
    k = p["k"]
    status, out = smtbmc(model, ["--presat", "-t", str(k)], os.path.join(d, "base.log"),
                         os.path.join(d, "base.vcd"))
    if status != "PASSED":
        why = "assumptions unsatisfiable" if "unsatisfiable" in out else \
            "failed " + ", ".join(sorted({n for _, n in failures(out)}))
        return False, "base case (BMC depth %d) %s: %s; trace %s/base.vcd" % (
            k, status, why, d), time.time() - t0
    method = "BMC depth %d (bounded)" % k
    if p["mode"] == "prove":
        status, out = smtbmc(model, ["-i", "-t", str(k)], os.path.join(d, "induction.log"),
                             os.path.join(d, "induction.vcd"))
        if status != "PASSED":
            return False, "induction step (k=%d) %s: %s; trace %s/induction.vcd" % (
                k, status, ", ".join(sorted({n for _, n in failures(out)})), d), \
                time.time() - t0
        # smtbmc adds assumed steps before the checked one until the step is proved: the
        # number it needed is the induction length actually used (at most k).
        used = len(re.findall(r"Trying induction in step", out)) - 1
        method = "k-induction (k=%d, inductive at %d)" % (k, used)
    status, out = smtbmc(model, ["-c", "-t", str(p["cover"])], os.path.join(d, "cover.log"))
    ncov = len(re.findall(r"Reached cover statement", out))
    if status != "PASSED":
        missed = re.findall(r"Unreached cover statement at (\S+)", out)
        return False, "cover %s (depth %d): unreached %s" % (
            status, p["cover"], ", ".join(m.rstrip(".") for m in missed)), time.time() - t0
    return True, "%s; %d covers reached" % (method, ncov), time.time() - t0


def run_bug(p):
    """The seeded bug: BMC from reset on the patched cell, without the helper invariants, must
    make the expected contract property fail. A plain run stops at the first failing step; if
    the expected property is not among its failures, --keep-going looks further."""
    t0 = time.time()
    b = p["bug"]
    d = os.path.join(OUT, p["name"], "bug")
    shutil.rmtree(d, ignore_errors=True)
    try:
        model = yosys_model(p, d, b)
    except RuntimeError as e:
        return False, str(e), time.time() - t0
    args = ["-t", str(b["depth"])]
    status, out = smtbmc(model, args, os.path.join(d, "bmc.log"), os.path.join(d, "bug.vcd"))
    fails = failures(out)
    if status == "FAILED" and b["expect"] not in {n for _, n in fails}:
        status, out = smtbmc(model, ["--keep-going"] + args, os.path.join(d, "bmc_all.log"),
                             os.path.join(d, "bug_%.vcd"))
        fails = failures(out)
    hit = [s for s, n in fails if n == b["expect"]]
    if status == "FAILED" and hit:
        return True, "%s fails at step %d: %s" % (b["expect"], hit[0], b["why"]), \
            time.time() - t0
    return False, "NOT caught by %s within %d steps (%s%s): %s" % (
        b["expect"], b["depth"], status, "; failed " + ", ".join(sorted({n for _, n in fails}))
        if fails else "", b["why"]), time.time() - t0


def job(p, bugs):
    res = [(p["name"],) + run_proof(p)]
    if bugs:
        res.append((p["name"] + ".bug",) + run_bug(p))
    return res


def main():
    global TIMEOUT
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("names", nargs="*", help="proofs to run (shell-style patterns); default all")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--no-bugs", action="store_true", help="skip the seeded-bug runs")
    ap.add_argument("--timeout", type=int, default=TIMEOUT, help="seconds per solver run")
    ap.add_argument("--list", action="store_true", help="list the proofs and exit")
    a = ap.parse_args()
    TIMEOUT = a.timeout
    sel = [p for p in PROOFS if not a.names or any(fnmatch.fnmatch(p["name"], n) for n in a.names)]
    if a.list:
        for p in PROOFS:
            print("%-14s %-18s %-26s %-7s bug: %s (%s)" % (
                p["name"], p["top"], " ".join("%s=%d" % kv for kv in sorted(p["params"].items())),
                "k=%d" % p["k"] if p["mode"] == "prove" else "BMC %d" % p["k"], p["bug"]["why"],
                p["bug"]["expect"]))
        return 0
    if not sel:
        sys.exit("formal: no proof matches %s (--list shows them)" % " ".join(a.names))
    for tool in ("yosys", "yosys-smtbmc", "z3"):
        if shutil.which(tool) is None:
            sys.exit("formal: %s not found (scripts/install_tools.sh installs it)" % tool)
    os.makedirs(OUT, exist_ok=True)
    npass = nfail = 0
    t0 = time.time()
    with cf.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        futs = [ex.submit(job, p, not a.no_bugs) for p in sel]
        for fut in futs:
            for name, ok, detail, dt in fut.result():
                print("%s %-18s %6.1f s  %s" % ("PASS" if ok else "FAIL", name, dt, detail),
                      flush=True)
                npass += ok
                nfail += not ok
    print("formal: %d proofs%s in %.0f s; logs and traces in %s" % (
        len(sel), "" if a.no_bugs else " and their seeded bugs", time.time() - t0, OUT))
    print("%d passed, %d failed" % (npass, nfail))
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main())

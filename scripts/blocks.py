#!/usr/bin/env python3
"""Block descriptions: every tool of the project learns the blocks from here.

Each block describes itself once, in `rtl/<block>/block.toml` (format: docs/conventions.md,
"Block descriptions"). This module reads those files; the Makefile (through `blocks.py make`),
`make lint`, `make synth`, `make coverage`, the FuseSoC core generator and the main job call it
and name no block themselves.

Command line:
  blocks.py make [BUILD]    the Makefile fragment (harness rules, model libraries, bench targets);
                            with BUILD, also each harness's flags file BUILD/tb/<name>/flags.txt
  blocks.py names           the block names, shared folder first
  blocks.py check           the structure test: every block has every part (ends 'N passed, N failed')
"""
import glob
import os
import re
import sys
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Keys a description may have; anything else is a typo and fails loudly.
TOP_KEYS = {"name", "title", "kind", "prefix", "top", "rtl", "docs", "lists", "synth", "fpga",
            "workload", "axi", "bench", "harness"}
HARNESS_KEYS = {"top", "cpp", "params", "verilog", "cflags", "deps", "trace", "bench", "fusesoc",
                "hier", "sanitize"}
WORKLOAD_KEYS = {"title", "make", "harness", "run", "match", "cycles", "metric", "area"}
BENCH_KEYS = {"script", "outputs", "alias", "test_harnesses"}
AXI_KEYS = {"title", "make", "harness", "run"}
KINDS = ("block", "shared")


class DescriptionError(Exception):
    pass


class Harness:
    """One Verilator harness build: top module, C++ main, parameter overrides."""

    def __init__(self, blk, name, d):
        where = "%s: [harness.%s]" % (blk.path, name)
        bad = set(d) - HARNESS_KEYS
        if bad:
            raise DescriptionError("%s: unknown key(s) %s" % (where, ", ".join(sorted(bad))))
        for k in ("top", "cpp"):
            if k not in d:
                raise DescriptionError("%s: missing '%s'" % (where, k))
        self.block, self.name = blk, name
        self.top, self.cpp = d["top"], d["cpp"]
        self.params = dict(d.get("params", {}))
        for k, v in self.params.items():
            if not isinstance(v, int) or isinstance(v, bool):
                raise DescriptionError("%s: parameter %s = %r is not an integer" % (where, k, v))
        self.verilog = list(d.get("verilog", []))     # extra Verilog sources (e.g. a test top)
        self.cflags = list(d.get("cflags", []))       # extra C++ flags (include paths only)
        self.deps = list(d.get("deps", []))           # extra files the harness depends on
        self.trace = bool(d.get("trace", True))       # False: built without waveform support
        self.bench = bool(d.get("bench", False))      # True: built by make bench-<blk> only
        self.fusesoc = bool(d.get("fusesoc", False))  # True: the block's FuseSoC sim target
        # True: also built as <name>-san, its C++ and the C models under ASan/UBSan (one
        # configuration of each harness source; Makefile HARNESS_SAN_RULE)
        self.sanitize = bool(d.get("sanitize", False))
        if self.sanitize and self.bench:
            raise DescriptionError("%s: a bench-only harness is not sanitized (sanitize = true "
                                   "needs a regression harness)" % where)
        # Modules Verilated once as hierarchical blocks (--hierarchical, hier_block): networks
        # of one repeated module (see hier_files). The blocks' insides are not traced, so a
        # harness with hier is built without waveform support (trace = false).
        self.hier = list(d.get("hier", []))
        if self.hier and self.trace:
            raise DescriptionError("%s: 'hier' needs trace = false (hierarchical blocks are not "
                                   "traced)" % where)

    def top_file(self):
        """The Verilog file holding the top module: the block's folder, rtl/common, or one of
        the harness's own Verilog sources."""
        for d in (self.block.rtl_dir, "rtl/common"):
            p = "%s/%s.v" % (d, self.top)
            if os.path.isfile(os.path.join(ROOT, p)):
                return p
        for p in self.verilog:
            if os.path.basename(p) == self.top + ".v":
                return p
        raise DescriptionError("%s: [harness.%s]: no file %s.v in %s, rtl/common or 'verilog'"
                               % (self.block.path, self.name, self.top, self.block.rtl_dir))

    def all_params(self):
        """Every integer-literal parameter of the top with its value in this build: the
        overrides, and the RTL defaults for the rest. The C++ side gets all of them as
        -DTB_<Name>=<value>, so a harness never repeats an RTL default."""
        vals = dict(rtl_param_defaults(os.path.join(ROOT, self.top_file())))
        for k in self.params:
            if k not in vals and k not in declared_params(os.path.join(ROOT, self.top_file())):
                raise DescriptionError("%s: [harness.%s]: %s has no parameter %s"
                                       % (self.block.path, self.name, self.top, k))
        vals.update(self.params)
        return vals

    def verilator_flags(self):
        """-G overrides for the RTL and -DTB_<Name> for the C++ side, from one table."""
        f = ["-G%s=%d" % kv for kv in self.params.items()]
        for k, v in self.all_params().items():
            f += ["-CFLAGS", "-DTB_%s=%d" % (k, v)]
        for c in self.cflags:
            f += ["-CFLAGS", c.replace("$ROOT", "$(CURDIR)")]
        return f


class Block:
    def __init__(self, path):
        self.path = os.path.relpath(path, ROOT)
        try:
            with open(path, "rb") as f:
                d = tomllib.load(f)
        except tomllib.TOMLDecodeError as e:
            raise DescriptionError("%s: %s" % (self.path, e))
        bad = set(d) - TOP_KEYS
        if bad:
            raise DescriptionError("%s: unknown key(s) %s" % (self.path, ", ".join(sorted(bad))))
        folder = os.path.basename(os.path.dirname(path))
        self.name = d.get("name", "")
        if self.name != folder:
            raise DescriptionError("%s: name = %r, but the folder is %r" % (self.path, self.name,
                                                                             folder))
        self.kind = d.get("kind", "block")
        if self.kind not in KINDS:
            raise DescriptionError("%s: kind must be one of %s" % (self.path, ", ".join(KINDS)))
        self.title = d.get("title", self.name)
        self.prefix = d.get("prefix", self.name)
        self.top = d.get("top", "")
        self.rtl_dir = "rtl/" + self.name
        self.rtl = ["%s/%s" % (self.rtl_dir, f) for f in d.get("rtl", [])]
        self.docs = list(d.get("docs", []))
        self.lists = list(d.get("lists", []))
        self.synth_text = d.get("synth", "")
        self.fpga_text = d.get("fpga", "")      # optional: place-and-route configurations
        self.workload = d.get("workload")
        if self.workload is not None:
            bad = set(self.workload) - WORKLOAD_KEYS
            if bad:
                raise DescriptionError("%s: [workload]: unknown key(s) %s"
                                       % (self.path, ", ".join(sorted(bad))))
        # optional: the default workload run from C through the AXI top and its driver
        # (make sim-<blk>-axi; docs/axi_shell.md)
        self.axi = d.get("axi")
        if self.axi is not None:
            bad = set(self.axi) - AXI_KEYS
            if bad:
                raise DescriptionError("%s: [axi]: unknown key(s) %s" % (self.path, sorted(bad)))
            for k in ("harness", "run"):
                if k not in self.axi:
                    raise DescriptionError("%s: [axi]: missing key '%s'" % (self.path, k))
        self.bench = d.get("bench")
        if self.bench is not None:
            bad = set(self.bench) - BENCH_KEYS
            if bad:
                raise DescriptionError("%s: [bench]: unknown key(s) %s"
                                       % (self.path, ", ".join(sorted(bad))))
        self.harnesses = [Harness(self, n, h) for n, h in d.get("harness", {}).items()]

    # ---- derived file sets
    def includes(self):
        return sorted(os.path.relpath(p, ROOT)
                      for p in glob.glob(os.path.join(ROOT, self.rtl_dir, "*.vh")))

    def vlt(self):
        """The block's Verilator configuration (lint waivers and hints), if any."""
        p = self.rtl_dir + "/lint.vlt"
        return [p] if os.path.isfile(os.path.join(ROOT, p)) else []

    def rtl_dirs(self):
        """Where the block's modules are found: rtl/common, then the block's folder."""
        return ["rtl/common"] + ([self.rtl_dir] if self.name != "common" else [])

    def owns(self, filename):
        """True when a file name carries the block's name or prefix (the naming rule)."""
        base = os.path.basename(filename)
        for p in {self.name, self.prefix}:
            for lead in ("", "tb_", "lib", "test_", "bench_", "gen_"):
                if base.startswith(lead + p + "_") or base.startswith(lead + p + "."):
                    return True
        return False

    def synth_configs(self):
        """(line number, text) of each synthesis configuration line (synth/run_synth.py format)."""
        return config_lines(self.synth_text)

    def fpga_configs(self):
        """(line number, text) of each FPGA place-and-route configuration line (scripts/fpga.py;
        same syntax as 'synth'); none when the description has no 'fpga' key."""
        return config_lines(self.fpga_text)


CONFIG_NAME_RE = re.compile(r"^[A-Za-z0-9_.+-]+$")
CONFIG_PARAM_RE = re.compile(r"^([A-Za-z_][A-Za-z0-9_$]*)=(\S+)$")


def parse_config_line(line, where, seen, usage):
    """One configuration line of a 'synth' or 'fpga' key (or a --configs file):
    '<config> <top> [Param=value ...] [@flag ...]' -> (name, top, [(Param, value)], [flags]).
    Flags are returned as written, in order, for the caller to interpret. seen maps config
    names to where they were first given (a duplicate is an error). Raises DescriptionError
    naming `where` on a malformed line; `usage` is the line's syntax for the message."""
    parts = line.split()
    if len(parts) < 2:
        raise DescriptionError("%s: expected '%s'" % (where, usage))
    name, top = parts[0], parts[1]
    if not CONFIG_NAME_RE.match(name):
        raise DescriptionError("%s: bad config name '%s' (letters, digits, _ . + - only)"
                               % (where, name))
    if name in seen:
        raise DescriptionError("%s: duplicate config name '%s' (first at %s)"
                               % (where, name, seen[name]))
    seen[name] = where
    params, flags = [], []
    for p in parts[2:]:
        if p.startswith("@"):
            flags.append(p)
            continue
        m = CONFIG_PARAM_RE.match(p)
        if not m:
            raise DescriptionError("%s: bad parameter '%s' (expected Name=value)" % (where, p))
        params.append((m.group(1), m.group(2)))
    return name, top, params, flags


def config_lines(text):
    """(line number, text) of the non-empty lines of a multi-line key, '#' comments removed."""
    out = []
    for i, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if line:
            out.append((i, line))
    return out


def load(root=None):
    """Every block description, the shared folder (kind = 'shared') first, then by name."""
    root = root or ROOT
    paths = sorted(glob.glob(os.path.join(root, "rtl", "*", "block.toml")))
    blocks = [Block(p) for p in paths]
    blocks.sort(key=lambda b: (b.kind != "shared", b.name))
    return blocks


def by_name(name, blocks=None):
    for b in blocks or load():
        if b.name == name:
            return b
    raise DescriptionError("no block '%s' (no rtl/%s/block.toml)" % (name, name))


def _strip_comments(src):
    return re.sub(r"//[^\n]*|/\*.*?\*/", " ", src, flags=re.S)


def _header(src, module):
    """The parameter port list '#( ... )' of a module, or ''."""
    m = re.search(r"\bmodule\s+%s\b\s*#\s*\(" % re.escape(module), src)
    if not m:
        return ""
    depth, i = 1, m.end()
    while i < len(src) and depth:
        depth += {"(": 1, ")": -1}.get(src[i], 0)
        i += 1
    return src[m.end():i - 1]


def rtl_param_defaults(path):
    """The parameters of a module's #( ... ) list whose default is a plain integer literal."""
    src = _strip_comments(open(path, errors="replace").read())
    module = os.path.basename(path)[:-2]
    out = {}
    for m in re.finditer(r"\bparameter\s+(?:integer\s+)?([A-Za-z_]\w*)\s*=\s*(\d+)\s*(?=,|$)",
                         _header(src, module)):
        out[m.group(1)] = int(m.group(2))
    return out


def declared_params(path):
    src = _strip_comments(open(path, errors="replace").read())
    return set(re.findall(r"\bparameter\s+(?:integer\s+)?(?:\[[^\]]*\]\s*)?([A-Za-z_]\w*)\s*=",
                          src))


def with_param_defaults(path, params):
    """The text of a top-level Verilog file with the given parameters' defaults replaced."""
    src = open(path, errors="replace").read()
    module = os.path.basename(path)[:-2]
    m = re.search(r"\bmodule\s+%s\b\s*#\s*\(" % re.escape(module), src)
    if not m:
        raise DescriptionError("%s: no parameter list of module %s" % (path, module))
    head, rest = src[:m.end()], src[m.end():]
    for k, v in params.items():
        rest, n = re.subn(r"(\bparameter\s+(?:integer\s+)?%s\s*=\s*)\d+" % re.escape(k),
                          r"\g<1>%d" % v, rest, count=1)
        if n != 1:
            raise DescriptionError("%s: parameter %s has no integer default to replace" % (path, k))
    return head + rest


def hier_files(h, build):
    """A hierarchical harness's generated sources in $(BUILD)/tb/<name>: the top with the
    harness's parameters as its defaults, and the hier_block configuration. Verilator 5.006
    hands the -G overrides of the top to every hierarchical block's own run too, which fails on
    the top's parameters the block does not have: so the top gets its values as defaults."""
    d = os.path.join(build, "tb", h.name)
    top = os.path.join(d, h.top + ".v")
    vlt = os.path.join(d, "hier.vlt")
    write_if_changed(top, "// Generated by scripts/blocks.py: %s with the parameters of harness %s.\n"
                     % (h.top_file(), h.name)
                     + with_param_defaults(os.path.join(ROOT, h.top_file()), h.params))
    lines = ["`verilator_config",
             "// Generated by scripts/blocks.py (harness %s): hierarchical blocks." % h.name]
    for mod in h.hier:
        lines += ['hier_block -module "%s"' % mod,
                  # the block's own run renames the module (<module>_<suffix>)
                  'lint_off -rule DECLFILENAME -file "*/%s.v" -match "*MODULE name: \'%s_*"'
                  % (mod, mod)]
    write_if_changed(vlt, "\n".join(lines) + "\n")
    return top, vlt


# ---------------------------------------------------------------- Makefile fragment
def mk_list(xs):
    return " ".join(xs)


def model_headers(blk, blocks):
    """Headers a block's model objects depend on: its own (cmodel/include/<name|prefix>*.h,
    cmodel/<name>/*.h, sw/<name>/*.h) and the shared ones (headers no block owns)."""
    hdrs = sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "cmodel/include/*.h")))
    owned = {h: [b for b in blocks if b.kind == "block" and b.owns(h)] for h in hdrs}
    mine = [h for h in hdrs if blk in owned[h] or not owned[h]]
    return mine


def write_if_changed(path, text):
    try:
        with open(path) as f:
            if f.read() == text:
                return
    except OSError:
        pass
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def make_fragment(blocks, build=None):
    out = ["# Generated by scripts/blocks.py from rtl/*/block.toml -- do not edit.", ""]
    w = out.append
    w("BLOCKS := %s" % mk_list(b.name for b in blocks))
    w("")
    for b in blocks:
        n = b.name
        w("# ---- %s (%s)" % (n, b.path))
        w("RTL_%s := %s" % (n, mk_list(b.rtl + b.includes())))
        w("VLT_%s := %s" % (n, mk_list(b.vlt())))
        w("MODEL_SRCS_%s := $(wildcard cmodel/%s/*.c) $(wildcard sw/%s/lib*.c)" % (n, n, n))
        w("MODEL_HDRS_%s := %s $(wildcard cmodel/%s/*.h) $(wildcard sw/%s/*.h)"
          % (n, mk_list(model_headers(b, blocks)), n, n))
        w("$(eval $(call MODEL_LIB_RULE,%s))" % n)
        w("TOOLS_%s := $(patsubst sw/%%.c,$(BUILD)/sw/%%,$(filter-out sw/%s/lib%%.c,"
          "$(wildcard sw/%s/*.c)))" % (n, n, n))
        w("$(TOOLS_%s): $(MODEL_LIB_%s) $(MODEL_HDRS_%s)" % (n, n, n))
        hs, bench = [], []
        # the Verilator configuration of the shared cells, then the block's own
        vlts = [v for x in blocks if x.kind == "shared" and x is not b for v in x.vlt()] + b.vlt()
        for h in b.harnesses:
            deps = [h.cpp] + h.verilog + h.deps
            flags = ["-y %s" % d for d in b.rtl_dirs()] + ["-I%s" % d for d in b.rtl_dirs()]
            flags += ["$(CURDIR)/%s" % v for v in vlts]
            flags += ["$(CURDIR)/%s" % v for v in h.verilog]
            top_override = ""
            if h.hier:
                # The block is Verilated once and linked into every instance (the network is
                # otherwise code per instance: Verilator 5.006 optimises each instance on its
                # own). Black-box blocks make the mesh links look like combinational loops
                # (UNOPTFLAT; the router's outputs are registered). Large functions are split
                # so the compiler's time stays linear in their size.
                vf = h.verilator_flags()
                flags += [f for f in vf if not f.startswith("-G")]
                flags += ["--hierarchical", "-Wno-UNOPTFLAT", "--output-split-cfuncs", "1000"]
                if build is not None:
                    top, vlt = hier_files(h, build)
                    flags.append("$(CURDIR)/%s" % vlt if not os.path.isabs(vlt) else vlt)
                    top_override = "$(CURDIR)/%s" % top if not os.path.isabs(top) else top
            else:
                flags += h.verilator_flags()
            # the build's flags, in a file rewritten only when they change: a harness rebuilds
            # when its parameters change, not when another part of the description does
            stamp = "$(BUILD)/tb/%s/flags.txt" % h.name
            if build is not None:
                write_if_changed(os.path.join(build, "tb", h.name, "flags.txt"),
                                 h.top + " " + " ".join(flags) + "\n")
            w("$(eval $(call HARNESS_RULE,%s,%s,%s,%s,%s,%s,%s,%s))" % (
                h.name, h.top, h.cpp, " ".join(flags),
                "%s %s $(wildcard %s/*.h) $(wildcard tb/common/*.h) $(RTL_%s) $(VLT_%s)" % (
                    stamp, mk_list(deps), os.path.dirname(h.cpp), n, n)
                + ("" if n == "common" else " $(RTL_common) $(VLT_common)"),
                n, "trace" if h.trace else "", top_override))
            (bench if h.bench else hs).append("$(BUILD)/tb/%s/%s" % (h.name, h.name))
            if h.sanitize:
                w("$(eval $(call HARNESS_SAN_RULE,%s,%s,%s))" % (h.name, h.top, n))
                hs.append("$(BUILD)/tb/%s/%s-san" % (h.name, h.name))
        w("HARNESS_BINS_%s := %s" % (n, mk_list(hs)))
        w("BENCH_BINS_%s := %s" % (n, mk_list(bench)))
        w("build-%s: $(CTESTS) $(TOOLS_common) $(TOOLS_%s) $(HARNESS_BINS_%s)" % (n, n, n))
        w("test-%s: build-%s" % (n, n))
        w("\t@python3 tests/run_tests.py --jobs $(JOBS) %s" % mk_list(b.lists))
        if b.bench:
            w("BENCH_BLOCKS += %s" % n)
            # the bench harnesses build JOBS at a time (Verilator's own steps are one-threaded)
            w("bench-%s:" % n)
            # test_harnesses = false: the bench runs only its own harnesses and the tools, so a
            # cold tree builds neither the regression's harnesses nor the C unit tests first
            pre = ("build-%s" % n) if b.bench.get("test_harnesses", True) else \
                "$(TOOLS_common) $(TOOLS_%s)" % n
            w("\t@$(MAKE) -s --no-print-directory -j$(JOBS) %s $(BENCH_BINS_%s)" % (pre, n))
            w("\t@mkdir -p $(BUILD)/bench")
            w("\t@scripts/install_tools.sh bench")
            w("\t@python3 %s" % b.bench["script"])
            if b.bench.get("alias"):
                # another name for the same bench (e.g. the part of a block it measures)
                w("%s: bench-%s" % (b.bench["alias"], n))
                w(".PHONY: %s" % b.bench["alias"])
        if b.axi:
            h = b.axi["harness"]
            prep = b.axi.get("make", "true").replace("{b}", "$(BUILD)")
            w("AXI_BLOCKS += %s" % n)
            w("sim-%s-axi: build-%s" % (n, n))
            w("\t@mkdir -p $(BUILD)/work && %s && $(BUILD)/tb/%s/%s %s" % (
                prep, h, h, b.axi["run"].replace("{b}", "$(BUILD)")))
            w(".PHONY: sim-%s-axi" % n)
        if b.workload:
            w("WORKLOAD_BLOCKS += %s" % n)
            w("sim-%s: build-%s" % (n, n))
            w("\t@python3 scripts/main_job.py --jobs 1 --blocks %s --trace $(TRACE) --no-synth" % n)
        w(".PHONY: build-%s test-%s%s%s" % (n, n, " bench-%s" % n if b.bench else "",
                                           " sim-%s" % n if b.workload else ""))
        w("")
    w("HARNESS_BINS := %s" % mk_list("$(HARNESS_BINS_%s)" % b.name for b in blocks))
    w("TOOLS := %s" % mk_list("$(TOOLS_%s)" % b.name for b in blocks))
    w("MODEL_LIBS := %s" % mk_list("$(MODEL_LIB_%s)" % b.name for b in blocks))
    w("LISTS := %s" % mk_list(l for b in blocks for l in b.lists))
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) < 2 or argv[1] not in ("make", "names", "check"):
        sys.exit(__doc__)
    try:
        blocks = load()
        if argv[1] == "make":
            sys.stdout.write(make_fragment(blocks, argv[2] if len(argv) > 2 else None))
        elif argv[1] == "names":
            print(" ".join(b.name for b in blocks))
        else:
            import structure_check
            sys.exit(structure_check.run(blocks))
    except DescriptionError as e:
        sys.exit("blocks: error: %s" % e)


if __name__ == "__main__":
    main(sys.argv)

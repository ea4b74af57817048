#!/usr/bin/env python3
"""Fuzzing of the project's file readers and command-line front ends (docs/fuzz.md).

The targets are described in tests/fuzz/targets.toml; this script names none of them.

  scripts/fuzz.py build [TARGET...]          build the targets into $BUILD/fuzz/bin
  scripts/fuzz.py run [TARGET...] [--time S] fuzz each target for S seconds (default $FUZZ_TIME
                                             or 60), one at a time: `make fuzz`
  scripts/fuzz.py smoke [TARGET...] [--time S]  replay the regression corpus, then fuzz S seconds
                                             (default 1) from the seeds with a fixed seed: the
                                             regression's bounded run (tests/fuzz.list)
  scripts/fuzz.py list                       the targets
  scripts/fuzz.py check                      tests/fuzz.list smokes every target once
  scripts/fuzz.py repro TARGET FILE          run one input verbosely (the tool's argv, messages,
                                             exit status; a sanitizer report)
  scripts/fuzz.py unpack TARGET FILE DIR     write a tool input's files into DIR and print the
                                             command that runs the tool on them

Every target is a libFuzzer binary (clang -fsanitize=fuzzer,address,undefined).  A run prints,
per target, the executions, executions per second, coverage, corpus size and findings; the
last line is 'N passed, N failed' (a target fails on any finding or a regression-corpus input
that still fails).  `run` keeps fuzzing after a finding (libFuzzer's fork mode), then re-runs
every artifact (a timeout that ends within 60 s is counted as slow, not as a hang), minimizes
the crashes and copies each new finding into the regression corpus tests/fuzz/corpus/<target>/,
which `smoke` replays.
"""
import argparse
import concurrent.futures as cf
import fcntl
import glob
import hashlib
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("BUILD", "build")
FUZZ_DIR = os.path.join(BUILD, "fuzz")
TARGETS_TOML = "tests/fuzz/targets.toml"
CORPUS_DIR = "tests/fuzz/corpus"
SEP = b"\0FILE "

CC = os.environ.get("FUZZ_CC", "clang-14")
CFLAGS = ["-std=c11", "-Wall", "-Wextra", "-Wno-for-loop-analysis", "-ffp-contract=off",
          "-frounding-math", "-Icmodel/include", "-Isw", "-Itests/fuzz", "-O1",
          "-gline-tables-only", "-fno-omit-frame-pointer", "-fsanitize=address,undefined",
          "-fno-sanitize-recover=all"]
INSTR = ["-fsanitize=fuzzer-no-link"]
LDFLAGS = ["-fsanitize=fuzzer,address,undefined"]
WRAP = ["-Wl," + ",".join("--wrap=" + s for s in
                          ("exit", "malloc", "calloc", "realloc", "free", "fopen", "fclose"))]
# the sanitizers' options of every execution (libFuzzer adds its own)
SAN_ENV = {
    "ASAN_OPTIONS": "allocator_may_return_null=1:detect_stack_use_after_return=0:"
                    "handle_abort=1:symbolize=1",
    "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
}


def die(msg):
    print("fuzz: " + msg, file=sys.stderr)
    sys.exit(2)


# ---------------------------------------------------------------- targets


class Target:
    def __init__(self, name, d, defaults):
        self.name = name
        self.kind = d.get("kind", "tool")
        self.block = d.get("block", "common")
        self.source = d.get("source", "")
        self.tool = d.get("tool", "")
        self.args = d.get("args")
        self.stdin = bool(d.get("stdin", False))
        self.long = d.get("long", {})
        for k, v in self.long.items():
            if not v or not isinstance(v[0], list):
                self.long[k] = [v]
        self.skip = d.get("skip", [])
        self.defaults = d.get("defaults", {})
        self.bug1 = d.get("bug1", defaults.get("bug1", ["internal"]))
        self.seeds = d.get("seeds", [])
        self.timeout = int(d.get("timeout", defaults.get("timeout", 5)))
        self.max_len = int(d.get("max_len", defaults.get("max_len", 4096)))
        self.dict_from = d.get("dict", [])
        if self.kind not in ("tool", "reader"):
            die("%s: target %s: kind must be 'tool' or 'reader'" % (TARGETS_TOML, name))
        if self.kind == "tool" and not self.tool:
            die("%s: target %s: a tool target needs 'tool'" % (TARGETS_TOML, name))
        if self.kind == "reader" and not self.source:
            die("%s: target %s: a reader target needs 'source'" % (TARGETS_TOML, name))

    @property
    def argv_mode(self):
        return self.kind == "tool" and self.args is None

    @property
    def bin(self):
        return os.path.join(FUZZ_DIR, "bin", self.name)

    @property
    def dir(self):
        return os.path.join(FUZZ_DIR, "t", self.name)

    @property
    def corpus(self):
        return os.path.join(CORPUS_DIR, self.name)

    def dict_sources(self):
        if self.dict_from:
            return self.dict_from
        return [self.tool] if self.kind == "tool" else [os.path.join("tests/fuzz", self.source)]


def load_targets():
    with open(os.path.join(ROOT, TARGETS_TOML), "rb") as f:
        d = tomllib.load(f)
    defaults = d.get("defaults", {})
    targets = {n: Target(n, t, defaults) for n, t in d.get("target", {}).items()}
    return targets, d.get("seedfiles", {}), defaults


def select(targets, names):
    if not names:
        return list(targets.values())
    bad = [n for n in names if n not in targets]
    if bad:
        die("unknown target %s (see scripts/fuzz.py list)" % ", ".join(bad))
    return [targets[n] for n in names]


# ---------------------------------------------------------------- build


class Lock:
    """An exclusive lock on $BUILD/fuzz/.lock: the regression runs several smoke entries at once."""

    def __enter__(self):
        os.makedirs(FUZZ_DIR, exist_ok=True)
        self.f = open(os.path.join(FUZZ_DIR, ".lock"), "w")
        fcntl.flock(self.f, fcntl.LOCK_EX)
        return self

    def __exit__(self, *a):
        fcntl.flock(self.f, fcntl.LOCK_UN)
        self.f.close()


def check_compiler():
    if not shutil.which(CC):
        die("%s not found (scripts/install_tools.sh installs clang-14 and libclang-rt-14-dev)" % CC)


def mtime(p):
    try:
        return os.path.getmtime(p)
    except OSError:
        return None


def deps_of(dfile):
    try:
        text = open(dfile).read()
    except OSError:
        return None
    text = text.replace("\\\n", " ")
    first = text.split("\n", 1)[0]
    return first.split(":", 1)[1].split() if ":" in first else []


def up_to_date(out, inputs, dfile=None):
    t = mtime(out)
    if t is None:
        return False
    deps = list(inputs)
    if dfile:
        d = deps_of(dfile)
        if d is None:
            return False
        deps += d
    return all((mtime(p) or float("inf")) <= t for p in deps)


class Builder:
    def __init__(self, jobs):
        self.jobs = jobs
        self.flags_hash = hashlib.sha1(" ".join([CC] + CFLAGS + INSTR + LDFLAGS + WRAP).encode()) \
            .hexdigest()[:12]
        self.objdir = os.path.join(FUZZ_DIR, "obj", self.flags_hash)
        self.built = 0

    def obj(self, src, variant=""):
        return os.path.join(self.objdir, variant, src[:-2] + ".o")

    def compile_cmd(self, src, obj, extra):
        return [CC] + CFLAGS + INSTR + extra + ["-MMD", "-MF", obj[:-2] + ".d", "-c", src,
                                                "-o", obj]

    def compile_all(self, jobs):
        """jobs: [(src, obj, extra flags)]; compiles those out of date, in parallel."""
        def current(s, o, e):  # up to date, compiled with the same per-file flags
            try:
                same = open(o[:-2] + ".flags").read() == " ".join(e)
            except OSError:
                same = False
            return same and up_to_date(o, [s], o[:-2] + ".d")

        todo = [(s, o, e) for s, o, e in jobs if not current(s, o, e)]
        if not todo:
            return
        print("fuzz: compiling %d files" % len(todo), flush=True)

        def one(j):
            s, o, e = j
            os.makedirs(os.path.dirname(o), exist_ok=True)
            p = subprocess.run(self.compile_cmd(s, o, e), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
            if p.returncode == 0:
                with open(o[:-2] + ".flags", "w") as f:
                    f.write(" ".join(e))
            return s, p.returncode, p.stdout

        with cf.ThreadPoolExecutor(max_workers=self.jobs) as ex:
            for s, rc, out in ex.map(one, todo):
                if out.strip():
                    print(out.rstrip())
                if rc:
                    die("compiling %s failed" % s)
        self.built += len(todo)

    def library_sources(self, block):
        srcs = sorted(glob.glob("cmodel/common/*.c")) + sorted(glob.glob("sw/common/lib*.c"))
        if block != "common":
            srcs += sorted(glob.glob("cmodel/%s/*.c" % block)) + \
                sorted(glob.glob("sw/%s/lib*.c" % block))
        return srcs

    def config_source(self, t):
        """The generated configuration of a tool target (fz.h: fz_tool_*)."""
        def cstr(s):
            return '"' + "".join(c if c.isalnum() or c in " -_.,:=+@%/" else "\\x%02x" % ord(c)
                                 for c in s) + '"'
        name = os.path.basename(self.tool_src(t))[:-2]
        lines = ['#include "fz.h"',
                 "const char fz_tool_name[] = %s;" % cstr(name),
                 "const int fz_tool_fixed = %d;" % (0 if t.args is None else 1),
                 "const char *const fz_tool_args[] = {%s};" %
                 ", ".join([cstr(a) for a in (t.args or [])] + ["NULL"]),
                 "const int fz_tool_stdin = %d;" % int(t.stdin),
                 "const fz_range_t fz_tool_long[] = {%s};" %
                 ", ".join(["{%s, %r, %r}" % (cstr(k), float(r[0]), float(r[1]))
                            for k, rs in t.long.items() for r in rs] + ["{NULL, 0, 0}"]),
                 "const char *const fz_tool_skip[] = {%s};" %
                 ", ".join([cstr(a) for a in t.skip] + ["NULL"]),
                 "const char *const fz_tool_bug1[] = {%s};" %
                 ", ".join([cstr(a) for a in t.bug1] + ["NULL"]),
                 "const char *const fz_tool_defaults[] = {%s};" %
                 ", ".join([cstr(x) for k, v in t.defaults.items() for x in (k, str(v))] +
                           ["NULL"])]
        return "\n".join(lines) + "\n"

    def tool_src(self, t):
        return t.tool

    def build(self, targets):
        check_compiler()
        jobs = []
        sec = ["-include", "tests/fuzz/fz_sections.h"]
        for b in sorted({t.block for t in targets}):
            for s in self.library_sources(b):
                jobs.append((s, self.obj(s), sec))
        own = ["-Werror"]  # the fuzz driver's own sources
        jobs.append(("tests/fuzz/fz_common.c", self.obj("tests/fuzz/fz_common.c"), own))
        if any(t.kind == "tool" for t in targets):
            jobs.append(("tests/fuzz/fz_tool.c", self.obj("tests/fuzz/fz_tool.c"), own))
        for t in targets:
            if t.kind == "tool":
                jobs.append((t.tool, self.obj(t.tool, "tool"), sec + ["-Dmain=fz_tool_main"]))
                cfg = os.path.join(t.dir, "fz_config.c")
                os.makedirs(t.dir, exist_ok=True)
                text = self.config_source(t)
                if not os.path.isfile(cfg) or open(cfg).read() != text:
                    with open(cfg, "w") as f:
                        f.write(text)
                jobs.append((cfg, os.path.join(t.dir, "fz_config.o"), own))
            else:
                s = os.path.join("tests/fuzz", t.source)
                jobs.append((s, self.obj(s), own))
        seen = set()
        jobs = [j for j in jobs if not (j[1] in seen or seen.add(j[1]))]
        self.compile_all(jobs)
        for t in targets:
            objs = [self.obj(s) for s in self.library_sources(t.block)]
            objs.append(self.obj("tests/fuzz/fz_common.c"))
            if t.kind == "tool":
                objs += [self.obj("tests/fuzz/fz_tool.c"), self.obj(t.tool, "tool"),
                         os.path.join(t.dir, "fz_config.o")]
                extra = WRAP
            else:
                objs.append(self.obj(os.path.join("tests/fuzz", t.source)))
                extra = []
            if up_to_date(t.bin, objs):
                continue
            os.makedirs(os.path.dirname(t.bin), exist_ok=True)
            p = subprocess.run([CC] + LDFLAGS + objs + ["-lm"] + extra + ["-o", t.bin],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if p.returncode:
                print(p.stdout)
                die("linking %s failed" % t.name)
            self.built += 1


# ---------------------------------------------------------------- seeds and dictionaries


def tool_command(targets, name):
    return "env FZ_TOOL=1 %s" % shlex.quote(os.path.abspath(targets[name].bin))


def seedfile_targets(targets, seedfiles):
    """The tool targets the seed-file commands run."""
    used = set()
    for cmd in seedfiles.values():
        for n in re.findall(r"\{(\w+)\}", cmd):
            if n == "root":
                continue
            if n not in targets or targets[n].kind != "tool":
                die("%s: [seedfiles]: {%s} is not a tool target" % (TARGETS_TOML, n))
            used.add(n)
    return used


def make_seedfiles(targets, seedfiles):
    """Runs the [seedfiles] commands (once per change of the commands or of a tool)."""
    out = os.path.join(FUZZ_DIR, "seedfiles")
    users = sorted(seedfile_targets(targets, seedfiles))
    h = hashlib.sha1(repr(sorted(seedfiles.items())).encode())
    for n in users:
        h.update(("%s %s" % (n, mtime(targets[n].bin))).encode())
    stamp = os.path.join(out, ".stamp")
    if os.path.isfile(stamp) and open(stamp).read() == h.hexdigest():
        return out
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    print("fuzz: making %d seed files" % len(seedfiles), flush=True)
    env = dict(os.environ, **SAN_ENV)
    for name, cmd in seedfiles.items():
        c = re.sub(r"\{(\w+)\}", lambda m: shlex.quote(ROOT) if m.group(1) == "root"
                   else tool_command(targets, m.group(1)), cmd)
        p = subprocess.run(c, shell=True, cwd=out, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        if p.returncode or not os.path.isfile(os.path.join(out, name)):
            print(p.stdout[-2000:])
            die("seed file %s: '%s' failed" % (name, cmd))
    with open(stamp, "w") as f:
        f.write(h.hexdigest())
    return out


def resolve(ref, seeddir):
    """A seed's file: a path with '/' (in the repository; globs allowed) or a seed file."""
    if "/" in ref:
        paths = sorted(glob.glob(ref))
        if not paths:
            die("%s: seed file %s not found" % (TARGETS_TOML, ref))
        return paths
    p = os.path.join(seeddir, ref)
    if not os.path.isfile(p):
        die("%s: seed file %s is not made by [seedfiles]" % (TARGETS_TOML, ref))
    return [p]


def encode(args, files):
    """The input of an argv-mode tool target (tests/fuzz/fz_tool.c)."""
    b = "\n".join(args).encode()
    for name, data in files:
        b += SEP + name.encode() + b"\n" + data
    return b


def seed_inputs(t, seeddir):
    """The seed inputs of t: a list of bytes."""
    out = []
    for s in t.seeds:
        if not t.argv_mode:
            for p in resolve(s, seeddir):
                out.append(open(p, "rb").read()[: max(t.max_len, 1 << 16)])
            continue
        args, files = [], []
        for tok in shlex.split(s):
            if tok[0] in "@+<" and len(tok) > 1:
                for p in resolve(tok[1:], seeddir)[:1]:
                    name = "stdin" if tok[0] == "<" else os.path.basename(p)
                    files.append((name, open(p, "rb").read()))
                    if tok[0] == "@":
                        args.append(name)
            else:
                args.append(tok)
        out.append(encode(args, files))
    return out


def make_seeds(t, seeddir):
    d = os.path.join(t.dir, "seeds")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    for data in seed_inputs(t, seeddir):
        with open(os.path.join(d, hashlib.sha1(data).hexdigest()), "wb") as f:
            f.write(data)
    return d


def c_literals(path):
    src = open(path, errors="replace").read()
    src = re.sub(r"/\*.*?\*/|//[^\n]*", " ", src, flags=re.S)
    for m in re.finditer(r'"((?:[^"\\\n]|\\.)*)"', src):
        s = m.group(1)
        if 1 <= len(s) <= 32 and "%" not in s and "\\" not in s:
            yield s


def make_dict(t):
    words = set()
    for p in t.dict_sources():
        for s in c_literals(p):
            words.add(s)
            words.update(w for w in re.split(r"[\s=:,()'\[\]]+", s) if 2 <= len(w) <= 24)
    words = {w for w in words if w.isprintable() and '"' not in w}
    entries = ['"%s"' % w for w in sorted(words)]
    entries += ['"\\x0a"', '"#"', '"0x"']
    if t.argv_mode:
        entries.append('"\\x00FILE "')
    path = os.path.join(t.dir, "dict")
    with open(path, "w") as f:
        f.write("\n".join(entries) + "\n")
    return path


# ---------------------------------------------------------------- running libFuzzer

STAT = re.compile(r"^stat::(\w+):\s*(\d+)", re.M)
PROGRESS = re.compile(r"^#(\d+)\s+\w+\s+cov: (\d+) ft: (\d+) corp: (\d+)/", re.M)
ARTIFACT = re.compile(r"(?:Test unit written to|written to) (\S+)")
KIND = [("timeout", re.compile(r"ERROR: libFuzzer: timeout")),
        ("oom", re.compile(r"ERROR: libFuzzer: out-of-memory")),
        ("leak", re.compile(r"ERROR: LeakSanitizer")),
        ("check", re.compile(r"fuzz check failed")),
        ("crash", re.compile(r"ERROR: (?:AddressSanitizer|libFuzzer|UndefinedBehaviorSanitizer)|"
                             r"runtime error:|SUMMARY: "))]


def scratch_base(t):
    """Where a target's scratch directories go: a tmpfs when there is one (every execution writes
    its input to a file there: on a disk that costs milliseconds), else $BUILD/fuzz/t/<target>."""
    shm = "/dev/shm"
    if os.path.isdir(shm) and os.access(shm, os.W_OK):
        return os.path.join(shm, "fuzz-%d-%s" % (os.getuid(), t.name))
    return os.path.abspath(os.path.join(t.dir, "tmp"))


def fuzz_env(t):
    tmp = scratch_base(t)
    os.makedirs(tmp, exist_ok=True)
    return dict(os.environ, FZ_TMPDIR=tmp, **SAN_ENV)


def clean_scratch(t):
    """Removes what crashed runs left in the target's scratch directory."""
    shutil.rmtree(scratch_base(t), ignore_errors=True)


def libfuzzer(t, args, timeout=None):
    """Runs t's binary with libFuzzer arguments; (exit status, output).  It runs in its own
    process group, which a timeout kills whole (fork mode's jobs too)."""
    p = subprocess.Popen([os.path.abspath(t.bin)] + args, env=fuzz_env(t), stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        return p.returncode, out.decode(errors="replace")
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        return 124, out.decode(errors="replace") + "\nRUNNER TIMEOUT\n"


def stats(out):
    s = {k: int(v) for k, v in STAT.findall(out)}
    prog = PROGRESS.findall(out)
    if prog:
        s["cov"] = int(prog[-1][1])
        s["corpus"] = int(prog[-1][3])
    return s


def kind_of(out):
    for k, rx in KIND:
        if rx.search(out):
            return k
    return "crash"


def signature(kind, out):
    """One line that tells findings apart: the sanitizer's summary or the first frame of the
    project's code."""
    m = re.search(r"^SUMMARY: \w+: (.*)$", out, re.M)
    if kind == "check":
        m2 = re.search(r"fuzz check failed \(([^)]*)\): (\S+ exited with status \d+)?", out)
        return "check %s %s" % (m2.group(1), m2.group(2) or "") if m2 else "check"
    frame = re.search(r"#\d+ 0x[0-9a-f]+ in (\S+) (\S*(?:cmodel|sw)/\S+)", out)
    where = "%s %s" % (frame.group(1), frame.group(2)) if frame else ""
    if kind in ("timeout", "oom", "leak"):
        return "%s %s" % (kind, where)
    return m.group(1) if m else "%s %s" % (kind, where)


def first_lines(out, kind):
    """The lines of a finding's report worth printing."""
    keep = []
    for l in out.splitlines():
        if re.search(r"ERROR:|SUMMARY|runtime error|fuzz check failed|^\s+#\d+ .*(cmodel|sw)/|"
                     r"exited with status|^[a-z_]+: ", l):
            keep.append(l)
    return keep[:14]


def minimize(t, path, kind):
    """A smaller input with the same finding (libFuzzer -minimize_crash), or path."""
    if kind not in ("crash", "check", "leak"):
        return path
    path = os.path.abspath(path)
    out = path + ".min"
    libfuzzer(t, ["-minimize_crash=1", "-max_total_time=20", "-timeout=%d" % t.timeout,
                  "-exact_artifact_path=" + out, path], timeout=120)
    if os.path.isfile(out) and os.path.getsize(out) <= os.path.getsize(path):
        return out
    return path


def is_slow_not_hang(t, path):
    """A timeout's input re-run with a 60 s limit: True when it then ends (slow, not a hang)."""
    rc, out = libfuzzer(t, ["-timeout=60", "-rss_limit_mb=4096", os.path.abspath(path)],
                        timeout=120)
    return rc == 0


def save_finding(t, path, kind):
    data = open(path, "rb").read()
    os.makedirs(t.corpus, exist_ok=True)
    dst = os.path.join(t.corpus, "%s-%s" % (kind, hashlib.sha1(data).hexdigest()[:16]))
    if not os.path.isfile(dst):
        with open(dst, "wb") as f:
            f.write(data)
    return dst


def regression_files(t):
    return sorted(glob.glob(os.path.join(t.corpus, "*")))


def replay(t, files):
    """Runs each regression input once: [(file, kind, report lines)] of those that fail."""
    files = [os.path.abspath(f) for f in files]
    bad = []
    for i in range(0, len(files), 200):
        chunk = files[i:i + 200]
        rc, out = libfuzzer(t, ["-timeout=%d" % max(t.timeout, 10), "-rss_limit_mb=2048"] + chunk,
                            timeout=600)
        if rc == 0:
            continue
        # find the failing ones one by one (rare: only after a regression)
        for f in chunk:
            rc, out = libfuzzer(t, ["-timeout=%d" % max(t.timeout, 10), f], timeout=300)
            if rc:
                bad.append((f, kind_of(out), first_lines(out, kind_of(out))))
    return bad


def fuzz_args(t, seconds, corpus_dirs, artifacts, seed=None):
    # absolute paths: a tool target runs with its scratch directory as the working directory,
    # where a crash's artifact would otherwise go
    a = ["-max_total_time=%d" % seconds, "-timeout=%d" % t.timeout, "-max_len=%d" % t.max_len,
         "-rss_limit_mb=2048", "-print_final_stats=1", "-dict=" + os.path.abspath(make_dict(t)),
         "-artifact_prefix=" + os.path.abspath(artifacts) + "/", "-reload=0"]
    if seed is not None:
        a.append("-seed=%d" % seed)
    else:  # prefer fast inputs (a smoke keeps the fixed seed's determinism instead)
        a.append("-entropic_scale_per_exec_time=1")
    return a + [os.path.abspath(d) for d in corpus_dirs]


FORK_STATUS = re.compile(r"^#(\d+): cov: (\d+) ft: \d+ corp: (\d+) exec/s \d+ "
                         r"oom/timeout/crash: \d+/\d+/\d+ time: (\d+)s", re.M)


def triage(t, arts):
    """The findings of a campaign's artifacts: each re-run once; a timeout re-run with a 60 s
    limit (one that then ends is slow, not a hang); crashes minimized; one finding per
    signature.  Returns (findings, slow, not reproduced)."""
    findings, sigs, slow, flaky = [], set(), 0, 0
    for art in arts:
        rc, out = libfuzzer(t, ["-timeout=%d" % t.timeout, "-rss_limit_mb=2048", art],
                            timeout=t.timeout + 300)
        if rc == 0:
            flaky += 1  # e.g. a timeout of a run slowed down by other work on the machine
            continue
        kind = kind_of(out)
        if kind == "timeout" and is_slow_not_hang(t, art):
            slow += 1
            continue
        sig = signature(kind, out)
        if sig in sigs:
            continue
        sigs.add(sig)
        findings.append({"kind": kind, "sig": sig, "file": minimize(t, art, kind),
                         "report": first_lines(out, kind), "new": True})
    return findings, slow, flaky


def campaign(t, seconds, targets, seedfiles, smoke):
    """Fuzzes t for `seconds`: a dict of figures and a list of findings.  A smoke is one plain
    libFuzzer run with a fixed seed that stops at the first finding; `run` uses libFuzzer's fork
    mode, which goes on after crashes, timeouts and out-of-memory runs (each left as an artifact,
    triaged at the end) and gives each job a part of the corpus."""
    seeds = make_seeds(t, os.path.join(FUZZ_DIR, "seedfiles") if seedfiles else None)
    work = os.path.join(t.dir, "smoke-corpus" if smoke else "corpus")
    artifacts = os.path.join(t.dir, "findings")
    if smoke:
        shutil.rmtree(work, ignore_errors=True)
    shutil.rmtree(artifacts, ignore_errors=True)
    os.makedirs(work, exist_ok=True)
    os.makedirs(artifacts)
    res = {"execs": 0, "seconds": 0.0, "cov": 0, "corpus": 0, "slow": 0, "flaky": 0}
    started = time.time()
    if smoke:
        rc, out = libfuzzer(t, fuzz_args(t, seconds, [work, seeds], artifacts, 1),
                            timeout=seconds + 3 * t.timeout + 300)
        res["seconds"] = time.time() - started
        s = stats(out)
        res["execs"] = s.get("number_of_executed_units", 0)
        res["cov"] = s.get("cov", 0)
        res["corpus"] = len(os.listdir(work))
        if rc == 0:
            return res, []
        arts = ARTIFACT.findall(out)
        kind = kind_of(out)
        return res, [{"kind": kind if arts else "error", "sig": signature(kind, out),
                      "file": arts[-1] if arts else None, "report": first_lines(out, kind) or
                      out.splitlines()[-12:], "new": True}]
    fork = ["-fork=1", "-ignore_crashes=1", "-ignore_timeouts=1", "-ignore_ooms=1"]
    rc, out = libfuzzer(t, fuzz_args(t, seconds, [work, seeds], artifacts) + fork,
                        timeout=seconds + 3 * t.timeout + 600)
    res["seconds"] = time.time() - started
    status = FORK_STATUS.findall(out)
    if status:
        res["execs"], res["cov"] = int(status[-1][0]), int(status[-1][1])
        res["seconds"] = max(int(status[-1][3]), 1)
    res["corpus"] = len(os.listdir(work))
    arts = sorted(os.path.abspath(os.path.join(artifacts, f)) for f in os.listdir(artifacts))
    findings, res["slow"], res["flaky"] = triage(t, arts)
    if rc != 0:
        findings.append({"kind": "error", "sig": "libFuzzer stopped with status %d" % rc,
                         "file": None, "report": out.splitlines()[-12:], "new": True})
    return res, findings


# ---------------------------------------------------------------- commands


def fmt_row(cols, widths):
    return "  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)
                     for i, (c, w) in enumerate(zip(cols, widths)))


def cmd_run(a, smoke):
    targets, seedfiles, _ = load_targets()
    sel = select(targets, a.targets)
    need = set(t.name for t in sel) | seedfile_targets(targets, seedfiles)
    with Lock():
        Builder(a.jobs).build([targets[n] for n in sorted(need)])
    seconds = a.time if a.time is not None else (1 if smoke else
                                                 int(os.environ.get("FUZZ_TIME", "60") or 60))
    widths = [22, 10, 8, 6, 7, 9]
    print(fmt_row(["target", "execs", "exec/s", "cov", "corpus", "findings"], widths), flush=True)
    rows, npass, nfail = [], 0, 0
    for t in sel:
        with Lock():
            if seedfiles:
                make_seedfiles(targets, seedfiles)
        clean_scratch(t)
        bad = replay(t, regression_files(t))
        res, findings = campaign(t, seconds, targets, seedfiles, smoke)
        clean_scratch(t)
        new = []
        for f in findings:
            if f["file"] and not smoke:
                f["saved"] = save_finding(t, f["file"], f["kind"])
            new.append(f)
        eps = res["execs"] / res["seconds"] if res["seconds"] > 0 else 0
        ok = not bad and not new
        npass += ok
        nfail += not ok
        note = ""
        if res["slow"]:
            note += "  (%d slow: not hangs)" % res["slow"]
        if res["flaky"]:
            note += "  (%d not reproduced)" % res["flaky"]
        print(fmt_row([t.name, res["execs"], "%.0f" % eps, res["cov"], res["corpus"],
                       len(new)], widths) + note, flush=True)
        for f, kind, lines in bad:
            print("    regression input %s fails (%s):" % (f, kind))
            for l in lines:
                print("    | " + l)
        for f in new:
            where = f.get("saved") or f.get("file") or ""
            print("    finding (%s): %s%s" % (f["kind"], f["sig"], ("\n      -> " + where) if where
                                              else ""))
            for l in f["report"]:
                print("    | " + l)
            if f.get("file"):
                print("    reproduce: scripts/fuzz.py repro %s %s" % (t.name, where))
        rows.append((t.name, res["execs"], eps, len(new), len(regression_files(t)), res["slow"]))
    if not smoke and len(sel) > 1:
        print()
        print("| target | executions | exec/s | findings | regression corpus | slow inputs |")
        print("|---|---:|---:|---:|---:|---:|")
        for n, e, eps, nf, nc, ns in rows:
            print("| %s | %d | %.0f | %d | %d | %d |" % (n, e, eps, nf, nc, ns))
    print("%d passed, %d failed" % (npass, nfail))
    return 1 if nfail else 0


def cmd_build(a):
    targets, seedfiles, _ = load_targets()
    sel = select(targets, a.targets)
    with Lock():
        b = Builder(a.jobs)
        b.build(sel)
    print("fuzz: %d targets in %s (%d files compiled or linked)" % (len(sel),
                                                                   os.path.join(FUZZ_DIR, "bin"),
                                                                   b.built))
    return 0


def cmd_list(a):
    targets, _, _ = load_targets()
    for t in targets.values():
        what = t.tool if t.kind == "tool" else "tests/fuzz/" + t.source
        mode = "" if t.kind == "reader" else (" argv+files" if t.argv_mode else
                                                " args: " + " ".join(t.args))
        print("%-22s %-6s %s%s" % (t.name, t.kind, what, mode))
    return 0


def cmd_check(a):
    """tests/fuzz.list smokes every target once, and every corpus folder belongs to a target."""
    targets, _, _ = load_targets()
    listed = {}
    for line in open("tests/fuzz.list"):
        parts = line.split("#", 1)[0].split()
        if len(parts) >= 6 and parts[2:5] == ["python3", "scripts/fuzz.py", "smoke"]:
            for n in parts[5:]:
                listed[n] = listed.get(n, 0) + 1
    npass = nfail = 0
    for n in targets:
        ok = listed.get(n) == 1
        npass += ok
        nfail += not ok
        if not ok:
            print("FAIL target %s: %d smoke entries in tests/fuzz.list (expected 1)"
                  % (n, listed.get(n, 0)))
    for n in sorted(set(listed) - set(targets)):
        nfail += 1
        print("FAIL tests/fuzz.list smokes %s, which is not a target" % n)
    for d in sorted(glob.glob(os.path.join(CORPUS_DIR, "*"))):
        ok = os.path.basename(d) in targets
        npass += ok
        nfail += not ok
        if not ok:
            print("FAIL %s: no target of that name" % d)
    print("fuzz: %d targets" % len(targets))
    print("%d passed, %d failed" % (npass, nfail))
    return 1 if nfail else 0


def decode(data):
    """(argv, [(name, bytes)]) of an argv-mode input, as tests/fuzz/fz_tool.c reads it."""
    i = data.find(SEP)
    head = data if i < 0 else data[:i]
    args = []
    if head.endswith(b"\n"):
        head = head[:-1]
    if head or (i < 0 and data):
        args = [x.decode(errors="replace") for x in head.split(b"\n")]
    files = []
    while i >= 0:
        j = data.find(SEP, i + len(SEP))
        part = data[i + len(SEP):] if j < 0 else data[i + len(SEP):j]
        name, _, body = part.partition(b"\n")
        files.append((name.decode(errors="replace"), body))
        i = j
    return args, files


def cmd_repro(a):
    targets, _, _ = load_targets()
    t = select(targets, [a.target])[0]
    with Lock():
        Builder(a.jobs).build([t])
    env = fuzz_env(t)
    env["FZ_VERBOSE"] = "1"
    p = subprocess.run([os.path.abspath(t.bin), "-timeout=%d" % max(t.timeout, 60),
                        os.path.abspath(a.file)], env=env)
    return p.returncode


def cmd_unpack(a):
    targets, _, _ = load_targets()
    t = select(targets, [a.target])[0]
    if t.kind != "tool":
        die("%s is a reader target: its input is the file itself" % t.name)
    data = open(a.file, "rb").read()
    if t.argv_mode:
        args, files = decode(data)
        for k, v in t.defaults.items():  # as tests/fuzz/fz_tool.c appends them
            if k not in args:
                args += [k, str(v)]
    else:
        args, files = list(t.args), [("in", data)]
    os.makedirs(a.dir, exist_ok=True)
    stdin = ""
    for name, body in files:
        with open(os.path.join(a.dir, name), "wb") as f:
            f.write(body)
        if name == "stdin" or (not t.argv_mode and t.stdin):
            stdin = " < " + name
    tool = os.path.relpath(os.path.join(ROOT, BUILD, "sw-san", t.tool[3:-2]), a.dir)
    print("cd %s && %s %s%s" % (shlex.quote(a.dir), tool, " ".join(shlex.quote(x) for x in args),
                                stdin))
    return 0


def main():
    cwd = os.getcwd()
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("JOBS", "2") or 2))
    sub = ap.add_subparsers(dest="cmd", required=True)
    for c in ("build", "run", "smoke"):
        p = sub.add_parser(c)
        p.add_argument("targets", nargs="*")
        if c != "build":
            p.add_argument("--time", type=int, default=None, help="seconds per target")
    sub.add_parser("list")
    sub.add_parser("check")
    p = sub.add_parser("repro")
    p.add_argument("target")
    p.add_argument("file")
    p = sub.add_parser("unpack")
    p.add_argument("target")
    p.add_argument("file")
    p.add_argument("dir")
    a = ap.parse_args()
    for k in ("file", "dir"):
        if getattr(a, k, None):
            setattr(a, k, os.path.join(cwd, getattr(a, k)))
    os.chdir(ROOT)
    if a.cmd == "build":
        return cmd_build(a)
    if a.cmd == "list":
        return cmd_list(a)
    if a.cmd == "check":
        return cmd_check(a)
    if a.cmd == "repro":
        return cmd_repro(a)
    if a.cmd == "unpack":
        return cmd_unpack(a)
    return cmd_run(a, a.cmd == "smoke")


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Scaffolds a new block: `scripts/new_block.py NAME [--prefix P] [--title "..."]`
(or `make new-block NAME=...`).

Creates, with a working valid/ready pass-through in place of the design so that
`make test-NAME` is green the moment the folder exists:

  rtl/NAME/block.toml      the block description (RTL files, harnesses, lists, synthesis,
                           workload; docs/conventions.md, "Block descriptions")
  rtl/NAME/NAME.v          top: a registered pass-through (skid buffer) with the hold checker
                           on its input and an elaboration-time parameter check
  cmodel/include/NAME.h    the model API (NAME_cfg_t, NAME_ref)
  cmodel/NAME/NAME.c       the bit-exact model of the pass-through
  tb/NAME/tb_NAME.cpp      the harness: random beats under random gaps and backpressure (or a
                           workload file) checked against the model, a mid-run reset
  sw/NAME/P_workload.c     a host tool that writes a workload file
  tests/NAME.list          the regression list (random run, full-rate run, workload run,
                           sanitized run)
  docs/NAME.md             the block's page
and adds the block's row to the README table. Nothing else names the block: the Makefile, lint,
synthesis, FuseSoC and the main job find it through its description.
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

NAME_RE = re.compile(r"^[a-z][a-z0-9]{1,15}$")

DESC = '''# Block description of {name} (format: docs/conventions.md, "Block descriptions").
name   = "{name}"
title  = "{title}"
prefix = "{prefix}"
top    = "{name}"
docs   = ["docs/{name}.md"]

# Dependency order: a module comes after every module it instantiates.
rtl = ["{name}.v"]

lists = ["tests/{name}.list"]

# Yosys area-flow configurations (synth/run_synth.py): <config> <top> [Param=value ...] [@nocheck]
synth = \'\'\'
{name}_w32   {name}   Width=32
\'\'\'

# The default workload of `make` (scripts/main_job.py; keys in docs/conventions.md).
[workload]
title   = "1000 random words through the pass-through"
make    = "{{b}}/sw/{name}/{prefix}_workload --n 1000 --seed 1 -o {{b}}/work/{name}.txt"
harness = "{name}_w32"
run     = "+workload={{b}}/work/{name}.txt +gap=0 +stall=0"
match   = '{name}: workload beats=(?P<beats>\\d+) cycles=(?P<cycles>\\d+)'
cycles  = "cycles"
metric  = \'\'\'"%.2f beats/cycle" % (beats / max(1, cycles))\'\'\'
area    = "{name}_w32"

[harness.{name}_w32]
top = "{name}"
cpp = "tb/{name}/tb_{name}.cpp"
fusesoc = true
params = {{ Width = 32 }}

[harness.{name}_w5]
top = "{name}"
cpp = "tb/{name}/tb_{name}.cpp"
sanitize = true
params = {{ Width = 5 }}
'''

RTL = '''`default_nettype none
`include "cc_param_check.vh"
// {name} -- {title}.
//
// Purpose: scaffold made by scripts/new_block.py -- a registered valid/ready pass-through
//   (cc_skid_buffer) standing in for the block until its design replaces it. The C model
//   (cmodel/{name}) and the harness (tb/{name}) check it bit for bit.
// Parameters:
//   Width  data width in bits (1..64)
module {name} #(
  parameter integer Width = 32
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             in_valid_i,
  output wire             in_ready_o,
  input  wire [Width-1:0] in_data_i,
  output wire             out_valid_o,
  input  wire             out_ready_i,
  output wire [Width-1:0] out_data_o
);
  // Parameter check at elaboration (rtl/common/cc_param_check.vh): an illegal value stops all
  // three tools (Verilator, Icarus, Yosys) with the rule as the message.
  if (Width < 1 || Width > 64) begin : gen_check_width
    `CC_PARAM_FAIL({name}__Width_must_be_1_to_64)
  end

  cc_hold_check #(.Width(Width)) u_in_hold (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .valid_i  (in_valid_i),
    .ready_i  (in_ready_o),
    .data_i   (in_data_i),
    .release_i(1'b0)
  );

  cc_skid_buffer #(.Width(Width)) u_buf (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (in_valid_i),
    .in_ready_o (in_ready_o),
    .in_data_i  (in_data_i),
    .out_valid_o(out_valid_o),
    .out_ready_i(out_ready_i),
    .out_data_o (out_data_o)
  );
endmodule
`default_nettype wire
'''

HEADER = '''/* {name}.h -- C golden model of {name} ({title}).
 * Scaffold made by scripts/new_block.py: the model of a pass-through of Width-bit words.
 */
#ifndef {NAME}_H
#define {NAME}_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {{
#endif

typedef struct {{
  int width; /* data width in bits, 1..64 (the RTL's Width) */
}} {name}_cfg_t;

/* The model of one build: cfg->width = width. Returns 0, or -1 for a width outside 1..64. */
int {name}_cfg_init({name}_cfg_t *cfg, int width);

/* Clock-free reference: out[i] = in[i] masked to the width, for n words. */
void {name}_ref(const {name}_cfg_t *cfg, const uint64_t *in, uint64_t *out, size_t n);

#ifdef __cplusplus
}}
#endif

#endif /* {NAME}_H */
'''

MODEL = '''/* {name}.c -- C golden model of {name} (see cmodel/include/{name}.h). */
#include "{name}.h"

int {name}_cfg_init({name}_cfg_t *cfg, int width) {{
  if (width < 1 || width > 64) return -1;
  cfg->width = width;
  return 0;
}}

void {name}_ref(const {name}_cfg_t *cfg, const uint64_t *in, uint64_t *out, size_t n) {{
  const uint64_t mask = cfg->width >= 64 ? ~0ull : ((1ull << cfg->width) - 1);
  for (size_t i = 0; i < n; i++) out[i] = in[i] & mask;
}}
'''

TOOL = '''/* {prefix}_workload.c -- writes a workload file for the {name} harness: one hex word a line.
 *   {prefix}_workload [--n N] [--seed S] [--width W] [-o FILE]
 */
#include <stdio.h>
#include <string.h>

#include "cutil.h"

static const char *const kProg = "{prefix}_workload";

int main(int argc, char **argv) {{
  long n = 1000, width = 32;
  long seed = 1;
  const char *path = NULL;
  for (int i = 1; i < argc; i++) {{
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(argv[i], "--n")) n = cutil_opt_long(kProg, "--n", v, 1, 100000000), i++;
    else if (!strcmp(argv[i], "--seed")) seed = cutil_opt_long(kProg, "--seed", v, 0, 1L << 62), i++;
    else if (!strcmp(argv[i], "--width")) width = cutil_opt_long(kProg, "--width", v, 1, 64), i++;
    else if (!strcmp(argv[i], "-o") && v) path = v, i++;
    else cutil_die(kProg, "unknown argument '%s'", argv[i]);
  }}
  FILE *f = path ? fopen(path, "w") : stdout;
  if (!f) cutil_die(kProg, "cannot write %s", path);
  cutil_rng_t r = cutil_rng_seed((uint64_t)seed);
  const uint64_t mask = width >= 64 ? ~0ull : ((1ull << width) - 1);
  for (long k = 0; k < n; k++) fprintf(f, "%llx\\n", (unsigned long long)(cutil_rng_next(&r) & mask));
  if ((path && fclose(f) != 0) || (!path && fflush(f) != 0)) cutil_die(kProg, "write error");
  return 0;
}}
'''

HARNESS = '''// tb_{name}.cpp -- Verilator harness of {name} against its C model (cmodel/{name}).
//
// +n random beats under random input gaps (+gap) and output backpressure (+stall), a reset
// with beats in flight half way; or, with +workload=FILE (one hex word a line), the file's words.
// Every output beat is checked against the model's queue; the last line is the result line.
// Build parameters: TB_Width (from rtl/{name}/block.toml).
#include "V{name}.h"
#include "tb_lib.h"

#include <cinttypes>
#include <deque>
#include <vector>

#include "{name}.h"

typedef V{name} Top;

static bool read_words(const char *path, std::vector<uint64_t> *w) {{
  FILE *f = std::fopen(path, "r");
  if (!f) return false;
  char line[64];
  while (std::fgets(line, sizeof line, f)) {{
    char *end = nullptr;
    unsigned long long v = std::strtoull(line, &end, 16);
    if (end == line) {{
      std::fclose(f);
      return false;
    }}
    w->push_back(v);
  }}
  std::fclose(f);
  return true;
}}

int main(int argc, char **argv) {{
  TbArgs a;
  tb_init(argc, argv, "tb_{name}", 100000, &a, {{{{"workload", "=<file>: words to send (default: +n random)"}}}});
  {name}_cfg_t cfg;
  if ({name}_cfg_init(&cfg, TB_Width) != 0) return 2;
  std::vector<uint64_t> words;
  const char *wl = tb_plusarg("workload");
  if (wl && !read_words(wl, &words)) {{
    std::fprintf(stderr, "tb_{name}: cannot read workload %s\\n", wl);
    return 2;
  }}
  const long n = wl ? static_cast<long>(words.size()) : a.n;
  TbSim<Top> sim(a, 100 + 50ull * static_cast<uint64_t>(n));
  TbScore sc("{name}");
  TbStall gap(a.gap_pct), stall(a.stall_pct);
  Top *t = sim.top;
  sim.reset();
  std::deque<uint64_t> expect;
  long sent = 0, got = 0;
  bool valid = false, did_reset = false;
  uint64_t data = 0;
  const uint64_t start = sim.cycle;
  while (got < n && !sim.timed_out) {{
    if (!wl && !did_reset && sent >= n / 2 && !expect.empty()) {{  // reset with beats in flight
      did_reset = true;
      sim.reset();
      sent -= static_cast<long>(expect.size());
      expect.clear();
      valid = false;
    }}
    if (!valid && sent < n && !gap.next()) {{
      valid = true;
      uint64_t x = wl ? words[sent] : tb_rand(), y;
      {name}_ref(&cfg, &x, &y, 1);
      data = y;
    }}
    t->in_valid_i = valid;
    t->in_data_i = data;
    t->out_ready_i = !stall.next();
    t->eval();
    if (t->out_valid_o && t->out_ready_i) {{
      sc.expect(!expect.empty(), "no beat without an input", got);
      if (!expect.empty()) {{
        sc.check("out_data_o", got, expect.front(), t->out_data_o);
        expect.pop_front();
      }}
      got++;
    }}
    if (valid && t->in_ready_o) {{
      expect.push_back(data);
      valid = false;
      sent++;
    }}
    sim.tick();
  }}
  if (wl) std::printf("{name}: workload beats=%ld cycles=%" PRIu64 "\\n", got, sim.cycle - start);
  sc.expect(!sim.timed_out, "finished before the timeout", sim.cycle);
  return sc.finish();
}}
'''

LIST = '''# {name} regression (docs/{name}.md). <block> <name> <command>
{name} {name}_w32_random    build/tb/{name}_w32/{name}_w32 +seed=1 +n=100000
{name} {name}_w5_random     build/tb/{name}_w5/{name}_w5 +seed=2 +n=100000 +stall=60 +gap=20
{name} {name}_w32_fullrate  build/tb/{name}_w32/{name}_w32 +seed=3 +n=20000 +stall=0 +gap=0
{name} {name}_workload      bash -c 'build/sw/{name}/{prefix}_workload --n 500 --seed 4 -o build/{name}_wl.txt && build/tb/{name}_w32/{name}_w32 +workload=build/{name}_wl.txt'
{name} {name}_w5_san         build/tb/{name}_w5/{name}_w5-san +seed=5 +n=20000 +stall=50 +gap=30
{name} {name}_bad_args      bash -c '! build/sw/{name}/{prefix}_workload --n 0 2>/dev/null && build/sw/{name}/{prefix}_workload --bogus 2>&1 | grep -q "^{prefix}_workload: unknown argument"'
'''

DOC = '''# {title}

Scaffold made by `scripts/new_block.py`: `rtl/{name}/{name}.v` is a registered valid/ready
pass-through standing in for the design, checked bit for bit against `cmodel/{name}` by
`tb/{name}/tb_{name}.cpp`. Replace each part with the block's own and keep
`rtl/{name}/block.toml` up to date (docs/conventions.md, "Block descriptions").

| part | file |
|---|---|
| description | `rtl/{name}/block.toml` |
| RTL | `rtl/{name}/` |
| C model | `cmodel/include/{name}.h`, `cmodel/{name}/` |
| harness | `tb/{name}/tb_{name}.cpp` |
| host tools | `sw/{name}/` |
| regression | `tests/{name}.list` |
'''


def write(path, text, made):
    full = os.path.join(ROOT, path)
    if os.path.exists(full):
        sys.exit("new_block: %s exists already" % path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text)
    made.append(path)


def add_readme_row(name, title):
    path = os.path.join(ROOT, "README.md")
    lines = open(path).read().split("\n")
    # the last row of the first table whose header starts with "| block"
    start = next((i for i, l in enumerate(lines) if l.startswith("| block ")), None)
    if start is None:
        sys.exit("new_block: README.md has no block table ('| block | ...')")
    end = start + 1
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    lines.insert(end, "| %s | scaffold | [docs/%s.md](docs/%s.md) |" % (title, name, name))
    with open(path, "w") as f:
        f.write("\n".join(lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("name", help="block name: lower case letters and digits, 2..16 characters")
    ap.add_argument("--prefix", default=None, help="short file prefix (default: the name)")
    ap.add_argument("--title", default=None, help="one-line title for the README and docs")
    a = ap.parse_args()
    name = a.name
    if not NAME_RE.match(name):
        sys.exit("new_block: bad name '%s' (lower case letters and digits, 2..16, a letter first)"
                 % name)
    prefix = a.prefix or name
    if not NAME_RE.match(prefix):
        sys.exit("new_block: bad prefix '%s'" % prefix)
    if name == "common" or os.path.exists(os.path.join(ROOT, "rtl", name)):
        sys.exit("new_block: rtl/%s exists already" % name)
    title = a.title or "%s (scaffold)" % name
    if '"' in title or "|" in title:
        sys.exit("new_block: the title may not contain '\"' or '|'")
    v = dict(name=name, NAME=name.upper(), prefix=prefix, title=title)
    made = []
    write("rtl/%s/block.toml" % name, DESC.format(**v), made)
    write("rtl/%s/%s.v" % (name, name), RTL.format(**v), made)
    write("cmodel/include/%s.h" % name, HEADER.format(**v), made)
    write("cmodel/%s/%s.c" % (name, name), MODEL.format(**v), made)
    write("tb/%s/tb_%s.cpp" % (name, name), HARNESS.format(**v), made)
    write("sw/%s/%s_workload.c" % (name, prefix), TOOL.format(**v), made)
    write("tests/%s.list" % name, LIST.format(**v), made)
    write("docs/%s.md" % name, DOC.format(**v), made)
    add_readme_row(name, title)
    for p in made:
        print("new_block: wrote %s" % p)
    print("new_block: added the README row")
    rc = subprocess.call([sys.executable, os.path.join(ROOT, "scripts", "gen_fusesoc_core.py")])
    if rc:
        sys.exit("new_block: regenerating fusesoc.core failed")
    print("new_block: done; next: `make test-%s`, then replace the pass-through" % name)


if __name__ == "__main__":
    main()

#!/usr/bin/env bash
# Directed per-instruction RTL tests of MANNA (docs/manna.md, "Verification": manna_directed).
#
# Every tests/manna/directed/*.s is one hand-written program with hand-chosen data (its header
# says what it checks and why). mkwl.py assembles it (build/sw/manna/mna_as), writes the workload
# file build/manna_dir/NAME.wl and checks on the golden model that each run ends with the status
# the program's '#@ s' lines name (so a directed test cannot silently stop early); the harness
# manna_t2e4 then runs the workload on the RTL and on the model with no host stalls or gaps and
# the cycle model on (+stall=0 +gap=0 +cycles=1): every tile's status word after every run, every
# word of every memory and scalar register after the last run, and the cycle count of every run
# must agree with the model. One line per program, then "N passed, M failed"; the exit status is
# non-zero when a program fails. Harness logs: build/manna_dir/NAME.log.
set -u
cd "$(dirname "$0")/../../.."
B=${BUILD:-build}
HARNESS=$B/tb/manna_t2e4/manna_t2e4
MNA_AS=$B/sw/manna/mna_as
OUT=$B/manna_dir
LIB=$OUT/libmna_model.so
DIR=tests/manna/directed

for f in "$HARNESS" "$MNA_AS"; do
  if [ ! -x "$f" ]; then
    echo "missing $f (make $f)"
    echo "0 passed, 1 failed"
    exit 1
  fi
done
mkdir -p "$OUT"
# the golden model as a shared library for mkwl.py's status checks (the same source and flags as
# the model library, position-independent)
SRCS="cmodel/manna/manna.c cmodel/manna/mna_hook.h cmodel/include/manna.h cmodel/include/manna_isa.h
      cmodel/include/cutil.h"
if [ ! -f "$LIB" ] || [ -n "$(find $SRCS -newer "$LIB" 2>/dev/null)" ]; then
  if ! ${CC:-gcc} -std=c11 -Wall -Wextra -Werror -ffp-contract=off -frounding-math \
      -Icmodel/include -O2 -fPIC -shared cmodel/manna/manna.c -lm -o "$LIB"; then
    echo "cannot build $LIB"
    echo "0 passed, 1 failed"
    exit 1
  fi
fi

pass=0
fail=0
for src in "$DIR"/*.s; do
  name=$(basename "$src" .s)
  why=""
  summary=$(python3 "$DIR/mkwl.py" --as "$MNA_AS" --model "$LIB" --outdir "$OUT" "$src" 2>&1)
  if [ $? -ne 0 ]; then
    why="model: $(echo "$summary" | grep '^mkwl:' | head -3 | tr '\n' ' ')"
  else
    runs=$(grep -c '^s ' "$OUT/$name.wl")
    "$HARNESS" +workload="$OUT/$name.wl" +seed=1 +stall=0 +gap=0 +cycles=1 > "$OUT/$name.log" 2>&1
    rc=$?
    last=$(grep -v '^\s*$' "$OUT/$name.log" | tail -1)
    if [ $rc -ne 0 ] || ! echo "$last" | grep -Eq '^[1-9][0-9]* passed, 0 failed$'; then
      why="$( (grep -m 2 -E '^(MISMATCH|FAIL )' "$OUT/$name.log"
               grep -m 1 '^  (model' "$OUT/$name.log") | tr -s ' \n' ' ')"
      why="harness: ${why:-$last}"
    elif ! grep -q "cycle model exact on $runs of $runs runs" "$OUT/$name.log"; then
      why="cycle model: $(grep 'cycle model exact' "$OUT/$name.log")"
    fi
  fi
  if [ -z "$why" ]; then
    pass=$((pass + 1))
    printf '%-16s pass  %s\n' "$name" "$(echo "$summary" | head -1)"
  else
    fail=$((fail + 1))
    printf '%-16s FAIL  %s\n' "$name" "$why"
  fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]

#!/usr/bin/env bash
# Scaffold test: adding a block is `scripts/new_block.py NAME` + filling in its folder.
# In a scratch copy of the working tree (build/scaffold/repo) it makes a block 'demo' and checks
# that, with nothing else edited: the structure test passes (every part present), `make test-demo`
# is green (its harness, model and tool build and pass), the main job runs its workload, Yosys
# synthesizes its configuration, fusesoc.core is fresh, and only the block's files, the README
# row and fusesoc.core changed. Bad names are refused. Ends with 'N passed, N failed'.
set -u
cd "$(dirname "$0")/.."
ROOT=$PWD
B=${BUILD:-build}
S=$ROOT/$B/scaffold
pass=0; fail=0
ok()  { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; }
rm -rf "$S"; mkdir -p "$S/repo"
# the tracked and untracked (not ignored) files, with their times, so make sees the copied
# build products of the shared code as up to date
git ls-files -co --exclude-standard -z | while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done \
  | xargs -0 cp -p --parents -t "$S/repo" \
  || { echo "FAIL: cannot copy the tree"; echo "0 passed, 1 failed"; exit 1; }
mkdir -p "$S/repo/build/tb" "$S/repo/build/sw"
for d in cmodel tests tb/_runtime sw/common; do
  [ -d "$B/$d" ] && cp -rp "$B/$d" "$S/repo/build/$(dirname $d)/"
done
cd "$S/repo"
git init -q . && git add -A && git -c user.email=t@t -c user.name=t commit -qm base || true

python3 scripts/new_block.py demo --prefix dmo --title "demo block (scaffold test)" > "$S/new_block.log" 2>&1 \
  && ok || { bad "new_block.py demo"; cat "$S/new_block.log"; }
python3 scripts/new_block.py demo > /dev/null 2>&1 && bad "a second 'demo' was accepted" || ok
python3 scripts/new_block.py Bad-Name > /dev/null 2>&1 && bad "a bad name was accepted" || ok

changed=$(git status --porcelain | awk '{print $2}' | sort | tr '\n' ' ')
want="README.md cmodel/demo/ cmodel/include/demo.h docs/demo.md fusesoc.core rtl/demo/ sw/demo/ tb/demo/ tests/demo.list "
[ "$changed" = "$want" ] && ok || bad "changed files: '$changed', expected '$want'"

python3 scripts/blocks.py check > "$S/structure.log" 2>&1 && ok || { bad "structure test"; grep FAIL "$S/structure.log"; }
grep -q "block descriptions (common, demo, " "$S/structure.log" && ok || bad "structure test does not see demo"
python3 scripts/gen_fusesoc_core.py --check > /dev/null && ok || bad "fusesoc.core stale after new_block.py"
grep -q "sim_demo:" fusesoc.core && ok || bad "fusesoc.core has no sim_demo target"

make -s BUILD=build JOBS=2 test-demo > "$S/test.log" 2>&1 && ok || { bad "make test-demo"; tail -20 "$S/test.log"; }
tail -1 "$S/test.log" | grep -q "^6 passed, 0 failed$" && ok || bad "make test-demo: $(tail -1 "$S/test.log")"
BUILD=build python3 scripts/main_job.py --blocks demo --no-synth > "$S/main.log" 2>&1 && ok || { bad "main job"; tail -5 "$S/main.log"; }
grep -q "^| demo .* 2001/2001 .* 1001 .* 1.00 beats/cycle" "$S/main.log" && ok || bad "main job row: $(grep '^| demo' "$S/main.log")"
BUILD=build python3 synth/run_synth.py --check --configs-only --only demo_w32 > "$S/synth.log" 2>&1 && ok \
  || { bad "Yosys check of demo_w32"; tail -3 "$S/synth.log"; }
verilator --lint-only -Wall -y rtl/common -y rtl/demo --top-module demo rtl/demo/demo.v && ok || bad "verilator lint of demo.v"
iverilog -g2005 -Wall -y rtl/common -y rtl/demo -I rtl/common -s demo -o /dev/null rtl/demo/demo.v && ok || bad "iverilog of demo.v"
# the elaboration-time parameter check of the scaffold's top
verilator --lint-only -Wall -y rtl/common -y rtl/demo -GWidth=0 --top-module demo rtl/demo/demo.v 2>&1 \
  | grep -q "demo__Width_must_be_1_to_64" && ok || bad "Width=0 not refused by the parameter check"

echo "scaffold: new_block.py demo in $S/repo"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]

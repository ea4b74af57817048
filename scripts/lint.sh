#!/usr/bin/env bash
# Lints every RTL module: Verilator --lint-only -Wall (zero warnings) and Icarus -g2005 compile.
# Each module is checked as its own top with its default parameters.
set -u
cd "$(dirname "$0")/.."
dirs=(rtl/common)
for d in rtl/*/; do d=${d%/}; [ "$d" != rtl/common ] && dirs+=("$d"); done
yflags=(); iflags=()
for d in "${dirs[@]}"; do yflags+=(-y "$d" -I"$d"); iflags+=(-y "$d" -I "$d"); done
fail=0; n=0
for f in $(ls rtl/*/*.v); do
  m=$(basename "$f" .v); n=$((n+1))
  if ! out=$(verilator --lint-only -Wall "${yflags[@]}" rtl/lint_waivers.vlt --top-module "$m" "$f" 2>&1); then
    echo "verilator lint FAIL: $f"; echo "$out" | head -20; fail=$((fail+1))
  elif [ -n "$out" ]; then
    echo "verilator lint WARN: $f"; echo "$out" | head -20; fail=$((fail+1))
  fi
  if ! out=$(iverilog -g2005 -Wall "${iflags[@]}" -s "$m" -o /dev/null "$f" 2>&1) || [ -n "$out" ]; then
    echo "iverilog FAIL: $f"; echo "$out" | head -20; fail=$((fail+1))
  fi
done
echo "lint: $n modules, verilator -Wall and iverilog -g2005"
echo "$((n*2-fail)) passed, $fail failed"
[ $fail -eq 0 ]

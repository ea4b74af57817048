#!/usr/bin/env bash
# Runs every tests/vectors/<function>[.<option>...].tv through build/tb/fp_vectors/fp_vectors
# with -checkNaNs and each <option> as -<option> (rounding mode, exact).
# With --errors: checks the checker's reports and options: a corrupted vector and a malformed
# line in testfloat_ver's format, the error limit, NaN checking, -notexact, the refused
# options and bad arguments. Last line "N passed, N failed" (per file / per error case).
set -u
cd "$(dirname "$0")/.."
bin=${BUILD:-build}/tb/fp_vectors/fp_vectors
pass=0; fail=0
ok()  { pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }

if [ "${1:-}" = "--errors" ]; then
  tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
  good=tests/vectors/f16_add.rnear_even.tv
  n=$(grep -c . "$good")
  run() { out=$("$bin" "$@" +stall=0 +gap=0 2>/dev/null); rc=$?; }
  # Flip the last bit of the expected result on line 3 and add a malformed line.
  python3 -c 'import sys
lines = open(sys.argv[1]).read().split("\n")
f = lines[2].split(); f[2] = "%04X" % (int(f[2], 16) ^ 1); lines[2] = " ".join(f)
print("\n".join(lines), end="")' "$good" > "$tmp/bad.tv"
  echo "3C00 zz 3C00 00" >> "$tmp/bad.tv"
  l3=($(sed -n 3p "$good"))
  run f16_add -rnear_even "$tmp/bad.tv"
  [ $rc -ne 0 ] && ok || bad "exit status 0 with a corrupted vector"
  echo "$out" | grep -qx "Errors found in f16_add, rounding near_even:" && ok || bad "no testfloat_ver header: $(echo "$out" | head -2)"
  # testfloat_ver's case line: operands, "=> <result> <flags>  expected <result> <flags>"
  exp_line=$(python3 -c 'import sys
def f16(h):
    v = int(h, 16); return "%s%02X.%03X" % ("-" if v >> 15 else "+", (v >> 10) & 31, v & 1023)
def fl(h):
    v = int(h, 16); return "".join(c if v & b else "." for c, b in zip("vioux", (16, 8, 4, 2, 1)))
a, b, z, x = sys.argv[1:5]
print("%s  %s  => %s %s  expected %s %s  (line 3)" % (f16(a), f16(b), f16(z), fl(x),
      f16("%04X" % (int(z, 16) ^ 1)), fl(x)))' "${l3[@]}")
  echo "$out" | grep -qxF "$exp_line" && ok || bad "mismatch on line 3 not reported as '$exp_line'"
  echo "$out" | grep -q "^line $((n+1)): malformed" && ok || bad "malformed line not reported"
  echo "$out" | grep -qx "$n tests performed; 2 errors found." && ok || bad "no error count line"
  echo "$out" | tail -1 | grep -q "^$((n-1)) passed, 2 failed$" && ok || bad "counts: $(echo "$out" | tail -1)"
  # -errors 1 stops at the first error, -errors 0 has no limit
  run -errors 1 f16_add "$tmp/bad.tv"
  [ $rc -eq 1 ] && echo "$out" | tail -1 | grep -q "^2 passed, 1 failed$" && echo "$out" | grep -q "^stopped after 1 errors" && ok || bad "-errors 1: $(echo "$out" | tail -2)"
  for k in 1 2 3 4 5; do sed -n 3p "$tmp/bad.tv"; done > "$tmp/five.tv"
  run -errors 0 f16_add "$tmp/five.tv"
  echo "$out" | tail -1 | grep -q "^0 passed, 5 failed$" && ok || bad "-errors 0: $(echo "$out" | tail -1)"
  run -errors 4 f16_add "$tmp/five.tv"
  echo "$out" | tail -1 | grep -q "^0 passed, 4 failed$" && ok || bad "-errors 4: $(echo "$out" | tail -1)"
  # NaNs: any quiet NaN passes without -checkNaNs, only the exact pattern with it
  echo "7E00 3C00 7E01 00" > "$tmp/nan.tv"
  run f16_add "$tmp/nan.tv"; [ $rc -eq 0 ] && ok || bad "a quiet NaN result refused without -checkNaNs"
  run -checkNaNs f16_add "$tmp/nan.tv"; [ $rc -eq 1 ] && echo "$out" | grep -q "=> +1F.200 .....  expected +1F.201 ....." && ok || bad "-checkNaNs: NaN payload not checked"
  # -notexact (the default) and -exact: NX of conversions to integer and of roundToInt
  echo "3E00 00000002 00" > "$tmp/f2i.tv"; echo "3E00 00000002 01" > "$tmp/f2ix.tv"
  run f16_to_i32 "$tmp/f2i.tv"; [ $rc -eq 0 ] && ok || bad "f16_to_i32 -notexact (default)"
  run -exact f16_to_i32 "$tmp/f2ix.tv"; [ $rc -eq 0 ] && ok || bad "f16_to_i32 -exact"
  run -exact f16_to_i32 "$tmp/f2i.tv"; [ $rc -eq 1 ] && echo "$out" | grep -qx "Errors found in f16_to_i32, rounding near_even, exact:" && ok || bad "f16_to_i32 -exact missing NX not caught"
  echo "3E00 4000 00" > "$tmp/rti.tv"; echo "3E00 4000 01" > "$tmp/rtix.tv"
  run f16_roundToInt "$tmp/rti.tv"; [ $rc -eq 0 ] && ok || bad "f16_roundToInt -notexact"
  run -exact f16_roundToInt "$tmp/rtix.tv"; [ $rc -eq 0 ] && ok || bad "f16_roundToInt -exact"
  run f16_roundToInt "$tmp/rtix.tv"; [ $rc -eq 1 ] && echo "$out" | grep -q "=> +10.000 .....  expected +10.000 ....x" && ok || bad "f16_roundToInt -notexact raised NX"
  # the header names the tininess mode where it matters, and the f32 mulAdd case line breaks
  echo "3F800000 3F800000 3F800000 40000001 00" > "$tmp/fma.tv"
  run f32_mulAdd "$tmp/fma.tv"
  echo "$out" | grep -qx "Errors found in f32_mulAdd, rounding near_even, tininess after rounding:" && echo "$out" | grep -A2 "^Errors found" | sed -n 3p | grep -qP '^\t=> \+80\.000000 \.\.\.\.\.  expected \+80\.000001 \.\.\.\.\.  \(line 1\)$' && ok || bad "f32_mulAdd report: $(echo "$out" | head -3)"
  # refused where they apply (exit 2, one line), ignored where they do not
  for args in "-rodd f16_add" "-rodd f32_roundToInt" "-tininessbefore f16_mul" "-tininessbefore f32_to_bf16"; do
    e=$("$bin" $args "$good" 2>&1 >/dev/null); r=$?
    [ $r -eq 2 ] && [ $(echo "$e" | wc -l) -eq 1 ] && ok || bad "$args: status $r: $e"
  done
  run -tininessbefore -rodd f16_eq tests/vectors/f16_eq.tv; [ $rc -eq 0 ] && ok || bad "-rodd/-tininessbefore not ignored for f16_eq"
  run -tininessbefore f16_add "$good"; [ $rc -eq 0 ] && ok || bad "-tininessbefore not ignored for f16_add"
  "$bin" f16_frobnicate "$good" > /dev/null 2>&1; [ $? -eq 2 ] && ok || bad "unknown function accepted"
  "$bin" f16_add -rsideways "$good" > /dev/null 2>&1; [ $? -eq 2 ] && ok || bad "unknown rounding option accepted"
  "$bin" -errors x f16_add "$good" > /dev/null 2>&1; [ $? -eq 2 ] && ok || bad "-errors x accepted"
  "$bin" f16_add /nonexistent.tv > /dev/null 2>&1; [ $? -eq 2 ] && ok || bad "missing file accepted"
else
  for f in tests/vectors/*.tv; do
    b=$(basename "$f" .tv); func=${b%%.*}; opts=""
    [ "$b" != "$func" ] && opts=$(printf -- '-%s ' $(echo "${b#*.}" | tr . ' '))
    out=$("$bin" -checkNaNs $opts "$func" "$f" 2>/dev/null); rc=$?
    last=$(echo "$out" | tail -1)
    if [ $rc -eq 0 ] && echo "$last" | grep -q " passed, 0 failed$" && ! echo "$last" | grep -q "^0 passed"; then
      echo "$b: $last"; ok
    else
      echo "$out" | tail -5; bad "$b"
    fi
  done
fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]

#!/usr/bin/env bash
# Runs every tests/vectors/<function>[.<rounding>].tv through build/tb/fp_vectors/fp_vectors.
# With --errors: checks that the checker catches a corrupted vector, a malformed line and a bad
# function name. Last line "N passed, N failed" (counted per file / per error case).
set -u
cd "$(dirname "$0")/.."
bin=${BUILD:-build}/tb/fp_vectors/fp_vectors
pass=0; fail=0
ok()  { pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }

if [ "${1:-}" = "--errors" ]; then
  tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
  good=tests/vectors/f16_add.rnear_even.tv
  # Flip the last bit of the expected result on line 3 and add a malformed line.
  python3 -c 'import sys
lines = open(sys.argv[1]).read().split("\n")
f = lines[2].split(); f[2] = "%04X" % (int(f[2], 16) ^ 1); lines[2] = " ".join(f)
print("\n".join(lines), end="")' "$good" > "$tmp/bad.tv"
  echo "3C00 zz 3C00 00" >> "$tmp/bad.tv"
  out=$("$bin" f16_add -rnear_even "$tmp/bad.tv" +stall=0 +gap=0); rc=$?
  n=$(grep -c . "$good")
  [ $rc -ne 0 ] && ok || bad "exit status 0 with a corrupted vector"
  echo "$out" | grep -q "^MISMATCH line 3 " && ok || bad "mismatch on line 3 not reported"
  echo "$out" | grep -q "^line $((n+1)): malformed" && ok || bad "malformed line not reported"
  echo "$out" | tail -1 | grep -q "^$((n-1)) passed, 2 failed$" && ok || bad "counts: $(echo "$out" | tail -1)"
  "$bin" f16_frobnicate "$good" > /dev/null 2>&1; [ $? -eq 2 ] && ok || bad "unknown function accepted"
  "$bin" f16_add -rsideways "$good" > /dev/null 2>&1; [ $? -eq 2 ] && ok || bad "unknown rounding option accepted"
  "$bin" f16_add /nonexistent.tv > /dev/null 2>&1; [ $? -eq 2 ] && ok || bad "missing file accepted"
else
  for f in tests/vectors/*.tv; do
    b=$(basename "$f" .tv); func=${b%%.*}; rm=""
    [ "$b" != "$func" ] && rm="-${b#*.}"
    out=$("$bin" "$func" $rm "$f"); rc=$?
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

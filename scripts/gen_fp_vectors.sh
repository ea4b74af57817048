#!/usr/bin/env bash
# Rewrites tests/vectors/*.tv from the C reference (fp_gen_vectors); see tests/vectors/README.md.
# --check: fails if a shipped file differs from what the reference writes now.
set -eu
cd "$(dirname "$0")/.."
G=${BUILD:-build}/sw/common/fp_gen_vectors
out=tests/vectors; check=0
[ "${1:-}" = "--check" ] && { check=1; out=$(mktemp -d); trap 'rm -rf "$out"' EXIT; }
# gen <function> [<option>[.<option>...]] [<n>]: file <function>[.<option>...].tv, written with
# each option as -<option> (rounding mode, exact).
gen() {
  local o=""; [ -n "${2:-}" ] && o=$(printf -- '-%s ' ${2//./ })
  $G "$1" $o -seed 7 -n "${3:-300}" > "$out/$1${2:+.$2}.tv"
}
gen f16_add rnear_even; gen f16_sub rmin; gen bf16_mul rmax; gen f32_mul rnear_maxMag
gen f16_mulAdd rminMag 100; gen bf16_div rnear_even; gen f32_div rmin; gen f16_sqrt rmax
gen f32_sqrt rnear_even; gen bf16_sqrt rminMag; gen f16_eq; gen f32_lt; gen bf16_le; gen f32_min
gen f16_max; gen f16_to_i32 rnear_maxMag.exact; gen f32_to_ui32 rminMag; gen i32_to_f16 rnear_even
gen ui32_to_bf16 rmax; gen i32_to_f32 rmin; gen f32_to_f16 rnear_even; gen f16_to_f32
gen f32_to_bf16 rmin; gen bf16_to_f16 rnear_maxMag; gen f16_to_bf16 rmax
gen f16_roundToInt rnear_even.exact; gen bf16_roundToInt rnear_maxMag.exact; gen f32_roundToInt rmin
gen f32_roundToInt rmax.exact; gen f16_eq_signaling; gen f32_lt_quiet; gen bf16_le_quiet
if [ $check = 1 ]; then
  for f in "$out"/*.tv; do cmp -s "$f" tests/vectors/$(basename "$f") || { echo "stale: tests/vectors/$(basename "$f") (run scripts/gen_fp_vectors.sh)"; exit 1; }; done
  echo "1 passed, 0 failed"
fi

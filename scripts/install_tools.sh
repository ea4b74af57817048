#!/usr/bin/env bash
# Installs the tools the project needs when they are missing; silent when all are present.
# apt: verilator, iverilog, yosys (and zlib1g-dev for FST).  pip: fusesoc, and the register-map
# and cocotb packages (below).  Safe to run any number of times.
set -eu
need_apt=()
command -v verilator >/dev/null 2>&1 || need_apt+=(verilator)
command -v iverilog  >/dev/null 2>&1 || need_apt+=(iverilog)
command -v yosys     >/dev/null 2>&1 || need_apt+=(yosys)
# FST waveforms (harnesses are built with --trace-fst) need zlib's headers.
[ -f /usr/include/zlib.h ] || need_apt+=(zlib1g-dev)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "install: apt-get ${need_apt[*]}" >&2
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  if ! $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null 2>&1; then
    $SUDO apt-get update -qq >/dev/null
    $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
  fi
fi
if ! command -v fusesoc >/dev/null 2>&1; then
  echo "install: pip fusesoc" >&2
  python3 -m pip install -q --root-user-action=ignore fusesoc >/dev/null 2>&1 || python3 -m pip install -q fusesoc >/dev/null
fi
# Python packages of the AXI shell's flow: register maps (scripts/gen_regs.py: systemrdl-compiler,
# peakrdl-cheader, peakrdl-markdown) and the independent protocol check (tests/cocotb: cocotb,
# cocotbext-axi). One import check; pip only when something is missing.
if ! python3 -c "import systemrdl, peakrdl_cheader, peakrdl_markdown, cocotb, cocotbext.axi" \
     >/dev/null 2>&1; then
  echo "install: pip systemrdl-compiler peakrdl-cheader peakrdl-markdown cocotb cocotbext-axi" >&2
  pkgs="systemrdl-compiler peakrdl-cheader peakrdl-markdown cocotb cocotbext-axi"
  python3 -m pip install -q --root-user-action=ignore $pkgs >/dev/null 2>&1 ||
    python3 -m pip install -q $pkgs >/dev/null
fi
exit 0

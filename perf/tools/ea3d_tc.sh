#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# T_c of the 3D +-J Edwards-Anderson spin glass from the crossings of xi_L / L (Katzgraber,
# Koerner and Young, PRB 73, 224432, 2006: T_c = 1.12(2)), reproduced with hamon ensembles:
# for each size L an ensemble of K instances with two replicas on one fixed linear ladder,
# then perf/tools/fss_crossing.py for the crossings with bootstrap errors and the figure.
#
#   perf/tools/ea3d_tc.sh [OUT]        (default runs/ea3d_tc; HAMON=path/to/hamon)
#   LAUNCH="mpirun -n 2" perf/tools/ea3d_tc.sh     (the instances shared out to two ranks)
#
# Sizes, instances and rounds: SIZES="L:K:burn_in:rounds ..." (default below). The record
# goes to OUT/crossings.md and OUT/xi_over_l.png, with the wall time of each ensemble
# (PYTHON: a python3 with numpy, PyYAML and matplotlib).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
out=${1:-runs/ea3d_tc}
hamon=${HAMON:-build/bin/hamon}
sizes=${SIZES:-"4:400:2000:4000 6:300:5000:10000 8:200:10000:20000"}
mkdir -p "$out"
dirs=()
walls=()
for spec in $sizes; do
  IFS=: read -r L K burn rounds <<<"$spec"
  config="$out/ea3d_L$L.yaml"
  # One ladder for every size: T from 0.91 to 3.3, linear in beta, dense around T_c.
  cat >"$config" <<EOF
seed: 2006
replicas: 2
instances: $K
model:
  kind: lattice
  shape: [$L, $L, $L]
  periodic: true
  coupling: {distribution: pm_one, value: 1.0, seed: 224432}
nrpt:
  chains: 16
  beta_min: 0.3
  beta_max: 1.1
  spacing: linear
  rounds: $rounds
  burn_in: $burn
  explore_sweeps: 2
output:
  dir: $out/L$L
  energies: false
  index_process: false
EOF
  rm -rf "$out/L$L"  # this script's own output (an ensemble refuses --overwrite)
  start=$(date +%s)
  # shellcheck disable=SC2086 # LAUNCH is a command line
  ${LAUNCH:-} "$hamon" run "$config" --quiet
  walls+=("L = $L: $(($(date +%s) - start)) s wall")
  dirs+=("$out/L$L")
done
"${PYTHON:-python3}" perf/tools/fss_crossing.py "${dirs[@]}" --md "$out/crossings.md" \
  --figure "$out/xi_over_l.png" --command "SIZES=\"$sizes\" $0 $out"
{
  echo
  echo "Wall time of each ensemble (\`${LAUNCH:-} hamon run\`, $(getconf _NPROCESSORS_ONLN) cores, OMP_NUM_THREADS=${OMP_NUM_THREADS:-unset}):"
  echo
  for w in "${walls[@]}"; do echo "- $w"; done
} | tee -a "$out/crossings.md"

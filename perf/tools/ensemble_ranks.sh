#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# An ensemble's wall time over 1, 2 and 4 MPI ranks (rank groups of one rank each: instances
# are whole and independent), and a check that every rank count writes the same bytes.
#
#   perf/tools/ensemble_ranks.sh [OUT]     (default runs/ensemble_ranks; HAMON=build/bin/hamon)
#
# RANKS (default "1 2 4"), K instances (default 8) of an L^3 +-J glass (L default 6) with two
# replicas, ROUNDS rounds each (default 4000). Each rank runs one thread (OMP_NUM_THREADS=1),
# so on a machine with fewer cores than ranks the ranks share cores and the record says so.
# Needs a build with -DHAMON_ENABLE_MPI=ON and Open MPI's mpirun.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
out=${1:-runs/ensemble_ranks}
hamon=${HAMON:-build/bin/hamon}
ranks_list=${RANKS:-"1 2 4"}
K=${K:-8}
L=${L:-6}
rounds=${ROUNDS:-4000}
mkdir -p "$out"
config="$out/ensemble.yaml"
cat >"$config" <<EOF
seed: 7
replicas: 2
instances: $K
model:
  kind: lattice
  shape: [$L, $L, $L]
  coupling: {distribution: pm_one, seed: 3}
nrpt:
  chains: 16
  beta_min: 0.3
  beta_max: 1.1
  spacing: linear
  rounds: $rounds
  burn_in: $((rounds / 4))
  explore_sweeps: 2
output:
  dir: $out/np1
EOF
export OMP_NUM_THREADS=1 OMP_PROC_BIND=false OMPI_MCA_mpi_yield_when_idle=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_hwloc_base_binding_policy=none
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
cpu=$(grep -m1 "model name" /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')
record="$out/ranks.md"
{
  echo "# Ensemble over MPI ranks, $(date -u +%F)"
  echo
  echo "Machine: $cpu, $(getconf _NPROCESSORS_ONLN) cores. K = $K instances of a ${L}^3 ±J glass, 2 replicas,"
  echo "16 chains, $rounds rounds (+ $((rounds / 4)) burn-in), 2 sweeps per round; one thread per rank."
  echo
  echo "| ranks | wall s | speed-up | same bytes as 1 rank |"
  echo "|---|---|---|---|"
} >"$record"
base=""
for p in $ranks_list; do
  rm -rf "$out/np$p"
  start=$(date +%s%N)
  mpirun -n "$p" "$hamon" run "$config" --out "$out/np$p" --quiet
  ns=$(($(date +%s%N) - start))
  wall=$(awk "BEGIN {printf \"%.2f\", $ns / 1e9}")
  [ -n "$base" ] || base=$wall
  same=yes
  if [ "$p" != 1 ]; then
    # Results only: the YAML files name their directory and the instances' timings.
    for f in "$out/np1"/*.npy "$out/np1"/instances/*/*.npy "$out/np1"/instances/*/checkpoint.bin; do
      cmp -s "$f" "$out/np$p/${f#"$out/np1/"}" || same="no: ${f#"$out/np1/"}"
    done
  fi
  echo "| $p | $wall | $(awk "BEGIN {printf \"%.2f\", $base / $wall}") | $same |" >>"$record"
done
cat "$record"

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`nrpt: {goal: ground_state}` under `mpirun -np 2` (a build with MPI), on an 8 x 25
Gaussian glass strip whose exact ground state the min-sum transfer of search_goal_strip.py
gives:
  - the run reaches the exact ground-state energy;
  - the goal chooses no Houdayer moves and one replica, saying why (a rung's two replicas
    must share a process, and the ladder is spread over the ranks);
  - the resolved config.yaml run by one process gives the same bits (energies.npy,
    best_state.npy, index_process.npy) and the same search section."""

import os

import yaml

import clitest
import mpi_run
import search_goal_strip as strips


def summary_of(run_dir):
    with open(os.path.join(run_dir, "summary.yaml")) as f:
        return yaml.safe_load(f)


def main():
    args = clitest.arguments(__doc__, lambda p: p.add_argument("--mpiexec", required=True))
    failures = clitest.Failures()
    edges, fields = strips.strip(strips.WIDTH, strips.LENGTH, 1)
    ground = strips.transfer_ground(strips.WIDTH, strips.LENGTH, edges, fields)
    config = os.path.join(args.work, "strip.yaml")
    with open(config, "w") as f:
        f.write(f"seed: 1\nmodel: {strips.graph_model(strips.WIDTH * strips.LENGTH, edges, fields)}"
                "\nnrpt: {goal: ground_state}\noutput: {samples: false}\n")
    got = mpi_run.mpirun(args, 2, ["run", config, "--out", "ranks2", "--quiet"], args.work)
    if not failures.check(got.returncode == 0, f"2 ranks: exit {got.returncode}: "
                                                f"{got.stderr[-2000:]}"):
        failures.finish("goal under mpirun")
    ranks2 = os.path.join(args.work, "ranks2")
    summary = summary_of(ranks2)
    best = summary["search"]["best_energy"]
    failures.check(abs(best - ground) <= 1e-9 * abs(ground),
                   f"2 ranks: best {best}, exact ground state {ground}")
    chosen = {c["key"]: c for c in summary["config"]["nrpt"].get("chosen", [])}
    moves = chosen.get("nrpt.cluster_moves", {})
    failures.check(moves.get("value") == "none" and "MPI ranks" in moves.get("reason", "") and
                   "replicas" not in summary["config"],
                   f"2 ranks: cluster moves chosen {moves}, replicas "
                   f"{summary['config'].get('replicas')}")

    one = clitest.run(args.hamon, ["run", os.path.join(ranks2, "config.yaml"), "--out",
                                   os.path.join(args.work, "one"), "--quiet"], timeout=300)
    if failures.check(one.returncode == 0, f"one process: {one.stderr.strip()}"):
        for name in ("energies.npy", "best_state.npy", "index_process.npy"):
            with open(os.path.join(ranks2, name), "rb") as a, \
                    open(os.path.join(args.work, "one", name), "rb") as b:
                failures.check(a.read() == b.read(), f"one process against 2 ranks: {name} differs")
        mine = summary_of(os.path.join(args.work, "one"))["search"]
        failures.check(all(mine[k] == summary["search"][k]
                           for k in ("best_energy", "found_round", "ended_by")),
                       f"one process's search {mine} against 2 ranks' {summary['search']}")
    failures.finish("goal under mpirun")


if __name__ == "__main__":
    main()

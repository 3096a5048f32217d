#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`mpirun -np N hamon run|resume` end to end (a build with HAMON_ENABLE_MPI):
  - 1, 2, 3 and 4 ranks (40 chains: blocks of 16, 16, 8; 4 ranks leave one rank empty)
    give every output file bit-identical to one process's (summary.yaml without its timing
    and device fields), and only rank 0 writes or prints;
  - a run stopped by SIGUSR1 under 3 ranks (exit 3), resumed under 2 ranks and stopped
    again, then resumed without MPI: the same bits (one checkpoint, any rank count);
  - a bad experiment or setting (HAMON_*): the error is printed once, every rank exits 2,
    nothing is created;
  - a rank killed with SIGKILL ends the whole job non-zero within seconds, leaves no
    complete-looking run directory, and the last checkpoint resumes to the same bits;
  - a failure on rank 0 alone mid-run (its checkpoint cannot be written) is reported by
    that rank and ends every rank within seconds (MPI_Abort), resumably;
  - `tune: auto` under 2 ranks (every tuning run spread over the ranks, the exploration
    cost rank 0's); a second run (the plan from the tuning cache) gives the bits of one
    process with the same cache; with the sweeps fixed (a plan that does not depend on
    wall time), tuning over 2 ranks gives the bits of tuning in one process;
  - `hamon devices` under 2 ranks: one report, with each rank's space; a one-process
    command (`validate`) under 3 ranks runs on rank 0 only and prints once."""

import os
import signal
import subprocess
import time

import checkpoint_resume as cr
import clitest

CHAINS = 40


def experiment(path):
    with open(path, "w") as f:
        f.write(f"""seed: 20261202
model:
  kind: lattice
  shape: [10, 10]
  periodic: true
  coupling: {{distribution: gaussian, seed: 3}}
  field: {{distribution: gaussian, seed: 4, std: 0.3}}
nrpt:
  chains: {CHAINS}
  beta_max: 1.5
  rounds: 1500
  burn_in: 300
  explore_sweeps: 2
  adapt_schedule: true
output:
  dir: run
  samples: {{every: 7, nodes: all}}
  moments: true
  checkpoint: {{every: 25}}
""")


def mpi_command(args, ranks, hamon_args):
    return [args.mpiexec, "-np", str(ranks), "--oversubscribe", args.hamon] + hamon_args


def mpi_env():
    env = clitest.clean_env(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                            OMPI_MCA_btl_vader_single_copy_mechanism="none",
                            OMPI_MCA_rmaps_base_oversubscribe="1")
    return env


def mpirun(args, ranks, hamon_args, cwd, timeout=300, **settings):
    env = mpi_env()
    env.update(settings)
    return subprocess.run(mpi_command(args, ranks, hamon_args), cwd=cwd, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, errors="replace",
                          timeout=timeout)


def start_mpirun(args, ranks, hamon_args, cwd):
    return subprocess.Popen(mpi_command(args, ranks, hamon_args), cwd=cwd, env=mpi_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, errors="replace")


def hamon_ranks(cwd):
    """The pids of the hamon processes running in `cwd` (the ranks)."""
    pids = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            if os.readlink(f"/proc/{pid}/cwd") != os.path.realpath(cwd):
                continue
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        if argv and os.path.basename(argv[0]) == b"hamon":
            pids.append(int(pid))
    return pids


def expect_job_ended(failures, args, p, d, want, what, before_resume=None):
    """After `what` happened to one rank of job `p` (running in `d`): the job ends non-zero
    within 30 s, no rank is left, no complete-looking run directory; once before_resume
    ran, `hamon resume` without MPI finishes with the bits of `want`. Returns stderr."""
    since = time.monotonic()
    try:
        _, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        _, err = p.communicate()
    failures.check(p.returncode != 0, f"the job survived {what}")
    failures.check(time.monotonic() - since < 30,
                   f"the job took more than 30 s to end after {what}")
    time.sleep(1)
    failures.check(not hamon_ranks(d), f"ranks still run after {what}")
    failures.check(not os.path.exists(os.path.join(d, "run")),
                   f"a complete-looking run directory after {what}")
    if before_resume:
        before_resume()
    resumed = clitest.run(args.hamon, ["resume", "run", "--quiet"], cwd=d, timeout=300)
    failures.check(resumed.returncode == 0, f"resume after {what}: {resumed.stderr}")
    cr.compare(failures, f"resumed after {what}", os.path.join(d, "run"), want,
               any_device=True)
    return err


def block_checkpoint_writes(blocker, timeout=60):
    """A directory where the next checkpoint file goes. The run may be writing that file
    right now (it is renamed into place when complete): then wait for the rename."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            os.makedirs(blocker)
            return
        except FileExistsError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.001)


def main():
    args = clitest.arguments(__doc__, lambda p: p.add_argument("--mpiexec", required=True))
    failures = clitest.Failures()
    config = os.path.join(args.work, "glass.yaml")
    experiment(config)

    ref_dir = cr.fresh(args.work, "reference")
    ref = clitest.run(args.hamon, ["run", config, "--quiet", "--device", "serial"], cwd=ref_dir,
                      timeout=300)
    if not failures.check(ref.returncode == 0, f"reference run: {ref.stderr}"):
        failures.finish("mpi run")
    want = cr.outputs(os.path.join(ref_dir, "run"), any_device=True)

    # Every rank count: the bits of one process; rank 0 alone speaks.
    for ranks in (1, 2, 3, 4):
        d = cr.fresh(args.work, f"ranks{ranks}")
        got = mpirun(args, ranks, ["run", config], cwd=d)
        if failures.check(got.returncode == 0, f"{ranks} ranks: exit {got.returncode}: "
                          f"{got.stderr[-2000:]}"):
            cr.compare(failures, f"{ranks} ranks", os.path.join(d, "run"), want, any_device=True)
            reports = got.stdout.count("hamon: results in ")
            failures.check(reports == 1, f"{ranks} ranks: {reports} reports on stdout, not 1")

    # Stopped under 3 ranks, resumed under 2 and stopped again, finished by one process.
    d = cr.fresh(args.work, "three_two_one")
    p = start_mpirun(args, 3, ["run", config, "--quiet"], d)
    cr.wait_for_checkpoint(d, "checkpoint.bin.prev", timeout=120)
    p.send_signal(signal.SIGUSR1)
    out, err = p.communicate(timeout=120)
    failures.check(p.returncode == 3, f"3 ranks + SIGUSR1: exit {p.returncode}: {err[-2000:]}")
    failures.check(err.count("hamon resume") == 1,
                   f"3 ranks + SIGUSR1: the resume hint is not printed once:\n{err[-2000:]}")
    os.remove(os.path.join(d, "run.partial", "checkpoint.bin.prev"))
    p = start_mpirun(args, 2, ["resume", "run", "--quiet"], d)
    cr.wait_for_checkpoint(d, "checkpoint.bin.prev", timeout=120)
    p.send_signal(signal.SIGUSR1)
    out, err = p.communicate(timeout=120)
    failures.check(p.returncode in (0, 3), f"2 ranks resume + SIGUSR1: exit {p.returncode}: "
                   f"{err[-2000:]}")
    if p.returncode == 3:
        last = clitest.run(args.hamon, ["resume", "run", "--quiet"], cwd=d, timeout=300)
        failures.check(last.returncode == 0, f"resume without MPI: {last.stderr}")
    cr.compare(failures, "3 ranks -> 2 ranks -> 1 process", os.path.join(d, "run"), want,
               any_device=True)

    # A bad experiment: one message, exit 2 on every rank, nothing created.
    d = cr.fresh(args.work, "bad")
    bad = os.path.join(d, "bad.yaml")
    with open(config) as f:
        text = f.read()
    with open(bad, "w") as f:
        f.write(text.replace("chains: 40", "chains: many"))
    got = mpirun(args, 3, ["run", bad], cwd=d)
    failures.check(got.returncode == 2, f"bad experiment under 3 ranks: exit {got.returncode}")
    failures.check(got.stderr.count("bad.yaml:") == 1,
                   f"bad experiment: the error is not printed once:\n{got.stderr}")
    failures.check(sorted(os.listdir(d)) == ["bad.yaml"],
                   f"bad experiment: created {sorted(os.listdir(d))}")
    # A bad setting: every rank reads it, one prints, every rank exits 2.
    got = mpirun(args, 3, ["run", config], cwd=d, HAMON_HOST_THRESHOLD="abc")
    failures.check(got.returncode == 2 and got.stderr.count("HAMON_HOST_THRESHOLD='abc'") == 1
                   and "hamon: error: HAMON_HOST_THRESHOLD" in got.stderr,
                   f"a bad setting under 3 ranks: exit {got.returncode}:\n{got.stderr}")
    failures.check(sorted(os.listdir(d)) == ["bad.yaml"],
                   f"a bad setting: created {sorted(os.listdir(d))}")

    # A rank killed: the job ends non-zero within seconds; the checkpoint resumes.
    d = cr.fresh(args.work, "killed")
    p = start_mpirun(args, 3, ["run", config, "--quiet"], d)
    cr.wait_for_checkpoint(d, "checkpoint.bin.prev", timeout=120)
    victims = hamon_ranks(d)
    failures.check(len(victims) == 3, f"found {len(victims)} ranks, not 3")
    if victims:
        os.kill(max(victims), signal.SIGKILL)
        expect_job_ended(failures, args, p, d, want, "a killed rank")

    # A failure on one rank mid-run: rank 0 cannot write its next checkpoint (a directory
    # where the new checkpoint file goes); the others are waiting in the round's message.
    d = cr.fresh(args.work, "failed")
    p = start_mpirun(args, 3, ["run", config, "--quiet"], d)
    cr.wait_for_checkpoint(d, "checkpoint.bin", timeout=120)
    blocker = os.path.join(d, "run.partial", "checkpoint.bin.new")
    block_checkpoint_writes(blocker)
    err = expect_job_ended(failures, args, p, d, want, "a failed rank",
                           before_resume=lambda: os.rmdir(blocker))
    failures.check("rank 0 of 3" in err and "checkpoint.bin.new" in err,
                   f"the failing rank does not report where and why:\n{err[-2000:]}")

    # Tuning over the ranks (the measured exploration cost is rank 0's); with the plan
    # from the cache, 2 ranks == one process.
    d = cr.fresh(args.work, "tuned")
    tuned = os.path.join(d, "tuned.yaml")
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples",
                           "autotune_ising2d.yaml")) as f:
        text = f.read()
    with open(tuned, "w") as f:
        f.write(text.replace("rounds: 20000", "rounds: 2000").replace(
            "dir: runs/autotune_ising2d", "dir: run"))
    # (the first run tunes into the test's tuning cache, HAMON_CACHE_DIR)
    first = mpirun(args, 2, ["run", tuned, "--quiet"], cwd=d)
    failures.check(first.returncode == 0, f"tuned run under 2 ranks: {first.stderr[-2000:]}")
    # The same relative output directory in two places (config.yaml records it).
    cr.fresh(d, "ranks2")
    cr.fresh(d, "one")
    got = mpirun(args, 2, ["run", tuned, "--quiet"], cwd=os.path.join(d, "ranks2"))
    failures.check(got.returncode == 0, f"tuned run from the cache, 2 ranks: {got.stderr}")
    got = clitest.run(args.hamon, ["run", tuned, "--quiet"], cwd=os.path.join(d, "one"))
    failures.check(got.returncode == 0, f"tuned run from the cache, one process: {got.stderr}")
    if os.path.isdir(os.path.join(d, "one", "run")):
        # checkpoint.bin carries the plan's record, with the wall time of the cache lookup:
        # compared without it (the state in it is what the other files are made of).
        want_tuned = cr.outputs(os.path.join(d, "one", "run"), any_device=True)
        got_dir = os.path.join(d, "ranks2", "run")
        for run_dir in (os.path.join(d, "one", "run"), got_dir):
            os.remove(os.path.join(run_dir, "checkpoint.bin"))
        del want_tuned["checkpoint.bin"]
        cr.compare(failures, "tuned from the cache, 2 ranks", got_dir, want_tuned,
                   any_device=True)

    # A plan that does not depend on wall time (chains and ladder tuned, sweeps fixed):
    # tuned over 2 ranks == tuned by one process, each with its own tuning cache.
    fixed = os.path.join(d, "fixed_sweeps.yaml")
    with open(fixed, "w") as f:
        f.write(text.replace("rounds: 20000", "rounds: 2000").replace(
            "dir: runs/autotune_ising2d", "dir: run").replace(
            "tune: auto ", "chains: auto\n  betas: auto\n  explore_sweeps: 2\n  #"))
    for name, ranks in (("fixed_one", 0), ("fixed_ranks2", 2)):
        w = cr.fresh(d, name)
        env = mpi_env()
        env["HAMON_CACHE_DIR"] = os.path.join(w, "cache")
        command = ([args.hamon] if ranks == 0 else mpi_command(args, ranks, [])) + [
            "run", fixed, "--quiet"]
        got = subprocess.run(command, cwd=w, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, errors="replace", timeout=300)
        failures.check(got.returncode == 0, f"tuned ({name}): {got.stderr[-2000:]}")
    if os.path.isdir(os.path.join(d, "fixed_one", "run")):
        for name in ("fixed_one", "fixed_ranks2"):
            run_dir = os.path.join(d, name, "run")
            os.remove(os.path.join(run_dir, "checkpoint.bin"))  # the plan's wall times
            summary = os.path.join(run_dir, "summary.yaml")  # each its own cache entry
            with open(summary) as f:
                lines = [ln for ln in f if not ln.lstrip().startswith("cache_entry:")]
            with open(summary, "w") as f:
                f.writelines(lines)
        cr.compare(failures, "tuned over 2 ranks (sweeps fixed)",
                   os.path.join(d, "fixed_ranks2", "run"),
                   cr.outputs(os.path.join(d, "fixed_one", "run"), any_device=True),
                   any_device=True)

    got = mpirun(args, 2, ["devices"], cwd=args.work)
    failures.check(got.returncode == 0 and got.stdout.count("hamon:") == 1 and
                   got.stdout.count("default_space") == 2,
                   f"devices under 2 ranks: one report with both ranks expected:\n{got.stdout}")
    got = mpirun(args, 3, ["validate", config], cwd=args.work)
    failures.check(got.returncode == 0 and got.stdout.count(": ok") == 1,
                   f"validate under 3 ranks: one report expected:\n{got.stdout}")
    failures.finish("mpi run")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`hamon resolve` prints the routing decision as YAML (placement, reason, score, threshold)
for a few cases; expectations follow this build's backends and accelerator (read from
`hamon devices`), so the test holds on CPU-only and Cuda builds alike."""

import yaml

import clitest


def main():
    args = clitest.arguments(__doc__)
    failures = clitest.Failures()
    dev = clitest.devices(args.hamon)
    backends = set(dev["backends"])
    both_hosts = {"SERIAL", "OPENMP"} <= backends
    gpu = bool(dev["accelerator"]["visible"])
    failures.check(dev["thresholds"]["device"]["source"] == "default",
                   f"device threshold not the default in a clean environment: {dev['thresholds']}")

    def resolve(options, env=None):
        result = clitest.run(args.hamon, ["resolve"] + options, env=env)
        decision = yaml.safe_load(result.stdout) if result.returncode == 0 else None
        return result, decision

    def expect(options, env=None, **fields):
        result, d = resolve(options, env)
        label = " ".join(options)
        if not failures.check(result.returncode == 0, f"{label}: exit {result.returncode} "
                                                      f"{result.stderr.strip()}"):
            return None
        for key in ("spec", "placement", "reason", "score", "threshold"):
            failures.check(key in d, f"{label}: no {key} in {d}")
        for key, value in fields.items():
            failures.check(d.get(key) == value, f"{label}: {key} = {d.get(key)!r}, expected {value!r}")
        return d

    def refuse(options, fragment, env=None):
        result, _ = resolve(options, env)
        label = " ".join(options)
        failures.check(result.returncode == 2, f"{label}: exit {result.returncode}, expected 2")
        failures.check(fragment in result.stderr, f"{label}: {fragment!r} not in {result.stderr!r}")
        failures.check(len(result.stderr.splitlines()) == 1, f"{label}: {result.stderr!r}")

    # score = chains x nodes
    expect(["--device", "none", "--chains", "4", "--nodes", "100"], spec="none",
           placement="leave_alone", reason="opted out (none)", score=400, threshold=None)
    if gpu:
        small = expect(["--chains", "4", "--nodes", "100"], reason="score below threshold",
                       threshold=4096.0)
        if small and both_hosts:
            failures.check(small["placement"] == "serial", f"small auto call: {small}")
        expect(["--chains", "64", "--nodes", "4096"], placement="cuda",
               reason="score >= threshold", threshold=4096.0)
        expect(["--chains", "4", "--nodes", "100", "--threshold", "100"], placement="cuda",
               threshold=100.0)
    else:
        # No accelerator: the host tier decides by the score; no device threshold is read.
        big = expect(["--chains", "64", "--nodes", "4096"], spec="auto",
                     reason="no accelerator visible", score=262144, threshold=None,
                     **({"placement": "openmp"} if both_hosts else {}))
        if big and both_hosts:
            failures.check(big.get("host_tier", {}).get("rule") == "score >= host threshold",
                           f"host tier of a large auto call: {big.get('host_tier')}")
        if both_hosts:
            expect(["--chains", "4", "--nodes", "100"], placement="serial",
                   reason="no accelerator visible", threshold=None)
        refuse(["--device", "gpu", "--chains", "4", "--nodes", "100"], "gpu")
    if both_hosts:
        small = expect(["--device", "cpu", "--chains", "4", "--nodes", "100"], placement="serial",
                       reason="explicit request")
        if small:
            failures.check(small.get("host_tier", {}).get("rule") == "score below host threshold",
                           f"host tier of a small cpu call: {small.get('host_tier')}")
        expect(["--device", "cpu", "--chains", "64", "--nodes", "4096"], placement="openmp")
        expect(["--chains", "4", "--nodes", "100"],
               env=clitest.clean_env(HAMON_DEVICE="serial"), placement="serial",
               reason="forced by env (HAMON_DEVICE)")
    if "SERIAL" in backends:
        expect(["--device", "SERIAL", "--chains", "1", "--nodes", "0"], spec="serial",
               placement="serial", score=0)
    refuse(["--device", "tpu", "--chains", "4", "--nodes", "100"], "TPU")
    refuse(["--chains", "0", "--nodes", "100"], "--chains")
    refuse(["--chains", "abc", "--nodes", "100"], "--chains")
    refuse(["--chains", "4", "--nodes", "-1"], "--nodes")
    refuse(["--chains", "4", "--nodes", "100", "--threshold", "-1"], "--threshold")
    refuse(["--chains", "4611686018427387904", "--nodes", "4"], "--chains x --nodes")
    refuse(["--chains", "4", "--nodes", "100"], "HAMON_DEVICE",
           env=clitest.clean_env(HAMON_DEVICE="quantum"))
    failures.finish("resolve")


if __name__ == "__main__":
    main()

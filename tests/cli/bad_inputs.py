#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Bad input, one class per case: `hamon run` and `hamon validate` must both exit 2 with one
line on stderr that names file:line:column and the key (or the command-line option), say
what is wrong, and create no run directory (nor a staging one).

  bad_inputs.py --list                 the case names (CMake makes one test per case)
  bad_inputs.py --case NAME ...        one case
"""

import os
import re
import sys

import clitest

# A valid experiment; cases replace parts of it.
LATTICE = "model: {kind: lattice, shape: [4, 4]}\n"
NRPT = "nrpt:\n  chains: 4\n  beta_max: 1.0\n  rounds: 10\n"
TUNED = "nrpt:\n  beta_max: 1.0\n  rounds: 10\n"  # the chain count follows in each case


def case(name, text, key, fragment, args=(), files=None, located=True, prefix=None, skip=None,
         out_flag=True, at=None, env=None):
    """`text` may say {out} for the output directory; out_flag=False leaves --out off; `at`
    ("line:column") is the exact location the error must name; `env`: variables to set."""
    return dict(name=name, text=text, key=key, fragment=fragment, args=list(args),
                files=files or {}, located=located, prefix=prefix, skip=skip, out_flag=out_flag,
                at=at, env=env or {})


def gpu_visible(hamon):
    return bool(clitest.devices(hamon)["accelerator"]["visible"])


CASES = [
    case("unknown_key", LATTICE + "nrpt:\n  chans: 4\n  beta_max: 1\n  rounds: 10\n",
         "nrpt.chans", "did you mean 'chains'?"),
    case("misplaced_key", "rounds: 5\n" + LATTICE + NRPT, "rounds", "belongs in nrpt"),
    case("duplicate_key", LATTICE + "nrpt:\n  chains: 4\n  chains: 5\n  beta_max: 1\n  rounds: 10\n",
         "nrpt.chains", "given twice"),
    case("wrong_type_integer", LATTICE + "nrpt:\n  chains: \"four\"\n  beta_max: 1\n  rounds: 10\n",
         "nrpt.chains", "expected an integer"),
    case("wrong_type_fraction", LATTICE + "nrpt:\n  chains: 2.5\n  beta_max: 1\n  rounds: 10\n",
         "nrpt.chains", "expected an integer"),
    case("wrong_type_bool", "model: {kind: lattice, shape: [4, 4], periodic: 3}\n" + NRPT,
         "model.periodic", "expected true or false"),
    case("wrong_type_list", "model: {kind: lattice, shape: 16}\n" + NRPT,
         "model.shape", "expected a list"),
    case("wrong_type_section", "model: lattice\n" + NRPT, "model", "expected a mapping"),
    case("missing_value", "model:\n  kind: lattice\n  shape:\n" + NRPT, "model.shape",
         "expected a list, got nothing"),
    case("missing_section", NRPT, "", "missing required key 'model'"),
    case("missing_rounds", LATTICE + "nrpt:\n  chains: 4\n  beta_max: 1\n", "nrpt",
         "missing required key 'rounds'"),
    case("negative_chains", LATTICE + "nrpt:\n  chains: -3\n  beta_max: 1\n  rounds: 10\n",
         "nrpt.chains", "out of range"),
    case("negative_burn_in", LATTICE + NRPT + "  burn_in: -1\n", "nrpt.burn_in", "out of range"),
    case("zero_rounds", LATTICE + "nrpt:\n  chains: 4\n  beta_max: 1\n  rounds: 0\n",
         "nrpt.rounds", "out of range"),
    case("absurd_lattice", "model: {kind: lattice, shape: [100000, 100000]}\n" + NRPT,
         "model.shape", "more than the limit"),
    case("absurd_graph", "model: {kind: graph, nodes: 4294967296}\n" + NRPT,
         "model.nodes", "out of range"),
    case("absurd_chains", LATTICE + "nrpt:\n  chains: 5000\n  beta_max: 1\n  rounds: 10\n",
         "nrpt.chains", "[1, 4096]"),
    case("absurd_rounds",
         LATTICE + "nrpt:\n  chains: 4\n  beta_max: 1\n  rounds: 4294967295\n  burn_in: 10\n",
         "nrpt.rounds", "exceeds 2^32 - 1"),
    case("absurd_rbm", "model: {kind: rbm, visible: 100000, hidden: 100000, random: {seed: 1}}\n"
         + NRPT, "model.hidden", "exceed the limit"),
    case("non_ascending_ladder", LATTICE + "nrpt:\n  betas: [0.0, 0.5, 0.3]\n  rounds: 10\n",
         "nrpt.betas[2]", "strictly ascending"),
    case("repeated_beta", LATTICE + "nrpt:\n  betas: [0.0, 0.5, 0.5]\n  rounds: 10\n",
         "nrpt.betas[2]", "strictly ascending"),
    case("negative_beta", LATTICE + "nrpt:\n  betas: [-0.1, 1.0]\n  rounds: 10\n",
         "nrpt.betas[0]", "negative"),
    case("nan_beta", LATTICE + "nrpt:\n  chains: 4\n  beta_max: nan\n  rounds: 10\n",
         "nrpt.beta_max", "finite"),
    case("betas_with_beta_max", LATTICE + "nrpt:\n  betas: [0.0, 1.0]\n  beta_max: 1\n  rounds: 10\n",
         "nrpt.beta_max", "not both"),
    case("chains_betas_disagree", LATTICE + "nrpt:\n  chains: 3\n  betas: [0.0, 1.0]\n  rounds: 10\n",
         "nrpt.chains", "betas has 2"),
    case("beta_max_not_above_min",
         LATTICE + "nrpt:\n  chains: 4\n  beta_min: 1.0\n  beta_max: 0.5\n  rounds: 10\n",
         "nrpt.beta_max", "must be above beta_min"),
    case("beta_max_equals_min",
         LATTICE + "nrpt:\n  chains: 4\n  beta_min: 0.5\n  beta_max: 0.5\n  rounds: 10\n",
         "nrpt.beta_max", "must be above beta_min"),
    case("geometric_from_zero", LATTICE + NRPT + "  spacing: geometric\n", "nrpt.spacing",
         "geometric spacing needs beta_min > 0"),
    case("unknown_spacing", LATTICE + NRPT + "  spacing: linaer\n", "nrpt.spacing",
         "did you mean 'linear'?"),
    # Automatic tuning (nrpt.tune, `auto` values, the tuning options).
    case("tune_true", LATTICE + TUNED + "  tune: true\n", "nrpt.tune", "write tune: auto"),
    case("tune_word", LATTICE + TUNED + "  tune: always\n", "nrpt.tune",
         "expected auto (tune chains, betas and explore_sweeps) or false"),
    case("tune_with_chains", LATTICE + TUNED + "  tune: auto\n  chains: 4\n", "nrpt.chains",
         "tune: auto tunes the chain count"),
    case("tune_with_ladder", LATTICE + "nrpt:\n  tune: auto\n  betas: [0.0, 0.5, 1.0]\n"
         "  rounds: 10\n", "nrpt.betas", "tune: auto tunes the ladder"),
    case("tune_with_explore_sweeps", LATTICE + TUNED + "  tune: auto\n  explore_sweeps: 2\n",
         "nrpt.explore_sweeps", "tune: auto tunes the sweeps"),
    case("tune_off_with_auto", LATTICE + TUNED + "  tune: false\n  chains: auto\n", "nrpt.chains",
         "tune: false turns it off"),
    case("betas_auto_and_list", LATTICE + "nrpt:\n  betas: auto\n  chains: 4\n  beta_max: 1\n"
         "  betas: [0.0, 1.0]\n  rounds: 10\n", "nrpt.betas", "given twice"),
    case("chains_auto_with_ladder", LATTICE + "nrpt:\n  chains: auto\n  betas: [0.0, 0.5, 1.0]\n"
         "  rounds: 10\n", "nrpt.chains", "fixes the chain count"),
    case("betas_auto_two_chains", LATTICE + "nrpt:\n  betas: auto\n  chains: 2\n  beta_max: 1\n"
         "  rounds: 10\n", "nrpt.chains", "needs chains >= 3"),
    case("tuned_geometric", LATTICE + TUNED + "  chains: auto\n  beta_min: 0.1\n"
         "  spacing: geometric\n", "nrpt.spacing", "starts linear"),
    case("replicas_zero", "replicas: 0\n" + LATTICE + NRPT, "replicas", "out of range"),
    case("instances_zero", "instances: 0\n" + LATTICE + NRPT, "instances", "out of range"),
    case("instances_with_tune", "instances: 4\n" + LATTICE + TUNED + "  tune: auto\n",
         "instances", "share one ladder"),
    case("houdayer_odd_replicas", "replicas: 3\n" + LATTICE + NRPT + "  cluster_moves: houdayer\n",
         "replicas", "even number of replicas"),
    case("houdayer_potts", "model: {kind: lattice, shape: [4, 4], potts: 3}\n" + NRPT +
         "  cluster_moves: houdayer\n", "nrpt.cluster_moves", "Potts model"),
    case("cluster_moves_word", LATTICE + NRPT + "  cluster_moves: wolff\n", "nrpt.cluster_moves",
         "houdayer"),
    case("tune_with_adapt_schedule", LATTICE + TUNED + "  tune: auto\n  adapt_schedule: true\n",
         "nrpt.adapt_schedule", "drop adapt_schedule"),
    case("max_chains_untuned", LATTICE + NRPT + "  max_chains: 16\n", "nrpt.max_chains",
         "only when the chain count is tuned"),
    case("max_chains_too_small", LATTICE + TUNED + "  chains: auto\n  max_chains: 1\n",
         "nrpt.max_chains", "out of range [2, 4096]"),
    case("target_acceptance_one", LATTICE + TUNED + "  tune: auto\n  target_acceptance: 1.0\n",
         "nrpt.target_acceptance", "strictly between 0 and 1"),
    case("tune_rounds_untuned", LATTICE + NRPT + "  tune_rounds: 100\n", "nrpt.tune_rounds",
         "applies only with tuning"),
    case("tune_rounds_too_small", LATTICE + TUNED + "  betas: auto\n  chains: 4\n"
         "  tune_rounds: 5\n", "nrpt.tune_rounds", "out of range [10, 1000000]"),
    case("tune_at_top_level", "tune: auto\n" + LATTICE + NRPT, "tune", "nrpt: {tune: auto}"),
    case("library_key_name", LATTICE + TUNED + "  chains: 4\n  tune_chains: true\n",
         "nrpt.tune_chains", "write chains: auto"),
    case("tuned_without_beta_max", LATTICE + "nrpt:\n  chains: auto\n  rounds: 10\n", "nrpt",
         "missing required key 'beta_max'"),
    case("beta_max_autox", LATTICE + "nrpt:\n  chains: 4\n  beta_max: autox\n  rounds: 10\n",
         "nrpt.beta_max", "expected a number or auto"),
    case("gap_tol_negative",
         LATTICE + "nrpt:\n  chains: 4\n  beta_max: auto\n  gap_tol: -0.1\n  rounds: 10\n",
         "nrpt.gap_tol", "below the minimum"),
    case("gap_tol_zero",
         LATTICE + "nrpt:\n  chains: 4\n  beta_max: auto\n  gap_tol: 0\n  rounds: 10\n",
         "nrpt.gap_tol", "not strictly between 0 and 1"),
    case("gap_tol_with_betas",
         LATTICE + "nrpt:\n  betas: [0.0, 1.0]\n  gap_tol: 0.01\n  rounds: 10\n",
         "nrpt.gap_tol", "not to an explicit ladder"),
    case("beta_max_auto_flat_model",
         "model: {kind: lattice, shape: [4, 4], coupling: 0.0, field: 0.0}\n"
         "nrpt:\n  chains: 4\n  beta_max: auto\n  rounds: 10\n",
         "nrpt.beta_max", "no positive excitation cost"),
    case("beta_max_auto_below_min",
         "model: {kind: lattice, shape: [4, 4], coupling: 0.0, field: 0.5}\n"
         "nrpt:\n  chains: 4\n  beta_min: 100\n  beta_max: auto\n  rounds: 10\n",
         "nrpt.beta_max", "not above beta_min"),
    case("unknown_kind", "model: {kind: latice, shape: [4, 4]}\n" + NRPT, "model.kind",
         "did you mean 'lattice'?"),
    case("periodic_small_extent", "model: {kind: lattice, shape: [2, 4]}\n" + NRPT,
         "model.shape[0]", "extents >= 3"),
    case("distribution_misuse",
         "model: {kind: lattice, shape: [4, 4], coupling: {distribution: constant, value: 1, std: 2}}\n"
         + NRPT, "model.coupling.std", "applies to gaussian"),
    case("edge_out_of_range", "model: {kind: graph, nodes: 3, edges: [[0, 1, 1.0], [1, 5, 1.0]]}\n"
         + NRPT, "model.edges[1][1]", "out of range"),
    case("edge_not_a_triple", "model: {kind: graph, nodes: 3, edges: [[0, 1]]}\n" + NRPT,
         "model.edges[0]", "[i, j, J]"),
    case("self_loop", "model: {kind: graph, nodes: 3, edges: [[1, 1, 1.0]]}\n" + NRPT,
         "model.edges[0]", "self-loop"),
    case("conflicting_edges", "model: {kind: graph, nodes: 3, edges: [[0, 1, 1.0], [1, 0, 2.0]]}\n"
         + NRPT, "model.edges", "twice"),
    case("field_length", "model: {kind: graph, nodes: 3, field: [0.1, 0.2]}\n" + NRPT,
         "model.field", "expected 3"),
    case("clamp_value", "model: {kind: graph, nodes: 3, clamped: {1: 2}}\n" + NRPT,
         "model.clamped.1", "+1 or -1"),
    case("graph_file_and_nodes", "model: {kind: graph, file: g.txt, nodes: 3}\n" + NRPT,
         "model.nodes", "cannot be combined", files={"g.txt": "nodes 3\n"}),
    case("missing_graph_file", "model: {kind: graph, file: nowhere.txt}\n" + NRPT,
         "model.file", "cannot open graph file"),
    case("bad_graph_file", "model: {kind: graph, file: g.txt}\n" + NRPT, "model.file",
         "g.txt:3: unknown directive", files={"g.txt": "nodes 3\nedge 0 1 1.0\nbond 1 2 1.0\n"}),
    # Potts variables (model.potts, and the graph file's potts / field I S H / clamp I S).
    # Continuous models (kind gaussian / double_well, the graph file's diag / barrier lines,
    # nrpt.reference).
    case("gaussian_not_positive_definite",
         "model: {kind: gaussian, nodes: 3, edges: [[0, 1, 2.0], [1, 2, 2.0]], diag: 1.0}\n" + NRPT,
         "model", "not positive definite"),
    case("gaussian_diag_not_positive", "model: {kind: gaussian, shape: [4, 4], diag: -1}\n" + NRPT,
         "model", "must be a finite number > 0"),
    case("gaussian_barrier_key", "model: {kind: gaussian, shape: [4, 4], barrier: 1}\n" + NRPT,
         "model.barrier", "is for kind double_well"),
    case("continuous_two_topologies",
         "model: {kind: double_well, shape: [4, 4], nodes: 16}\n" + NRPT, "model",
         "exactly one of 'shape'"),
    case("continuous_potts", "model: {kind: gaussian, shape: [4, 4], potts: 3}\n" + NRPT,
         "model.potts", "real values"),
    case("continuous_diag_length", "model: {kind: gaussian, nodes: 3, diag: [1, 2]}\n" + NRPT,
         "model.diag", "has 2 values, expected 3"),
    case("continuous_reference_none_at_zero",
         "model: {kind: gaussian, shape: [4, 4]}\n" + NRPT + "  reference: none\n",
         "nrpt.reference", "does not normalise at beta = 0"),
    case("continuous_beta_max_auto",
         "model: {kind: gaussian, shape: [4, 4]}\nnrpt:\n  chains: 4\n  beta_max: auto\n"
         "  rounds: 10\n", "nrpt.beta_max", "kind gaussian needs a number"),
    # Instances that cannot differ: K copies of one model, whose spread the ensemble's
    # jackknife would report as disorder.
    case("instances_of_a_graph", "instances: 2\nmodel: {kind: graph, nodes: 3, edges: "
         "[[0, 1, 1.0], [1, 2, -1.0]]}\n" + NRPT, "instances", "copies of one model (a graph"),
    case("instances_of_a_constant_lattice", "instances: 3\n" + LATTICE + NRPT, "instances",
         "copies of one model (a lattice whose coupling and field are constants"),
    case("continuous_instances", "instances: 2\nmodel: {kind: double_well, shape: [4, 4]}\n" + NRPT,
         "instances", "kind double_well runs one instance"),
    case("continuous_houdayer",
         "replicas: 2\nmodel: {kind: gaussian, shape: [4, 4]}\n" + NRPT +
         "  cluster_moves: houdayer\n", "nrpt.cluster_moves", "kind gaussian has real values"),
    case("reference_independent_on_potts",
         "model: {kind: lattice, shape: [4, 4], potts: 3}\n" + NRPT +
         "  reference: independent\n", "nrpt.reference", "a Potts model's ladder starts at beta = 0"),
    case("continuous_file_mixed", "model: {kind: double_well, file: g.txt}\n" + NRPT, "model.file",
         "g.txt:3: 'diag' (Gaussian) and 'barrier' (double well) cannot be mixed",
         files={"g.txt": "nodes 2\ndiag 0 1.0\nbarrier 1 1.0\n"}),
    case("continuous_file_kind", "model: {kind: gaussian, file: g.txt}\n" + NRPT, "model.file",
         "is a double_well model", files={"g.txt": "nodes 2\nedge 0 1 0.1\nbarrier 1 1.0\n"}),
    case("potts_q_too_small", "model: {kind: lattice, shape: [4, 4], potts: 1}\n" + NRPT,
         "model.potts", "out of range"),
    case("potts_q_too_large", "model: {kind: graph, nodes: 3, potts: 257}\n" + NRPT,
         "model.potts", "out of range"),
    case("potts_q_not_integer", "model: {kind: lattice, shape: [4, 4], potts: three}\n" + NRPT,
         "model.potts", "expected an integer"),
    case("potts_on_rbm", "model: {kind: rbm, visible: 2, hidden: 2, random: {seed: 1}, potts: 3}\n"
         + NRPT, "model.potts", "kind lattice and graph"),
    case("potts_lattice_field_length",
         "model: {kind: lattice, shape: [4, 4], potts: 3, field: [0.1, 0.2]}\n" + NRPT,
         "model.field", "expected 3"),
    case("potts_lattice_field_scalar",
         "model: {kind: lattice, shape: [4, 4], potts: 3, field: 0.5}\n" + NRPT,
         "model.field", "a list of 3 numbers"),
    case("potts_lattice_field_nan",
         "model: {kind: lattice, shape: [4, 4], potts: 3, field: [0, nan, 0]}\n" + NRPT,
         "model.field[1]", "finite"),
    case("potts_coupling_nan", "model: {kind: lattice, shape: [4, 4], potts: 3, coupling: nan}\n"
         + NRPT, "model.coupling", "finite"),
    case("potts_graph_field_rows",
         "model: {kind: graph, nodes: 3, potts: 3, field: [[0, 0, 1], [0, 1, 0]]}\n" + NRPT,
         "model.field", "expected 3 (one list of 3 fields per node)"),
    case("potts_graph_field_row_length",
         "model: {kind: graph, nodes: 2, potts: 3, field: [[0, 0, 1], [0, 1]]}\n" + NRPT,
         "model.field[1]", "has 2 values, expected 3"),
    case("potts_graph_field_mixed",
         "model: {kind: graph, nodes: 2, potts: 2, field: [[0, 1], 0.5]}\n" + NRPT,
         "model.field[1]", "expected a list of 2 numbers"),
    case("potts_clamp_state", "model: {kind: graph, nodes: 3, potts: 3, clamped: {1: 3}}\n" + NRPT,
         "model.clamped.1", "out of range [0, 2]"),
    case("potts_clamp_negative", "model: {kind: graph, nodes: 3, potts: 3, clamped: {1: -1}}\n"
         + NRPT, "model.clamped.1", "a clamp is a state 0 .. q-1"),
    case("potts_graph_file_disagrees", "model: {kind: graph, file: g.txt, potts: 4}\n" + NRPT,
         "model.potts", "says 'potts 3'", files={"g.txt": "nodes 3\npotts 3\nedge 0 1 1.0\n"}),
    case("potts_graph_file_is_ising", "model: {kind: graph, file: g.txt, potts: 3}\n" + NRPT,
         "model.potts", "has no 'potts q' line", files={"g.txt": "nodes 3\nedge 0 1 1.0\n"}),
    case("potts_file_late", "model: {kind: graph, file: g.txt}\n" + NRPT, "model.file",
         "g.txt:3: 'potts q' must come right after", files={"g.txt": "nodes 3\nedge 0 1 1\npotts 3\n"}),
    case("potts_file_q", "model: {kind: graph, file: g.txt}\n" + NRPT, "model.file",
         "g.txt:2: state count 300 outside [2, 256]", files={"g.txt": "nodes 3\npotts 300\n"}),
    case("potts_file_field_state", "model: {kind: graph, file: g.txt}\n" + NRPT, "model.file",
         "g.txt:3: state 3 out of range [0, 3)", files={"g.txt": "nodes 3\npotts 3\nfield 0 3 1.0\n"}),
    case("potts_file_field_arity", "model: {kind: graph, file: g.txt}\n" + NRPT, "model.file",
         "g.txt:3: expected 'field I S H'", files={"g.txt": "nodes 3\npotts 3\nfield 0 1.0\n"}),
    case("potts_file_clamp_state", "model: {kind: graph, file: g.txt}\n" + NRPT, "model.file",
         "g.txt:4: state -1 out of range [0, 3)",
         files={"g.txt": "nodes 3\npotts 3\nedge 0 1 1\nclamp 2 -1\n"}),
    case("potts_file_field_nan", "model: {kind: graph, file: g.txt}\n" + NRPT, "model.file",
         "g.txt:3: field 'nan' is not finite", files={"g.txt": "nodes 3\npotts 3\nfield 0 1 nan\n"}),
    case("missing_weights_file",
         "model: {kind: rbm, visible: 2, hidden: 2, weights: {file: w.txt}}\n" + NRPT,
         "model.weights.file", "cannot open"),
    case("bad_weights_file",
         "model: {kind: rbm, visible: 2, hidden: 2, weights: {file: w.txt}}\n" + NRPT,
         "model.weights.file", "holds 3 numbers, expected 4", files={"w.txt": "1 2\n3\n"}),
    case("rbm_weight_count", "model: {kind: rbm, visible: 2, hidden: 2, weights: [1, 2, 3]}\n"
         + NRPT, "model.weights", "expected 4"),
    case("sample_node_out_of_range", LATTICE + NRPT + "output: {samples: {every: 1, nodes: [99]}}\n",
         "output.samples.nodes[0]", "out of range"),
    case("tpu", "device: tpu\n" + LATTICE + NRPT, "device", "TPU"),
    case("until_missing_max", LATTICE + NRPT + "  until: {stable_round_trips: 5}\n",
         "nrpt.until", "missing required key 'max_rounds'"),
    case("until_below_chunk",
         LATTICE + NRPT + "  until: {stable_round_trips: 5, max_rounds: 3}\n",
         "nrpt.until.max_rounds", "at least nrpt.rounds"),
    case("until_zero_trips",
         LATTICE + NRPT + "  until: {stable_round_trips: 0, max_rounds: 100}\n",
         "nrpt.until.stable_round_trips", "or a stable_ratio > 0 beside it"),
    case("until_negative_trips",
         LATTICE + NRPT + "  until: {stable_round_trips: -1, max_rounds: 100}\n",
         "nrpt.until.stable_round_trips", "out of range"),
    case("until_negative_ratio",
         LATTICE + NRPT + "  until: {stable_round_trips: 5, stable_ratio: -0.5, max_rounds: 100}\n",
         "nrpt.until.stable_ratio", "-0.5 is below the minimum 0"),
    case("until_unknown_key",
         LATTICE + NRPT + "  until: {stable_trips: 5, max_rounds: 100}\n",
         "nrpt.until.stable_trips", "stable_round_trips"),
    case("rounds_nor_until", LATTICE + "nrpt:\n  chains: 4\n  beta_max: 1\n", "nrpt",
         "or until: {stable_round_trips: K, max_rounds: N}"),
    case("chains_without_estimate", LATTICE + "nrpt:\n  beta_max: 1\n  rounds: 10\n", "nrpt",
         "beta_max: auto, whose estimate gives the chain count"),
    case("chains_from_estimate_ensemble",
         "instances: 2\nmodel: {kind: lattice, shape: [4, 4], "
         "coupling: {distribution: gaussian, seed: 1}}\n"
         "nrpt:\n  beta_max: auto\n  rounds: 10\n", "nrpt", "give nrpt.chains"),
    case("goal_unknown", LATTICE + NRPT + "  goal: lowest\n", "nrpt.goal", "ground_state"),
    case("goal_continuous",
         "model: {kind: gaussian, shape: [4, 4], coupling: 0.1}\n"
         "nrpt:\n  goal: ground_state\n  chains: 4\n  beta_max: 1\n", "nrpt.goal",
         "has real values"),
    case("chosen_missing_reason",
         LATTICE + NRPT + "  chosen: [{key: nrpt.rounds, value: 10}]\n", "nrpt.chosen[0]",
         "missing required key 'reason'"),
    case("unknown_device", "device: gpuu\n" + LATTICE + NRPT, "device", "accepted values"),
    case("gpu_unavailable", "device: gpu\n" + LATTICE + NRPT, "device", "requested",
         skip=gpu_visible),
    case("yaml_syntax", LATTICE + "nrpt: {chains: 4, beta_max: 1\n", "", "invalid YAML",
         at="2:7"),
    # An unclosed '[' is named where it opened (yaml-cpp says: the end of the file).
    case("yaml_unclosed_sequence", "model:\n  kind: lattice\n  shape: [4, 4\n" + NRPT, "",
         "flow sequence '[' opened here is never closed", at="3:10"),
    case("yaml_unclosed_nested", "# a [comment\nmodel: {kind: lattice,\n  shape: [4, 4]\n" + NRPT,
         "", "flow mapping '{' opened here is never closed", at="2:8"),
    case("yaml_tab_indent", LATTICE + "nrpt:\n\tchains: 4\n", "", "invalid YAML"),
    case("not_a_mapping", "- 1\n- 2\n", "", "expected a mapping"),
    case("empty_file", "", "", "empty"),
    case("device_override", LATTICE + NRPT, "--device", "TPU", args=["--device", "tpu"],
         located=False, prefix="hamon: error: --device: "),
    case("rounds_override", LATTICE + NRPT, "--rounds", "out of range", args=["--rounds", "0"],
         located=False, prefix="hamon: error: --rounds: "),
    case("seed_override", LATTICE + NRPT, "--seed", "expected an integer",
         args=["--seed", "-1"], located=False, prefix="hamon: error: --seed: "),
    case("no_such_file", None, "", "no such experiment file", located=False),
    # A continuous model's samples are float64: 100,000 rows x 1024 nodes x 8 B, counted
    # twice (the sampler's copy and the result's), is 1.53 GiB; counted as spins' bytes it
    # was 0.191 GiB.
    case("memory_float64_samples",
         "model: {kind: gaussian, shape: [32, 32], coupling: 0.2, diag: 1.0}\n"
         "nrpt:\n  chains: 6\n  beta_max: 1.0\n  rounds: 100000\n"
         "output: {samples: {every: 1, nodes: all}}\n", "nrpt",
         "samples (rounds / samples_every x nodes x 8 B, twice) 1.53 GiB",
         env={"HAMON_MEMORY_LIMIT": "100M"}),
    case("output_exists", LATTICE + NRPT + "output: {dir: '{out}'}\n", "output.dir",
         "exists and is not empty", files={"out/keep.txt": "not a run\n"}, out_flag=False),
    case("output_exists_override", LATTICE + NRPT, "--out", "exists and is not empty",
         files={"out/keep.txt": "not a run\n"}, located=False,
         prefix="hamon: error: --out: "),
    case("output_under_a_file", LATTICE + NRPT + "output: {dir: '{out}/run'}\n", "output.dir",
         "is not a directory", files={"out": "a file\n"}, out_flag=False),
    case("output_is_a_file", LATTICE + NRPT + "output: {dir: '{out}'}\n", "output.dir",
         "not a directory", files={"out": "a file\n"}, out_flag=False),
]


def check_case(hamon, work, c, failures):
    os.makedirs(work, exist_ok=True)
    for path, content in c["files"].items():
        full = os.path.join(work, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(content)
    config = os.path.join(work, "experiment.yaml")
    out = os.path.join(work, "out")
    if c["text"] is not None:
        with open(config, "w") as f:
            f.write(c["text"].replace("{out}", out))
    existed = os.path.exists(out)
    before = sorted(os.listdir(out)) if os.path.isdir(out) else None
    out_args = ["--out", out] if c["out_flag"] else []
    for command in (["validate", config] + out_args, ["run", config] + out_args):
        result = clitest.run(hamon, command + c["args"], env=clitest.clean_env(**c["env"]))
        label = f"{c['name']} ({command[0]})"
        failures.check(result.returncode == 2,
                       f"{label}: exit {result.returncode}, expected 2; stderr: {result.stderr!r}")
        lines = result.stderr.splitlines()
        if not failures.check(len(lines) == 1, f"{label}: expected one line on stderr: {lines}"):
            continue
        line = lines[0]
        if c["located"]:
            match = clitest.LOCATED_ERROR.match(line)
            if failures.check(match is not None, f"{label}: no file:line:col in {line!r}"):
                failures.check(match["file"] == config, f"{label}: names {match['file']}")
                failures.check(int(match["line"]) >= 1 and int(match["column"]) >= 1,
                               f"{label}: line/column {match['line']}:{match['column']}")
                if c["at"]:
                    failures.check(f"{match['line']}:{match['column']}" == c["at"],
                                   f"{label}: at {match['line']}:{match['column']}, "
                                   f"expected {c['at']}")
                rest = match["rest"]
                if c["key"]:
                    failures.check(rest.startswith(c["key"] + ": "),
                                   f"{label}: key {c['key']!r} not named first in {rest!r}")
        elif c["prefix"]:
            failures.check(line.startswith(c["prefix"]), f"{label}: {line!r} lacks {c['prefix']!r}")
        else:
            failures.check(line.startswith(config + ": error: "), f"{label}: {line!r}")
        failures.check(c["fragment"] in line, f"{label}: {c['fragment']!r} not in {line!r}")
        failures.check(result.stdout == "", f"{label}: stdout not empty: {result.stdout!r}")
        if existed:
            failures.check(before is None or sorted(os.listdir(out)) == before,
                           f"{label}: {out} was changed")
        else:
            failures.check(not os.path.exists(out), f"{label}: {out} was created")
        failures.check(not clitest.leftovers(out), f"{label}: staging left: {clitest.leftovers(out)}")


def main():
    if "--list" in sys.argv:
        print(";".join(c["name"] for c in CASES))
        return
    args = clitest.arguments(__doc__, lambda p: p.add_argument("--case", action="append"))
    selected = [c for c in CASES if not args.case or c["name"] in args.case]
    if args.case and len(selected) != len(set(args.case)):
        print(f"unknown case in {args.case}")
        sys.exit(1)
    failures = clitest.Failures()
    for c in selected:
        if c["skip"] and c["skip"](args.hamon):
            print(f"{c['name']}: skipped (not applicable on this machine)")
            continue
        check_case(args.hamon, os.path.join(args.work, c["name"]), c, failures)
    failures.finish("bad input " + ", ".join(c["name"] for c in selected)
                    if len(selected) < 4 else f"bad input ({len(selected)} cases)")


if __name__ == "__main__":
    main()

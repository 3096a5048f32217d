// SPDX-License-Identifier: Apache-2.0
#pragma once
// The experiment a YAML file describes, as plain data: parsed and checked by
// parse_experiment (parse_experiment.hpp), turned into a model and NRPT options by
// apps/run/, written back by emit_experiment. Every key is documented in
// examples/README.md; defaults here are the documented ones.

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "config/config_error.hpp"
#include "config/objective_terms.hpp"
#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/model/spin_model.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/core/util/enum_names.hpp"

namespace hamon::cli {

/// model.kind: lattice. With `potts: q` the coupling is the Potts J and the field is
/// either `potts_field` (q values h(s), the same at every node) or drawn from `field` per
/// node and state.
struct LatticeSpec {
  std::vector<int> shape;  // 2 or 3 extents
  bool periodic = true;
  /// Non-empty: a graph file holding the lattice's numbers (its bonds as edges, its fields;
  /// a run directory's model/model.graph), read by hamon::lattice_from_graph instead of
  /// drawing `coupling` and `field`.
  std::string file;
  ValueDistribution coupling = ValueDistribution::constant(1.0);
  ValueDistribution field = ValueDistribution::constant(0.0);
  int potts = 0;                    // q; 0: Ising spins
  std::vector<double> potts_field;  // Potts: q values, or empty (then `field` is drawn)
};

/// A list of numbers given inline, as a scalar for every entry, or in a text file.
struct ValuesSpec {
  enum class Form { absent, scalar, list, file };
  Form form = Form::absent;
  double scalar = 0.0;
  std::vector<double> list;
  std::string file;  // resolved against the YAML file's directory
};

/// model.kind: graph — inline (nodes, edges, field, clamped) or a graph file. With
/// `potts: q`, edges carry the Potts J, clamps a state 0..q-1, and the field is one list
/// of q values per node (`field`, flattened node-major: nodes x q values) or q values for
/// every node (`potts_field`).
struct GraphSpec {
  std::string file;  // non-empty: read with hamon::read_graph_file (resolved path)
  std::int64_t nodes = 0;
  std::vector<Edge> edges;
  ValuesSpec field;  // scalar or list of `nodes` values (Potts: a list or file of nodes x q)
  std::vector<Clamp> clamped;
  int potts = 0;                    // q; 0: Ising spins (a graph file says it with 'potts q')
  std::vector<double> potts_field;  // Potts: q values h(s) at every node (else empty)
};

/// model.kind: rbm — random, or weights and biases inline or from files.
struct RbmSpec {
  std::int64_t visible = 0;
  std::int64_t hidden = 0;
  struct Random {
    std::uint64_t seed = 0;
    double std = 1.0;       // weights ~ N(0, std^2)
    double bias_std = 0.0;  // biases ~ N(0, bias_std^2); 0: zero biases
  };
  std::optional<Random> random;
  ValuesSpec weights;  // visible-major: weights[v * hidden + h]
  ValuesSpec visible_bias;
  ValuesSpec hidden_bias;
  std::vector<int> clamped_visible;  // empty, or `visible` values of +-1
};

/// Per-node values of a continuous model: drawn node by node from `distribution`, unless
/// `values` gives them (a number for every node, a list of one per node, or a file).
struct NodeValuesSpec {
  ValueDistribution distribution = ValueDistribution::constant(0.0);
  ValuesSpec values;
};

/// model.kind: gaussian or double_well — real variables on Ising's topologies: a lattice
/// (`shape`, `periodic`, `coupling` per bond), inline (`nodes`, `edges`) or a graph file
/// (whose 'diag' or 'barrier' lines make it continuous), or a lattice whose numbers are a
/// graph file's (`shape` and `file`, as LatticeSpec::file). `weight` is the YAML `diag`
/// (d_i) or `barrier` (lambda_i).
struct ContinuousSpec {
  ContinuousKind kind = ContinuousKind::gaussian;
  std::vector<int> shape;  // non-empty: a lattice
  bool periodic = true;
  ValueDistribution coupling = ValueDistribution::constant(0.0);
  std::string file;  // non-empty: a graph file
  std::int64_t nodes = 0;
  std::vector<Edge> edges;
  NodeValuesSpec weight{ValueDistribution::constant(1.0), {}};
  NodeValuesSpec field;
};

/// model.kind: qubo or maxcut — a problem file in its own variables (config/objective_file),
/// read when the experiment is, sampled as the Ising model run/objective_model maps it to.
struct ObjectiveSpec {
  std::string file;  // resolved path
  ObjectiveTerms terms;
};

using ModelSpec = std::variant<LatticeSpec, GraphSpec, RbmSpec, ContinuousSpec, ObjectiveSpec>;

/// "lattice", "graph", "rbm", "gaussian", "double_well", "qubo" or "maxcut".
std::string kind_of(const ModelSpec& model);

/// Automatic tuning (hamon::autotune): `tune: auto` sets all three flags; `chains: auto`,
/// `betas: auto` and `explore_sweeps: auto` set one each.
struct TuneSpec {
  bool chains = false;             // tune the chain count (tune_chains)
  bool betas = false;              // tune the ladder between beta_min and beta_max (tune_schedule)
  bool explore_sweeps = false;     // tune the sweeps per round (tune_exploration)
  std::int32_t max_chains = 128;   // `max_chains`: the pilot's chain count and the cap
  double target_acceptance = 0.5;  // `target_acceptance`: the swap acceptance aimed at
  std::int64_t rounds = 200;       // `tune_rounds`: measured rounds of one tuning run

  bool any() const { return chains || betas || explore_sweeps; }
};

/// The most rounds a run takes, burn-in included: the sampler counts rounds in 32 bits.
/// Every round count (nrpt.rounds, nrpt.burn_in, --rounds, --burn-in, extend --rounds)
/// has its range up to it, so each reports the same range whatever the value.
inline constexpr std::int64_t kMaxRoundsTotal = std::numeric_limits<std::uint32_t>::max();

/// nrpt.until: measure in chunks of `rounds` until the run's best energy has not improved for
/// `stable_round_trips` round trips (all machines, measured; 0 only beside a stable_ratio)
/// and, where `stable_ratio` is given, for `stable_ratio` times the rounds it took to find
/// it (burn-in included); or `max_rounds` measured rounds.
struct UntilSpec {
  bool enabled = false;
  std::int64_t stable_round_trips = 0;
  double stable_ratio = 0.0;  // 0: the round trips alone decide
  std::int64_t max_rounds = 0;
};

/// The largest nrpt.until.stable_ratio: beyond it max_rounds decides anyway.
inline constexpr double kMaxStableRatio = 1000.0;

/// nrpt.goal: what the run is for. `ground_state` chooses, for every search key the file
/// leaves out, what a ground-state search needs (docs: examples/README.md, nrpt.goal).
enum class Goal { sampling, ground_state };

/// nrpt.until chosen by goal: ground_state: stop once the best energy has held for this
/// many round trips and this multiple of the rounds it took to find it, or after this many
/// measured rounds; checked every kGoalUntilChunk rounds.
inline constexpr std::int64_t kGoalStableRoundTrips = 1;
inline constexpr double kGoalStableRatio = 1.5;
inline constexpr std::int64_t kGoalMaxRounds = 1000000;
inline constexpr std::int64_t kGoalUntilChunk = 100;

/// A value the run chose for a key the file left out, and why: summary.yaml's `chosen`.
struct Choice {
  std::string key;     // "nrpt.rounds", "replicas", ...
  std::string value;   // as the resolved config writes it
  std::string reason;  // why this value
};

/// nrpt.rounds when nrpt.until is given without it: the chunk after which the stop rule is
/// checked (at most max_rounds).
inline constexpr std::int64_t kDefaultUntilChunk = 1000;

struct NrptSpec {
  enum class Spacing { linear, geometric };
  std::int32_t chains = 0;  // from `chains`, or the length of `betas`; 0 with chains: auto
  /// `chains` left out beside beta_max: auto (or under goal: ground_state):
  /// resolve_beta_max sets `chains` from the estimate's model of the barrier over the
  /// ladder (and clears this), as it sets beta_max.
  bool chains_from_estimate = false;
  Goal goal = Goal::sampling;  // `goal`
  /// goal: ground_state without beta_min: chosen from the model's excitation costs once it
  /// is built (resolve_beta_max).
  bool beta_min_auto = false;
  /// goal: ground_state without cluster_moves: Houdayer moves where the model and the run
  /// allow them, decided once the model is built (choose_cluster_moves).
  bool cluster_moves_auto = false;
  double beta_min = 0.0;
  double beta_max = 1.0;
  Spacing spacing = Spacing::linear;
  std::vector<double> betas;  // non-empty: an explicit ladder (beta_min/max/spacing unused)
  /// `beta_max: auto`: beta_max is estimated from the model (hamon::estimate_beta_max)
  /// before the ladder is built; prepare_run replaces it with the estimate, so the
  /// resolved experiment (config.yaml) holds the number and a resumed run keeps its ladder.
  bool beta_max_auto = false;
  /// `gap_tol`: the estimate's relative thermal floor. Set (default 1e-3) with
  /// beta_max: auto; a number beta_max with gap_tol (as config.yaml writes an estimated
  /// one) is taken as given and described by the same model in the summary.
  std::optional<double> gap_tol;
  std::int64_t rounds = 0;
  std::int64_t burn_in = 0;
  std::int32_t explore_sweeps = 1;  // unused with explore_sweeps: auto
  bool adapt_schedule = false;
  ClusterMoves cluster_moves = ClusterMoves::none;               // `cluster_moves`
  AnnealingReference reference = AnnealingReference::automatic;  // `reference`
  TuneSpec tune;
  UntilSpec until;
  /// What was chosen for keys the file left out (in the order chosen).
  std::vector<Choice> chosen;
};

/// nrpt.cluster_moves's names.
inline constexpr EnumNames<ClusterMoves, 2> kClusterMoveNames{{
    {ClusterMoves::none, "none"},
    {ClusterMoves::houdayer, "houdayer"},
}};

/// nrpt.goal's names (sampling is the key's absence).
inline constexpr EnumNames<Goal, 2> kGoalNames{{
    {Goal::sampling, "sampling"},
    {Goal::ground_state, "ground_state"},
}};

/// nrpt.reference's names (automatic is the key's absence).
inline constexpr EnumNames<AnnealingReference, 2> kReferenceNames{{
    {AnnealingReference::none, "none"},
    {AnnealingReference::independent, "independent"},
}};

/// nrpt.spacing's names (read by the parser, written into the resolved config).
inline constexpr EnumNames<NrptSpec::Spacing, 2> kSpacingNames{{
    {NrptSpec::Spacing::linear, "linear"},
    {NrptSpec::Spacing::geometric, "geometric"},
}};

/// output.checkpoint: when `hamon run` writes its checkpoint (DIR.partial/checkpoint.bin).
/// `{every: N}` rounds and/or `{seconds: S}` of wall clock, whichever comes first;
/// `false` turns checkpoints off.
struct CheckpointSpec {
  bool enabled = true;
  std::int64_t every = 0;  // rounds; 0: not by rounds
  double seconds = 600.0;  // wall-clock seconds; 0: not by time
};

struct OutputSpec {
  std::string dir;  // run directory (relative to the working directory)
  /// What config.yaml and summary.yaml record as output.dir when it is not `dir`: an
  /// ensemble's instance runs inside DIR.partial, gone once the ensemble completes, so its
  /// files name the directory a re-run of it writes (instance_config.hpp). Empty: `dir`.
  std::string recorded_dir;
  std::int64_t samples_every = 0;          // 0: no samples
  std::vector<std::int64_t> sample_nodes;  // empty: all nodes
  bool moments = true;                     // per-node <s_i> and |m| in the summary
  bool magnetization = false;              // <m>, ..., U4, chi per temperature in the summary
  bool energies = true;                    // energies.npy (rounds x chains)
  bool index_process = true;               // index_process.npy (rounds x machines)
  CheckpointSpec checkpoint;
};

struct ExperimentConfig {
  std::string file;      // the YAML file as named on the command line
  std::string base_dir;  // its directory: relative model files are resolved against it
  std::uint64_t seed = 0;
  std::string device = "auto";
  /// `replicas`: independent ladders of the model in one run (NrptOptions::n_replicas).
  std::int32_t replicas = 1;
  /// `instances`: disorder realisations of the model run as an ensemble (run/ensemble.hpp);
  /// 1 is a single run.
  std::int32_t instances = 1;
  /// `instances: {files: ...}`: instance k's graph file (resolved), one per instance;
  /// `model` then holds the first one's. Empty: the instances share the model's.
  std::vector<std::string> instance_files;
  ModelSpec model;
  NrptSpec nrpt;
  OutputSpec output;

  /// Where each key was read (key path -> location), so later stages (the model builders,
  /// the device resolution) can blame the right line.
  std::map<std::string, Location> locations;

  /// The location of `key`, or of the closest enclosing key that has one.
  Location where(const std::string& key) const;
  /// A ConfigError at `key`.
  [[noreturn]] void fail(const std::string& key, const std::string& message) const;
};

/// Values from the command line that replace those of the file.
struct Overrides {
  std::optional<std::string> out;
  std::optional<std::string> device;
  std::optional<std::uint64_t> seed;
  std::optional<std::int64_t> rounds;
  std::optional<std::int64_t> burn_in;
};

}  // namespace hamon::cli

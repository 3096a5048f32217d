// SPDX-License-Identifier: Apache-2.0
#pragma once
// A spin (Ising-type) model on a sparse undirected graph, held on the host.
//
//   E(s) = -( sum_i h_i s_i + sum_{(i,j) in edges} J_ij s_i s_j ),   s_i in {-1, +1},
//
// each undirected edge counted once; the density at inverse temperature beta is
// proportional to exp(-beta E(s)). Clamped nodes keep a fixed value: they enter
// energies and local fields but are never updated.
//
// A Potts (categorical) model has q-state variables x_i in {0, ..., q-1}, 2 <= q <= 256:
//
//   E(x) = -( sum_i h_i(x_i) + sum_{(i,j) in edges} W_ij(x_i, x_j) ),
//
// with W_ij(a, b) = J_ij delta(a, b) (the Potts form, Edge::coupling = J_ij) or, through
// SpinModel::potts's `matrices`, a general q x q matrix per edge. Both kinds share the
// graph, the colouring and the blocks; the engine keeps a state in the same byte a spin
// takes (read as unsigned).
//
// A continuous model (ContinuousKind) has real variables x_i on the same graph:
//
//   Gaussian:     E(x) = sum_i (d_i x_i^2 / 2 - h_i x_i) - sum_{(i,j)} J_ij x_i x_j,
//   double well:  E(x) = sum_i (lambda_i (x_i^2 - 1)^2 - h_i x_i) - sum_{(i,j)} J_ij x_i x_j
//                 (the lattice phi^4 model),
//
// with d_i or lambda_i in node_weights(). The node terms alone are the model's annealing
// reference (independent sites: reference_log_z below is exact).
//
// A SpinModel is validated when it is made and immutable afterwards, so every later
// stage (colouring, device copies, kernels) can rely on its invariants.

#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace hamon {

/// The most nodes a model may have: the engine indexes nodes with int32.
inline constexpr std::int64_t kMaxNodes = std::numeric_limits<std::int32_t>::max();

/// Thrown for a model that cannot be sampled; the message names the offending entry.
class ModelError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// One undirected edge with its coupling J_ij.
struct Edge {
  std::int64_t i = 0;
  std::int64_t j = 0;
  double coupling = 0.0;
};

/// A clamped node and its fixed value (+1 or -1; for a Potts model, a state 0..q-1).
struct Clamp {
  std::int64_t node = 0;
  int value = 1;
};

/// The most states a Potts variable may have (a state is one byte).
inline constexpr int kMaxStates = 256;

/// The value a continuous model's variables take; none for spins and Potts states.
enum class ContinuousKind : std::int32_t { none = 0, gaussian = 1, double_well = 2 };

/// "gaussian", "double_well" ("none" for discrete models).
const char* to_string(ContinuousKind kind);

/// A general coupling of a Potts model: values[a * q + b] = W_ij(x_i = a, x_j = b).
struct CouplingMatrix {
  std::int64_t i = 0;
  std::int64_t j = 0;
  std::vector<double> values;
};

/// Shape of a regular lattice, kept when a model was built as one (fast paths use it).
struct LatticeShape {
  std::vector<int> extents;  // 2 or 3 entries, node index = row-major over extents
  bool periodic = true;
};

class SpinModel {
 public:
  /// Builds and validates a model. Errors (ModelError): n_nodes < 1, an edge endpoint out
  /// of range, a self-loop, the same edge twice with different couplings, a NaN/Inf
  /// coupling or field, a field vector of the wrong length, a clamp out of range or with
  /// a value other than +-1, a node clamped twice with different values.
  /// `fields` may be empty (all zero). Identical duplicate edges are merged.
  /// The colouring is computed here, deterministically (see colouring.hpp).
  static SpinModel from_edges(std::int64_t n_nodes, const std::vector<Edge>& edges,
                              const std::vector<double>& fields = {},
                              const std::vector<Clamp>& clamps = {});

  /// A Potts model with `q` states (2 <= q <= kMaxStates). `edges` have the Potts form
  /// J delta(x_i, x_j); `matrices` are general couplings (an edge may appear in one list
  /// only). `state_fields` holds h_i(s) at [i * q + s] (empty: all zero); a clamp's value
  /// is its state. Errors (ModelError) as for from_edges, and: q out of range, a matrix of
  /// the wrong size or with a NaN/Inf entry, an edge given in both lists, a clamp state
  /// outside [0, q).
  static SpinModel potts(std::int64_t n_nodes, int q, const std::vector<Edge>& edges,
                         const std::vector<double>& state_fields = {},
                         const std::vector<Clamp>& clamps = {},
                         const std::vector<CouplingMatrix>& matrices = {});

  /// A Gaussian model: `diag` holds d_i > 0 (one per node), `fields` h_i (empty: zero).
  /// Errors (ModelError) as for from_edges, and: a d_i that is not a finite positive
  /// number, or a precision matrix P = diag(d) - J that is not positive definite (the
  /// density would not normalise): checked by Gershgorin's bound (d_i > sum_j |J_ij| on
  /// every row), else by a Cholesky factorisation of P for up to kMaxDenseCheck nodes; the
  /// message names the row that fails.
  static SpinModel gaussian(std::int64_t n_nodes, const std::vector<Edge>& edges,
                            const std::vector<double>& diag,
                            const std::vector<double>& fields = {});
  /// A double-well (phi^4) model: `barrier` holds lambda_i > 0 (one per node; the quartic
  /// term makes the density normalisable for any couplings). Errors as for from_edges, and
  /// a lambda_i that is not a finite positive number.
  static SpinModel double_well(std::int64_t n_nodes, const std::vector<Edge>& edges,
                               const std::vector<double>& barrier,
                               const std::vector<double>& fields = {});
  /// The most nodes whose Gaussian precision is factorised when Gershgorin's bound fails.
  static constexpr std::int64_t kMaxDenseCheck = 4096;

  /// The same model with user-supplied blocks (block id per node, ids 0..n_blocks-1,
  /// every id used). Throws ModelError naming an edge that lies inside a block.
  SpinModel with_blocks(const std::vector<std::int32_t>& block_of_node) const;

  /// The same model remembering it is a lattice of this shape (used by builders).
  SpinModel with_lattice_shape(LatticeShape shape) const;

  std::int64_t n_nodes() const { return static_cast<std::int64_t>(fields_.size()); }
  /// q for a Potts model; 2 for Ising spins.
  int n_states() const { return n_states_; }
  bool is_potts() const { return potts_; }
  ContinuousKind continuous_kind() const { return continuous_; }
  bool is_continuous() const { return continuous_ != ContinuousKind::none; }
  /// Continuous models: d_i (Gaussian) or lambda_i (double well); empty otherwise.
  const std::vector<double>& node_weights() const { return node_weights_; }
  std::int64_t n_edges() const { return static_cast<std::int64_t>(edges_.size()); }
  std::int64_t n_free() const { return n_free_; }
  std::int32_t n_colours() const { return n_colours_; }

  /// Unique edges, i < j, sorted by (i, j).
  const std::vector<Edge>& edges() const { return edges_; }
  /// Symmetric CRS adjacency: neighbours of node i are
  /// columns[row_offsets[i] .. row_offsets[i+1]), sorted ascending, with their couplings.
  const std::vector<std::int64_t>& row_offsets() const { return row_offsets_; }
  const std::vector<std::int32_t>& columns() const { return columns_; }
  /// Per CRS entry: J_ij (a Potts model: the J of the Potts form; 0 for a matrix edge).
  const std::vector<double>& couplings() const { return couplings_; }
  /// h_i (all zero for a Potts model: see state_fields).
  const std::vector<double>& fields() const { return fields_; }
  /// 0 for a free node, +1 or -1 for a node clamped to that value (a Potts model: 1 for a
  /// clamped node, whose state is clamped_states()).
  const std::vector<std::int8_t>& clamped() const { return clamped_; }

  // Potts models only (empty otherwise).
  /// h_i(s) at [i * q + s].
  const std::vector<double>& state_fields() const { return state_fields_; }
  /// The clamped state of every node, -1 for a free node.
  const std::vector<std::int16_t>& clamped_states() const { return clamped_states_; }
  /// W per CRS entry e of row i, oriented (x_i, x_j): [e * q * q + a * q + b] =
  /// W_ij(x_i = a, x_j = b). Empty when every coupling has the Potts form (then
  /// couplings() has them all).
  const std::vector<double>& csr_matrices() const { return csr_matrices_; }
  /// The matrices of the unique edges (q * q per edge, in edges() order, oriented
  /// (x_i, x_j) with i < j); empty as csr_matrices().
  const std::vector<double>& edge_matrices() const { return edge_matrices_; }
  /// W_e(a, b) of unique edge e (either form).
  double edge_coupling(std::int64_t e, int a, int b) const;
  /// Colour (block) of every node; no edge joins two nodes of one colour.
  const std::vector<std::int32_t>& colour_of_node() const { return colour_of_node_; }
  /// Free nodes grouped by colour: nodes of colour c are
  /// block_nodes[block_offsets[c] .. block_offsets[c+1]), ascending. Clamped nodes are
  /// in no block (they are never updated).
  const std::vector<std::int64_t>& block_offsets() const { return block_offsets_; }
  const std::vector<std::int32_t>& block_nodes() const { return block_nodes_; }
  const std::optional<LatticeShape>& lattice_shape() const { return lattice_shape_; }

  /// sum_i |h_i| + sum_edges |J_ij|: a bound on |E| over every configuration (finite: the
  /// constructor refuses a model whose bound overflows a double).
  double magnitude() const;

  /// Energy of one configuration (host reference; used by tests and small tools). For a
  /// Potts model the bytes are states (read as unsigned).
  double energy(const std::vector<std::int8_t>& spins) const;
  /// Energy of a continuous model's configuration (one value per node).
  double continuous_energy(const std::vector<double>& x) const;
  /// The node terms of continuous_energy: the annealing reference's energy E_ref(x).
  double reference_energy(const std::vector<double>& x) const;
  /// Energy of a Potts configuration (states 0..q-1; clamped nodes take their state).
  double potts_energy(const std::vector<std::uint8_t>& states) const;

 private:
  SpinModel() = default;
  /// The CRS adjacency and the greedy colouring of edges_ (fields_ and clamped_ set);
  /// returns the unique edge of every CRS entry.
  std::vector<std::int64_t> set_graph();
  double potts_magnitude() const;
  static SpinModel continuous(ContinuousKind kind, std::int64_t n_nodes,
                              const std::vector<Edge>& edges, const std::vector<double>& weights,
                              const std::vector<double>& fields);
  void require_positive_definite() const;
  void set_colouring(std::vector<std::int32_t> colour_of_node);

  std::vector<Edge> edges_;
  std::vector<std::int64_t> row_offsets_;
  std::vector<std::int32_t> columns_;
  std::vector<double> couplings_;
  std::vector<double> fields_;
  std::vector<std::int8_t> clamped_;
  std::vector<std::int32_t> colour_of_node_;
  std::vector<std::int64_t> block_offsets_;
  std::vector<std::int32_t> block_nodes_;
  std::int64_t n_free_ = 0;
  std::int32_t n_colours_ = 0;
  int n_states_ = 2;
  bool potts_ = false;
  std::vector<double> state_fields_;
  std::vector<std::int16_t> clamped_states_;
  std::vector<double> csr_matrices_;
  std::vector<double> edge_matrices_;
  std::optional<LatticeShape> lattice_shape_;
  ContinuousKind continuous_ = ContinuousKind::none;
  std::vector<double> node_weights_;
};

/// log Z of a model's annealing reference (its node terms alone) at inverse temperature
/// `beta`. Continuous models (beta > 0): a sum of one-dimensional integrals, closed forms
/// for Gaussian sites (1/2 log(2 pi / (beta d_i)) + beta h_i^2 / (2 d_i)) and quadrature
/// for double wells (reference_log_z.hpp, which gives its error too). Ising models (beta
/// >= 0): independent spins in the fields, sum over free nodes of log(2 cosh(beta h_i))
/// plus beta h_i c_i per node clamped to c_i. Throws ModelError for a Potts model or a
/// beta out of range.
double reference_log_z(const SpinModel& model, double beta);

}  // namespace hamon

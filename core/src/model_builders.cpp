// Model builders: lattices, RBMs and graph files, all reduced to SpinModel::from_edges so
// every model goes through the same validation.
#include "hamon/core/model_builders.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <fstream>
#include <limits>
#include <sstream>
#include <string_view>
#include <tuple>
#include <utility>

#include "hamon/core/colouring.hpp"
#include "hamon/core/memory_limit.hpp"

namespace hamon {

namespace {

constexpr std::int64_t kMaxNodes = std::numeric_limits<std::int32_t>::max();

/// Shortest round-trip form of a value ("1", "0.1"), so two different values never print
/// the same in a message.
std::string format_value(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Inf" : "-Inf";
  std::array<char, 32> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  return std::string(buffer.data(), result.ptr);
}

// ---------------------------------------------------------------------------------------
// Deterministic random values. Written out here (SplitMix64 and Box-Muller) rather than
// taken from <random>, whose distributions differ between standard libraries: a model
// built from a seed must be the same everywhere.

/// The SplitMix64 output function: a bijective 64-bit mix.
std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() { return mix64(state_ += 0x9e3779b97f4a7c15ULL); }
  /// Uniform in (0, 1]: never 0, so its logarithm is finite.
  double uniform_open_zero() { return static_cast<double>((next() >> 11) + 1) * 0x1p-53; }
  /// Uniform in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1p-53; }

 private:
  std::uint64_t state_;
};

// Couplings and fields get different streams, so equal seeds do not give correlated values.
constexpr std::uint64_t kCouplingStream = 0x636f75706c696e67ULL;  // "coupling"
constexpr std::uint64_t kFieldStream = 0x6669656c64730000ULL;     // "fields"

/// Draws values of one distribution, in order, from its own stream.
class ValueSource {
 public:
  ValueSource(const ValueDistribution& distribution, std::uint64_t stream)
      : distribution_(distribution), rng_(mix64(distribution.seed ^ stream)) {}

  double next() {
    switch (distribution_.kind) {
      case ValueDistribution::Kind::pm_one:
        return (rng_.next() >> 63) != 0 ? distribution_.value : -distribution_.value;
      case ValueDistribution::Kind::gaussian:
        return distribution_.mean + distribution_.value * standard_normal();
      case ValueDistribution::Kind::constant:
        break;
    }
    return distribution_.value;
  }

 private:
  /// Box-Muller, one normal per pair of uniforms (simple; speed is irrelevant here).
  double standard_normal() {
    constexpr double kTwoPi = 6.283185307179586476925286766559;
    const double radius = std::sqrt(-2.0 * std::log(rng_.uniform_open_zero()));
    return radius * std::cos(kTwoPi * rng_.uniform());
  }

  ValueDistribution distribution_;
  SplitMix64 rng_;
};

void check_distribution(const ValueDistribution& d, const std::string& what) {
  if (!std::isfinite(d.value) || !std::isfinite(d.mean)) {
    throw ModelError(what + " distribution: value and mean must be finite");
  }
  if (d.kind == ValueDistribution::Kind::gaussian && d.value < 0.0) {
    throw ModelError(what + " distribution: gaussian standard deviation " + format_value(d.value) +
                     " is negative");
  }
}

// ---------------------------------------------------------------------------------------
// Lattices

std::int64_t checked_lattice_size(const std::vector<int>& extents, bool periodic) {
  if (extents.size() != 2 && extents.size() != 3) {
    throw ModelError("make_lattice: a lattice needs 2 or 3 extents, got " +
                     std::to_string(extents.size()));
  }
  // Periodic extents of 1 or 2 would make self-loops or doubled bonds.
  const int minimum = periodic ? 3 : 1;
  std::int64_t n_nodes = 1;
  for (std::size_t d = 0; d < extents.size(); ++d) {
    if (extents[d] < minimum) {
      throw ModelError("make_lattice: extent " + std::to_string(extents[d]) + " of dimension " +
                       std::to_string(d) + " is below " + std::to_string(minimum) + " (" +
                       (periodic ? "periodic" : "open") +
                       " lattices need extents >= " + std::to_string(minimum) + ")");
    }
    n_nodes *= extents[d];
    // Checked after every factor, so the product never overflows int64.
    if (n_nodes > kMaxNodes) {
      throw ModelError("make_lattice: more than " + std::to_string(kMaxNodes) +
                       " nodes (the int32 node limit)");
    }
  }
  return n_nodes;
}

/// Bonds in the documented order: for each node in index order, for each dimension, the
/// +1 neighbour along it (none at an open boundary); couplings drawn in that order.
std::vector<Edge> lattice_bonds(const std::vector<int>& extents, bool periodic,
                                std::int64_t n_nodes, const ValueDistribution& coupling) {
  const std::size_t dims = extents.size();
  std::vector<std::int64_t> stride(dims, 1);
  for (std::size_t d = dims - 1; d-- > 0;) stride[d] = stride[d + 1] * extents[d + 1];

  ValueSource couplings(coupling, kCouplingStream);
  std::vector<Edge> bonds;
  bonds.reserve(static_cast<std::size_t>(n_nodes) * dims);
  std::vector<int> coord(dims, 0);
  for (std::int64_t node = 0; node < n_nodes; ++node) {
    for (std::size_t d = 0; d < dims; ++d) {
      if (coord[d] + 1 < extents[d]) {
        bonds.push_back({node, node + stride[d], couplings.next()});
      } else if (periodic) {
        bonds.push_back({node, node - (extents[d] - 1) * stride[d], couplings.next()});
      }
    }
    // Advance the row-major coordinate: the last dimension varies fastest.
    for (std::size_t d = dims; d-- > 0;) {
      if (++coord[d] < extents[d]) break;
      coord[d] = 0;
    }
  }
  return bonds;
}

std::vector<double> draw_values(const ValueDistribution& distribution, std::uint64_t stream,
                                std::size_t count) {
  ValueSource source(distribution, stream);
  std::vector<double> values(count);
  for (double& v : values) v = source.next();
  return values;
}

// ---------------------------------------------------------------------------------------
// RBMs

void check_rbm_size(std::int64_t n_visible, std::int64_t n_hidden) {
  if (n_visible < 1 || n_hidden < 1) {
    throw ModelError("make_rbm: needs at least one visible and one hidden node, got " +
                     std::to_string(n_visible) + " visible and " + std::to_string(n_hidden) +
                     " hidden");
  }
  // Each layer is checked alone first so the sum cannot overflow; the sum bound then keeps
  // n_visible * n_hidden (below 2^62) from overflowing too.
  if (n_visible > kMaxNodes || n_hidden > kMaxNodes || n_visible + n_hidden > kMaxNodes) {
    throw ModelError("make_rbm: " + std::to_string(n_visible) + " visible + " +
                     std::to_string(n_hidden) + " hidden nodes exceed the int32 node limit of " +
                     std::to_string(kMaxNodes));
  }
}

// ---------------------------------------------------------------------------------------
// Graph files

/// Reads the text format of read_graph_file; every error names path:line.
class GraphFileReader {
 public:
  explicit GraphFileReader(std::string path) : path_(std::move(path)) {}

  SpinModel read() {
    std::ifstream in(path_);
    if (!in) throw ModelError(path_ + ": cannot open graph file");
    std::string text;
    while (std::getline(in, text)) {
      ++line_;
      parse_line(text);
    }
    // A directory opens but cannot be read; no line is to blame then.
    if (in.bad()) throw ModelError(path_ + ": cannot read graph file");
    if (n_nodes_ == 0) throw ModelError(path_ + ": no 'nodes N' line");
    check_duplicate_edges();
    try {
      return SpinModel::from_edges(n_nodes_, edges(), fields_, clamps());
    } catch (const ModelError& e) {
      // Everything from_edges rejects is caught per line above; this is a safety net.
      throw ModelError(path_ + ": " + e.what());
    }
  }

 private:
  struct EdgeLine {
    Edge edge;
    std::size_t line;
  };
  struct NodeValue {
    double value = 0.0;
    std::size_t line = 0;  // 0: not given
  };

  [[noreturn]] void fail(const std::string& what) const { fail_at(line_, what); }
  [[noreturn]] void fail_at(std::size_t line, const std::string& what) const {
    throw ModelError(path_ + ":" + std::to_string(line) + ": " + what);
  }

  void parse_line(std::string text) {
    text = text.substr(0, text.find('#'));
    std::istringstream tokens(text);
    std::string directive;
    if (!(tokens >> directive)) return;  // blank or comment only
    if (n_nodes_ == 0 && directive != "nodes") {
      fail("expected 'nodes N' before '" + directive + "'");
    }
    if (directive == "nodes") {
      parse_nodes(tokens);
    } else if (directive == "edge") {
      parse_edge(tokens);
    } else if (directive == "field") {
      parse_field(tokens);
    } else if (directive == "clamp") {
      parse_clamp(tokens);
    } else {
      fail("unknown directive '" + directive + "' (expected nodes, edge, field or clamp)");
    }
  }

  void parse_nodes(std::istringstream& tokens) {
    if (n_nodes_ != 0) fail("'nodes' given again");
    const auto args = arguments(tokens, 1, "nodes N");
    const std::int64_t n = parse_integer(args[0], "node count");
    if (n < 1 || n > kMaxNodes) {
      fail("node count " + args[0] + " outside [1, " + std::to_string(kMaxNodes) + "]");
    }
    // What the model of n nodes holds per node (field, clamp, colour, block, CRS row and
    // the reader's bookkeeping: about 64 B), refused before it is allocated.
    try {
      require_memory(64.0 * static_cast<double>(n), "a model of " + args[0] + " nodes",
                     "about 64 B per node", "use fewer nodes");
    } catch (const std::invalid_argument& e) {
      fail(e.what());
    }
    n_nodes_ = n;
    fields_.assign(static_cast<std::size_t>(n), 0.0);
    field_lines_.assign(static_cast<std::size_t>(n), {});
    clamp_lines_.assign(static_cast<std::size_t>(n), {});
  }

  void parse_edge(std::istringstream& tokens) {
    const auto args = arguments(tokens, 3, "edge I J COUPLING");
    const std::int64_t i = parse_node(args[0]);
    const std::int64_t j = parse_node(args[1]);
    if (i == j) fail("edge (" + args[0] + ", " + args[1] + "): self-loop");
    const double coupling = parse_finite(args[2], "coupling");
    edge_lines_.push_back({{std::min(i, j), std::max(i, j), coupling}, line_});
  }

  void parse_field(std::istringstream& tokens) {
    const auto args = arguments(tokens, 2, "field I H");
    const auto node = static_cast<std::size_t>(parse_node(args[0]));
    const double value = parse_finite(args[1], "field");
    set_once(field_lines_[node], value, "field of node " + args[0]);
    fields_[node] = value;
  }

  void parse_clamp(std::istringstream& tokens) {
    const auto args = arguments(tokens, 2, "clamp I VALUE");
    const auto node = static_cast<std::size_t>(parse_node(args[0]));
    const std::int64_t value = parse_integer(args[1], "clamp value");
    if (value != 1 && value != -1) {
      fail("clamp of node " + args[0] + ": value " + args[1] + " is not +1 or -1");
    }
    set_once(clamp_lines_[node], static_cast<double>(value), "clamp of node " + args[0]);
  }

  /// A node's field or clamp may be repeated with the same value, not with another one.
  void set_once(NodeValue& slot, double value, const std::string& what) {
    if (slot.line != 0 && slot.value != value) {
      fail(what + " given again with a different value (first on line " +
           std::to_string(slot.line) + ")");
    }
    if (slot.line == 0) slot = {value, line_};
  }

  std::vector<std::string> arguments(std::istringstream& tokens, std::size_t count,
                                     const std::string& usage) const {
    std::vector<std::string> args;
    std::string token;
    while (tokens >> token) args.push_back(token);
    if (args.size() != count) {
      fail("expected '" + usage + "', got " + std::to_string(args.size()) + " argument(s)");
    }
    return args;
  }

  /// from_chars rejects a leading '+', which the format allows ("clamp 3 +1").
  static std::string_view without_plus(const std::string& token) {
    std::string_view view(token);
    if (view.size() > 1 && view[0] == '+' && view[1] != '-' && view[1] != '+') {
      view.remove_prefix(1);
    }
    return view;
  }

  std::int64_t parse_integer(const std::string& token, const std::string& what) const {
    const std::string_view view = without_plus(token);
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(view.data(), view.data() + view.size(), value);
    if (error != std::errc() || end != view.data() + view.size()) {
      fail(what + " '" + token + "' is not an integer");
    }
    return value;
  }

  // Numbers are parsed with from_chars, which ignores the locale (strtod does not).
  double parse_finite(const std::string& token, const std::string& what) const {
    const std::string_view view = without_plus(token);
    double value = 0.0;
    const auto [end, error] = std::from_chars(view.data(), view.data() + view.size(), value);
    if (error != std::errc() || end != view.data() + view.size()) {
      fail(what + " '" + token + "' is not a number");
    }
    if (!std::isfinite(value)) fail(what + " '" + token + "' is not finite");
    return value;
  }

  std::int64_t parse_node(const std::string& token) const {
    const std::int64_t node = parse_integer(token, "node");
    if (node < 0 || node >= n_nodes_) {
      fail("node " + token + " out of range [0, " + std::to_string(n_nodes_) + ")");
    }
    return node;
  }

  void check_duplicate_edges() {
    std::vector<EdgeLine> sorted = edge_lines_;
    std::sort(sorted.begin(), sorted.end(), [](const EdgeLine& a, const EdgeLine& b) {
      return std::tie(a.edge.i, a.edge.j, a.line) < std::tie(b.edge.i, b.edge.j, b.line);
    });
    for (std::size_t k = 1; k < sorted.size(); ++k) {
      const EdgeLine& first = sorted[k - 1];
      const EdgeLine& again = sorted[k];
      if (first.edge.i == again.edge.i && first.edge.j == again.edge.j &&
          first.edge.coupling != again.edge.coupling) {
        fail_at(again.line, "edge (" + std::to_string(again.edge.i) + ", " +
                                std::to_string(again.edge.j) + ") given again with coupling " +
                                format_value(again.edge.coupling) + " (line " +
                                std::to_string(first.line) + " gave " +
                                format_value(first.edge.coupling) + ")");
      }
    }
  }

  std::vector<Edge> edges() const {
    std::vector<Edge> result;
    result.reserve(edge_lines_.size());
    for (const EdgeLine& e : edge_lines_) result.push_back(e.edge);
    return result;
  }

  std::vector<Clamp> clamps() const {
    std::vector<Clamp> result;
    for (std::size_t node = 0; node < clamp_lines_.size(); ++node) {
      if (clamp_lines_[node].line != 0) {
        result.push_back(
            {static_cast<std::int64_t>(node), static_cast<int>(clamp_lines_[node].value)});
      }
    }
    return result;
  }

  std::string path_;
  std::size_t line_ = 0;
  std::int64_t n_nodes_ = 0;  // 0 until the 'nodes' line
  std::vector<EdgeLine> edge_lines_;
  std::vector<double> fields_;
  std::vector<NodeValue> field_lines_;
  std::vector<NodeValue> clamp_lines_;
};

}  // namespace

SpinModel make_lattice(const std::vector<int>& extents, bool periodic,
                       const ValueDistribution& coupling, const ValueDistribution& field) {
  check_distribution(coupling, "coupling");
  check_distribution(field, "field");
  const std::int64_t n_nodes = checked_lattice_size(extents, periodic);
  const std::vector<Edge> bonds = lattice_bonds(extents, periodic, n_nodes, coupling);
  const std::vector<double> fields =
      draw_values(field, kFieldStream, static_cast<std::size_t>(n_nodes));
  SpinModel model = SpinModel::from_edges(n_nodes, bonds, fields);
  // Two colours (half the lattice per block) whenever the checkerboard is proper; otherwise
  // the greedy colouring from_edges already computed stays.
  const std::vector<std::int32_t> checkerboard = checkerboard_colouring(extents, periodic);
  if (!checkerboard.empty()) model = model.with_blocks(checkerboard);
  return model.with_lattice_shape(LatticeShape{extents, periodic});
}

SpinModel make_rbm(std::int64_t n_visible, std::int64_t n_hidden,
                   const std::vector<double>& weights, const std::vector<double>& visible_bias,
                   const std::vector<double>& hidden_bias,
                   const std::vector<int>& clamped_visible) {
  check_rbm_size(n_visible, n_hidden);
  const auto n_v = static_cast<std::size_t>(n_visible);
  const auto n_h = static_cast<std::size_t>(n_hidden);
  const auto check_size = [](const std::vector<double>& values, std::size_t expected,
                             bool may_be_empty, const std::string& what) {
    if ((values.empty() && may_be_empty) || values.size() == expected) return;
    throw ModelError("make_rbm: " + what + " has " + std::to_string(values.size()) +
                     " entries, expected " + std::to_string(expected));
  };
  check_size(weights, n_v * n_h, false, "weights");
  check_size(visible_bias, n_v, true, "visible_bias");
  check_size(hidden_bias, n_h, true, "hidden_bias");
  if (!clamped_visible.empty() && clamped_visible.size() != n_v) {
    throw ModelError("make_rbm: clamped_visible has " + std::to_string(clamped_visible.size()) +
                     " entries, expected " + std::to_string(n_v));
  }

  std::vector<Edge> edges;
  edges.reserve(n_v * n_h);
  for (std::size_t v = 0; v < n_v; ++v) {
    for (std::size_t h = 0; h < n_h; ++h) {
      const double w = weights[v * n_h + h];
      if (!std::isfinite(w)) {
        throw ModelError("make_rbm: weight " + std::to_string(v * n_h + h) + " (visible " +
                         std::to_string(v) + ", hidden " + std::to_string(h) + ") is not finite");
      }
      edges.push_back({static_cast<std::int64_t>(v), n_visible + static_cast<std::int64_t>(h), w});
    }
  }
  std::vector<double> fields(n_v + n_h, 0.0);
  std::copy(visible_bias.begin(), visible_bias.end(), fields.begin());
  std::copy(hidden_bias.begin(), hidden_bias.end(),
            fields.begin() + static_cast<std::ptrdiff_t>(n_v));
  std::vector<Clamp> clamps;
  clamps.reserve(clamped_visible.size());
  for (std::size_t v = 0; v < clamped_visible.size(); ++v) {
    clamps.push_back({static_cast<std::int64_t>(v), clamped_visible[v]});
  }
  // Visible nodes come first, so the greedy colouring gives visible 0 and hidden 1.
  return SpinModel::from_edges(n_visible + n_hidden, edges, fields, clamps);
}

SpinModel make_random_rbm(std::int64_t n_visible, std::int64_t n_hidden,
                          const ValueDistribution& weights, const ValueDistribution& biases) {
  check_distribution(weights, "weight");
  check_distribution(biases, "bias");
  check_rbm_size(n_visible, n_hidden);
  const auto n_v = static_cast<std::size_t>(n_visible);
  const auto n_h = static_cast<std::size_t>(n_hidden);
  const std::vector<double> w = draw_values(weights, kCouplingStream, n_v * n_h);
  // Visible biases first, then hidden, from one stream.
  std::vector<double> b = draw_values(biases, kFieldStream, n_v + n_h);
  const std::vector<double> hidden_bias(b.begin() + static_cast<std::ptrdiff_t>(n_v), b.end());
  b.resize(n_v);
  return make_rbm(n_visible, n_hidden, w, b, hidden_bias);
}

SpinModel read_graph_file(const std::string& path) {
  return GraphFileReader(path).read();
}

}  // namespace hamon

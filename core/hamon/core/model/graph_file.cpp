// SPDX-License-Identifier: Apache-2.0
// read_graph_file (hamon/core/model/graph_file.hpp): the graph text format (documented in
// examples/README.md), reduced to SpinModel::from_edges (SpinModel::potts for a file with a
// 'potts q' line, SpinModel::gaussian / double_well for one with 'diag' / 'barrier' lines)
// like every other builder; and write_graph_file, its inverse.
#include "hamon/core/model/graph_file.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/util/memory_limit.hpp"
#include "hamon/core/util/text.hpp"

namespace hamon {

namespace {

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
    try {
      if (q_ > 0) return SpinModel::potts(n_nodes_, q_, edges(), fields_, clamps());
      if (kind_ == ContinuousKind::gaussian) {
        return SpinModel::gaussian(n_nodes_, edges(), weights_, fields_);
      }
      if (kind_ == ContinuousKind::double_well) {
        return SpinModel::double_well(n_nodes_, edges(), weights_, fields_);
      }
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
    } else if (directive == "potts") {
      parse_potts(tokens);
    } else if (directive == "edge") {
      parse_edge(tokens);
    } else if (directive == "field") {
      parse_field(tokens);
    } else if (directive == "diag") {
      parse_weight(tokens, ContinuousKind::gaussian);
    } else if (directive == "barrier") {
      parse_weight(tokens, ContinuousKind::double_well);
    } else if (directive == "clamp") {
      parse_clamp(tokens);
    } else {
      fail("unknown directive '" + directive +
           "' (expected nodes, potts, edge, field, clamp, diag or barrier)");
    }
    if (directive != "nodes") after_nodes_ = true;
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

  /// `potts q` makes the file a q-state Potts model; it must be the line after `nodes N`.
  void parse_potts(std::istringstream& tokens) {
    if (q_ > 0) fail("'potts' given again");
    if (after_nodes_) fail("'potts q' must come right after the 'nodes N' line");
    const auto args = arguments(tokens, 1, "potts Q");
    const std::int64_t q = parse_integer(args[0], "state count");
    if (q < 2 || q > kMaxStates) {
      fail("state count " + args[0] + " outside [2, " + std::to_string(kMaxStates) + "]");
    }
    const double per_node = 16.0 * static_cast<double>(q);  // a field and its bookkeeping
    try {
      require_memory(
          per_node * static_cast<double>(n_nodes_),
          "per-state fields of " + std::to_string(n_nodes_) + " nodes x " + args[0] + " states",
          "about 16 B per node and state", "use fewer nodes or states");
    } catch (const std::invalid_argument& e) {
      fail(e.what());
    }
    q_ = static_cast<int>(q);
    fields_.clear();
    field_lines_.assign(static_cast<std::size_t>(n_nodes_) * static_cast<std::size_t>(q_), {});
  }

  void parse_edge(std::istringstream& tokens) {
    const auto args = arguments(tokens, 3, "edge I J COUPLING");
    const std::int64_t i = parse_node(args[0]);
    const std::int64_t j = parse_node(args[1]);
    if (i == j) fail("edge (" + args[0] + ", " + args[1] + "): self-loop");
    const double coupling = parse_finite(args[2], "coupling");
    const Edge edge{std::min(i, j), std::max(i, j), coupling};
    // A repeated edge must repeat its coupling; checked as the line is read, so that the
    // file's first error is the one reported.
    const auto [seen, first_time] = last_line_of_edge_.try_emplace({edge.i, edge.j}, 0);
    if (!first_time) {
      const EdgeLine& before = edge_lines_[seen->second];
      if (before.edge.coupling != coupling) {
        fail("edge (" + std::to_string(edge.i) + ", " + std::to_string(edge.j) +
             ") given again with coupling " + format_value(coupling) + " (line " +
             std::to_string(before.line) + " gave " + format_value(before.edge.coupling) + ")");
      }
    }
    seen->second = edge_lines_.size();
    edge_lines_.push_back({edge, line_});
  }

  void parse_field(std::istringstream& tokens) {
    if (q_ > 0) {
      const auto args = arguments(tokens, 3, "field I S H");
      const auto node = static_cast<std::size_t>(parse_node(args[0]));
      const auto state = static_cast<std::size_t>(parse_state(args[1]));
      const double value = parse_finite(args[2], "field");
      const std::size_t slot = node * static_cast<std::size_t>(q_) + state;
      set_once(field_lines_[slot], value, "field of node " + args[0] + " in state " + args[1]);
      if (fields_.empty()) fields_.assign(field_lines_.size(), 0.0);
      fields_[slot] = value;
      return;
    }
    const auto args = arguments(tokens, 2, "field I H");
    const auto node = static_cast<std::size_t>(parse_node(args[0]));
    const double value = parse_finite(args[1], "field");
    set_once(field_lines_[node], value, "field of node " + args[0]);
    fields_[node] = value;
  }

  /// `diag I D` (a Gaussian model's d_i) or `barrier I L` (a double well's lambda_i): the
  /// first makes the file a continuous model; nodes without a line take 1.
  void parse_weight(std::istringstream& tokens, ContinuousKind kind) {
    const std::string name = kind == ContinuousKind::gaussian ? "diag" : "barrier";
    if (q_ > 0) fail("'" + name + "' is for continuous models, not a Potts file");
    if (kind_ != ContinuousKind::none && kind_ != kind) {
      fail("'diag' (Gaussian) and 'barrier' (double well) cannot be mixed in one file");
    }
    if (has_clamps_) fail("continuous models have no clamped nodes ('clamp' lines)");
    const auto args = arguments(tokens, 2, name + " I VALUE");
    const auto node = static_cast<std::size_t>(parse_node(args[0]));
    const double value = parse_finite(args[1], name);
    if (!(value > 0.0)) fail(name + " of node " + args[0] + " is " + args[1] + ", not > 0");
    if (kind_ == ContinuousKind::none) {
      kind_ = kind;
      weights_.assign(static_cast<std::size_t>(n_nodes_), 1.0);
      weight_lines_.assign(static_cast<std::size_t>(n_nodes_), {});
    }
    set_once(weight_lines_[node], value, name + " of node " + args[0]);
    weights_[node] = value;
  }

  void parse_clamp(std::istringstream& tokens) {
    if (kind_ != ContinuousKind::none) fail("continuous models have no clamped nodes");
    has_clamps_ = true;
    if (q_ > 0) {
      const auto args = arguments(tokens, 2, "clamp I S");
      const auto node = static_cast<std::size_t>(parse_node(args[0]));
      const std::int64_t state = parse_state(args[1]);
      set_once(clamp_lines_[node], static_cast<double>(state), "clamp of node " + args[0]);
      return;
    }
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

  double parse_finite(const std::string& token, const std::string& what) const {
    const std::optional<double> value = parse_real(token);
    if (!value) fail(what + " '" + token + "' is not a number");
    if (!std::isfinite(*value)) fail(what + " '" + token + "' is not finite");
    return *value;
  }

  std::int64_t parse_node(const std::string& token) const {
    const std::int64_t node = parse_integer(token, "node");
    if (node < 0 || node >= n_nodes_) {
      fail("node " + token + " out of range [0, " + std::to_string(n_nodes_) + ")");
    }
    return node;
  }

  /// A Potts state, 0 <= S < q.
  std::int64_t parse_state(const std::string& token) const {
    const std::int64_t state = parse_integer(token, "state");
    if (state < 0 || state >= q_) {
      fail("state " + token + " out of range [0, " + std::to_string(q_) + ") (potts " +
           std::to_string(q_) + ")");
    }
    return state;
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
  int q_ = 0;                 // the 'potts q' line's q; 0: Ising spins
  bool after_nodes_ = false;  // a line other than 'nodes' was read ('potts' comes first)
  std::vector<EdgeLine> edge_lines_;
  // Per edge (i < j), the index in edge_lines_ of its latest line.
  std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> last_line_of_edge_;
  std::vector<double> fields_;          // Potts: h_i(s) at [i * q + s], empty until one is given
  std::vector<NodeValue> field_lines_;  // per node (Potts: per node and state)
  std::vector<NodeValue> clamp_lines_;
  bool has_clamps_ = false;
  ContinuousKind kind_ = ContinuousKind::none;  // set by the first 'diag' or 'barrier' line
  std::vector<double> weights_;                 // d_i or lambda_i
  std::vector<NodeValue> weight_lines_;
};

}  // namespace

SpinModel read_graph_file(const std::string& path) {
  return GraphFileReader(path).read();
}

namespace {

/// +0 is the reader's default; every other value (-0 included) is written.
bool is_positive_zero(double value) {
  return value == 0.0 && !std::signbit(value);
}

/// One line: the directive, its integers, and a number that %.17g makes round-trip.
void write_line(std::ostream& out, const char* directive, std::int64_t a, std::int64_t b,
                bool two_integers, double value) {
  char line[96];
  const int n = two_integers
                    ? std::snprintf(line, sizeof line, "%s %lld %lld %.17g\n", directive,
                                    static_cast<long long>(a), static_cast<long long>(b), value)
                    : std::snprintf(line, sizeof line, "%s %lld %.17g\n", directive,
                                    static_cast<long long>(a), value);
  out.write(line, n);
}

}  // namespace

void write_graph_file(std::ostream& out, const SpinModel& model) {
  if (!model.edge_matrices().empty()) {
    throw ModelError(
        "write_graph_file: the model has general q x q coupling matrices, which the graph "
        "text format cannot hold");
  }
  const std::int64_t n = model.n_nodes();
  out << "nodes " << n << "\n";
  const bool potts = model.is_potts();
  const auto q = static_cast<std::int64_t>(model.n_states());
  if (potts) out << "potts " << q << "\n";
  for (const Edge& e : model.edges()) write_line(out, "edge", e.i, e.j, true, e.coupling);
  if (potts) {
    const std::vector<double>& h = model.state_fields();
    for (std::size_t k = 0; k < h.size(); ++k) {
      if (is_positive_zero(h[k])) continue;
      const auto node = static_cast<std::int64_t>(k) / q;
      write_line(out, "field", node, static_cast<std::int64_t>(k) % q, true, h[k]);
    }
    const std::vector<std::int16_t>& states = model.clamped_states();
    for (std::size_t i = 0; i < states.size(); ++i) {
      if (states[i] >= 0) out << "clamp " << i << " " << states[i] << "\n";
    }
  } else {
    const std::vector<double>& h = model.fields();
    for (std::size_t i = 0; i < h.size(); ++i) {
      if (!is_positive_zero(h[i]))
        write_line(out, "field", static_cast<std::int64_t>(i), 0, false, h[i]);
    }
    const std::vector<std::int8_t>& clamped = model.clamped();
    for (std::size_t i = 0; i < clamped.size(); ++i) {
      if (clamped[i] != 0) out << "clamp " << i << " " << static_cast<int>(clamped[i]) << "\n";
    }
  }
  if (model.is_continuous()) {
    const char* directive =
        model.continuous_kind() == ContinuousKind::gaussian ? "diag" : "barrier";
    const std::vector<double>& weights = model.node_weights();
    for (std::size_t i = 0; i < weights.size(); ++i) {
      write_line(out, directive, static_cast<std::int64_t>(i), 0, false, weights[i]);
    }
  }
}

}  // namespace hamon

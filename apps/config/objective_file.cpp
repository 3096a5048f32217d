// SPDX-License-Identifier: Apache-2.0
#include "config/objective_file.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <optional>
#include <tuple>
#include <vector>

#include "config/config_error.hpp"
#include "hamon/core/model/spin_model.hpp"
#include "hamon/core/util/text.hpp"

namespace hamon::cli {

namespace {

struct Token {
  std::string text;
  int column = 0;  // 1-based
};

/// A line's whitespace-separated words, up to a '#' (a comment).
std::vector<Token> tokens_of(const std::string& line) {
  std::vector<Token> tokens;
  std::size_t k = 0;
  while (k < line.size() && line[k] != '#') {
    if (std::isspace(static_cast<unsigned char>(line[k])) != 0) {
      ++k;
      continue;
    }
    const std::size_t start = k;
    while (k < line.size() && line[k] != '#' &&
           std::isspace(static_cast<unsigned char>(line[k])) == 0) {
      ++k;
    }
    tokens.push_back({line.substr(start, k - start), static_cast<int>(start) + 1});
  }
  return tokens;
}

class Reader {
 public:
  Reader(std::string path, ObjectiveFormat format) : path_(std::move(path)), format_(format) {}

  [[noreturn]] void fail(int line, int column, const std::string& message) const {
    throw ConfigError(Location{path_, line, column, "model.file"}, message);
  }

  std::int64_t integer(const Token& t, int line, const char* what) const {
    std::int64_t value = 0;
    // A leading '+' is allowed, as in the graph text format ("+3"); from_chars rejects it.
    const bool plus = t.text.size() > 1 && t.text[0] == '+' && t.text[1] != '-';
    const char* begin = t.text.data() + (plus ? 1 : 0);
    const char* end = t.text.data() + t.text.size();
    const auto [ptr, ec] = std::from_chars(begin, end, value);
    if (ec != std::errc() || ptr != end) {
      fail(line, t.column, std::string("expected ") + what + " (an integer), got '" + t.text + "'");
    }
    return value;
  }

  double number(const Token& t, int line, const char* what) const {
    // Locale-free, the forms every other file hamon reads takes.
    const std::optional<double> value = parse_real(t.text);
    if (!value) {
      fail(line, t.column, std::string("expected ") + what + " (a number), got '" + t.text + "'");
    }
    if (!std::isfinite(*value)) {
      fail(line, t.column, std::string(what) + " must be finite, got '" + t.text + "'");
    }
    return *value;
  }

  /// An index of the file checked against first..last (the file's own numbering).
  std::int64_t index(const Token& t, int line, std::int64_t first, std::int64_t last,
                     const std::string& why) const {
    const std::int64_t value = integer(t, line, "an index");
    if (value < first || value > last) {
      fail(line, t.column,
           "index " + t.text + " out of range " + std::to_string(first) + ".." +
               std::to_string(last) + " (" + why + ")");
    }
    return value;
  }

  const std::string& path() const { return path_; }
  ObjectiveFormat format() const { return format_; }

 private:
  std::string path_;
  ObjectiveFormat format_;
};

struct Line {
  int number = 0;
  std::vector<Token> tokens;
};

/// The lines that hold something (comments and blank lines dropped).
std::vector<Line> content_lines(const Reader& reader) {
  std::ifstream in(reader.path());
  if (!in) reader.fail(0, 0, "cannot read the file");
  std::vector<Line> lines;
  std::string text;
  int number = 0;
  while (std::getline(in, text)) {
    ++number;
    auto tokens = tokens_of(text);
    if (!tokens.empty()) lines.push_back({number, std::move(tokens)});
  }
  if (in.bad()) reader.fail(number, 0, "cannot read the file");
  return lines;
}

/// A line 'i j value' (three words) as written: the indices unchecked but for being integers.
struct Entry {
  std::int64_t i = 0;
  std::int64_t j = 0;
  double value = 0.0;
  int line = 0;
  const Line* source = nullptr;
};

Entry entry_of(const Reader& reader, const Line& line, const char* form) {
  if (line.tokens.size() != 3) {
    const Token& at = line.tokens.size() > 3 ? line.tokens[3] : line.tokens.back();
    reader.fail(line.number, at.column,
                std::string("expected '") + form + "' (three fields), got " +
                    std::to_string(line.tokens.size()));
  }
  Entry e;
  e.line = line.number;
  e.source = &line;
  e.value = reader.number(line.tokens[2], line.number,
                          reader.format() == ObjectiveFormat::qubo ? "Q" : "the weight w");
  return e;
}

/// A pair given twice: the later line names the first (pairs already ordered i <= j).
void reject_duplicates(const Reader& reader, std::vector<Entry> entries, const char* what) {
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return std::tie(a.i, a.j, a.line) < std::tie(b.i, b.j, b.line);
  });
  const Entry* worst = nullptr;  // the repeat seen first in the file
  int first_line = 0;
  for (std::size_t k = 1; k < entries.size(); ++k) {
    const Entry& a = entries[k - 1];
    const Entry& b = entries[k];
    if (a.i == b.i && a.j == b.j && (worst == nullptr || b.line < worst->line)) {
      worst = &b;
      std::size_t first = k - 1;
      while (first > 0 && entries[first - 1].i == b.i && entries[first - 1].j == b.j) --first;
      first_line = entries[first].line;
    }
  }
  if (worst != nullptr) {
    reader.fail(worst->line, worst->source->tokens[0].column,
                std::string(what) + " (" + worst->source->tokens[0].text + ", " +
                    worst->source->tokens[1].text + ") given twice (first on line " +
                    std::to_string(first_line) + ")");
  }
}

ObjectiveTerms read_qubo(const Reader& reader, const std::vector<Line>& lines) {
  ObjectiveTerms out;
  out.format = ObjectiveFormat::qubo;
  std::size_t first = 0;
  std::optional<std::int64_t> declared;
  if (!lines.empty() && lines[0].tokens[0].text == "variables") {
    const Line& line = lines[0];
    if (line.tokens.size() != 2) {
      reader.fail(line.number, line.tokens[0].column, "expected 'variables N'");
    }
    declared = reader.integer(line.tokens[1], line.number, "the variable count N");
    if (*declared < 1 || *declared > kMaxNodes) {
      reader.fail(line.number, line.tokens[1].column,
                  "the variable count must be 1.." + std::to_string(kMaxNodes) + ", got " +
                      line.tokens[1].text);
    }
    first = 1;
  }
  if (first == lines.size()) {
    reader.fail(lines.empty() ? 0 : lines[0].number, 0,
                "no QUBO entries (expected lines 'i j Q', 0-based, i <= j)");
  }
  const std::int64_t last = declared ? *declared - 1 : kMaxNodes - 1;
  const std::string why = declared ? "0-based, 'variables " + std::to_string(*declared) +
                                         "' on line " + std::to_string(lines[0].number)
                                   : std::string("0-based");
  std::vector<Entry> entries;
  bool names_zero = false;
  for (std::size_t k = first; k < lines.size(); ++k) {
    const Line& line = lines[k];
    if (line.tokens[0].text == "variables") {
      reader.fail(line.number, line.tokens[0].column,
                  "'variables N' may only be the first line (before any entry)");
    }
    Entry e = entry_of(reader, line, "i j Q");
    e.i = reader.index(line.tokens[0], line.number, 0, last, why);
    e.j = reader.index(line.tokens[1], line.number, 0, last, why);
    if (e.i > e.j) {
      reader.fail(line.number, line.tokens[0].column,
                  "i > j (" + line.tokens[0].text + " > " + line.tokens[1].text +
                      "): a QUBO file gives the upper triangle, i <= j (write it as '" +
                      line.tokens[1].text + " " + line.tokens[0].text + " " + line.tokens[2].text +
                      "')");
    }
    names_zero = names_zero || e.i == 0;
    out.n = std::max(out.n, e.j + 1);
    entries.push_back(e);
  }
  if (!declared && !names_zero) {
    // Without a declared size a 1-based file would pass with a spurious free variable 0.
    reader.fail(lines[first].number, lines[first].tokens[0].column,
                "no entry names variable 0, and QUBO indices are 0-based: a 1-based file? "
                "Subtract 1 from every index (or, if variable 0 has no terms, say the size "
                "with a first line 'variables N')");
  }
  if (declared) out.n = *declared;
  reject_duplicates(reader, entries, "entry");
  out.terms.reserve(entries.size());
  for (const Entry& e : entries) out.terms.push_back({e.i, e.j, e.value});
  return out;
}

ObjectiveTerms read_maxcut(const Reader& reader, const std::vector<Line>& lines) {
  ObjectiveTerms out;
  out.format = ObjectiveFormat::maxcut;
  if (lines.empty()) reader.fail(0, 0, "empty file (expected a first line 'n m', G-set format)");
  const Line& head = lines[0];
  if (head.tokens.size() != 2) {
    reader.fail(head.number, head.tokens[0].column,
                "expected a first line 'n m' (nodes and edges, G-set format), got " +
                    std::to_string(head.tokens.size()) + " fields");
  }
  out.n = reader.integer(head.tokens[0], head.number, "the node count n");
  const std::int64_t m = reader.integer(head.tokens[1], head.number, "the edge count m");
  if (out.n < 1 || out.n > kMaxNodes) {
    reader.fail(
        head.number, head.tokens[0].column,
        "the node count must be 1.." + std::to_string(kMaxNodes) + ", got " + head.tokens[0].text);
  }
  if (m < 0)
    reader.fail(head.number, head.tokens[1].column, "negative edge count " + head.tokens[1].text);
  const auto edges = static_cast<std::int64_t>(lines.size()) - 1;
  const std::string why = "G-set nodes are 1-based, n = " + std::to_string(out.n);
  std::vector<Entry> entries;
  for (std::size_t k = 1; k < lines.size(); ++k) {
    const Line& line = lines[k];
    if (static_cast<std::int64_t>(k) > m) {
      reader.fail(line.number, line.tokens[0].column,
                  "more edges than the " + std::to_string(m) + " the first line (line " +
                      std::to_string(head.number) + ") declares");
    }
    Entry e = entry_of(reader, line, "i j w");
    const std::int64_t i = reader.index(line.tokens[0], line.number, 1, out.n, why);
    const std::int64_t j = reader.index(line.tokens[1], line.number, 1, out.n, why);
    if (i == j) {
      reader.fail(line.number, line.tokens[0].column,
                  "self-loop on node " + line.tokens[0].text + " (a cut never separates it)");
    }
    e.i = std::min(i, j) - 1;
    e.j = std::max(i, j) - 1;
    entries.push_back(e);
  }
  if (edges < m) {
    reader.fail(head.number, head.tokens[1].column,
                "the first line declares m = " + std::to_string(m) + " edges, the file has " +
                    std::to_string(edges));
  }
  reject_duplicates(reader, entries, "edge");
  out.terms.reserve(entries.size());
  for (const Entry& e : entries) out.terms.push_back({e.i, e.j, e.value});
  return out;
}

}  // namespace

ObjectiveTerms read_objective_file(const std::string& path, ObjectiveFormat format) {
  const Reader reader(path, format);
  const std::vector<Line> lines = content_lines(reader);
  return format == ObjectiveFormat::qubo ? read_qubo(reader, lines) : read_maxcut(reader, lines);
}

}  // namespace hamon::cli

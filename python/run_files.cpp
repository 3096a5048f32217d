// SPDX-License-Identifier: Apache-2.0
// load_run: a `hamon run` directory's outputs (examples/README.md, "Run directory") as
// NumPy arrays, with its summary.
#include <pybind11/stl.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "bindings.hpp"

namespace hamon_python {

void bind_run_files(py::module_& m) {
  m.def(
      "load_run",
      [](const std::string& directory) {
        namespace fs = std::filesystem;
        const fs::path dir(directory);
        if (!fs::is_directory(dir)) {
          throw py::value_error("load_run: " + directory + " is not a directory");
        }
        std::vector<fs::path> arrays;
        for (const auto& entry : fs::directory_iterator(dir)) {
          if (entry.path().extension() == ".npy") arrays.push_back(entry.path());
        }
        const fs::path summary = dir / "summary.yaml";
        if (arrays.empty() && !fs::exists(summary)) {
          throw py::value_error("load_run: " + directory +
                                " holds no summary.yaml and no .npy file: not a run directory");
        }
        std::sort(arrays.begin(), arrays.end());
        py::dict out;
        const py::object load = py::module_::import("numpy").attr("load");
        for (const auto& path : arrays) {
          // allow_pickle stays off: a run directory holds plain arrays only.
          out[py::str(path.stem().string())] = load(path.string());
        }
        if (fs::exists(summary)) {
          std::ifstream in(summary);
          std::ostringstream text;
          text << in.rdbuf();
          out["summary_text"] = text.str();
          try {
            out["summary"] = py::module_::import("yaml").attr("safe_load")(text.str());
          } catch (const py::error_already_set& e) {
            if (!e.matches(PyExc_ImportError)) throw;
            out["summary"] = py::none();  // no PyYAML: summary_text holds it
          }
        }
        return out;
      },
      py::arg("directory"),
      "A run directory's arrays by file name (samples, energies, betas, ...), with "
      "'summary' (parsed when PyYAML is installed) and 'summary_text'.");
}

}  // namespace hamon_python

// SPDX-License-Identifier: Apache-2.0
#pragma once
// Writing a file so that no reader ever sees half of it: the content goes to a temporary
// name in the same directory ("NAME.partial-XXXXXX"), is flushed to disk, and is renamed
// to NAME only when complete. On any failure the temporary file is removed.

#include <sys/types.h>

#include <filesystem>
#include <functional>
#include <ostream>

namespace hamon::cli {

/// The process's umask (read once; files and directories are created with 0666 / 0777
/// minus it, as any other program's would be).
mode_t current_umask();

/// Writes `path` through `write`. Throws std::runtime_error naming the path on failure.
void write_atomically(const std::filesystem::path& path,
                      const std::function<void(std::ostream&)>& write);

}  // namespace hamon::cli

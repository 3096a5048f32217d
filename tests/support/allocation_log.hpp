// SPDX-License-Identifier: Apache-2.0
#pragma once
// Every Kokkos allocation made while an AllocationLog lives, through Kokkos's tool
// callbacks (the hooks a profiling tool gets): what a sampler really allocates in its
// memory space, by View label, and the peak of the bytes live at once. One log at a time;
// it replaces a loaded tool's allocation callbacks while it lives.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace hamon_test {

class AllocationLog {
 public:
  AllocationLog() {
    active() = this;
    Kokkos::Tools::Experimental::set_allocate_data_callback(&on_allocate);
    Kokkos::Tools::Experimental::set_deallocate_data_callback(&on_deallocate);
  }
  ~AllocationLog() {
    Kokkos::Tools::Experimental::set_allocate_data_callback(nullptr);
    Kokkos::Tools::Experimental::set_deallocate_data_callback(nullptr);
    active() = nullptr;
  }
  AllocationLog(const AllocationLog&) = delete;
  AllocationLog& operator=(const AllocationLog&) = delete;

  /// The sizes in bytes of every allocation labelled `label`, in order.
  std::vector<std::int64_t> sizes_of(const std::string& label) const {
    const auto it = sizes_.find(label);
    return it == sizes_.end() ? std::vector<std::int64_t>{} : it->second;
  }
  /// The most bytes live at once in the memory space named `space` (Kokkos's name:
  /// "Host", "Cuda", ...), counting only what was allocated while the log lived.
  std::int64_t peak_bytes(const std::string& space) const {
    const auto it = peak_.find(space);
    return it == peak_.end() ? 0 : it->second;
  }
  /// How many allocations the log saw.
  std::int64_t allocations() const {
    std::int64_t count = 0;
    for (const auto& entry : sizes_) count += static_cast<std::int64_t>(entry.second.size());
    return count;
  }
  /// Every label allocated, with its sizes (for a failure message).
  std::string listing() const {
    std::string text;
    for (const auto& [label, sizes] : sizes_) {
      text += label + ":";
      for (const std::int64_t s : sizes) text += " " + std::to_string(s);
      text += "\n";
    }
    return text;
  }
  std::int64_t live_bytes(const std::string& space) const {
    const auto it = live_.find(space);
    return it == live_.end() ? 0 : it->second;
  }

 private:
  static AllocationLog*& active() {
    static AllocationLog* log = nullptr;
    return log;
  }
  static void on_allocate(Kokkos::Tools::SpaceHandle space, const char* label, const void* ptr,
                          std::uint64_t size) {
    AllocationLog* log = active();
    if (log == nullptr) return;
    const auto bytes = static_cast<std::int64_t>(size);
    log->sizes_[label].push_back(bytes);
    log->owned_[ptr] = bytes;
    std::int64_t& live = log->live_[space.name];
    live += bytes;
    std::int64_t& peak = log->peak_[space.name];
    if (live > peak) peak = live;
  }
  static void on_deallocate(Kokkos::Tools::SpaceHandle space, const char*, const void* ptr,
                            std::uint64_t) {
    AllocationLog* log = active();
    if (log == nullptr) return;
    const auto it = log->owned_.find(ptr);
    if (it == log->owned_.end()) return;  // allocated before the log
    log->live_[space.name] -= it->second;
    log->owned_.erase(it);
  }

  std::map<std::string, std::vector<std::int64_t>> sizes_;
  std::map<const void*, std::int64_t> owned_;
  std::map<std::string, std::int64_t> live_, peak_;
};

}  // namespace hamon_test

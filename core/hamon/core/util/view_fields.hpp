// SPDX-License-Identifier: Apache-2.0
#pragma once
// The walks of a field list (field_list.hpp) over the Views of a struct, so that a View is
// named once, in its struct's list, and every walk covers it:
//
//   plan(view, extents...)     a planned View: extents, no memory (a plan is the struct
//                              itself with planned Views, made by one function per struct)
//   view_fields_bytes(s)       the bytes of every View with memory, or planned
//   allocate_planned(space, s) every planned View allocated, labelled by its field
//   alias_fields(to, from)     `from`'s Views seen from another memory space, owning nothing
//   copy_fields(space, to, from) `from`'s Views copied into `space`, labelled by their fields
//
// The memory check (sampler/detail/space_memory.hpp) counts a plan and the sampler
// allocates that same plan, so the count is of what is allocated, View by View.
//
// The storages a struct written once over them takes (MachineRecords, MomentSums, ...):
// host vectors (HostList, OnHost) or Views in a memory space (ViewsIn). A View's bytes are
// view_bytes' (view_bytes.hpp).

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "hamon/core/util/field_list.hpp"
#include "hamon/core/util/view_bytes.hpp"

namespace hamon {

template <class T>
using HostList = std::vector<T>;

/// Host vectors: a matrix is its rows, row-major, one after the other.
struct OnHost {
  template <class T>
  using vector = std::vector<T>;
  template <class T>
  using matrix = std::vector<T>;
};

/// Views in `MemorySpace`; `type` is `vector`, for structs over one-dimensional lists.
template <class MemorySpace>
struct ViewsIn {
  template <class T>
  using type = Kokkos::View<T*, MemorySpace>;
  template <class T>
  using vector = Kokkos::View<T*, MemorySpace>;
  template <class T>
  using matrix = Kokkos::View<T**, Kokkos::LayoutRight, MemorySpace>;
};

namespace detail {

template <class T>
using bare_t = std::remove_const_t<std::remove_reference_t<T>>;

/// Where planned Views point: two addresses nothing reads or writes, one for Views to be
/// zero-filled when allocated, one for Views their owner fills.
struct PlannedMarks {
  alignas(64) unsigned char zeroed[64];
  alignas(64) unsigned char unfilled[64];
};
inline PlannedMarks planned_marks;

/// A View of type `View` (of rank 0 to 2) made from `what` (its data, or a view_alloc) and
/// the first extents of `n0`, `n1` its rank takes.
template <class View, class What>
View shaped(const What& what, std::size_t n0, std::size_t n1) {
  static_assert(View::rank <= 2, "the walks take Views of rank 0, 1 or 2");
  if constexpr (View::rank == 0) {
    return View(what);
  } else if constexpr (View::rank == 1) {
    return View(what, n0);
  } else {
    return View(what, n0, n1);
  }
}

/// The same with `source`'s extents (Kokkos says 1 past a View's rank).
template <class View, class What, class Source>
View shaped_like(const What& what, const Source& source) {
  return shaped<View>(what, source.extent(0), source.extent(1));
}

template <class F>
std::string label_of(const F& f, const std::string& prefix) {
  return f.label != nullptr ? std::string(f.label) : prefix + f.name;
}

template <class View>
void plan_at(View& view, unsigned char* mark, std::size_t n0, std::size_t n1) {
  view = shaped<View>(reinterpret_cast<typename View::pointer_type>(mark), n0, n1);
}

}  // namespace detail

/// `view` planned with these extents (as many as its rank), zero-filled when allocated.
template <class View, class... Extents>
void plan(View& view, Extents... extents) {
  static_assert(sizeof...(Extents) == View::rank, "one extent per dimension");
  const std::size_t n[] = {static_cast<std::size_t>(extents)..., 0, 0};
  detail::plan_at(view, detail::planned_marks.zeroed, n[0], n[1]);
}

/// The same, for a View its owner fills once allocated (Kokkos::WithoutInitializing).
template <class View, class... Extents>
void plan_unfilled(View& view, Extents... extents) {
  static_assert(sizeof...(Extents) == View::rank, "one extent per dimension");
  const std::size_t n[] = {static_cast<std::size_t>(extents)..., 0, 0};
  detail::plan_at(view, detail::planned_marks.unfilled, n[0], n[1]);
}

/// The bytes of `s`'s Views that have memory or are planned, walking into nested lists.
template <class S>
double view_fields_bytes(const S& s) {
  double bytes = 0.0;
  for_each_field(s, [&bytes](const auto& f) {
    using T = detail::bare_t<decltype(f.value)>;
    if constexpr (Kokkos::is_view<T>::value) {
      if (f.value.data() == nullptr) return;  // a View this struct does not use
      bytes += detail::view_bytes(static_cast<double>(f.value.span()),
                                  static_cast<double>(sizeof(typename T::value_type)));
    } else if constexpr (has_field_list_v<T>) {
      bytes += view_fields_bytes(f.value);
    }
  });
  return bytes;
}

/// Every planned View of `s` allocated in `space` with its planned extents, labelled
/// `prefix` + its name (or its field's label); the other fields stay as they are.
template <class ExecutionSpace, class S>
void allocate_planned(const ExecutionSpace& space, S& s, const std::string& prefix = "hamon::") {
  for_each_field(s, [&](const auto& f) {
    using T = detail::bare_t<decltype(f.value)>;
    if constexpr (Kokkos::is_view<T>::value) {
      const void* data = f.value.data();
      if (data == detail::planned_marks.zeroed) {
        f.value =
            detail::shaped_like<T>(Kokkos::view_alloc(space, detail::label_of(f, prefix)), f.value);
      } else if (data == detail::planned_marks.unfilled) {
        f.value = detail::shaped_like<T>(
            Kokkos::view_alloc(space, Kokkos::WithoutInitializing, detail::label_of(f, prefix)),
            f.value);
      }
    } else if constexpr (has_field_list_v<T>) {
      allocate_planned(space, f.value, prefix);
    }
  });
}

/// `to` (a struct of the same list as `from`, over another memory space) set to `from`: its
/// Views over the same memory, owning nothing (copying them counts no references), the
/// other fields copied. The caller keeps `from`'s memory alive while `to` is used.
template <class To, class From>
void alias_fields(To& to, const From& from) {
  for_each_field_pair(fields_of(to), fields_of(from), [](const auto& t, const auto& f) {
    using T = detail::bare_t<decltype(t.value)>;
    if constexpr (Kokkos::is_view<T>::value) {
      t.value = detail::shaped_like<T>(f.value.data(), f.value);
    } else if constexpr (has_field_list_v<T>) {
      alias_fields(t.value, f.value);
    } else {
      t.value = f.value;
    }
  });
}

/// `to` set to `from` (the same list, Views in host memory): each View `from` has (non-null
/// data) copied into a new View in `space`, labelled as allocate_planned labels, the other
/// fields copied. The copies are enqueued on `space`: fence it before `from`'s memory goes.
template <class ExecutionSpace, class To, class From>
void copy_fields(const ExecutionSpace& space, To& to, const From& from,
                 const std::string& prefix = "hamon::") {
  for_each_field_pair(fields_of(to), fields_of(from), [&](const auto& t, const auto& f) {
    using T = detail::bare_t<decltype(t.value)>;
    if constexpr (Kokkos::is_view<T>::value) {
      if (f.value.data() == nullptr) return;  // a View this model does not use
      t.value = detail::shaped_like<T>(
          Kokkos::view_alloc(space, Kokkos::WithoutInitializing, detail::label_of(t, prefix)),
          f.value);
      Kokkos::deep_copy(space, t.value, f.value);
    } else if constexpr (has_field_list_v<T>) {
      copy_fields(space, t.value, f.value, prefix);
    } else {
      t.value = f.value;
    }
  });
}

}  // namespace hamon

// Nested structures of tensors: how tfcc::function, cond and while_loop take apart and rebuild
// what a C++ callable returns (a Tensor, a std::vector, a std::tuple / std::pair / std::array of
// those, or plain C++ values, which carry no tensors).
//
//   std::tuple<Tensor, std::vector<Tensor>> v = ...;
//   std::vector<Tensor> flat;
//   tfcc::Nest<decltype(v)>::flatten(v, flat);           // tensors in order
//   std::span<const Tensor> in(flat);
//   auto w = tfcc::Nest<decltype(v)>::unflatten(v, in);  // same structure, tensors from `in`
//
// Other types join by specialising tfcc::Nest (TensorArray does).
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <array>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "tfcc/core/tensor.h"

namespace tfcc {

/// Flattening / rebuilding of one structure type. The primary template covers plain C++ values
/// (numbers, enums, strings): no tensors; rebuilt as the original value.
template <typename T, typename Enable = void>
struct Nest {
  static_assert(std::is_arithmetic_v<T> || std::is_enum_v<T> || std::is_same_v<T, std::string>,
                "tfcc::Nest: a traced function or control flow branch may return tensors, "
                "vectors / tuples / pairs / arrays of them, and plain C++ values only");
  static void flatten(const T&, std::vector<Tensor>&) {}
  static T unflatten(const T& like, std::span<const Tensor>&) { return like; }
  static void invariants(const T&, std::vector<PartialShape>&) {}
};

template <>
struct Nest<Tensor> {
  static void flatten(const Tensor& t, std::vector<Tensor>& out) { out.push_back(t); }
  /// The shape each tensor keeps across while_loop iterations (default: the entry shape).
  static void invariants(const Tensor& t, std::vector<PartialShape>& out) {
    out.push_back(t.partial_shape());
  }
  static Tensor unflatten(const Tensor&, std::span<const Tensor>& in) {
    if (in.empty()) throw InternalError("Nest: fewer tensors than the structure holds");
    Tensor t = in.front();
    in = in.subspan(1);
    return t;
  }
};

template <typename T>
struct Nest<std::vector<T>> {
  static void flatten(const std::vector<T>& v, std::vector<Tensor>& out) {
    for (const T& x : v) Nest<T>::flatten(x, out);
  }
  static void invariants(const std::vector<T>& v, std::vector<PartialShape>& out) {
    for (const T& x : v) Nest<T>::invariants(x, out);
  }
  static std::vector<T> unflatten(const std::vector<T>& like, std::span<const Tensor>& in) {
    std::vector<T> r;
    r.reserve(like.size());
    for (const T& x : like) r.push_back(Nest<T>::unflatten(x, in));
    return r;
  }
};

template <typename T, size_t N>
struct Nest<std::array<T, N>> {
  static void flatten(const std::array<T, N>& v, std::vector<Tensor>& out) {
    for (const T& x : v) Nest<T>::flatten(x, out);
  }
  static void invariants(const std::array<T, N>& v, std::vector<PartialShape>& out) {
    for (const T& x : v) Nest<T>::invariants(x, out);
  }
  static std::array<T, N> unflatten(const std::array<T, N>& like, std::span<const Tensor>& in) {
    std::array<T, N> r = like;
    for (size_t i = 0; i < N; ++i) r[i] = Nest<T>::unflatten(like[i], in);
    return r;
  }
};

template <typename... Ts>
struct Nest<std::tuple<Ts...>> {
  static void flatten(const std::tuple<Ts...>& v, std::vector<Tensor>& out) {
    std::apply([&](const auto&... x) { (Nest<std::decay_t<decltype(x)>>::flatten(x, out), ...); },
               v);
  }
  static void invariants(const std::tuple<Ts...>& v, std::vector<PartialShape>& out) {
    std::apply(
        [&](const auto&... x) { (Nest<std::decay_t<decltype(x)>>::invariants(x, out), ...); }, v);
  }
  static std::tuple<Ts...> unflatten(const std::tuple<Ts...>& like, std::span<const Tensor>& in) {
    // Braced initialisation evaluates left to right: tensors are taken in order.
    return std::apply(
        [&](const auto&... x) {
          return std::tuple<Ts...>{Nest<std::decay_t<decltype(x)>>::unflatten(x, in)...};
        },
        like);
  }
};

template <typename A, typename B>
struct Nest<std::pair<A, B>> {
  static void flatten(const std::pair<A, B>& v, std::vector<Tensor>& out) {
    Nest<A>::flatten(v.first, out);
    Nest<B>::flatten(v.second, out);
  }
  static void invariants(const std::pair<A, B>& v, std::vector<PartialShape>& out) {
    Nest<A>::invariants(v.first, out);
    Nest<B>::invariants(v.second, out);
  }
  static std::pair<A, B> unflatten(const std::pair<A, B>& like, std::span<const Tensor>& in) {
    A a = Nest<A>::unflatten(like.first, in);
    B b = Nest<B>::unflatten(like.second, in);
    return {std::move(a), std::move(b)};
  }
};

/// The tensors of a structure, in order.
template <typename T>
std::vector<Tensor> flatten_tensors(const T& v) {
  std::vector<Tensor> out;
  Nest<T>::flatten(v, out);
  return out;
}

/// `like`'s structure holding `flat`'s tensors (which must be exactly enough).
template <typename T>
T pack_like(const T& like, std::span<const Tensor> flat) {
  T r = Nest<T>::unflatten(like, flat);
  if (!flat.empty()) throw InternalError("pack_like: tensors left over");
  return r;
}

}  // namespace tfcc
#pragma GCC visibility pop

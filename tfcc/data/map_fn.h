// Adapts user callables to the element-level functions the pipeline runs.
//
// A map function may take the element's components as separate tensors or the whole Element,
// and return a Tensor, a std::tuple of tensors, or an Element:
//   [](Tensor image, Tensor label) { return std::tuple{cast(image, float32) / 255.0f, label}; }
//   [](const Element& e) { return e[0]; }
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstddef>
#include <functional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "tfcc/data/element.h"
#include "tfcc/platform/errors.h"

namespace tfcc::data {

/// The form every map function is stored in.
using ElementFn = std::function<Element(const Element&)>;
/// The form every filter predicate is stored in.
using PredicateFn = std::function<bool(const Element&)>;

namespace internal {

template <typename F, size_t... I>
constexpr bool invocable_with_n(std::index_sequence<I...>) {
  return std::is_invocable_v<F, decltype((void)I, std::declval<Tensor>())...>;
}

/// How many separate tensors F takes (1..8), or 0 if none fits.
template <typename F>
constexpr size_t tensor_arity() {
  if constexpr (invocable_with_n<F>(std::make_index_sequence<1>{}))
    return 1;
  else if constexpr (invocable_with_n<F>(std::make_index_sequence<2>{}))
    return 2;
  else if constexpr (invocable_with_n<F>(std::make_index_sequence<3>{}))
    return 3;
  else if constexpr (invocable_with_n<F>(std::make_index_sequence<4>{}))
    return 4;
  else if constexpr (invocable_with_n<F>(std::make_index_sequence<5>{}))
    return 5;
  else if constexpr (invocable_with_n<F>(std::make_index_sequence<6>{}))
    return 6;
  else if constexpr (invocable_with_n<F>(std::make_index_sequence<7>{}))
    return 7;
  else if constexpr (invocable_with_n<F>(std::make_index_sequence<8>{}))
    return 8;
  else
    return 0;
}

template <typename R>
Element to_element(R&& r) {
  using D = std::decay_t<R>;
  if constexpr (std::is_same_v<D, Element>) {
    return std::forward<R>(r);
  } else if constexpr (std::is_convertible_v<D, Tensor>) {
    return Element{Tensor(std::forward<R>(r))};
  } else {
    return std::apply([](auto&&... t) { return Element{Tensor(std::forward<decltype(t)>(t))...}; },
                      std::forward<R>(r));
  }
}

template <typename F, size_t... I>
decltype(auto) call_unpacked(F& f, const Element& e, std::index_sequence<I...>) {
  return f(e[I]...);
}

/// Calls `f` on the element: as a whole when it takes an Element, else unpacked.
template <typename F>
decltype(auto) invoke_on_element(F& f, const Element& e, const char* what) {
  if constexpr (std::is_invocable_v<F&, const Element&> && !std::is_invocable_v<F&, Tensor>) {
    return f(e);
  } else {
    constexpr size_t n = tensor_arity<F&>();
    static_assert(n > 0, "a tf.data function must take tensors or a const Element&");
    TFCC_CHECK_ARG(e.size() == n, what, ": the function takes ", n, " tensors but the element has ",
                   e.size(), " components");
    return call_unpacked(f, e, std::make_index_sequence<n>{});
  }
}

template <typename F>
ElementFn make_element_fn(F f) {
  return [f = std::move(f)](const Element& e) mutable {
    return to_element(invoke_on_element(f, e, "map"));
  };
}

template <typename F>
PredicateFn make_predicate_fn(F f) {
  return [f = std::move(f)](const Element& e) mutable -> bool {
    using R = std::decay_t<decltype(invoke_on_element(f, e, "filter"))>;
    if constexpr (std::is_same_v<R, bool>) {
      return invoke_on_element(f, e, "filter");
    } else {
      Tensor t = invoke_on_element(f, e, "filter");
      TFCC_CHECK_ARG(t.dtype() == bool_ && t.rank() == 0,
                     "`predicate` return type must be convertible to a scalar boolean tensor. "
                     "Was TensorSpec(shape=",
                     t.shape().to_string(), ", dtype=", dtype_name(t.dtype()), ").");
      return t.item<bool>();
    }
  };
}

}  // namespace internal
}  // namespace tfcc::data
#pragma GCC visibility pop

// tfcc::print: printing as an op, like tf.print. Eagerly it prints at once; inside a traced
// function it becomes a node that prints at every call of the function, with the values of that
// call (a C++ `std::cout << x` inside the function runs only while tracing and prints a symbolic
// tensor's description).
//
//   auto f = tfcc::function([](tfcc::Tensor x) {
//     tfcc::print("x:", x);          // each call: "x: [1 2 3]"
//     return x * 2;
//   });
//
// Arguments are strings (printed as they are) and tensors (printed as their values, as NumPy
// prints them), separated by spaces and followed by a newline, on standard error like tf.print;
// print_to chooses the stream.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <iostream>
#include <string>
#include <variant>
#include <vector>

#include "tfcc/core/tensor.h"

namespace tfcc {

namespace internal {
/// One argument of print: text, or a tensor.
using PrintPiece = std::variant<std::string, Tensor>;
void print_pieces(std::ostream& os, std::vector<PrintPiece> pieces,
                  std::source_location loc = std::source_location::current());
inline PrintPiece to_piece(const Tensor& t) { return t; }
inline PrintPiece to_piece(const std::string& s) { return s; }
inline PrintPiece to_piece(const char* s) { return std::string(s); }
template <typename T>
requires std::is_arithmetic_v<T> PrintPiece to_piece(T v) { return internal::str_cat(v); }
}  // namespace internal

/// tf.print: prints its arguments to standard error when the op runs. (A class template so the
/// caller's line is recorded; use it like a function: `tfcc::print("x:", x);`.)
template <typename... Args>
struct print {
  print(const Args&... args, std::source_location loc = std::source_location::current()) {
    internal::print_pieces(std::cerr, {internal::to_piece(args)...}, loc);
  }
};
template <typename... Args>
print(const Args&...) -> print<Args...>;

/// tfcc::print to another stream: `tfcc::print_to(std::cout, "x:", x);`.
template <typename... Args>
struct print_to {
  print_to(std::ostream& os, const Args&... args,
           std::source_location loc = std::source_location::current()) {
    internal::print_pieces(os, {internal::to_piece(args)...}, loc);
  }
};
template <typename... Args>
print_to(std::ostream&, const Args&...) -> print_to<Args...>;

}  // namespace tfcc
#pragma GCC visibility pop

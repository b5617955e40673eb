// Element types of tensors, spelled like TensorFlow's (tfcc::float32, tfcc::int64, ...).
//
//   tfcc::DType t = tfcc::float32;
//   std::cout << t;                       // float32
//   size_t bytes = tfcc::dtype_size(t);   // 4
//   static_assert(tfcc::dtype_of<double>() == tfcc::float64);
//
// tfcc::string holds byte strings of any length (TensorFlow's tf.string); see TString.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstdint>
#include <cstring>
#include <ostream>
#include <string>
#include <string_view>

namespace tfcc {

/// An element type. bfloat16 is a storage type: ops compute on float32 and cast. kString holds
/// byte strings (TString elements); only the ops that list it accept it.
enum class DType : uint8_t {
  kFloat32,
  kFloat64,
  kInt32,
  kInt64,
  kUInt8,
  kBool,
  kBFloat16,
  kString
};

inline constexpr DType float32 = DType::kFloat32;
inline constexpr DType float64 = DType::kFloat64;
inline constexpr DType int32 = DType::kInt32;
inline constexpr DType int64 = DType::kInt64;
inline constexpr DType uint8 = DType::kUInt8;
inline constexpr DType bool_ = DType::kBool;
inline constexpr DType bfloat16 = DType::kBFloat16;
inline constexpr DType string = DType::kString;
inline constexpr int kNumDTypes = 8;

/// One element of a string tensor: a handle to an immutable byte string (null: the empty
/// string). The bytes live in storage the tensor's Buffer keeps alive (Buffer::owners), so
/// elements are trivially copyable and the byte-copying array kernels (reshape, gather, concat,
/// slicing) move them like 8-byte integers. Make string tensors with Tensor::from_strings.
struct TString {
  const std::string* str = nullptr;
  std::string_view view() const { return str ? std::string_view(*str) : std::string_view(); }
};
static_assert(sizeof(TString) == 8);

/// Brain floating point: the top 16 bits of a float32 (rounded to nearest even).
struct BFloat16 {
  uint16_t bits = 0;
  BFloat16() = default;
  explicit BFloat16(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) {
      bits = static_cast<uint16_t>((u >> 16) | 0x40);  // keep NaN a quiet NaN
    } else {
      u += 0x7fffu + ((u >> 16) & 1u);
      bits = static_cast<uint16_t>(u >> 16);
    }
  }
  explicit operator float() const {
    uint32_t u = static_cast<uint32_t>(bits) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
};

/// Bytes per element.
constexpr size_t dtype_size(DType t) {
  switch (t) {
    case DType::kFloat32:
      return 4;
    case DType::kFloat64:
      return 8;
    case DType::kInt32:
      return 4;
    case DType::kInt64:
      return 8;
    case DType::kUInt8:
      return 1;
    case DType::kBool:
      return 1;
    case DType::kBFloat16:
      return 2;
    case DType::kString:
      return sizeof(TString);
  }
  return 0;
}

/// TensorFlow's name: "float32", "int64", "bool", ...
std::string_view dtype_name(DType t);
std::ostream& operator<<(std::ostream& os, DType t);

constexpr bool is_floating(DType t) {
  return t == DType::kFloat32 || t == DType::kFloat64 || t == DType::kBFloat16;
}
constexpr bool is_integer(DType t) {
  return t == DType::kInt32 || t == DType::kInt64 || t == DType::kUInt8;
}

/// The C++ type that stores one element of a dtype.
template <DType D>
struct CppType;
template <>
struct CppType<DType::kFloat32> {
  using type = float;
};
template <>
struct CppType<DType::kFloat64> {
  using type = double;
};
template <>
struct CppType<DType::kInt32> {
  using type = int32_t;
};
template <>
struct CppType<DType::kInt64> {
  using type = int64_t;
};
template <>
struct CppType<DType::kUInt8> {
  using type = uint8_t;
};
template <>
struct CppType<DType::kBool> {
  using type = bool;
};
template <>
struct CppType<DType::kBFloat16> {
  using type = BFloat16;
};
template <>
struct CppType<DType::kString> {
  using type = TString;
};
template <DType D>
using cpp_type_t = typename CppType<D>::type;

/// The dtype that stores a C++ type.
template <typename T>
constexpr DType dtype_of();
template <>
constexpr DType dtype_of<float>() {
  return DType::kFloat32;
}
template <>
constexpr DType dtype_of<double>() {
  return DType::kFloat64;
}
template <>
constexpr DType dtype_of<int32_t>() {
  return DType::kInt32;
}
template <>
constexpr DType dtype_of<int64_t>() {
  return DType::kInt64;
}
template <>
constexpr DType dtype_of<uint8_t>() {
  return DType::kUInt8;
}
template <>
constexpr DType dtype_of<bool>() {
  return DType::kBool;
}
template <>
constexpr DType dtype_of<BFloat16>() {
  return DType::kBFloat16;
}
template <>
constexpr DType dtype_of<TString>() {
  return DType::kString;
}

/// Throws InvalidArgumentError "<what> does not support dtype <t>".
[[noreturn]] void unsupported_dtype(DType t, std::string_view what);

/// Calls `fn.template operator()<T>()` with T the C++ type of `t`:
///   visit_dtype(t, [&]<typename T>() { ... });
/// Numeric dtypes only: for string it throws InvalidArgumentError "<what> does not support dtype
/// string" (code that handles strings tests for DType::kString first).
template <typename Fn>
decltype(auto) visit_dtype(DType t, Fn&& fn, std::string_view what = "This operation") {
  switch (t) {
    case DType::kFloat32:
      return fn.template operator()<float>();
    case DType::kFloat64:
      return fn.template operator()<double>();
    case DType::kInt32:
      return fn.template operator()<int32_t>();
    case DType::kInt64:
      return fn.template operator()<int64_t>();
    case DType::kUInt8:
      return fn.template operator()<uint8_t>();
    case DType::kBool:
      return fn.template operator()<bool>();
    case DType::kBFloat16:
      return fn.template operator()<BFloat16>();
    case DType::kString:
      unsupported_dtype(t, what);
  }
  return fn.template operator()<float>();
}

}  // namespace tfcc
#pragma GCC visibility pop

// Op attributes: the non-tensor arguments of an op call (axis, keepdims, dtype, ...).
//
//   tfcc::Attrs attrs{{"axis", int64_t{1}}, {"keepdims", true}};
//   attrs.get<bool>("keepdims");   // true
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "tfcc/core/tensor.h"
#include "tfcc/core/variable.h"

namespace tfcc {

/// One attribute value. Integers are int64, reals double.
/// A variable travels as an attribute of the ops that read and write it (kResource).
using AttrValue = std::variant<int64_t, double, bool, std::string, DType, std::vector<int64_t>,
                               std::vector<double>, Tensor, std::shared_ptr<VariableState>>;

/// The kind of an attribute, declared by the op.
enum class AttrType { kInt, kFloat, kBool, kString, kType, kInts, kFloats, kTensor, kResource };

/// The AttrType that an AttrValue holds.
AttrType attr_type_of(const AttrValue& v);
std::string_view attr_type_name(AttrType t);
/// Human-readable value, for error messages and graph printing.
std::string attr_value_string(const AttrValue& v);

/// Attributes of one op call, in insertion order.
class Attrs {
 public:
  Attrs() = default;
  Attrs(std::initializer_list<std::pair<std::string, AttrValue>> items) : items_(items) {}

  /// Sets (or replaces) an attribute.
  void set(std::string_view name, AttrValue value);
  /// The value, or nullptr if absent.
  const AttrValue* find(std::string_view name) const;
  bool has(std::string_view name) const { return find(name) != nullptr; }

  /// The value as T; InternalError if absent or of another type (op definitions guarantee both
  /// after dispatch has filled defaults and checked types).
  template <typename T>
  const T& get(std::string_view name) const {
    const AttrValue* v = find(name);
    if (!v) missing(name);
    const T* p = std::get_if<T>(v);
    if (!p) wrong_type(name);
    return *p;
  }

  const std::vector<std::pair<std::string, AttrValue>>& items() const { return items_; }
  size_t size() const { return items_.size(); }

 private:
  [[noreturn]] static void missing(std::string_view name);
  [[noreturn]] static void wrong_type(std::string_view name);
  std::vector<std::pair<std::string, AttrValue>> items_;
};

}  // namespace tfcc
#pragma GCC visibility pop

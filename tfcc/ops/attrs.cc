#include "tfcc/ops/attrs.h"

#include <sstream>

namespace tfcc {

AttrType attr_type_of(const AttrValue& v) { return static_cast<AttrType>(v.index()); }

std::string_view attr_type_name(AttrType t) {
  switch (t) {
    case AttrType::kInt:
      return "int";
    case AttrType::kFloat:
      return "float";
    case AttrType::kBool:
      return "bool";
    case AttrType::kString:
      return "string";
    case AttrType::kType:
      return "type";
    case AttrType::kInts:
      return "list(int)";
    case AttrType::kFloats:
      return "list(float)";
    case AttrType::kTensor:
      return "tensor";
    case AttrType::kResource:
      return "resource";
  }
  return "?";
}

std::string attr_value_string(const AttrValue& v) {
  std::ostringstream os;
  std::visit(
      [&]<typename T>(const T& x) {
        if constexpr (std::is_same_v<T, std::vector<int64_t>> ||
                      std::is_same_v<T, std::vector<double>>) {
          os << "[";
          for (size_t i = 0; i < x.size(); ++i) os << (i ? ", " : "") << x[i];
          os << "]";
        } else if constexpr (std::is_same_v<T, std::shared_ptr<VariableState>>) {
          os << "<variable " << (x ? x->name : "null") << ">";
        } else if constexpr (std::is_same_v<T, Tensor>) {
          os << (x.defined() ? x.values_string() : "<undefined>");
        } else if constexpr (std::is_same_v<T, bool>) {
          os << (x ? "true" : "false");
        } else if constexpr (std::is_same_v<T, std::string>) {
          os << '"' << x << '"';
        } else {
          os << x;
        }
      },
      v);
  return os.str();
}

void Attrs::set(std::string_view name, AttrValue value) {
  for (auto& [k, v] : items_) {
    if (k == name) {
      v = std::move(value);
      return;
    }
  }
  items_.emplace_back(std::string(name), std::move(value));
}

const AttrValue* Attrs::find(std::string_view name) const {
  for (const auto& [k, v] : items_) {
    if (k == name) return &v;
  }
  return nullptr;
}

void Attrs::missing(std::string_view name) {
  throw InternalError(internal::str_cat("Attribute '", name, "' is not set"));
}

void Attrs::wrong_type(std::string_view name) {
  throw InternalError(internal::str_cat("Attribute '", name, "' has another type"));
}

}  // namespace tfcc

#include "tfcc/io/saved_model/tf_export/proto_util.h"

#include <cctype>

#include "tfcc/platform/errors.h"

namespace tfcc::saved_model::tf_export {

using ::tfcc::internal::str_cat;

tensorflow::DataType tf_dtype(DType dtype) {
  switch (dtype) {
    case DType::kFloat32:
      return tensorflow::DT_FLOAT;
    case DType::kFloat64:
      return tensorflow::DT_DOUBLE;
    case DType::kInt32:
      return tensorflow::DT_INT32;
    case DType::kInt64:
      return tensorflow::DT_INT64;
    case DType::kUInt8:
      return tensorflow::DT_UINT8;
    case DType::kBool:
      return tensorflow::DT_BOOL;
    case DType::kBFloat16:
      return tensorflow::DT_BFLOAT16;
    case DType::kString:
      return tensorflow::DT_STRING;
  }
  throw InternalError(str_cat("tf_dtype: dtype number ", static_cast<int>(dtype)));
}

void set_shape(const PartialShape& shape, tensorflow::TensorShapeProto* out) {
  out->Clear();
  if (!shape.rank_known()) {
    out->set_unknown_rank(true);
    return;
  }
  for (int64_t d : shape.dims()) out->add_dim()->set_size(d);
}

void set_tensor(const Tensor& t, tensorflow::TensorProto* out) {
  TFCC_CHECK_ARG(t.defined() && !t.is_symbolic(), "SavedModel export: a constant is not concrete");
  out->Clear();
  out->set_dtype(tf_dtype(t.dtype()));
  set_shape(t.shape(), out->mutable_tensor_shape());
  if (t.dtype() == DType::kString) {  // string_val, one per element (TensorFlow's form)
    for (std::string_view v : t.to_vector<std::string_view>()) out->add_string_val(std::string(v));
    return;
  }
  out->set_tensor_content(static_cast<const char*>(t.raw_data()), t.nbytes());
}

void set_string_tensor(std::span<const std::string> values, std::span<const int64_t> shape,
                       tensorflow::TensorProto* out) {
  out->Clear();
  out->set_dtype(tensorflow::DT_STRING);
  for (int64_t d : shape) out->mutable_tensor_shape()->add_dim()->set_size(d);
  for (const std::string& v : values) out->add_string_val(v);
}

void set_attr_value(const AttrValue& value, tensorflow::AttrValue* out, std::string_view where) {
  std::visit(
      [&]<typename T>(const T& x) {
        if constexpr (std::is_same_v<T, int64_t>) {
          out->set_i(x);
        } else if constexpr (std::is_same_v<T, double>) {
          out->set_f(static_cast<float>(x));
        } else if constexpr (std::is_same_v<T, bool>) {
          out->set_b(x);
        } else if constexpr (std::is_same_v<T, std::string>) {
          out->set_s(x);
        } else if constexpr (std::is_same_v<T, DType>) {
          out->set_type(tf_dtype(x));
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
          auto* list = out->mutable_list();
          for (int64_t i : x) list->add_i(i);
        } else if constexpr (std::is_same_v<T, std::vector<double>>) {
          auto* list = out->mutable_list();
          for (double f : x) list->add_f(static_cast<float>(f));
        } else if constexpr (std::is_same_v<T, Tensor>) {
          set_tensor(x, out->mutable_tensor());
        } else {
          throw InvalidArgumentError(
              str_cat("SavedModel export: ", where,
                      " holds a variable as an attribute; TensorFlow passes variables as inputs"));
        }
      },
      value);
}

std::string arg_name(std::string_view name) {
  std::string out;
  for (char c : name) {
    const auto u = static_cast<unsigned char>(c);
    out += std::isalnum(u) ? static_cast<char>(std::tolower(u)) : '_';
  }
  if (out.empty() || !std::islower(static_cast<unsigned char>(out[0]))) out = "arg_" + out;
  return out;
}

std::string node_name(std::string_view name) {
  std::string out;
  for (char c : name) {
    const auto u = static_cast<unsigned char>(c);
    out += (std::isalnum(u) || c == '_' || c == '.' || c == '/' || c == '-') ? c : '_';
  }
  if (out.empty() || !(std::isalnum(static_cast<unsigned char>(out[0])) || out[0] == '.')) {
    out = "n" + out;
  }
  return out;
}

}  // namespace tfcc::saved_model::tf_export

#include "tfcc/keras/layers/preprocessing_config.h"

namespace tfcc::keras::layers::internal {
namespace {

using saving::Json;

template <typename T>
std::string list_repr(const std::vector<T>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + keras::config::repr(v[i]);
  return s + "]";
}

std::vector<double> numbers(const Json& v, std::string_view what) {
  if (v.type() != Json::Type::kArray) return {v.as_number(what)};
  std::vector<double> out;
  for (const Json& e : v.items(what)) out.push_back(e.as_number(what));
  return out;
}

}  // namespace

std::string NumbersOrNone::repr(const std::vector<double>& v) {
  return v.empty() ? "None" : list_repr(v);
}

void NumbersOrNone::read(const Json& v, std::vector<double>& out, std::string_view what) {
  if (!v.is_null()) out = numbers(v, what);
}

std::string OptionalNumbers::repr(const std::optional<std::vector<double>>& v) {
  return v ? list_repr(*v) : "None";
}

void OptionalNumbers::read(const Json& v, std::optional<std::vector<double>>& out,
                           std::string_view what) {
  if (v.is_null()) {
    out.reset();
  } else {
    out = numbers(v, what);
  }
}

template <typename T>
std::string TokensOrNone<T>::repr(const std::vector<T>& v) {
  return v.empty() ? "None" : list_repr(v);
}

template <typename T>
void TokensOrNone<T>::read(const Json& v, std::vector<T>& out, std::string_view what) {
  if (v.is_null()) return;
  out.clear();
  for (const Json& e : v.items(what)) {
    if constexpr (std::is_same_v<T, std::string>) {
      out.push_back(e.as_string(what));
    } else {
      out.push_back(e.as_int(what));
    }
  }
}

template struct TokensOrNone<std::string>;
template struct TokensOrNone<int64_t>;

std::string EmptyIsNone::repr(const std::string& v) {
  return v.empty() ? "None" : keras::config::repr(v);
}

void EmptyIsNone::read(const Json& v, std::string& out, std::string_view what) {
  out = v.is_null() ? std::string() : v.as_string(what);
}

std::string Ngrams::repr(const std::vector<int64_t>& v) {
  if (v.empty()) return "None";
  bool up_to_n = true;  // 1..n: Keras' ngrams=n
  for (size_t i = 0; i < v.size(); ++i) up_to_n = up_to_n && v[i] == static_cast<int64_t>(i) + 1;
  return up_to_n ? keras::config::repr(static_cast<int64_t>(v.size())) : keras::config::repr(v);
}

void Ngrams::read(const Json& v, std::vector<int64_t>& out, std::string_view what) {
  out.clear();
  if (v.is_null()) return;
  if (v.type() == Json::Type::kNumber) {
    const int64_t n = v.as_int(what);
    TFCC_CHECK_ARG(n >= 1 && n <= 1024, "TextVectorization: ngrams must be in [1, 1024], got ", n);
    for (int64_t i = 1; i <= n; ++i) out.push_back(i);
    return;
  }
  for (const Json& e : v.items(what)) out.push_back(e.as_int(what));
}

}  // namespace tfcc::keras::layers::internal

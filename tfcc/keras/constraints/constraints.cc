#include "tfcc/keras/constraints/constraints.h"

#include <cmath>
#include <map>
#include <mutex>

#include "tfcc/keras/engine/config_schema.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc::keras::constraints {
namespace {

constexpr double kEpsilon = 1e-7;  // keras.config.epsilon()

Tensor norms(const Tensor& w, const std::vector<int64_t>& axis) {
  return sqrt(reduce_sum(square(w), axis, /*keepdims=*/true));
}

// An axis list as Keras writes it: one axis as an int.
std::string axis_repr(const std::vector<int64_t>& axis) {
  if (axis.size() == 1) return config::repr(axis[0]);
  std::string out = "[";
  for (size_t i = 0; i < axis.size(); ++i) out += (i ? ", " : "") + std::to_string(axis[i]);
  return out + "]";
}

void check_axis(const std::vector<int64_t>& axis, const char* cls) {
  TFCC_CHECK_ARG(!axis.empty(), cls, ": axis must name at least one axis");
}

}  // namespace

MaxNorm::MaxNorm(double max_value, std::vector<int64_t> axis)
    : max_value_(max_value), axis_(std::move(axis)) {
  TFCC_CHECK_ARG(std::isfinite(max_value_) && max_value_ >= 0,
                 "MaxNorm: max_value must be finite and >= 0, got ", max_value_);
  check_axis(axis_, "MaxNorm");
}

Tensor MaxNorm::operator()(const Tensor& w) const {
  Tensor n = norms(w, axis_);
  Tensor desired = clip_by_value(n, 0.0, max_value_);
  return multiply(w, divide(desired, add(n, kEpsilon)));
}

std::string MaxNorm::config_repr() const {
  return "{'max_value': " + config::repr(max_value_) + ", 'axis': " + axis_repr(axis_) + "}";
}

Tensor NonNeg::operator()(const Tensor& w) const {
  return multiply(w, cast(greater_equal(w, 0.0), w.dtype()));
}

UnitNorm::UnitNorm(std::vector<int64_t> axis) : axis_(std::move(axis)) {
  check_axis(axis_, "UnitNorm");
}

Tensor UnitNorm::operator()(const Tensor& w) const {
  return divide(w, add(norms(w, axis_), kEpsilon));
}

std::string UnitNorm::config_repr() const { return "{'axis': " + axis_repr(axis_) + "}"; }

MinMaxNorm::MinMaxNorm(double min_value, double max_value, double rate, std::vector<int64_t> axis)
    : min_value_(min_value), max_value_(max_value), rate_(rate), axis_(std::move(axis)) {
  TFCC_CHECK_ARG(std::isfinite(min_value_) && std::isfinite(max_value_) && min_value_ >= 0 &&
                     min_value_ <= max_value_,
                 "MinMaxNorm: need 0 <= min_value <= max_value, got min_value=", min_value_,
                 ", max_value=", max_value_);
  TFCC_CHECK_ARG(std::isfinite(rate_) && rate_ >= 0 && rate_ <= 1,
                 "MinMaxNorm: rate must be in [0, 1], got ", rate_);
  check_axis(axis_, "MinMaxNorm");
}

Tensor MinMaxNorm::operator()(const Tensor& w) const {
  Tensor n = norms(w, axis_);
  Tensor desired =
      add(multiply(clip_by_value(n, min_value_, max_value_), rate_), multiply(n, 1.0 - rate_));
  return multiply(w, divide(desired, add(n, kEpsilon)));
}

std::string MinMaxNorm::config_repr() const {
  return "{'min_value': " + config::repr(min_value_) +
         ", 'max_value': " + config::repr(max_value_) + ", 'rate': " + config::repr(rate_) +
         ", 'axis': " + axis_repr(axis_) + "}";
}

std::shared_ptr<const Constraint> get(const std::string& name) {
  if (name == "max_norm" || name == "MaxNorm") return std::make_shared<MaxNorm>();
  if (name == "non_neg" || name == "NonNeg") return std::make_shared<NonNeg>();
  if (name == "unit_norm" || name == "UnitNorm") return std::make_shared<UnitNorm>();
  if (name == "min_max_norm" || name == "MinMaxNorm") return std::make_shared<MinMaxNorm>();
  throw InvalidArgumentError(
      internal::str_cat("Could not interpret constraint identifier: '", name,
                        "' (known: max_norm, non_neg, unit_norm, min_max_norm)"));
}

namespace {
struct Attached {
  std::weak_ptr<VariableState> state;
  Spec constraint;
};
struct Registry {
  std::mutex mu;
  std::map<uint64_t, Attached> by_id;
};
Registry& registry() {
  static Registry* r = new Registry;  // never destroyed: used until exit
  return *r;
}
}  // namespace

void attach(const Variable& variable, Spec constraint) {
  TFCC_CHECK_ARG(variable.defined(), "constraints::attach needs a defined variable");
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  std::erase_if(r.by_id, [](const auto& kv) { return kv.second.state.expired(); });
  if (!constraint) {
    r.by_id.erase(variable.id());
    return;
  }
  r.by_id[variable.id()] = {variable.state_ptr(), std::move(constraint)};
}

Spec constraint_of(const Variable& variable) {
  if (!variable.defined()) return {};
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  auto it = r.by_id.find(variable.id());
  return it == r.by_id.end() ? Spec() : it->second.constraint;
}

void apply(const Variable& variable) {
  Spec c = constraint_of(variable);
  if (c) variable.assign((*c)(variable.read_value()));
}

}  // namespace tfcc::keras::constraints

namespace tfcc::keras::config {

std::string Codec<constraints::Spec>::repr(const constraints::Spec& v) {
  if (!v) return "None";
  return "{'class_name': " + config::repr((*v).class_name()) + ", 'config': " + (*v).config_repr() +
         "}";
}

void Codec<constraints::Spec>::read(const Json& v, constraints::Spec& out, std::string_view what) {
  if (v.is_null()) {
    out = {};
    return;
  }
  if (v.type() == Json::Type::kString) {
    out = constraints::get(v.as_string(what));
    return;
  }
  const std::string cls = v.at("class_name", what).as_string(what);
  const Json* c = v.find("config");
  auto num = [&](const char* key, double fallback) {
    const Json* x = c ? c->find(key) : nullptr;
    return x && !x->is_null() ? x->as_number(key) : fallback;
  };
  auto axis = [&]() {
    std::vector<int64_t> a = {0};
    if (const Json* x = c ? c->find("axis") : nullptr; x && !x->is_null()) {
      Codec<std::vector<int64_t>>::read(*x, a, "axis");
    }
    return a;
  };
  if (cls == "MaxNorm") {
    out = constraints::MaxNorm(num("max_value", 2.0), axis());
  } else if (cls == "NonNeg") {
    out = constraints::NonNeg();
  } else if (cls == "UnitNorm") {
    out = constraints::UnitNorm(axis());
  } else if (cls == "MinMaxNorm") {
    out = constraints::MinMaxNorm(num("min_value", 0.0), num("max_value", 1.0), num("rate", 1.0),
                                  axis());
  } else {
    throw InvalidArgumentError(
        internal::str_cat("Unknown constraint in `", what, "`: '", cls,
                          "' (known: MaxNorm, NonNeg, UnitNorm, MinMaxNorm)"));
  }
}

}  // namespace tfcc::keras::config

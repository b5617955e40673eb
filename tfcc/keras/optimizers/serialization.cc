// get_config of the optimizers and schedules, and their inverse (keras.optimizers.deserialize).
#include "tfcc/keras/optimizers/serialization.h"

#include <initializer_list>
#include <type_traits>

#include "tfcc/keras/optimizers/optimizers.h"

namespace tfcc::keras::optimizers {
namespace {

using saving::Json;

// Sets each (key, value) of `members` on the object `c`, in order.
void set_members(Json& c, std::initializer_list<std::pair<const char*, Json>> members) {
  for (const auto& [key, value] : members) c.set(key, value);
}

Json optional_number(const std::optional<double>& v) { return v ? Json(*v) : Json(); }

double num(const Json& c, const std::string& key, double fallback) {
  const Json* v = c.find(key);
  return v && !v->is_null() ? v->as_number(key) : fallback;
}

bool flag(const Json& c, const std::string& key, bool fallback) {
  const Json* v = c.find(key);
  return v && !v->is_null() ? v->as_bool(key) : fallback;
}

std::optional<double> optional_num(const Json& c, const std::string& key) {
  const Json* v = c.find(key);
  if (!v || v->is_null()) return std::nullopt;
  return v->as_number(key);
}

Json wrap(const char* module, const std::string& class_name, Json config) {
  Json out = Json::object();
  out.set("module", Json(module));
  out.set("class_name", Json(class_name));
  out.set("config", std::move(config));
  out.set("registered_name", Json());
  return out;
}

// The options struct of one optimizer with the settings every optimizer shares filled in.
template <typename Options>
Options common_options(const Json& c) {
  Options o;
  if (const Json* n = c.find("name"); n && !n->is_null()) o.name = n->as_string("name");
  if (const Json* lr = c.find("learning_rate"); lr && !lr->is_null()) {
    if (lr->type() == Json::Type::kObject) {
      o.learning_rate = schedules::deserialize(*lr);
    } else {
      o.learning_rate = lr->as_number("learning_rate");
    }
  }
  if constexpr (std::is_same_v<decltype(o.weight_decay), double>) {
    o.weight_decay = num(c, "weight_decay", o.weight_decay);  // AdamW: required
  } else {
    o.weight_decay = optional_num(c, "weight_decay");
  }
  o.clipnorm = optional_num(c, "clipnorm");
  o.clipvalue = optional_num(c, "clipvalue");
  o.global_clipnorm = optional_num(c, "global_clipnorm");
  TFCC_CHECK_ARG(!flag(c, "use_ema", false),
                 "Optimizer config: use_ema=True (exponential moving average of the weights) is "
                 "not supported by tfcc");
  return o;
}

template <typename Options>
Options adam_like(const Json& c) {
  Options o = common_options<Options>(c);
  o.beta_1 = num(c, "beta_1", o.beta_1);
  o.beta_2 = num(c, "beta_2", o.beta_2);
  o.epsilon = num(c, "epsilon", o.epsilon);
  if constexpr (requires { o.amsgrad; }) o.amsgrad = flag(c, "amsgrad", o.amsgrad);
  return o;
}

std::shared_ptr<Optimizer> from_class(const std::string& cls, const Json& c) {
  if (cls == "SGD") {
    auto o = common_options<SGDOptions>(c);
    o.momentum = num(c, "momentum", o.momentum);
    o.nesterov = flag(c, "nesterov", o.nesterov);
    return std::make_shared<SGD>(o);
  }
  if (cls == "Adam") return std::make_shared<Adam>(adam_like<AdamOptions>(c));
  if (cls == "AdamW") return std::make_shared<AdamW>(adam_like<AdamWOptions>(c));
  if (cls == "Adamax") return std::make_shared<Adamax>(adam_like<AdamaxOptions>(c));
  if (cls == "Nadam") return std::make_shared<Nadam>(adam_like<NadamOptions>(c));
  if (cls == "RMSprop") {
    auto o = common_options<RMSpropOptions>(c);
    o.rho = num(c, "rho", o.rho);
    o.momentum = num(c, "momentum", o.momentum);
    o.epsilon = num(c, "epsilon", o.epsilon);
    o.centered = flag(c, "centered", o.centered);
    return std::make_shared<RMSprop>(o);
  }
  if (cls == "Adagrad") {
    auto o = common_options<AdagradOptions>(c);
    o.initial_accumulator_value = num(c, "initial_accumulator_value", o.initial_accumulator_value);
    o.epsilon = num(c, "epsilon", o.epsilon);
    return std::make_shared<Adagrad>(o);
  }
  if (cls == "Adadelta") {
    auto o = common_options<AdadeltaOptions>(c);
    o.rho = num(c, "rho", o.rho);
    o.epsilon = num(c, "epsilon", o.epsilon);
    return std::make_shared<Adadelta>(o);
  }
  if (cls == "Ftrl") {
    auto o = common_options<FtrlOptions>(c);
    for (auto [key, field] :
         {std::pair{"learning_rate_power", &FtrlOptions::learning_rate_power},
          {"initial_accumulator_value", &FtrlOptions::initial_accumulator_value},
          {"l1_regularization_strength", &FtrlOptions::l1_regularization_strength},
          {"l2_regularization_strength", &FtrlOptions::l2_regularization_strength},
          {"l2_shrinkage_regularization_strength",
           &FtrlOptions::l2_shrinkage_regularization_strength},
          {"beta", &FtrlOptions::beta}}) {
      o.*field = num(c, key, o.*field);
    }
    return std::make_shared<Ftrl>(o);
  }
  throw InvalidArgumentError(internal::str_cat(
      "Could not interpret optimizer class '", cls,
      "' (known: SGD, Adam, AdamW, Adamax, Nadam, RMSprop, Adagrad, Adadelta, Ftrl)"));
}

}  // namespace

// ---- get_config ----------------------------------------------------------------------------

Json Optimizer::get_config() const {
  Json c = Json::object();
  c.set("name", Json(name()));
  c.set("weight_decay", optional_number(config_.weight_decay));
  c.set("clipnorm", optional_number(config_.clipnorm));
  c.set("global_clipnorm", optional_number(config_.global_clipnorm));
  c.set("clipvalue", optional_number(config_.clipvalue));
  c.set("use_ema", Json(false));
  c.set("ema_momentum", Json(0.99));
  c.set("ema_overwrite_frequency", Json());
  c.set("jit_compile", Json(false));
  c.set("is_legacy_optimizer", Json(false));
  // The current rate (set_learning_rate may have changed it), as Keras serializes it.
  c.set("learning_rate",
        schedule_ ? schedules::serialize(*schedule_)
                  : Json(static_cast<double>(learning_rate_.read_value().item<float>())));
  add_config(c);
  return c;
}

void Optimizer::add_config(Json&) const {}

void SGD::add_config(Json& c) const {
  set_members(c, {{"momentum", Json(momentum_)}, {"nesterov", Json(nesterov_)}});
}

void Adam::add_config(Json& c) const {
  set_members(c, {{"beta_1", Json(beta_1_)},
                  {"beta_2", Json(beta_2_)},
                  {"epsilon", Json(epsilon_)},
                  {"amsgrad", Json(amsgrad_)}});
}

void Adamax::add_config(Json& c) const {
  set_members(c,
              {{"beta_1", Json(beta_1_)}, {"beta_2", Json(beta_2_)}, {"epsilon", Json(epsilon_)}});
}

void Nadam::add_config(Json& c) const {
  set_members(c,
              {{"beta_1", Json(beta_1_)}, {"beta_2", Json(beta_2_)}, {"epsilon", Json(epsilon_)}});
}

void RMSprop::add_config(Json& c) const {
  set_members(c, {{"rho", Json(rho_)},
                  {"momentum", Json(momentum_)},
                  {"epsilon", Json(epsilon_)},
                  {"centered", Json(centered_)}});
}

void Adagrad::add_config(Json& c) const {
  set_members(c, {{"initial_accumulator_value", Json(initial_accumulator_value_)},
                  {"epsilon", Json(epsilon_)}});
}

void Adadelta::add_config(Json& c) const {
  set_members(c, {{"rho", Json(rho_)}, {"epsilon", Json(epsilon_)}});
}

void Ftrl::add_config(Json& c) const {
  set_members(c, {{"learning_rate_power", Json(options_.learning_rate_power)},
                  {"initial_accumulator_value", Json(options_.initial_accumulator_value)},
                  {"l1_regularization_strength", Json(options_.l1_regularization_strength)},
                  {"l2_regularization_strength", Json(options_.l2_regularization_strength)},
                  {"l2_shrinkage_regularization_strength",
                   Json(options_.l2_shrinkage_regularization_strength)},
                  {"beta", Json(options_.beta)}});
}

// ---- serialize / deserialize ---------------------------------------------------------------

Json serialize(const Optimizer& optimizer) {
  return wrap("keras.optimizers", optimizer.class_name(), optimizer.get_config());
}

std::shared_ptr<Optimizer> deserialize(const Json& config) {
  if (config.type() == Json::Type::kString) return get(config.as_string());
  const std::string& cls = config.at("class_name", "optimizer").as_string("class_name");
  const Json* c = config.find("config");
  return from_class(cls, c && !c->is_null() ? *c : Json::object());
}

}  // namespace tfcc::keras::optimizers

namespace tfcc::keras::optimizers::schedules {

using saving::Json;

Json ExponentialDecay::get_config() const {
  Json c = Json::object();
  c.set("initial_learning_rate", Json(initial_));
  c.set("decay_steps", Json(decay_steps_));
  c.set("decay_rate", Json(decay_rate_));
  c.set("staircase", Json(staircase_));
  c.set("name", Json());
  return c;
}

Json PiecewiseConstantDecay::get_config() const {
  Json b = Json::array(), v = Json::array();
  for (double x : boundaries_) b.push(Json(x));
  for (double x : values_) v.push(Json(x));
  Json c = Json::object();
  c.set("boundaries", b);
  c.set("values", v);
  c.set("name", Json());
  return c;
}

Json CosineDecay::get_config() const {
  Json c = Json::object();
  c.set("initial_learning_rate", Json(initial_));
  c.set("decay_steps", Json(decay_steps_));
  c.set("alpha", Json(options_.alpha));
  c.set("name", Json());
  c.set("warmup_target", options_.warmup_target ? Json(*options_.warmup_target) : Json());
  c.set("warmup_steps", Json(options_.warmup_steps));
  return c;
}

Json PolynomialDecay::get_config() const {
  Json c = Json::object();
  c.set("initial_learning_rate", Json(initial_));
  c.set("decay_steps", Json(decay_steps_));
  c.set("end_learning_rate", Json(options_.end_learning_rate));
  c.set("power", Json(options_.power));
  c.set("cycle", Json(options_.cycle));
  c.set("name", Json());
  return c;
}

Json serialize(const LearningRateSchedule& schedule) {
  return wrap("keras.optimizers.schedules", schedule.name(), schedule.get_config());
}

std::shared_ptr<LearningRateSchedule> deserialize(const Json& config) {
  const std::string& cls =
      config.at("class_name", "learning-rate schedule").as_string("class_name");
  const Json& c = config.at("config", "learning-rate schedule");
  auto need = [&](const char* key) { return c.at(key, cls).as_number(key); };
  auto numbers = [&](const char* key) {
    std::vector<double> out;
    for (const Json& v : c.at(key, cls).items(key)) out.push_back(v.as_number(key));
    return out;
  };
  if (cls == "ExponentialDecay") {
    return std::make_shared<ExponentialDecay>(need("initial_learning_rate"), need("decay_steps"),
                                              need("decay_rate"),
                                              ExponentialDecayOptions{flag(c, "staircase", false)});
  }
  if (cls == "PiecewiseConstantDecay") {
    return std::make_shared<PiecewiseConstantDecay>(numbers("boundaries"), numbers("values"));
  }
  if (cls == "CosineDecay") {
    return std::make_shared<CosineDecay>(
        need("initial_learning_rate"), need("decay_steps"),
        CosineDecayOptions{.alpha = num(c, "alpha", 0.0),
                           .warmup_target = optional_num(c, "warmup_target"),
                           .warmup_steps = num(c, "warmup_steps", 0.0)});
  }
  if (cls == "PolynomialDecay") {
    return std::make_shared<PolynomialDecay>(
        need("initial_learning_rate"), need("decay_steps"),
        PolynomialDecayOptions{.end_learning_rate = num(c, "end_learning_rate", 0.0001),
                               .power = num(c, "power", 1.0),
                               .cycle = flag(c, "cycle", false)});
  }
  throw InvalidArgumentError(internal::str_cat(
      "Could not interpret learning-rate schedule class '", cls,
      "' (known: ExponentialDecay, PiecewiseConstantDecay, CosineDecay, PolynomialDecay)"));
}

}  // namespace tfcc::keras::optimizers::schedules

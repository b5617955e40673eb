// keras.optimizers.serialize / deserialize: the shared keys of Optimizer::get_config, and the
// class tables; each class's own keys are declared with it (optimizer_schema.h).
#include "tfcc/keras/optimizers/serialization.h"

#include <map>

#include "tfcc/keras/optimizers/optimizer_schema.h"
#include "tfcc/keras/optimizers/optimizers.h"

namespace tfcc::keras::optimizers {
namespace {

Json wrap(const char* module, const std::string& class_name, Json config) {
  Json out = Json::object();
  out.set("module", Json(module));
  out.set("class_name", Json(class_name));
  out.set("config", std::move(config));
  out.set("registered_name", Json());
  return out;
}

using Factory = std::shared_ptr<Optimizer> (*)(const Json&);

const std::map<std::string, Factory>& optimizer_classes() {
  static const std::map<std::string, Factory> m = {
      {"SGD", SGD::from_config},
      {"Adam", Adam::from_config},
      {"AdamW", AdamW::from_config},
      {"Adamax", Adamax::from_config},
      {"Nadam", Nadam::from_config},
      {"RMSprop", RMSprop::from_config},
      {"Adagrad", Adagrad::from_config},
      {"Adadelta", Adadelta::from_config},
      {"Ftrl", Ftrl::from_config},
      {"Lion", Lion::from_config},
      {"Lamb", Lamb::from_config},
      {"Adafactor", Adafactor::from_config},
      {"LossScaleOptimizer", LossScaleOptimizer::from_config},
  };
  return m;
}

}  // namespace

Json Optimizer::get_config() const {
  Json c = Json::object();
  c.set("name", Json(name()));
  c.set("weight_decay", schema_detail::to_json(config_.weight_decay));
  c.set("clipnorm", schema_detail::to_json(config_.clipnorm));
  c.set("global_clipnorm", schema_detail::to_json(config_.global_clipnorm));
  c.set("clipvalue", schema_detail::to_json(config_.clipvalue));
  c.set("use_ema", Json(config_.use_ema));
  c.set("ema_momentum", Json(config_.ema_momentum));
  c.set("ema_overwrite_frequency", schema_detail::to_json(config_.ema_overwrite_frequency));
  c.set("loss_scale_factor", schema_detail::to_json(config_.loss_scale_factor));
  c.set("gradient_accumulation_steps", schema_detail::to_json(config_.gradient_accumulation_steps));
  c.set("jit_compile", Json(false));
  c.set("is_legacy_optimizer", Json(false));
  // The current rate (set_learning_rate may have changed it), as Keras serializes it.
  c.set("learning_rate",
        schedule_ ? schedules::serialize(*schedule_)
                  : Json(static_cast<double>(learning_rate_.read_value().item<float>())));
  if (const ConfigSchema<Optimizer>* s = schema()) s->append_config(*this, c);
  return c;
}

std::shared_ptr<Optimizer> from_config(const ConfigSchema<Optimizer>& schema, const Json& config) {
  return schema.from_config(config);
}

namespace schema_detail {
void read_common(const Json& c, OptimizerConfig& o) {
  if (const Json* n = c.find("name"); n && !n->is_null()) o.name = n->as_string("name");
  if (const Json* lr = c.find("learning_rate"); lr && !lr->is_null()) {
    if (lr->type() == Json::Type::kObject) {
      o.learning_rate = schedules::deserialize(*lr);
    } else {
      o.learning_rate = lr->as_number("learning_rate");
    }
  }
  for (auto [key, field] : {std::pair{"weight_decay", &OptimizerConfig::weight_decay},
                            {"clipnorm", &OptimizerConfig::clipnorm},
                            {"clipvalue", &OptimizerConfig::clipvalue},
                            {"global_clipnorm", &OptimizerConfig::global_clipnorm},
                            {"loss_scale_factor", &OptimizerConfig::loss_scale_factor}}) {
    if (const Json* v = c.find(key)) config::Codec<std::optional<double>>::read(*v, o.*field, key);
  }
  for (auto [key, field] :
       {std::pair{"ema_overwrite_frequency", &OptimizerConfig::ema_overwrite_frequency},
        {"gradient_accumulation_steps", &OptimizerConfig::gradient_accumulation_steps}}) {
    if (const Json* v = c.find(key)) config::Codec<std::optional<int64_t>>::read(*v, o.*field, key);
  }
  if (const Json* v = c.find("use_ema"); v && !v->is_null()) {
    config::Codec<bool>::read(*v, o.use_ema, "use_ema");
  }
  if (const Json* v = c.find("ema_momentum"); v && !v->is_null()) {
    config::Codec<double>::read(*v, o.ema_momentum, "ema_momentum");
  }
}
}  // namespace schema_detail

Json serialize(const Optimizer& optimizer) {
  return wrap("keras.optimizers", optimizer.class_name(), optimizer.get_config());
}

std::shared_ptr<Optimizer> deserialize(const Json& config) {
  if (config.type() == Json::Type::kString) return get(config.as_string());
  const std::string& cls = config.at("class_name", "optimizer").as_string("class_name");
  const Json* c = config.find("config");
  auto it = optimizer_classes().find(cls);
  if (it == optimizer_classes().end()) {
    throw InvalidArgumentError(internal::str_cat(
        "Could not interpret optimizer class '", cls,
        "' (known: SGD, Adam, AdamW, Adamax, Nadam, RMSprop, Adagrad, Adadelta, Ftrl, Lion, "
        "Lamb, Adafactor, LossScaleOptimizer)"));
  }
  return it->second(c && !c->is_null() ? *c : Json::object());
}

}  // namespace tfcc::keras::optimizers

namespace tfcc::keras::optimizers::schedules {

using Factory = std::shared_ptr<LearningRateSchedule> (*)(const Json&);

Json LearningRateSchedule::get_config() const {
  Json c = Json::object();
  if (const ConfigSchema<LearningRateSchedule>* s = schema()) s->append_config(*this, c);
  return c;
}

std::shared_ptr<LearningRateSchedule> from_config(const ConfigSchema<LearningRateSchedule>& schema,
                                                  const Json& config) {
  return schema.from_config(config);
}

Json serialize(const LearningRateSchedule& schedule) {
  Json out = Json::object();
  out.set("module", Json("keras.optimizers.schedules"));
  out.set("class_name", Json(schedule.name()));
  out.set("config", schedule.get_config());
  out.set("registered_name", Json());
  return out;
}

std::shared_ptr<LearningRateSchedule> deserialize(const Json& config) {
  static const std::map<std::string, Factory> classes = {
      {"ExponentialDecay", ExponentialDecay::from_config},
      {"PiecewiseConstantDecay", PiecewiseConstantDecay::from_config},
      {"CosineDecay", CosineDecay::from_config},
      {"PolynomialDecay", PolynomialDecay::from_config},
  };
  const std::string& cls =
      config.at("class_name", "learning-rate schedule").as_string("class_name");
  auto it = classes.find(cls);
  if (it == classes.end()) {
    throw InvalidArgumentError(internal::str_cat(
        "Could not interpret learning-rate schedule class '", cls,
        "' (known: ExponentialDecay, PiecewiseConstantDecay, CosineDecay, PolynomialDecay)"));
  }
  return it->second(config.at("config", "learning-rate schedule"));
}

}  // namespace tfcc::keras::optimizers::schedules

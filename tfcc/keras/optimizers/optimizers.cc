// optimizers::get: Keras' optimizer strings.
#include "tfcc/keras/optimizers/optimizers.h"

#include <algorithm>
#include <cctype>

namespace tfcc::keras::optimizers {

std::shared_ptr<Optimizer> get(const std::string& identifier) {
  std::string key = identifier;
  std::transform(key.begin(), key.end(), key.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (key == "sgd") return std::make_shared<SGD>();
  if (key == "adam") return std::make_shared<Adam>();
  if (key == "adamw") return std::make_shared<AdamW>();
  if (key == "rmsprop") return std::make_shared<RMSprop>();
  if (key == "adagrad") return std::make_shared<Adagrad>();
  if (key == "adadelta") return std::make_shared<Adadelta>();
  if (key == "adamax") return std::make_shared<Adamax>();
  if (key == "nadam") return std::make_shared<Nadam>();
  if (key == "ftrl") return std::make_shared<Ftrl>();
  if (key == "lion") return std::make_shared<Lion>();
  if (key == "lamb") return std::make_shared<Lamb>();
  if (key == "adafactor") return std::make_shared<Adafactor>();
  throw InvalidArgumentError(internal::str_cat(
      "Could not interpret optimizer identifier: ", identifier,
      " (known: sgd, adam, adamw, rmsprop, adagrad, adadelta, adamax, nadam, ftrl, lion, lamb, "
      "adafactor)"));
}

}  // namespace tfcc::keras::optimizers

#include "tfcc/keras/layers/embedding.h"

#include "tfcc/keras/engine/config_schema.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"

namespace tfcc::keras::layers {

Embedding::Embedding(int64_t input_dim, int64_t output_dim, Options options)
    : Layer({options.name, options.trainable, options.input_shape, options.dtype}, "embedding"),
      input_dim_(input_dim),
      output_dim_(output_dim),
      options_(std::move(options)) {
  TFCC_CHECK_ARG(input_dim > 0 && output_dim > 0,
                 "Both `input_dim` and `output_dim` should be "
                 "positive, Received input_dim = ",
                 input_dim, " and output_dim = ", output_dim);
  // Keras: a layer overriding compute_mask supports masking.
  set_supports_masking(true);
}

Tensors Embedding::compute_mask(const Tensors& inputs, const Tensors&) const {
  if (!options_.mask_zero) return {Tensor()};
  return {not_equal(inputs.at(0), 0)};
}

void Embedding::build(const PartialShape&) {
  embeddings_ = add_weight("embeddings", Shape{input_dim_, output_dim_},
                           {.initializer = options_.embeddings_initializer,
                            .regularizer = options_.embeddings_regularizer});
}

Tensor Embedding::call(const Tensor& inputs, bool) {
  Tensor idx = inputs;
  if (idx.dtype() != int32 && idx.dtype() != int64) idx = cast(idx, int32);
  return gather(embeddings_, idx, 0);
}

const config::LayerSchema& Embedding::config_schema() {
  static const config::LayerSchema schema =
      config::schema<Embedding>(&Embedding::options_)
          .arg("input_dim", &Embedding::input_dim_)
          .arg("output_dim", &Embedding::output_dim_)
          .option("embeddings_initializer", &Options::embeddings_initializer)
          .option("embeddings_regularizer", &Options::embeddings_regularizer)
          .option("mask_zero", &Options::mask_zero);
  return schema;
}

}  // namespace tfcc::keras::layers

#include "tfcc/keras/layers/embedding.h"

#include "tfcc/ops/array/array.h"
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

Config Embedding::get_config() const {
  Config c = Layer::get_config();
  c.emplace_back("input_dim", config::repr(input_dim_));
  c.emplace_back("output_dim", config::repr(output_dim_));
  c.emplace_back("embeddings_initializer",
                 config::repr(options_.embeddings_initializer->class_name()));
  c.emplace_back("embeddings_regularizer", config::repr(options_.embeddings_regularizer));
  return c;
}

}  // namespace tfcc::keras::layers

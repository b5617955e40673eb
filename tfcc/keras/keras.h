// tfcc::keras: layers, models (compile / fit / evaluate / predict), losses, metrics, optimizers,
// initializers, regularizers, activations and callbacks.
//
//   using namespace tfcc::keras;
//   Sequential model({layers::Dense(64, {.activation = "relu", .input_shape = {784}}),
//                     layers::Dense(10)});
//   model.summary();
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include "tfcc/keras/activations/activations.h"
#include "tfcc/keras/applications/applications.h"
#include "tfcc/keras/callbacks/backup_and_restore.h"
#include "tfcc/keras/callbacks/callback.h"
#include "tfcc/keras/callbacks/csv_logger.h"
#include "tfcc/keras/callbacks/early_stopping.h"
#include "tfcc/keras/callbacks/lambda_callback.h"
#include "tfcc/keras/callbacks/learning_rate.h"
#include "tfcc/keras/callbacks/model_checkpoint.h"
#include "tfcc/keras/callbacks/progbar.h"
#include "tfcc/keras/callbacks/tensorboard.h"
#include "tfcc/keras/datasets/datasets.h"
#include "tfcc/keras/engine/backend.h"
#include "tfcc/keras/engine/keras_tensor.h"
#include "tfcc/keras/engine/layer.h"
#include "tfcc/keras/initializers/initializers.h"
#include "tfcc/keras/layers/activation_layers.h"
#include "tfcc/keras/layers/attention.h"
#include "tfcc/keras/layers/categorical.h"
#include "tfcc/keras/layers/conv.h"
#include "tfcc/keras/layers/core.h"
#include "tfcc/keras/layers/embedding.h"
#include "tfcc/keras/layers/lookup.h"
#include "tfcc/keras/layers/merging.h"
#include "tfcc/keras/layers/normalization.h"
#include "tfcc/keras/layers/pooling.h"
#include "tfcc/keras/layers/preprocessing.h"
#include "tfcc/keras/layers/rnn.h"
#include "tfcc/keras/layers/text_vectorization.h"
#include "tfcc/keras/losses/losses.h"
#include "tfcc/keras/metrics/metrics.h"
#include "tfcc/keras/models/export.h"
#include "tfcc/keras/models/model.h"
#include "tfcc/keras/models/sequential.h"
#include "tfcc/keras/optimizers/optimizers.h"
#include "tfcc/keras/regularizers/regularizers.h"
#include "tfcc/keras/saving/layer_registry.h"
#include "tfcc/keras/saving/model_saving.h"
#include "tfcc/keras/utils/np_utils.h"
#include "tfcc/keras/utils/text_dataset.h"
#pragma GCC visibility pop

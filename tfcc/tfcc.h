// tfcc: TensorFlow 2's programming model, native in C++. The one header users include.
//
//   #include <tfcc/tfcc.h>
//   namespace tf = tfcc;
//   int main() {
//     auto x = tf::constant(2);
//     auto y = tf::constant(3);
//     auto z = x + y;
//     std::cout << z << "\n";   // tf.Tensor(5, shape=(), dtype=int32)
//   }
//
// Ownership, once for all user-facing objects: Tensor (and later Variable, layers, models,
// optimizers, datasets) are cheap handles. Copying one copies the handle, not the data; a tensor's
// elements never change after it is made, so sharing is always safe. Ops return new tensors.
//
// Errors are exceptions deriving from tfcc::Error, named like TensorFlow's
// (InvalidArgumentError, NotFoundError, ...); see tfcc/platform/errors.h.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include "tfcc/autodiff/custom_gradient.h"
#include "tfcc/autodiff/gradient_checker.h"
#include "tfcc/autodiff/gradient_tape.h"
#include "tfcc/control_flow/control_flow.h"
#include "tfcc/core/allocator.h"
#include "tfcc/core/dtype.h"
#include "tfcc/core/shape.h"
#include "tfcc/core/tensor.h"
#include "tfcc/distribute/strategy.h"
#if TFCC_HAVE_MPI
#include "tfcc/distribute/multi_worker_mirrored_strategy.h"
#endif
#include "tfcc/data/data.h"
#include "tfcc/graph/graph.h"
#include "tfcc/io/checkpoint/checkpoint_manager.h"
#include "tfcc/io/checkpoint/checkpoint_reader.h"
#include "tfcc/io/example/example.h"
#include "tfcc/io/example/parse_example.h"
#include "tfcc/io/image/image.h"
#include "tfcc/io/npy/npy.h"
#include "tfcc/io/saved_model/saved_model.h"
#include "tfcc/io/summary/summary.h"
#include "tfcc/keras/keras.h"
#include "tfcc/module/module.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/attention/attention.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/config.h"
#include "tfcc/ops/conv/conv.h"
#include "tfcc/ops/conv3d/conv3d.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/image/image.h"
#include "tfcc/ops/linalg/einsum.h"
#include "tfcc/ops/linalg/linalg.h"
#include "tfcc/ops/manip/manip.h"
#include "tfcc/ops/matrix/matrix.h"
#include "tfcc/ops/nn/nn.h"
#include "tfcc/ops/operators.h"
#include "tfcc/ops/pool/pool.h"
#include "tfcc/ops/random/random.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/segment/segment.h"
#include "tfcc/ops/sorting/sorting.h"
#include "tfcc/ops/strings/strings.h"
#include "tfcc/ops/training/training.h"
#include "tfcc/ops/unary/unary.h"
#include "tfcc/platform/errors.h"
#pragma GCC visibility pop

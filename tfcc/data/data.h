// tfcc/data: the tf.data-style input pipeline and tfcc::datasets::load, in one include.
//
//   #include "tfcc/data/data.h"
//   auto ds = tfcc::data::Dataset::range(10).map([](tfcc::Tensor x) { return x * 2; }).batch(4);
//   for (const auto& batch : ds) std::cout << batch[0] << "\n";
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include "tfcc/data/csv.h"
#include "tfcc/data/dataset.h"
#include "tfcc/data/datasets/load.h"
#include "tfcc/data/element.h"
#include "tfcc/data/gzip.h"
#include "tfcc/data/idx.h"
#include "tfcc/data/iterator.h"
#include "tfcc/data/tfrecord.h"
#pragma GCC visibility pop

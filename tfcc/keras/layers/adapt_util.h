// Helpers the preprocessing layers share (not public API).
#pragma once

#include <string>
#include <vector>

#include "tfcc/core/tensor.h"
#include "tfcc/data/dataset.h"

namespace tfcc::keras::layers::internal {

/// Integer ids -> one_hot / multi_hot / count encodings of `depth` (CategoryEncoding's rules);
/// eager calls check the ids are in [0, depth). `layer` names the caller in errors.
Tensor encode_ids(const Tensor& ids, int64_t depth, const std::string& mode, DType dtype,
                  const char* layer);

/// The first component of every element of `data` (what adapt reads).
std::vector<Tensor> adapt_batches(const data::Dataset& data);

}  // namespace tfcc::keras::layers::internal

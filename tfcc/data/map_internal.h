// Shared between map.cc (the node, sequential iteration) and parallel_map.cc.
#pragma once

#include <memory>

#include "tfcc/data/dataset.h"

namespace tfcc::data::internal {

/// The node behind Dataset::map.
class MapNode : public DatasetNode {
 public:
  MapNode(std::shared_ptr<const DatasetNode> input, ElementFn fn, MapOptions options);
  const ElementSpec& element_spec() const override { return spec_; }
  int64_t cardinality() const override { return input_->cardinality(); }
  std::string name() const override {
    return options_.num_parallel_calls > 1 || options_.num_parallel_calls == AUTOTUNE
               ? "ParallelMapDataset"
               : "MapDataset";
  }
  std::unique_ptr<IteratorBase> make_iterator() const override;

  const std::shared_ptr<const DatasetNode>& input() const { return input_; }
  const ElementFn& fn() const { return fn_; }
  const MapOptions& options() const { return options_; }

 private:
  std::shared_ptr<const DatasetNode> input_;
  ElementFn fn_;
  MapOptions options_;
  ElementSpec spec_;
};

/// The iterator for num_parallel_calls > 1 or AUTOTUNE.
std::unique_ptr<IteratorBase> make_parallel_map_iterator(const MapNode* node);

}  // namespace tfcc::data::internal

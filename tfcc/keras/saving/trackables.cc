#include "tfcc/keras/saving/trackables.h"

#include <string>
#include <utility>
#include <vector>

#include "tfcc/io/checkpoint/module_trackable.h"
#include "tfcc/platform/errors.h"

namespace tfcc::keras::saving {
namespace {

using train::Dependency;
using train::TrackableNode;
using Deps = std::vector<std::pair<std::string, Dependency>>;

// A fixed list of dependencies with an identity (the metrics' and optimizer's variable lists).
class ListNode : public TrackableNode {
 public:
  ListNode(Deps deps, const void* identity) : deps_(std::move(deps)), identity_(identity) {}
  Deps dependencies() const override { return deps_; }
  const void* identity() const override { return identity_ ? identity_ : this; }

 private:
  Deps deps_;
  const void* identity_;
};

class OptimizerNode : public TrackableNode {
 public:
  explicit OptimizerNode(std::shared_ptr<optimizers::Optimizer> opt) : opt_(std::move(opt)) {}

  Deps dependencies() const override {
    Deps list;
    std::vector<Variable> vars = opt_->variables();
    for (size_t i = 0; i < vars.size(); ++i) list.emplace_back(std::to_string(i), vars[i]);
    // The list's identity must differ from the optimizer's: the address of its variables vector
    // is not stable, so use one byte past the optimizer object (never dereferenced).
    const void* list_id = reinterpret_cast<const char*>(opt_.get()) + 1;
    std::shared_ptr<const TrackableNode> list_node =
        std::make_shared<const ListNode>(std::move(list), list_id);
    Deps out;
    out.emplace_back("_iterations", vars.front());  // the optimizer's own counter
    out.emplace_back("_variables", std::move(list_node));
    return out;
  }
  const void* identity() const override { return opt_.get(); }

  std::vector<train::SaveableAttribute> attributes() const override {
    if (opt_->has_schedule()) return {};  // a schedule is a function of _iterations
    auto opt = opt_;
    return {{"learning_rate", [opt] { return train::AttributeValue(opt->learning_rate()); },
             [opt](const train::AttributeValue& v) {
               const Tensor* t = std::get_if<Tensor>(&v);
               TFCC_REQUIRE(DataLossError,
                            t && t->defined() && t->rank() == 0 && t->dtype() == float32,
                            "Checkpoint: the optimizer's learning_rate is not a float32 scalar");
               opt->set_learning_rate(static_cast<double>(t->item<float>()));
             }}};
  }

 private:
  std::shared_ptr<optimizers::Optimizer> opt_;
};

class LayerNode : public TrackableNode {
 public:
  LayerNode(const Layer* layer, bool include_optimizer)
      : layer_(layer), include_optimizer_(include_optimizer) {}

  Deps dependencies() const override {
    Deps out;
    const auto* model = dynamic_cast<const Model*>(layer_);
    if (model && model->is_graph_network()) {
      // Keras' Functional._layer_checkpoint_dependencies.
      int with_weights = 0, index = 0;
      for (const auto& l : model->layers()) {
        std::shared_ptr<const TrackableNode> node =
            std::make_shared<const LayerNode>(l.get(), false);
        if (!l->weights().empty()) {
          out.emplace_back(internal::str_cat("layer_with_weights-", with_weights++), node);
        }
        out.emplace_back(internal::str_cat("layer-", index++), node);
      }
    } else {
      for (const auto& [key, v] : layer_->own_variables()) out.emplace_back(key, v);
      for (const auto& [key, child] : layer_->children()) {
        if (const auto* l = dynamic_cast<const Layer*>(child.get())) {
          out.emplace_back(key, std::shared_ptr<const TrackableNode>(
                                    std::make_shared<const LayerNode>(l, false)));
        } else {
          out.emplace_back(key, Dependency(as_trackable_node(child)));
        }
      }
    }
    if (model && include_optimizer_ && model->compiled() && model->optimizer()) {
      out.emplace_back("optimizer", optimizer_trackable(model->optimizer()));
    }
    return out;
  }
  const void* identity() const override { return layer_; }

 private:
  const Layer* layer_;
  bool include_optimizer_;
};

}  // namespace

std::shared_ptr<const train::TrackableNode> layer_trackable(const Layer& layer,
                                                            bool include_optimizer) {
  return std::make_shared<const LayerNode>(&layer, include_optimizer);
}

std::shared_ptr<const train::TrackableNode> optimizer_trackable(
    std::shared_ptr<optimizers::Optimizer> optimizer) {
  TFCC_CHECK_ARG(optimizer != nullptr, "optimizer_trackable: the optimizer is null");
  return std::make_shared<const OptimizerNode>(std::move(optimizer));
}

std::shared_ptr<const train::TrackableNode> metrics_trackable(
    std::vector<std::shared_ptr<metrics::Metric>> metrics) {
  Deps deps;
  for (size_t i = 0; i < metrics.size(); ++i) {
    Deps vars;
    const auto& mv = metrics[i]->variables();
    for (size_t j = 0; j < mv.size(); ++j) vars.emplace_back(std::to_string(j), mv[j]);
    deps.emplace_back(std::to_string(i),
                      std::shared_ptr<const TrackableNode>(
                          std::make_shared<const ListNode>(std::move(vars), metrics[i].get())));
  }
  const void* id =
      metrics.empty() ? nullptr : reinterpret_cast<const char*>(metrics.front().get()) + 1;
  return std::make_shared<const ListNode>(std::move(deps), id);
}

void prepare_for_restore(Model& model) {
  if (!model.compiled() || !model.optimizer() || !model.built()) return;
  std::vector<Variable> vars = model.trainable_variables();
  if (!vars.empty()) model.optimizer()->build(vars);
}

}  // namespace tfcc::keras::saving

// Writes a small, fully deterministic TensorBoard log directory with every kind of summary tfcc
// writes, for the integration tests (tensorboard_check.py recomputes every value independently):
//
//   LOGDIR/train       scalars loss (20 steps) and accuracy, histogram weights (steps 0 and 10),
//                      images samples (uint8 RGB at step 0, float gray at step 1), text notes,
//                      a six-node graph
//   LOGDIR/validation  scalar loss (5 steps)
//   LOGDIR/traced      the graph of a traced function (relu(matmul(x, w)))
//   LOGDIR/in_function scalar x_squared written from inside a traced function (steps 0..4, value
//                      step^2), and that function's graph via trace_on / trace_export ("f_trace")
//   LOGDIR/keras       a Keras fit (2 epochs of 2 batches, validation) logged by the TensorBoard
//                      callback (histogram_freq 1, update_freq 2): keras/train, keras/validation
//
// usage: summary_log_writer LOGDIR
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "tfcc/io/proto/graph.pb.h"
#include "tfcc/platform/errors.h"
#include "tfcc/tfcc.h"

namespace summary = tfcc::summary;
using tfcc::Shape;
using tfcc::Tensor;

// x -> dense/MatMul(x, dense/kernel) -> dense/BiasAdd(., dense/bias) -> dense/Relu, with shapes.
summary::GraphDef small_graph() {
  summary::GraphDef g;
  auto add = [&](const char* name, const char* op, std::vector<std::string> inputs,
                 const char* type_attr, std::vector<int64_t> dims) {
    summary::NodeDef* n = g.add_node();
    n->set_name(name);
    n->set_op(op);
    for (const std::string& in : inputs) n->add_input(in);
    auto& attr = *n->mutable_attr();
    attr[type_attr].set_type(tensorflow::DT_FLOAT);
    tensorflow::TensorShapeProto* shape = attr["_output_shapes"].mutable_list()->add_shape();
    for (int64_t d : dims) shape->add_dim()->set_size(d);
  };
  add("x", "Placeholder", {}, "dtype", {-1, 4});
  add("dense/kernel", "Const", {}, "dtype", {4, 8});
  add("dense/bias", "Const", {}, "dtype", {8});
  add("dense/MatMul", "MatMul", {"x", "dense/kernel"}, "T", {-1, 8});
  add("dense/BiasAdd", "BiasAdd", {"dense/MatMul", "dense/bias"}, "T", {-1, 8});
  add("dense/Relu", "Relu", {"dense/BiasAdd", "^x"}, "T", {-1, 8});
  return g;
}

// Summaries written by a traced function, and its graph through trace_on / trace_export.
void write_in_function(const std::string& logdir) {
  auto writer = summary::create_file_writer(logdir + "/in_function");
  auto scope = writer.as_default();
  auto f = tfcc::function([](Tensor x, Tensor step) {
    Tensor y = x * x;
    summary::scalar("x_squared", y, step);
    return y;
  });
  summary::trace_on(/*graph=*/true);
  for (int64_t step = 0; step < 5; ++step) {
    f(Tensor::scalar<float>(static_cast<float>(step)), Tensor::scalar<int64_t>(step));
  }
  summary::trace_export("f_trace", 0);
  writer.close();
}

// A small Keras fit logged by the TensorBoard callback.
void write_keras_fit(const std::string& logdir) {
  using namespace tfcc::keras;
  tfcc::random::set_seed(1);
  std::vector<float> xs, ys;
  for (int i = 0; i < 8; ++i) {
    xs.insert(xs.end(), {static_cast<float>(i) * 0.25f, 1.0f - static_cast<float>(i % 3)});
    ys.push_back(static_cast<float>(i) * 0.5f);
  }
  Tensor x = Tensor::from_vector(xs, Shape{8, 2}), y = Tensor::from_vector(ys, Shape{8, 1});
  Sequential model({layers::Dense(1, {.input_shape = {2}})});
  model.compile({.optimizer = optimizers::SGD(0.05), .loss = "mse", .metrics = {"mae"}});
  auto tb = std::make_shared<callbacks::TensorBoard>(
      logdir + "/keras", callbacks::TensorBoardOptions{.histogram_freq = 1, .update_freq = 2});
  model.fit(x, y,
            {.batch_size = 4,
             .epochs = 2,
             .verbose = 0,
             .callbacks = {tb},
             .validation_data = ValidationData{x, y},
             .shuffle = false});
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: summary_log_writer LOGDIR\n";
    return 2;
  }
  std::string logdir = argv[1];
  try {
    auto train = summary::create_file_writer(logdir + "/train");
    auto validation = summary::create_file_writer(logdir + "/validation");
    {
      auto scope = train.as_default();
      for (int64_t step = 0; step < 20; ++step) {
        summary::scalar("loss", 1.0 / static_cast<double>(step + 1), step, "training loss");
        summary::scalar("accuracy", Tensor::scalar<float>(static_cast<float>(step) / 20.0f), step);
      }
      for (int64_t step : {0, 10}) {
        // Exactly representable values, so any implementation buckets them identically.
        std::vector<double> weights;
        for (int64_t i = 0; i < 1000; ++i)
          weights.push_back(((i * 37 + step * 11) % 101) / 4.0 - 10);
        summary::histogram("weights", Tensor::from_vector<double>(weights), step);
      }
      std::vector<uint8_t> rgb(2 * 4 * 5 * 3);
      for (size_t i = 0; i < rgb.size(); ++i) rgb[i] = static_cast<uint8_t>((i * 7) % 256);
      summary::image("samples", Tensor::from_vector<uint8_t>(rgb, Shape{2, 4, 5, 3}), 0, 3);
      std::vector<float> gray(9);
      for (size_t k = 0; k < gray.size(); ++k) gray[k] = static_cast<float>(k) / 8.0f;
      summary::image("samples", Tensor::from_vector<float>(gray, Shape{1, 3, 3, 1}), 1);
      summary::text("notes", "hello **tfcc**", 0);
      summary::text("notes", std::vector<std::string>{"a", "b", "c"}, 1);
      summary::graph(small_graph());
    }
    {
      auto scope = validation.as_default();
      for (int64_t step = 0; step < 5; ++step) summary::scalar("loss", 2.0 - 0.25 * step, step);
    }
    {
      // The graph of a traced function, as the Graphs tab shows it.
      auto traced = summary::create_file_writer(logdir + "/traced");
      auto scope = traced.as_default();
      tfcc::Variable w(Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, Shape{2, 3}),
                       {.name = "dense/kernel"});
      auto f = tfcc::function([&](Tensor x) { return tfcc::relu(tfcc::matmul(x, w)); });
      summary::graph(f.get_concrete_function(tfcc::TensorSpec{{-1, 2}, tfcc::float32}).graph());
    }
    train.close();
    validation.close();
    write_in_function(logdir);
    write_keras_fit(logdir);
  } catch (const tfcc::Error& e) {
    std::cerr << "summary_log_writer: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

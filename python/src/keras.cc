// tf.keras over tfcc::keras: layers are built from Keras 3 config entries through the layer
// registry (saving::layer_from_keras3), so every registered class is reachable from Python
// without a binding per class; a model is compiled from Keras 3's compile config and fit /
// evaluate / predict run in C++ with the GIL released. What C++ prints to std::cout (the
// progress bar, summary) goes to Python's sys.stdout while those calls run.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <iostream>
#include <memory>
#include <streambuf>
#include <string>
#include <vector>

#include "convert.h"

// From tfcc/keras/saving/keras3.h, which is not an installed header (it reaches the HDF5
// reader); the definitions are in the static libraries this module links.
namespace tfcc::keras::saving {
Json keras3_layer_entry(const Layer& layer);
std::shared_ptr<Layer> layer_from_keras3(const Json& entry);
Json compile_config_from_keras3(const Json& compile_config);
}  // namespace tfcc::keras::saving
namespace tfcc::keras::models {
void compile_from_config(Model& model, const saving::Json& config);
}  // namespace tfcc::keras::models

namespace tfcc::py {
namespace {

using keras::Layer;
using keras::Model;
using keras::saving::Json;

// A streambuf that writes to Python's sys.stdout (taking the GIL for each write).
class PythonStdout : public std::streambuf {
 protected:
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    nb::gil_scoped_acquire gil;
    nb::module_::import_("sys").attr("stdout").attr("write")(nb::str(s, static_cast<size_t>(n)));
    return n;
  }
  int_type overflow(int_type c) override {
    if (c == traits_type::eof()) return traits_type::not_eof(c);
    char ch = traits_type::to_char_type(c);
    xsputn(&ch, 1);
    return c;
  }
  int sync() override {
    nb::gil_scoped_acquire gil;
    nb::object out = nb::module_::import_("sys").attr("stdout");
    if (nb::hasattr(out, "flush")) out.attr("flush")();
    return 0;
  }
};

// While alive: std::cout writes to sys.stdout and the GIL is released.
class CppCall {
 public:
  CppCall() : old_(std::cout.rdbuf(&buf_)) {}
  ~CppCall() {
    std::cout.flush();
    std::cout.rdbuf(old_);
  }
  CppCall(const CppCall&) = delete;
  CppCall& operator=(const CppCall&) = delete;

 private:
  PythonStdout buf_;
  std::streambuf* old_;
  nb::gil_scoped_release release_;  // destroyed first: the GIL is back before the swap back
};

Json parse(const std::string& text, const char* what) { return Json::parse(text, what); }

nb::dict history_dict(const keras::callbacks::History& h) {
  nb::dict out;
  for (const auto& [name, values] : h.history()) {
    nb::list l;
    for (double v : values) l.append(v);
    out[nb::str(name.c_str())] = l;
  }
  return out;
}

nb::object evaluate_result(const keras::EvaluateResult& r, bool as_dict) {
  // r is in dict form (keys in compile order); Keras returns a float for a lone loss.
  std::vector<std::string> keys = r.keys();
  if (as_dict) {
    nb::dict d;
    for (const std::string& k : keys) d[nb::str(k.c_str())] = r[k];
    return d;
  }
  if (keys.size() == 1) return nb::float_(r[keys[0]]);
  nb::list l;
  for (const std::string& k : keys) l.append(r[k]);
  return l;
}

// fit's options from Python keyword values (None: the C++ default).
keras::FitOptions fit_options(std::optional<int64_t> batch_size, int epochs, int verbose,
                              double validation_split,
                              std::optional<std::pair<Tensor, Tensor>> validation_data,
                              bool shuffle, int initial_epoch,
                              std::optional<int64_t> steps_per_epoch,
                              std::optional<int64_t> validation_steps) {
  keras::FitOptions o;
  o.batch_size = batch_size;
  o.epochs = epochs;
  o.verbose = verbose;
  o.validation_split = validation_split;
  if (validation_data) {
    o.validation_data = keras::ValidationData{validation_data->first, validation_data->second, {}};
  }
  o.shuffle = shuffle;
  o.initial_epoch = initial_epoch;
  o.steps_per_epoch = steps_per_epoch;
  o.validation_steps = validation_steps;
  return o;
}

}  // namespace

void bind_keras(nb::module_& m) {
  nb::class_<Layer>(m, "Layer")
      .def_prop_ro("name", [](const Layer& l) { return l.name(); })
      .def_prop_ro("class_name", &Layer::class_name)
      .def("count_params", &Layer::count_params)
      .def_prop_ro("weights", &Layer::weights)
      .def_prop_ro("trainable_weights", &Layer::trainable_weights)
      .def("keras3_entry",
           [](const Layer& l) { return keras::saving::keras3_layer_entry(l).dump(); })
      .def(
          "__call__",
          [](Layer& l, const Tensor& x, bool training) {
            return l(x, keras::CallOptions{.training = training, .mask = {}});
          },
          nb::arg("x"), nb::arg("training") = false);

  m.def("layer_from_keras3", [](const std::string& entry) {
    return keras::saving::layer_from_keras3(parse(entry, "keras layer config"));
  });

  nb::class_<Model, Layer>(m, "Model")
      .def_prop_ro("layers", &Model::layers)
      .def("compile",
           // `metric_names`: the name each compiled metric takes ("" keeps the identifier),
           // for metric objects given by class with a name of their own.
           [](Model& model, const std::string& keras3_compile_config,
              const std::vector<std::string>& metric_names) {
             keras::models::compile_from_config(
                 model, keras::saving::compile_config_from_keras3(
                            parse(keras3_compile_config, "compile config")));
             auto compiled = model.metrics();  // the loss tracker, then the compiled metrics
             for (size_t i = 0; i < metric_names.size() && i + 1 < compiled.size(); ++i) {
               if (!metric_names[i].empty()) compiled[i + 1]->set_name(metric_names[i]);
             }
           })
      .def("fit",
           [](Model& model, const Tensor& x, const Tensor& y, std::optional<int64_t> batch_size,
              int epochs, int verbose, double validation_split,
              std::optional<std::pair<Tensor, Tensor>> validation_data, bool shuffle,
              int initial_epoch, std::optional<int64_t> steps_per_epoch,
              std::optional<int64_t> validation_steps) {
             keras::FitOptions o = fit_options(batch_size, epochs, verbose, validation_split,
                                               std::move(validation_data), shuffle, initial_epoch,
                                               steps_per_epoch, validation_steps);
             std::optional<keras::callbacks::History> h;
             {
               CppCall call;
               h = model.fit(x, y, std::move(o));
             }
             return history_dict(*h);
           })
      .def("fit_dataset",
           [](Model& model, const data::Dataset& ds, int epochs, int verbose,
              std::optional<data::Dataset> validation, int initial_epoch,
              std::optional<int64_t> steps_per_epoch, std::optional<int64_t> validation_steps) {
             keras::FitOptions o =
                 fit_options(std::nullopt, epochs, verbose, 0.0, std::nullopt, true, initial_epoch,
                             steps_per_epoch, validation_steps);
             std::optional<keras::callbacks::History> h;
             {
               CppCall call;
               if (validation) {
                 // Validation batches from a dataset: fit's ValidationData holds tensors, so the
                 // dataset's elements are concatenated (the seed programs' test splits fit in
                 // memory).
                 std::vector<Tensor> xs, ys;
                 for (const data::Element& e : *validation) {
                   xs.push_back(e.at(0));
                   ys.push_back(e.at(1));
                 }
                 o.validation_data = keras::ValidationData{concat(xs, 0), concat(ys, 0), {}};
                 o.validation_batch_size = xs.empty() ? 32 : xs[0].shape().dim(0);
               }
               h = model.fit(ds, std::move(o));
             }
             return history_dict(*h);
           })
      .def("evaluate",
           [](Model& model, const Tensor& x, const Tensor& y, std::optional<int64_t> batch_size,
              int verbose, bool return_dict) {
             keras::EvaluateOptions o;
             o.batch_size = batch_size;
             o.verbose = verbose;
             o.return_dict = true;
             std::optional<keras::EvaluateResult> r;
             {
               CppCall call;
               r = model.evaluate(x, y, std::move(o));
             }
             return evaluate_result(*r, return_dict);
           })
      .def("evaluate_dataset",
           [](Model& model, const data::Dataset& ds, int verbose, std::optional<int64_t> steps,
              bool return_dict) {
             keras::EvaluateOptions o;
             o.verbose = verbose;
             o.steps = steps;
             o.return_dict = true;
             std::optional<keras::EvaluateResult> r;
             {
               CppCall call;
               r = model.evaluate(ds, std::move(o));
             }
             return evaluate_result(*r, return_dict);
           })
      .def("predict",
           [](Model& model, const Tensor& x, std::optional<int64_t> batch_size, int verbose) {
             keras::PredictOptions o;
             o.batch_size = batch_size;
             o.verbose = verbose;
             CppCall call;
             return model.predict(x, std::move(o));
           })
      .def("predict_dataset",
           [](Model& model, const data::Dataset& ds, int verbose) {
             keras::PredictOptions o;
             o.verbose = verbose;
             CppCall call;
             return model.predict(ds, std::move(o));
           })
      .def("summary_string", &Model::summary_string)
      .def("save", [](const Model& model, const std::string& path) {
        CppCall call;
        model.save(path);
      });

  m.def("sequential", [](std::vector<std::shared_ptr<Layer>> layers, const std::string& name) {
    keras::ModelArgs args;
    args.name = name;
    std::vector<keras::LayerPtr> ptrs(layers.begin(), layers.end());
    return std::static_pointer_cast<Model>(
        std::make_shared<keras::Sequential>(std::move(ptrs), std::move(args)));
  });
  m.def("load_model", [](const std::string& path, bool compile) {
    keras::models::LoadModelOptions o;
    o.compile = compile;
    CppCall call;
    return keras::models::load_model(path, o);
  });
  m.def("load_data", [](const std::string& name, const std::string& data_dir) {
    CppCall call;
    if (name == "mnist") return keras::datasets::mnist::load_data(data_dir);
    if (name == "fashion_mnist") return keras::datasets::fashion_mnist::load_data(data_dir);
    throw NotFoundError("keras.datasets: no data set '" + name +
                        "' (tfcc has 'mnist' and 'fashion_mnist')");
  });
}

}  // namespace tfcc::py

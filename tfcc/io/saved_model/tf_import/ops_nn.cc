// Import rows for neural-network ops: activations, softmax, bias, convolutions, pooling and
// batch normalisation.
#include "tfcc/io/saved_model/tf_import/op_table.h"
#include "tfcc/platform/errors.h"

namespace tfcc::saved_model::tf_import {

namespace {

std::vector<Value> one(Tensor t) { return {Value::of(std::move(t))}; }

Tensor scalar_like(const NodeContext& c, const Tensor& x, double v) {
  return c.run1("Cast", {Tensor::scalar<double>(v)}, {{"DstT", x.dtype()}});
}

std::vector<Value> softmax(NodeContext& c, bool log) {
  const Tensor& x = c.in(0);
  Attrs last{{"axis", std::vector<int64_t>{-1}}, {"keepdims", true}};
  Tensor shifted = c.run1("Sub", {x, c.run1("Max", {x}, last)});
  Tensor e = c.run1("Exp", {shifted});
  Tensor sum = c.run1("Sum", {e}, last);
  if (log) return one(c.run1("Sub", {shifted, c.run1("Log", {sum})}));
  return one(c.run1("RealDiv", {e, sum}));
}

const std::map<std::string, tensorflow::AttrValue> kConvDefaults = {
    {"data_format", attr_s("NHWC")},
    {"dilations", attr_list_i({1, 1, 1, 1})},
    {"use_cudnn_on_gpu", attr_b(true)},
    {"explicit_paddings", attr_list_i({})}};

OpRow conv(const std::string& tf) {
  auto defaults = kConvDefaults;
  if (tf != "Conv2D") defaults.erase("use_cudnn_on_gpu");
  return {tf, {"output"}, defaults, tf, [tf](NodeContext& c) {
            return one(c.run1(tf.c_str(), {c.in(0), c.in(1)},
                              {{"strides", c.list_i("strides")},
                               {"padding", c.s("padding")},
                               {"explicit_paddings", c.list_i("explicit_paddings")},
                               {"data_format", c.s("data_format")},
                               {"dilations", c.list_i("dilations")}}));
          }};
}

OpRow pool(const std::string& tf) {
  return {tf,
          {"output"},
          {{"data_format", attr_s("NHWC")},
           {"explicit_paddings", attr_list_i({})},
           {"T", attr_type(tensorflow::DT_FLOAT)}},
          tf,
          [tf](NodeContext& c) {
            if (!c.list_i("explicit_paddings").empty()) c.unsupported("explicit_paddings");
            return one(c.run1(tf.c_str(), {c.in(0)},
                              {{"ksize", c.list_i("ksize")},
                               {"strides", c.list_i("strides")},
                               {"padding", c.s("padding")},
                               {"data_format", c.s("data_format")}}));
          }};
}

// Conv3D and its V2 backprop ops: TensorFlow's size input (a constant or static shape
// arithmetic) becomes tfcc's size attribute `size_attr`; `sizes_at` is its input index (-1: none).
OpRow conv3d(const std::string& tf, int sizes_at, const char* size_attr) {
  std::map<std::string, tensorflow::AttrValue> defaults = {
      {"data_format", attr_s("NDHWC")}, {"dilations", attr_list_i({1, 1, 1, 1, 1})}};
  if (sizes_at >= 0) defaults["Tshape"] = attr_type(tensorflow::DT_INT32);
  return {tf, {"output"}, defaults, tf, [tf, sizes_at, size_attr](NodeContext& c) {
            Attrs a{{"strides", c.list_i("strides")},
                    {"padding", c.s("padding")},
                    {"data_format", c.s("data_format")},
                    {"dilations", c.list_i("dilations")}};
            if (sizes_at < 0) return one(c.run1(tf.c_str(), {c.in(0), c.in(1)}, std::move(a)));
            a.set(size_attr, c.ints(sizes_at));
            return one(c.run1(tf.c_str(), {c.in(sizes_at == 0 ? 1 : 0), c.in(2)}, std::move(a)));
          }};
}

// The 3-D pooling ops with `tensors` inputs (AvgPool3DGrad's first, the input shape, becomes
// the orig_input_shape attribute).
OpRow pool3d(const std::string& tf, int tensors) {
  std::map<std::string, tensorflow::AttrValue> defaults = {{"data_format", attr_s("NDHWC")}};
  if (tf == "MaxPool3DGrad") defaults["TInput"] = attr_type(tensorflow::DT_FLOAT);
  return {tf, {"output"}, defaults, tf, [tf, tensors](NodeContext& c) {
            Attrs a{{"ksize", c.list_i("ksize")},
                    {"strides", c.list_i("strides")},
                    {"padding", c.s("padding")},
                    {"data_format", c.s("data_format")}};
            std::vector<Tensor> in;
            if (tf == "AvgPool3DGrad") {
              a.set("orig_input_shape", c.ints(0));
              in.push_back(c.in(1));
            } else {
              for (int i = 0; i < tensors; ++i) in.push_back(c.in(i));
            }
            return one(c.run1(tf.c_str(), in, std::move(a)));
          }};
}

OpRow lrn(const std::string& tf, int inputs) {
  return {tf,
          {"output"},
          {{"depth_radius", attr_i(5)},
           {"bias", attr_f(1.0f)},
           {"alpha", attr_f(1.0f)},
           {"beta", attr_f(0.5f)}},
          tf,
          [tf, inputs](NodeContext& c) {
            std::vector<Tensor> in;
            for (int i = 0; i < inputs; ++i) in.push_back(c.in(i));
            return one(c.run1(tf.c_str(), in,
                              {{"depth_radius", c.i("depth_radius")},
                               {"bias", c.f("bias")},
                               {"alpha", c.f("alpha")},
                               {"beta", c.f("beta")}}));
          }};
}

OpRow batch_norm(const std::string& tf, std::vector<std::string> outputs) {
  return {tf,
          outputs,
          {{"epsilon", attr_f(0.0001f)},
           {"exponential_avg_factor", attr_f(1.0f)},
           {"data_format", attr_s("NHWC")},
           {"is_training", attr_b(true)}},
          "FusedBatchNormV3",
          [n = outputs.size()](NodeContext& c) {
            std::vector<Tensor> out =
                c.run("FusedBatchNormV3", {c.in(0), c.in(1), c.in(2), c.in(3), c.in(4)},
                      {{"epsilon", c.f("epsilon")},
                       {"exponential_avg_factor", c.f("exponential_avg_factor")},
                       {"data_format", c.s("data_format")},
                       {"is_training", c.b("is_training")}});
            std::vector<Value> v;
            for (size_t i = 0; i < n && i < out.size(); ++i) v.push_back(Value::of(out[i]));
            return v;
          }};
}

}  // namespace

void add_nn_ops(std::vector<OpRow>& rows) {
  rows.push_back({"Relu", {"activations"}, {}, "Relu", [](NodeContext& c) {
                    return one(c.run1("Relu", {c.in(0)}));
                  }});
  rows.push_back({"Relu6", {"activations"}, {}, "Relu6", [](NodeContext& c) {
                    return one(c.run1("Relu6", {c.in(0)}));
                  }});
  rows.push_back({"LeakyRelu",
                  {"activations"},
                  {{"alpha", attr_f(0.2f)}},
                  "SelectV2(x > 0, x, alpha * x)",
                  [](NodeContext& c) {
                    const Tensor& x = c.in(0);
                    Tensor pos = c.run1("Greater", {x, scalar_like(c, x, 0.0)});
                    Tensor neg = c.run1("Mul", {x, scalar_like(c, x, c.f("alpha"))});
                    return one(c.run1("SelectV2", {pos, x, neg}));
                  }});
  rows.push_back({"Elu", {"activations"}, {}, "SelectV2(x > 0, x, Expm1(x))", [](NodeContext& c) {
                    const Tensor& x = c.in(0);
                    Tensor pos = c.run1("Greater", {x, scalar_like(c, x, 0.0)});
                    return one(c.run1("SelectV2", {pos, x, c.run1("Expm1", {x})}));
                  }});
  rows.push_back(
      {"Selu", {"activations"}, {}, "scale * Elu(x, alpha)", [](NodeContext& c) {
         const Tensor& x = c.in(0);
         const double alpha = 1.6732632423543772848170429916717;
         const double scale = 1.0507009873554804934193349852946;
         Tensor pos = c.run1("Greater", {x, scalar_like(c, x, 0.0)});
         Tensor neg = c.run1("Mul", {c.run1("Expm1", {x}), scalar_like(c, x, alpha)});
         return one(c.run1("Mul", {c.run1("SelectV2", {pos, x, neg}), scalar_like(c, x, scale)}));
       }});
  rows.push_back(
      {"Softplus", {"activations"}, {}, "Maximum(x, 0) + Log1p(Exp(-Abs(x)))", [](NodeContext& c) {
         const Tensor& x = c.in(0);
         Tensor t = c.run1("Log1p", {c.run1("Exp", {c.run1("Neg", {c.run1("Abs", {x})})})});
         return one(c.run1("AddV2", {c.run1("Maximum", {x, scalar_like(c, x, 0.0)}), t}));
       }});
  rows.push_back({"Softsign", {"activations"}, {}, "x / (1 + Abs(x))", [](NodeContext& c) {
                    const Tensor& x = c.in(0);
                    Tensor d = c.run1("AddV2", {c.run1("Abs", {x}), scalar_like(c, x, 1.0)});
                    return one(c.run1("RealDiv", {x, d}));
                  }});
  rows.push_back({"Softmax", {"softmax"}, {}, "Exp(x - Max) / Sum (last axis)", [](NodeContext& c) {
                    return softmax(c, false);
                  }});
  rows.push_back({"LogSoftmax",
                  {"logsoftmax"},
                  {},
                  "(x - Max) - Log(Sum(Exp)) (last axis)",
                  [](NodeContext& c) { return softmax(c, true); }});
  for (const char* op : {"BiasAdd", "BiasAddV1"}) {
    rows.push_back(
        {op, {"output"}, {{"data_format", attr_s("NHWC")}}, "BiasAdd", [](NodeContext& c) {
           const std::string df = c.has_attr("data_format") ? c.s("data_format") : "NHWC";
           return one(c.run1("BiasAdd", {c.in(0), c.in(1)}, {{"data_format", df}}));
         }});
  }
  rows.push_back(conv("Conv2D"));
  rows.push_back(conv("DepthwiseConv2dNative"));
  rows.push_back(pool("MaxPool"));
  rows.push_back(pool("AvgPool"));
  rows.push_back(batch_norm("FusedBatchNorm", {"y", "batch_mean", "batch_variance",
                                               "reserve_space_1", "reserve_space_2"}));
  rows.push_back(batch_norm("FusedBatchNormV2", {"y", "batch_mean", "batch_variance",
                                                 "reserve_space_1", "reserve_space_2"}));
  rows.push_back(
      batch_norm("FusedBatchNormV3", {"y", "batch_mean", "batch_variance", "reserve_space_1",
                                      "reserve_space_2", "reserve_space_3"}));
  rows.push_back(conv3d("Conv3D", -1, ""));
  rows.push_back(conv3d("Conv3DBackpropInputV2", 0, "input_sizes"));
  rows.push_back(conv3d("Conv3DBackpropFilterV2", 1, "filter_sizes"));
  rows.push_back(pool3d("MaxPool3D", 1));
  rows.push_back(pool3d("AvgPool3D", 1));
  rows.push_back(pool3d("MaxPool3DGrad", 3));
  rows.push_back(pool3d("MaxPool3DGradGrad", 3));
  rows.push_back(pool3d("AvgPool3DGrad", 2));
  rows.push_back(lrn("LRN", 1));
  rows.push_back(lrn("LRNGrad", 3));
}

}  // namespace tfcc::saved_model::tf_import

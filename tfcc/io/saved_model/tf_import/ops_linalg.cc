// Import rows for matrix, sorting and segment ops: MatrixBandPart and the decompositions
// (MatrixInverse, MatrixDeterminant, Cholesky, Qr, Svd, SelfAdjointEigV2, MatrixSolve,
// MatrixTriangularSolve), TopKV2, LowerBound/UpperBound, Unique, the segment reductions,
// Bincount/DenseBincount and Roll. TensorFlow passes k, num_segments, sizes, shifts and band
// widths as tensors; tfcc takes them as attributes, so they must be known when the function is
// traced (constants, or shape arithmetic on static shapes).
#include "tfcc/io/saved_model/tf_import/op_table.h"
#include "tfcc/io/saved_model/tf_import/proto_io.h"

namespace tfcc::saved_model::tf_import {
namespace {

std::vector<Value> values(std::vector<Tensor> ts) {
  std::vector<Value> out;
  for (Tensor& t : ts) out.push_back(Value::of(std::move(t)));
  return out;
}

// A row whose TensorFlow op maps to the tfcc op of the same name, its attributes copied.
OpRow with_attrs(const std::string& tf, std::vector<std::string> outputs,
                 std::map<std::string, tensorflow::AttrValue> defaults,
                 std::vector<std::string> bool_attrs) {
  return {tf, std::move(outputs), std::move(defaults), tf, [tf, bool_attrs](NodeContext& c) {
            Attrs a;
            for (const std::string& name : bool_attrs) a.set(name, c.b(name));
            std::vector<Tensor> in;
            for (int i = 0; i < c.num_inputs(); ++i) in.push_back(c.in(i));
            return values(c.run(tf.c_str(), in, a));
          }};
}

// Bincount (no binary_output attribute) and DenseBincount.
OpRow bincount_row(const std::string& tf, const std::string& out) {
  std::map<std::string, tensorflow::AttrValue> defaults;
  if (tf == "DenseBincount") defaults["binary_output"] = attr_b(false);
  return {tf, {out}, defaults, "DenseBincount (size known at trace time)", [](NodeContext& c) {
            const bool binary = c.has_attr("binary_output") && c.b("binary_output");
            return values(c.run("DenseBincount", {c.in(0), c.in(2)},
                                {{"size", c.int_scalar(1)},
                                 {"minlength", int64_t{-1}},
                                 {"maxlength", int64_t{-1}},
                                 {"binary_output", binary}}));
          }};
}

}  // namespace

void add_linalg_ops(std::vector<OpRow>& rows) {
  rows.push_back(
      with_attrs("MatrixInverse", {"output"}, {{"adjoint", attr_b(false)}}, {"adjoint"}));
  rows.push_back(with_attrs("MatrixDeterminant", {"output"}, {}, {}));
  rows.push_back(with_attrs("Cholesky", {"output"}, {}, {}));
  rows.push_back(
      with_attrs("Qr", {"q", "r"}, {{"full_matrices", attr_b(false)}}, {"full_matrices"}));
  rows.push_back(with_attrs("Svd", {"s", "u", "v"},
                            {{"compute_uv", attr_b(true)}, {"full_matrices", attr_b(false)}},
                            {"compute_uv", "full_matrices"}));
  rows.push_back(
      with_attrs("SelfAdjointEigV2", {"e", "v"}, {{"compute_v", attr_b(true)}}, {"compute_v"}));
  rows.push_back(with_attrs("MatrixSolve", {"output"}, {{"adjoint", attr_b(false)}}, {"adjoint"}));
  rows.push_back(with_attrs("MatrixTriangularSolve", {"output"},
                            {{"lower", attr_b(true)}, {"adjoint", attr_b(false)}},
                            {"lower", "adjoint"}));
  rows.push_back({"MatrixBandPart", {"band"}, {}, "MatrixBandPart", [](NodeContext& c) {
                    return values(
                        c.run("MatrixBandPart", {c.in(0)},
                              {{"num_lower", c.int_scalar(1)}, {"num_upper", c.int_scalar(2)}}));
                  }});
  rows.push_back({"TopKV2",
                  {"values", "indices"},
                  {{"sorted", attr_b(true)}, {"index_type", attr_type(tensorflow::DT_INT32)}},
                  "TopKV2",
                  [](NodeContext& c) {
                    return values(c.run("TopKV2", {c.in(0)},
                                        {{"k", c.int_scalar(1)},
                                         {"sorted", c.b("sorted")},
                                         {"index_type", c.type("index_type")}}));
                  }});
  for (const char* op : {"LowerBound", "UpperBound"}) {
    rows.push_back(
        {op,
         {"output"},
         {{"out_type", attr_type(tensorflow::DT_INT32)}},
         op,
         [op = std::string(op)](NodeContext& c) {
           return values(c.run(op.c_str(), {c.in(0), c.in(1)}, {{"out_type", c.type("out_type")}}));
         }});
  }
  rows.push_back({"Unique",
                  {"y", "idx"},
                  {{"out_idx", attr_type(tensorflow::DT_INT32)}},
                  "Unique",
                  [](NodeContext& c) {
                    return values(c.run("Unique", {c.in(0)}, {{"out_idx", c.type("out_idx")}}));
                  }});
  for (const char* op : {"SegmentSum", "SegmentMean", "SegmentMax"}) {
    rows.push_back(with_attrs(op, {"output"}, {}, {}));
  }
  for (const char* op : {"UnsortedSegmentSum", "UnsortedSegmentMax"}) {
    rows.push_back({op,
                    {"output"},
                    {{"Tnumsegments", attr_type(tensorflow::DT_INT32)}},
                    op,
                    [op = std::string(op)](NodeContext& c) {
                      return values(c.run(op.c_str(), {c.in(0), c.in(1)},
                                          {{"num_segments", c.int_scalar(2)}}));
                    }});
  }
  rows.push_back(bincount_row("DenseBincount", "output"));
  rows.push_back(bincount_row("Bincount", "bins"));
  rows.push_back(
      {"Roll", {"output"}, {}, "Roll", [](NodeContext& c) {
         return values(c.run("Roll", {c.in(0)}, {{"shift", c.ints(1)}, {"axis", c.ints(2)}}));
       }});
}

}  // namespace tfcc::saved_model::tf_import

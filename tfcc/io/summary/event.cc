#include "tfcc/io/summary/event.h"

#include <cstring>

#include "tfcc/io/proto/message_io.h"
#include "tfcc/io/proto/summary.pb.h"
#include "tfcc/platform/errors.h"

namespace tfcc::summary {

namespace pb = ::tensorflow;

namespace {

template <typename T>
void append_le_values(const std::string& content, std::vector<double>& out) {
  for (size_t i = 0; i + sizeof(T) <= content.size(); i += sizeof(T)) {
    T v;
    std::memcpy(&v, content.data() + i, sizeof(T));
    out.push_back(static_cast<double>(v));
  }
}

}  // namespace

int64_t TensorProto::num_elements() const {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d != 0 && n > INT64_MAX / d) throw DataLossError("TensorProto: shape overflows int64");
    n *= d;
  }
  return n;
}

std::vector<double> TensorProto::to_doubles() const {
  int64_t n = num_elements();
  size_t width = 0;
  switch (dtype) {
    case kDtFloat:
    case kDtInt32:
      width = 4;
      break;
    case kDtDouble:
    case kDtInt64:
      width = 8;
      break;
    case kDtUInt8:
    case kDtBool:
      width = 1;
      break;
    default:
      throw DataLossError(tfcc::internal::str_cat("TensorProto: dtype ", dtype, " is not numeric"));
  }
  std::vector<double> out;
  if (!tensor_content.empty()) {
    if (tensor_content.size() % width != 0 ||
        tensor_content.size() / width != static_cast<uint64_t>(n)) {
      throw DataLossError(tfcc::internal::str_cat("TensorProto: tensor_content holds ",
                                                  tensor_content.size(), " bytes, the shape needs ",
                                                  n, " elements of ", width, " bytes"));
    }
    out.reserve(static_cast<size_t>(n));
    if (dtype == kDtFloat) append_le_values<float>(tensor_content, out);
    if (dtype == kDtDouble) append_le_values<double>(tensor_content, out);
    if (dtype == kDtInt32) append_le_values<int32_t>(tensor_content, out);
    if (dtype == kDtInt64) append_le_values<int64_t>(tensor_content, out);
    if (dtype == kDtUInt8 || dtype == kDtBool) append_le_values<uint8_t>(tensor_content, out);
    return out;
  }
  if (dtype == kDtFloat) out.assign(float_val.begin(), float_val.end());
  if (dtype == kDtDouble) out.assign(double_val.begin(), double_val.end());
  if (dtype == kDtInt32 || dtype == kDtUInt8 || dtype == kDtBool) {
    out.assign(int_val.begin(), int_val.end());
  }
  if (dtype == kDtInt64) out.assign(int64_val.begin(), int64_val.end());
  if (static_cast<int64_t>(out.size()) == n) return out;
  // TensorFlow repeats the last value to fill the shape (one value for a constant tensor).
  if (!out.empty() && static_cast<int64_t>(out.size()) < n && n <= (int64_t{1} << 28)) {
    out.resize(static_cast<size_t>(n), out.back());
    return out;
  }
  if (n == 0) return {};
  throw DataLossError(tfcc::internal::str_cat("TensorProto: ", out.size(),
                                              " values for a shape of ", n, " elements"));
}

namespace {

// Each struct to its generated message and back. Only the fields the structs model are copied;
// a parsed message's other fields are dropped.

void to_proto(const TensorProto& t, pb::TensorProto& p) {
  p.set_dtype(static_cast<pb::DataType>(t.dtype));
  pb::TensorShapeProto* shape = p.mutable_tensor_shape();  // written even for a scalar, as TF
  for (int64_t d : t.shape) shape->add_dim()->set_size(d);
  p.set_tensor_content(t.tensor_content);
  p.mutable_float_val()->Add(t.float_val.begin(), t.float_val.end());
  p.mutable_double_val()->Add(t.double_val.begin(), t.double_val.end());
  for (int64_t v : t.int_val) p.add_int_val(static_cast<int32_t>(v));
  for (const std::string& v : t.string_val) p.add_string_val(v);
  p.mutable_int64_val()->Add(t.int64_val.begin(), t.int64_val.end());
}

TensorProto from_proto(const pb::TensorProto& p) {
  TensorProto t;
  t.dtype = p.dtype();
  if (p.tensor_shape().unknown_rank()) {
    throw DataLossError("malformed TensorShapeProto: unknown rank in a summary tensor");
  }
  for (const auto& dim : p.tensor_shape().dim()) {
    if (dim.size() < 0) {
      throw DataLossError("malformed TensorShapeProto: negative dimension in a summary");
    }
    t.shape.push_back(dim.size());
  }
  t.tensor_content = p.tensor_content();
  t.float_val.assign(p.float_val().begin(), p.float_val().end());
  t.double_val.assign(p.double_val().begin(), p.double_val().end());
  t.int_val.assign(p.int_val().begin(), p.int_val().end());
  t.string_val.assign(p.string_val().begin(), p.string_val().end());
  t.int64_val.assign(p.int64_val().begin(), p.int64_val().end());
  return t;
}

void to_proto(const SummaryMetadata& m, pb::SummaryMetadata& p) {
  if (!m.plugin_name.empty() || !m.plugin_content.empty()) {
    p.mutable_plugin_data()->set_plugin_name(m.plugin_name);
    p.mutable_plugin_data()->set_content(m.plugin_content);
  }
  p.set_display_name(m.display_name);
  p.set_summary_description(m.summary_description);
  p.set_data_class(static_cast<pb::DataClass>(m.data_class));
}

SummaryMetadata from_proto(const pb::SummaryMetadata& p) {
  return {.plugin_name = p.plugin_data().plugin_name(),
          .plugin_content = p.plugin_data().content(),
          .display_name = p.display_name(),
          .summary_description = p.summary_description(),
          .data_class = p.data_class()};
}

void to_proto(const HistogramProto& h, pb::HistogramProto& p) {
  p.set_min(h.min);
  p.set_max(h.max);
  p.set_num(h.num);
  p.set_sum(h.sum);
  p.set_sum_squares(h.sum_squares);
  p.mutable_bucket_limit()->Add(h.bucket_limit.begin(), h.bucket_limit.end());
  p.mutable_bucket()->Add(h.bucket.begin(), h.bucket.end());
}

HistogramProto from_proto(const pb::HistogramProto& p) {
  return {.min = p.min(),
          .max = p.max(),
          .num = p.num(),
          .sum = p.sum(),
          .sum_squares = p.sum_squares(),
          .bucket_limit = {p.bucket_limit().begin(), p.bucket_limit().end()},
          .bucket = {p.bucket().begin(), p.bucket().end()}};
}

void to_proto(const SummaryValue& v, pb::Summary::Value& p) {
  p.set_tag(v.tag);
  if (v.simple_value) p.set_simple_value(*v.simple_value);
  if (v.image) {
    pb::Summary::Image* im = p.mutable_image();
    im->set_height(v.image->height);
    im->set_width(v.image->width);
    im->set_colorspace(v.image->colorspace);
    im->set_encoded_image_string(v.image->encoded_image_string);
  }
  if (v.histo) to_proto(*v.histo, *p.mutable_histo());
  if (v.tensor) to_proto(*v.tensor, *p.mutable_tensor());
  if (v.metadata) to_proto(*v.metadata, *p.mutable_metadata());
}

SummaryValue from_proto(const pb::Summary::Value& p) {
  SummaryValue v;
  v.tag = p.tag();
  if (p.has_simple_value()) v.simple_value = p.simple_value();
  if (p.has_image()) {
    const pb::Summary::Image& im = p.image();
    v.image = SummaryImage{.height = im.height(),
                           .width = im.width(),
                           .colorspace = im.colorspace(),
                           .encoded_image_string = im.encoded_image_string()};
  }
  if (p.has_histo()) v.histo = from_proto(p.histo());
  if (p.has_tensor()) v.tensor = from_proto(p.tensor());
  if (p.has_metadata()) v.metadata = from_proto(p.metadata());
  return v;
}

}  // namespace

std::string TensorProto::serialize() const {
  pb::TensorProto p;
  to_proto(*this, p);
  return io::proto::serialize(p);
}

TensorProto TensorProto::parse(std::string_view bytes) {
  pb::TensorProto p;
  io::proto::parse(p, bytes, "");
  return from_proto(p);
}

std::string Event::serialize() const {
  pb::Event p;
  p.set_wall_time(wall_time);
  p.set_step(step);
  const int what = !file_version.empty() + !graph_def.empty() + (has_summary || !summary.empty());
  TFCC_CHECK_ARG(what <= 1, "Event: file_version, graph_def and summary are alternatives (the ",
                 "oneof `what` of event.proto); set one of them");
  if (!file_version.empty()) p.set_file_version(file_version);
  if (!graph_def.empty()) p.set_graph_def(graph_def);
  if (has_summary || !summary.empty()) {
    pb::Summary* s = p.mutable_summary();
    for (const SummaryValue& v : summary) to_proto(v, *s->add_value());
  }
  return io::proto::serialize(p);
}

Event Event::parse(std::string_view bytes) {
  pb::Event p;
  io::proto::parse(p, bytes, "");
  Event ev;
  ev.wall_time = p.wall_time();
  ev.step = p.step();
  ev.file_version = p.file_version();
  ev.graph_def = p.graph_def();
  ev.has_summary = p.has_summary();
  for (const pb::Summary::Value& v : p.summary().value()) ev.summary.push_back(from_proto(v));
  return ev;
}

}  // namespace tfcc::summary

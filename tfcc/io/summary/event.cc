#include "tfcc/io/summary/event.h"

#include <cstring>

#include "tfcc/io/summary/proto_decoder.h"
#include "tfcc/io/summary/proto_encoder.h"
#include "tfcc/platform/errors.h"

namespace tfcc::summary {

using io::proto::Decoder;
using io::proto::Encoder;
using io::proto::Field;

namespace {

std::string serialize_shape(const std::vector<int64_t>& shape) {
  Encoder s;
  for (int64_t d : shape) {
    Encoder dim;
    if (d != 0) dim.int64_field(1, d);
    s.message_field(2, dim);
  }
  return s.release();
}

std::vector<int64_t> parse_shape(std::string_view bytes) {
  std::vector<int64_t> shape;
  Decoder d(bytes, "TensorShapeProto");
  Field f;
  while (d.next(f)) {
    if (f.number == 3 && f.as_int64() != 0) {
      throw DataLossError("malformed TensorShapeProto: unknown rank in a summary tensor");
    }
    if (f.number != 2) continue;
    int64_t size = 0;
    Decoder dim(f.as_bytes(), "TensorShapeProto.Dim");
    Field g;
    while (dim.next(g)) {
      if (g.number == 1) size = g.as_int64();
    }
    if (size < 0)
      throw DataLossError("malformed TensorShapeProto: negative dimension in a summary");
    shape.push_back(size);
  }
  return shape;
}

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

std::string TensorProto::serialize() const {
  Encoder e;
  if (dtype != 0) e.varint_field(1, static_cast<uint64_t>(dtype));
  e.bytes_field(2, serialize_shape(shape));
  if (!tensor_content.empty()) e.bytes_field(4, tensor_content);
  e.packed_float_field(5, float_val);
  e.packed_double_field(6, double_val);
  e.packed_int64_field(7, int_val);
  for (const auto& s : string_val) e.bytes_field(8, s);
  e.packed_int64_field(10, int64_val);
  return e.release();
}

TensorProto TensorProto::parse(std::string_view bytes) {
  TensorProto t;
  Decoder d(bytes, "TensorProto");
  Field f;
  while (d.next(f)) {
    switch (f.number) {
      case 1:
        t.dtype = static_cast<int>(f.as_int64());
        break;
      case 2:
        t.shape = parse_shape(f.as_bytes());
        break;
      case 4:
        t.tensor_content = std::string(f.as_bytes());
        break;
      case 5:
        io::proto::append_repeated(f, t.float_val);
        break;
      case 6:
        io::proto::append_repeated(f, t.double_val);
        break;
      case 7:
        io::proto::append_repeated(f, t.int_val);
        break;
      case 8:
        t.string_val.emplace_back(f.as_bytes());
        break;
      case 10:
        io::proto::append_repeated(f, t.int64_val);
        break;
      default:
        break;
    }
  }
  return t;
}

std::string SummaryMetadata::serialize() const {
  Encoder e;
  Encoder plugin;
  if (!plugin_name.empty()) plugin.string_field(1, plugin_name);
  if (!plugin_content.empty()) plugin.bytes_field(2, plugin_content);
  if (!plugin.data().empty()) e.message_field(1, plugin);
  if (!display_name.empty()) e.string_field(2, display_name);
  if (!summary_description.empty()) e.string_field(3, summary_description);
  if (data_class != 0) e.varint_field(4, static_cast<uint64_t>(data_class));
  return e.release();
}

SummaryMetadata SummaryMetadata::parse(std::string_view bytes) {
  SummaryMetadata m;
  Decoder d(bytes, "SummaryMetadata");
  Field f;
  while (d.next(f)) {
    if (f.number == 1) {
      Decoder p(f.as_bytes(), "SummaryMetadata.PluginData");
      Field g;
      while (p.next(g)) {
        if (g.number == 1) m.plugin_name = std::string(g.as_bytes());
        if (g.number == 2) m.plugin_content = std::string(g.as_bytes());
      }
    } else if (f.number == 2) {
      m.display_name = std::string(f.as_bytes());
    } else if (f.number == 3) {
      m.summary_description = std::string(f.as_bytes());
    } else if (f.number == 4) {
      m.data_class = static_cast<int>(f.as_int64());
    }
  }
  return m;
}

std::string HistogramProto::serialize() const {
  Encoder e;
  if (min != 0) e.double_field(1, min);
  if (max != 0) e.double_field(2, max);
  if (num != 0) e.double_field(3, num);
  if (sum != 0) e.double_field(4, sum);
  if (sum_squares != 0) e.double_field(5, sum_squares);
  e.packed_double_field(6, bucket_limit);
  e.packed_double_field(7, bucket);
  return e.release();
}

HistogramProto HistogramProto::parse(std::string_view bytes) {
  HistogramProto h;
  Decoder d(bytes, "HistogramProto");
  Field f;
  while (d.next(f)) {
    switch (f.number) {
      case 1:
        h.min = f.as_double();
        break;
      case 2:
        h.max = f.as_double();
        break;
      case 3:
        h.num = f.as_double();
        break;
      case 4:
        h.sum = f.as_double();
        break;
      case 5:
        h.sum_squares = f.as_double();
        break;
      case 6:
        io::proto::append_repeated(f, h.bucket_limit);
        break;
      case 7:
        io::proto::append_repeated(f, h.bucket);
        break;
      default:
        break;
    }
  }
  return h;
}

std::string SummaryImage::serialize() const {
  Encoder e;
  if (height != 0) e.int64_field(1, height);
  if (width != 0) e.int64_field(2, width);
  if (colorspace != 0) e.int64_field(3, colorspace);
  if (!encoded_image_string.empty()) e.bytes_field(4, encoded_image_string);
  return e.release();
}

SummaryImage SummaryImage::parse(std::string_view bytes) {
  SummaryImage im;
  Decoder d(bytes, "Summary.Image");
  Field f;
  while (d.next(f)) {
    if (f.number == 1) im.height = static_cast<int>(f.as_int64());
    if (f.number == 2) im.width = static_cast<int>(f.as_int64());
    if (f.number == 3) im.colorspace = static_cast<int>(f.as_int64());
    if (f.number == 4) im.encoded_image_string = std::string(f.as_bytes());
  }
  return im;
}

std::string SummaryValue::serialize() const {
  Encoder e;
  e.string_field(1, tag);
  if (simple_value) e.float_field(2, *simple_value);
  if (image) e.bytes_field(4, image->serialize());
  if (histo) e.bytes_field(5, histo->serialize());
  if (tensor) e.bytes_field(8, tensor->serialize());
  if (metadata) e.bytes_field(9, metadata->serialize());
  return e.release();
}

SummaryValue SummaryValue::parse(std::string_view bytes) {
  SummaryValue v;
  Decoder d(bytes, "Summary.Value");
  Field f;
  while (d.next(f)) {
    switch (f.number) {
      case 1:
        v.tag = std::string(f.as_bytes());
        break;
      case 2:
        v.simple_value = f.as_float();
        break;
      case 4:
        v.image = SummaryImage::parse(f.as_bytes());
        break;
      case 5:
        v.histo = HistogramProto::parse(f.as_bytes());
        break;
      case 8:
        v.tensor = TensorProto::parse(f.as_bytes());
        break;
      case 9:
        v.metadata = SummaryMetadata::parse(f.as_bytes());
        break;
      default:
        break;
    }
  }
  return v;
}

std::string Event::serialize() const {
  Encoder e;
  if (wall_time != 0) e.double_field(1, wall_time);
  if (step != 0) e.int64_field(2, step);
  if (!file_version.empty()) e.string_field(3, file_version);
  if (!graph_def.empty()) e.bytes_field(4, graph_def);
  if (has_summary || !summary.empty()) {
    Encoder s;
    for (const auto& v : summary) s.bytes_field(1, v.serialize());
    e.message_field(5, s);
  }
  return e.release();
}

Event Event::parse(std::string_view bytes) {
  Event ev;
  Decoder d(bytes, "Event");
  Field f;
  while (d.next(f)) {
    switch (f.number) {
      case 1:
        ev.wall_time = f.as_double();
        break;
      case 2:
        ev.step = f.as_int64();
        break;
      case 3:
        ev.file_version = std::string(f.as_bytes());
        break;
      case 4:
        ev.graph_def = std::string(f.as_bytes());
        break;
      case 5: {
        ev.has_summary = true;
        Decoder s(f.as_bytes(), "Summary");
        Field g;
        while (s.next(g)) {
          if (g.number == 1) ev.summary.push_back(SummaryValue::parse(g.as_bytes()));
        }
        break;
      }
      default:
        break;
    }
  }
  return ev;
}

}  // namespace tfcc::summary

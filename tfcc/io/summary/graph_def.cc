#include "tfcc/io/summary/graph_def.h"

#include <ctime>

#include "tfcc/io/summary/event.h"
#include "tfcc/io/summary/proto_decoder.h"
#include "tfcc/io/summary/proto_encoder.h"
#include "tfcc/io/summary/summary_writer.h"
#include "tfcc/platform/errors.h"

namespace tfcc::summary {

using io::proto::Decoder;
using io::proto::Encoder;
using io::proto::Field;

namespace {

std::string serialize_shape(const ShapeAttr& s) {
  Encoder e;
  for (int64_t d : s.dims) {
    Encoder dim;
    if (d != 0) dim.int64_field(1, d);
    e.message_field(2, dim);
  }
  if (s.unknown_rank) e.bool_field(3, true);
  return e.release();
}

ShapeAttr parse_shape(std::string_view bytes) {
  ShapeAttr s;
  Decoder d(bytes, "TensorShapeProto");
  Field f;
  while (d.next(f)) {
    if (f.number == 2) {
      int64_t size = 0;
      Decoder dim(f.as_bytes(), "TensorShapeProto.Dim");
      Field g;
      while (dim.next(g)) {
        if (g.number == 1) size = g.as_int64();
      }
      s.dims.push_back(size);
    } else if (f.number == 3) {
      s.unknown_rank = f.as_int64() != 0;
    }
  }
  return s;
}

}  // namespace

AttrValue AttrValue::string(std::string v) {
  AttrValue a;
  a.kind = Kind::kString;
  a.s = std::move(v);
  return a;
}
AttrValue AttrValue::integer(int64_t v) {
  AttrValue a;
  a.kind = Kind::kInt;
  a.i = v;
  return a;
}
AttrValue AttrValue::floating(float v) {
  AttrValue a;
  a.kind = Kind::kFloat;
  a.f = v;
  return a;
}
AttrValue AttrValue::boolean(bool v) {
  AttrValue a;
  a.kind = Kind::kBool;
  a.b = v;
  return a;
}
AttrValue AttrValue::type_of(int dtype) {
  AttrValue a;
  a.kind = Kind::kType;
  a.type = dtype;
  return a;
}
AttrValue AttrValue::shape_of(ShapeAttr v) {
  AttrValue a;
  a.kind = Kind::kShape;
  a.shape = std::move(v);
  return a;
}
AttrValue AttrValue::string_list(std::vector<std::string> v) {
  AttrValue a;
  a.kind = Kind::kStringList;
  a.strings = std::move(v);
  return a;
}
AttrValue AttrValue::int_list(std::vector<int64_t> v) {
  AttrValue a;
  a.kind = Kind::kIntList;
  a.ints = std::move(v);
  return a;
}
AttrValue AttrValue::float_list(std::vector<float> v) {
  AttrValue a;
  a.kind = Kind::kFloatList;
  a.floats = std::move(v);
  return a;
}
AttrValue AttrValue::type_list(std::vector<int> v) {
  AttrValue a;
  a.kind = Kind::kTypeList;
  a.types = std::move(v);
  return a;
}
AttrValue AttrValue::shape_list(std::vector<ShapeAttr> v) {
  AttrValue a;
  a.kind = Kind::kShapeList;
  a.shapes = std::move(v);
  return a;
}

// AttrValue fields: list=1 (ListValue: s=2, i=3, f=4, b=5, type=6, shape=7), s=2, i=3, f=4, b=5,
// type=6, shape=7. A oneof member is written even when it holds its default value.
std::string AttrValue::serialize() const {
  Encoder e;
  switch (kind) {
    case Kind::kString:
      e.bytes_field(2, s);
      break;
    case Kind::kInt:
      e.int64_field(3, i);
      break;
    case Kind::kFloat:
      e.float_field(4, f);
      break;
    case Kind::kBool:
      e.bool_field(5, b);
      break;
    case Kind::kType:
      e.varint_field(6, static_cast<uint64_t>(type));
      break;
    case Kind::kShape:
      e.bytes_field(7, serialize_shape(shape));
      break;
    default: {
      Encoder list;
      for (const auto& v : strings) list.bytes_field(2, v);
      list.packed_int64_field(3, ints);
      list.packed_float_field(4, floats);
      std::vector<int64_t> t(types.begin(), types.end());
      list.packed_int64_field(6, t);
      for (const auto& v : shapes) list.bytes_field(7, serialize_shape(v));
      e.message_field(1, list);
    }
  }
  return e.release();
}

AttrValue AttrValue::parse(std::string_view bytes) {
  AttrValue a;
  Decoder d(bytes, "AttrValue");
  Field f;
  while (d.next(f)) {
    switch (f.number) {
      case 1: {
        a.kind = Kind::kStringList;
        Decoder list(f.as_bytes(), "AttrValue.ListValue");
        Field g;
        std::vector<int64_t> types;
        while (list.next(g)) {
          if (g.number == 2) a.strings.emplace_back(g.as_bytes());
          if (g.number == 3) io::proto::append_repeated(g, a.ints);
          if (g.number == 4) io::proto::append_repeated(g, a.floats);
          if (g.number == 6) io::proto::append_repeated(g, types);
          if (g.number == 7) a.shapes.push_back(parse_shape(g.as_bytes()));
        }
        for (int64_t t : types) a.types.push_back(static_cast<int>(t));
        if (!a.ints.empty()) a.kind = Kind::kIntList;
        if (!a.floats.empty()) a.kind = Kind::kFloatList;
        if (!a.types.empty()) a.kind = Kind::kTypeList;
        if (!a.shapes.empty()) a.kind = Kind::kShapeList;
        break;
      }
      case 2:
        a.kind = Kind::kString;
        a.s = std::string(f.as_bytes());
        break;
      case 3:
        a.kind = Kind::kInt;
        a.i = f.as_int64();
        break;
      case 4:
        a.kind = Kind::kFloat;
        a.f = f.as_float();
        break;
      case 5:
        a.kind = Kind::kBool;
        a.b = f.as_int64() != 0;
        break;
      case 6:
        a.kind = Kind::kType;
        a.type = static_cast<int>(f.as_int64());
        break;
      case 7:
        a.kind = Kind::kShape;
        a.shape = parse_shape(f.as_bytes());
        break;
      default:
        break;
    }
  }
  return a;
}

std::string NodeDef::serialize() const {
  Encoder e;
  e.string_field(1, name);
  e.string_field(2, op);
  for (const auto& in : input) e.string_field(3, in);
  if (!device.empty()) e.string_field(4, device);
  for (const auto& [key, value] : attr) {
    Encoder entry;
    entry.string_field(1, key);
    entry.bytes_field(2, value.serialize());
    e.message_field(5, entry);
  }
  return e.release();
}

NodeDef NodeDef::parse(std::string_view bytes) {
  NodeDef n;
  Decoder d(bytes, "NodeDef");
  Field f;
  while (d.next(f)) {
    if (f.number == 1) n.name = std::string(f.as_bytes());
    if (f.number == 2) n.op = std::string(f.as_bytes());
    if (f.number == 3) n.input.emplace_back(f.as_bytes());
    if (f.number == 4) n.device = std::string(f.as_bytes());
    if (f.number == 5) {
      std::string key;
      AttrValue value;
      Decoder entry(f.as_bytes(), "NodeDef.AttrEntry");
      Field g;
      while (entry.next(g)) {
        if (g.number == 1) key = std::string(g.as_bytes());
        if (g.number == 2) value = AttrValue::parse(g.as_bytes());
      }
      n.attr[key] = std::move(value);
    }
  }
  return n;
}

std::string GraphDef::serialize() const {
  Encoder e;
  for (const auto& n : node) e.bytes_field(1, n.serialize());
  if (producer != 0) {
    Encoder versions;
    versions.int64_field(1, producer);
    e.message_field(4, versions);
  }
  return e.release();
}

GraphDef GraphDef::parse(std::string_view bytes) {
  GraphDef g;
  Decoder d(bytes, "GraphDef");
  Field f;
  while (d.next(f)) {
    if (f.number == 1) g.node.push_back(NodeDef::parse(f.as_bytes()));
    if (f.number == 4) {
      Decoder v(f.as_bytes(), "VersionDef");
      Field h;
      while (v.next(h)) {
        if (h.number == 1) g.producer = static_cast<int>(h.as_int64());
      }
    }
  }
  return g;
}

bool graph(const GraphDef& graph) {
  if (!should_record_summaries()) return false;
  Event event;
  timespec ts{};
  ::clock_gettime(CLOCK_REALTIME, &ts);
  event.wall_time = static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
  event.graph_def = graph.serialize();
  default_writer().write_event(event);
  return true;
}

}  // namespace tfcc::summary

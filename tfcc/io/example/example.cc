#include "tfcc/io/example/example.h"

#include "tfcc/io/example/example_internal.h"
#include "tfcc/io/proto/message_io.h"
#include "tfcc/platform/errors.h"

namespace tfcc::io {

Feature Feature::floats(std::vector<float> values) {
  Feature f;
  f.kind_ = Kind::kFloat;
  f.floats_ = std::move(values);
  return f;
}

Feature Feature::int64s(std::vector<int64_t> values) {
  Feature f;
  f.kind_ = Kind::kInt64;
  f.int64s_ = std::move(values);
  return f;
}

Feature Feature::bytes(std::vector<std::string> values) {
  Feature f;
  f.kind_ = Kind::kBytes;
  f.bytes_ = std::move(values);
  return f;
}

Feature Feature::from_tensor(const Tensor& t) {
  TFCC_CHECK_ARG(t.defined() && !t.is_symbolic(),
                 "Feature::from_tensor needs a concrete tensor, got ",
                 t.defined() ? t.to_string() : std::string("an undefined tensor"));
  // if/else rather than a switch: a dtype added later (strings) falls to the error, not to
  // -Wswitch.
  const DType d = t.dtype();
  if (d == float32 || d == float64 || d == bfloat16) return floats(t.to_vector<float>());
  if (d == int32 || d == int64 || d == uint8 || d == bool_) return int64s(t.to_vector<int64_t>());
  throw InvalidArgumentError(tfcc::internal::str_cat("Feature::from_tensor: a ", dtype_name(d),
                                                     " tensor has no tf.train.Feature list"));
}

int64_t Feature::size() const {
  switch (kind_) {
    case Kind::kFloat:
      return static_cast<int64_t>(floats_.size());
    case Kind::kInt64:
      return static_cast<int64_t>(int64s_.size());
    case Kind::kBytes:
      return static_cast<int64_t>(bytes_.size());
    case Kind::kNone:
      break;
  }
  return 0;
}

const char* feature_kind_name(Feature::Kind kind) {
  switch (kind) {
    case Feature::Kind::kFloat:
      return "float";
    case Feature::Kind::kInt64:
      return "int64";
    case Feature::Kind::kBytes:
      return "bytes";
    case Feature::Kind::kNone:
      break;
  }
  return "none";
}

namespace internal {

void to_proto(const Feature& f, tensorflow::Feature& out) {
  out.Clear();
  switch (f.kind()) {
    case Feature::Kind::kFloat:
      out.mutable_float_list()->mutable_value()->Add(f.float_list().begin(), f.float_list().end());
      break;
    case Feature::Kind::kInt64:
      out.mutable_int64_list()->mutable_value()->Add(f.int64_list().begin(), f.int64_list().end());
      break;
    case Feature::Kind::kBytes: {
      auto* values = out.mutable_bytes_list()->mutable_value();
      values->Reserve(static_cast<int>(f.bytes_list().size()));
      for (const std::string& s : f.bytes_list()) values->Add()->assign(s);
      break;
    }
    case Feature::Kind::kNone:
      break;
  }
}

Feature::Kind kind_of(const tensorflow::Feature& p) {
  switch (p.kind_case()) {
    case tensorflow::Feature::kFloatList:
      return Feature::Kind::kFloat;
    case tensorflow::Feature::kInt64List:
      return Feature::Kind::kInt64;
    case tensorflow::Feature::kBytesList:
      return Feature::Kind::kBytes;
    case tensorflow::Feature::KIND_NOT_SET:
      break;
  }
  return Feature::Kind::kNone;
}

Feature from_proto(const tensorflow::Feature& p) {
  switch (kind_of(p)) {
    case Feature::Kind::kFloat:
      return Feature::floats({p.float_list().value().begin(), p.float_list().value().end()});
    case Feature::Kind::kInt64:
      return Feature::int64s({p.int64_list().value().begin(), p.int64_list().value().end()});
    case Feature::Kind::kBytes:
      return Feature::bytes({p.bytes_list().value().begin(), p.bytes_list().value().end()});
    case Feature::Kind::kNone:
      break;
  }
  return Feature();
}

}  // namespace internal

namespace {

void to_proto(const std::map<std::string, Feature>& features, tensorflow::Features& out) {
  auto& map = *out.mutable_feature();
  for (const auto& [name, f] : features) internal::to_proto(f, map[name]);
}

std::map<std::string, Feature> from_proto(const tensorflow::Features& p) {
  std::map<std::string, Feature> out;
  for (const auto& [name, f] : p.feature()) out.emplace(name, internal::from_proto(f));
  return out;
}

}  // namespace

Example& Example::set(const std::string& name, Feature feature) {
  features[name] = std::move(feature);
  return *this;
}

std::string Example::serialize() const {
  tensorflow::Example p;
  to_proto(features, *p.mutable_features());
  return proto::serialize(p);
}

Example Example::parse(std::string_view serialized, const std::string& source) {
  tensorflow::Example p;
  proto::parse(p, serialized, source);
  return Example{from_proto(p.features())};
}

std::string SequenceExample::serialize() const {
  tensorflow::SequenceExample p;
  if (!context.empty()) to_proto(context, *p.mutable_context());
  for (const auto& [name, steps] : feature_lists) {
    tensorflow::FeatureList& list = (*p.mutable_feature_lists()->mutable_feature_list())[name];
    for (const Feature& f : steps) internal::to_proto(f, *list.add_feature());
  }
  return proto::serialize(p);
}

SequenceExample SequenceExample::parse(std::string_view serialized, const std::string& source) {
  tensorflow::SequenceExample p;
  proto::parse(p, serialized, source);
  SequenceExample out;
  out.context = from_proto(p.context());
  for (const auto& [name, list] : p.feature_lists().feature_list()) {
    std::vector<Feature>& steps = out.feature_lists[name];
    for (const tensorflow::Feature& f : list.feature()) steps.push_back(internal::from_proto(f));
  }
  return out;
}

}  // namespace tfcc::io

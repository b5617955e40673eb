#include "tfcc/io/saved_model/model_file.h"

#include <cstring>

#include "tfcc/io/checkpoint/coding.h"
#include "tfcc/io/proto/message_io.h"
#include "tfcc/io/proto/tfcc_model.pb.h"
#include "tfcc/io/saved_model/graph_codec.h"
#include "tfcc/io/saved_model/saved_model.h"
#include "tfcc/platform/crc32c.h"

namespace tfcc::saved_model {

namespace lm = ::tfcc::legacy_model;
using ::tfcc::internal::str_cat;

namespace {

constexpr char kMagic[8] = {'T', 'F', 'C', 'C', 'S', 'M', 'D', 'L'};
constexpr size_t kEnvelopeBytes = 24;

void to_proto(const TensorSpec& s, lm::TensorSpec& p) {
  p.set_name(s.name);
  p.set_dtype(static_cast<uint64_t>(s.dtype));
  internal::to_proto(s.shape, *p.mutable_shape());
}

TensorSpec from_proto(const lm::TensorSpec& p, const std::string& ctx) {
  TensorSpec s;
  s.name = p.name();
  if (p.has_dtype()) s.dtype = internal::decode_dtype(p.dtype(), ctx);
  if (p.has_shape()) s.shape = internal::from_proto(p.shape(), ctx);
  return s;
}

SignatureDef from_proto(const lm::Signature& p, const std::string& ctx) {
  SignatureDef s;
  s.name = p.name();
  if (p.has_function()) {
    if (p.function() > (1u << 30))
      throw InvalidArgumentError(ctx + ": function index out of range");
    s.function = static_cast<int>(p.function());
  }
  for (const lm::TensorSpec& t : p.inputs()) s.inputs.push_back(from_proto(t, ctx));
  for (const lm::TensorSpec& t : p.outputs()) s.outputs.push_back(from_proto(t, ctx));
  return s;
}

VariableDef from_proto(const lm::Variable& p, const std::string& ctx) {
  VariableDef v;
  v.key = p.key();
  v.name = p.name();
  if (p.has_dtype()) v.dtype = internal::decode_dtype(p.dtype(), ctx);
  if (p.has_shape()) {
    PartialShape s = internal::from_proto(p.shape(), ctx);
    if (!s.is_fully_defined()) throw InvalidArgumentError(ctx + ": variable shape not defined");
    v.shape = s.to_shape();
  }
  if (p.has_trainable()) v.trainable = p.trainable();
  return v;
}

}  // namespace

std::string encode_model_file(const ModelFile& m) {
  lm::ModelFile p;
  p.set_producer(m.producer);
  for (const std::string& f : m.functions) p.add_functions(f);
  for (const SignatureDef& s : m.signatures) {
    lm::Signature& sp = *p.add_signatures();
    sp.set_name(s.name);
    sp.set_function(static_cast<uint64_t>(s.function));
    for (const TensorSpec& t : s.inputs) to_proto(t, *sp.add_inputs());
    for (const TensorSpec& t : s.outputs) to_proto(t, *sp.add_outputs());
  }
  for (const VariableDef& v : m.variables) {
    lm::Variable& vp = *p.add_variables();
    vp.set_key(v.key);
    vp.set_name(v.name);
    vp.set_dtype(static_cast<uint64_t>(v.dtype));
    internal::to_proto(PartialShape(v.shape), *vp.mutable_shape());
    vp.set_trainable(v.trainable);
  }
  for (const FileDigest& d : m.files) {
    lm::FileDigest& dp = *p.add_files();
    dp.set_path(d.path);
    dp.set_size(d.size);
    dp.set_masked_crc32c(d.masked_crc32c);
  }
  const std::string payload = io::proto::serialize(p);
  std::string out(kMagic, sizeof(kMagic));
  checkpoint::put_fixed32(out, kFormatVersion);
  checkpoint::put_fixed32(out, crc32c::mask(crc32c::value(payload)));
  checkpoint::put_fixed64(out, payload.size());
  out.append(payload);
  return out;
}

ModelFile decode_model_payload(std::string_view payload, const std::string& context) {
  lm::ModelFile p;
  io::proto::parse(p, payload, context);
  ModelFile m;
  m.version = kFormatVersion;
  m.producer = p.producer();
  m.functions.assign(p.functions().begin(), p.functions().end());
  for (const lm::Signature& s : p.signatures()) {
    m.signatures.push_back(from_proto(s, context + ", signature"));
  }
  for (const lm::Variable& v : p.variables()) {
    m.variables.push_back(from_proto(v, context + ", variable"));
  }
  for (const lm::FileDigest& d : p.files()) {
    m.files.push_back({d.path(), d.size(), static_cast<uint32_t>(d.masked_crc32c())});
  }
  return m;
}

ModelFile decode_model_file(std::string_view bytes, const std::string& path) {
  if (bytes.size() < kEnvelopeBytes) {
    throw DataLossError(str_cat(path, ": truncated: ", bytes.size(), " bytes, the header alone is ",
                                kEnvelopeBytes));
  }
  if (std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0) {
    throw DataLossError(str_cat(path, ": not a tfcc exported model (bad magic at offset 0)"));
  }
  uint32_t version = checkpoint::load_fixed32(bytes.data() + 8);
  if (version == 0 || version > kFormatVersion) {
    throw InvalidArgumentError(str_cat(path, ": format version ", version, " at offset 8; this ",
                                       "build reads versions 1 to ", kFormatVersion));
  }
  uint32_t stored = checkpoint::load_fixed32(bytes.data() + 12);
  uint64_t length = checkpoint::load_fixed64(bytes.data() + 16);
  if (length != bytes.size() - kEnvelopeBytes) {
    throw DataLossError(str_cat(path, ": the header (offset 16) announces ", length,
                                " payload bytes, the file holds ", bytes.size() - kEnvelopeBytes));
  }
  std::string_view payload = bytes.substr(kEnvelopeBytes);
  if (crc32c::unmask(stored) != crc32c::value(payload)) {
    throw DataLossError(str_cat(path, ": checksum mismatch over the payload (offset ",
                                kEnvelopeBytes, ", ", payload.size(),
                                " bytes): the file is corrupt"));
  }
  ModelFile m = decode_model_payload(payload, path);
  m.version = version;
  return m;
}

}  // namespace tfcc::saved_model

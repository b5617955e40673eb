#include "tfcc/io/saved_model/model_file.h"

#include <cstring>

#include "tfcc/io/checkpoint/proto_wire.h"
#include "tfcc/io/saved_model/graph_codec.h"
#include "tfcc/io/saved_model/saved_model.h"
#include "tfcc/platform/crc32c.h"

namespace tfcc::saved_model {

using checkpoint::ProtoReader;
using checkpoint::ProtoWriter;
using checkpoint::WireType;
using ::tfcc::internal::str_cat;

namespace {

constexpr char kMagic[8] = {'T', 'F', 'C', 'C', 'S', 'M', 'D', 'L'};
constexpr size_t kEnvelopeBytes = 24;

std::string encode_spec(const TensorSpec& s) {
  ProtoWriter w;
  w.bytes_field(1, s.name);
  w.varint_field(2, static_cast<uint64_t>(s.dtype));
  w.bytes_field(3, internal::encode_partial_shape(s.shape));
  return w.str();
}

TensorSpec decode_spec(std::string_view bytes, const std::string& ctx) {
  ProtoReader r(bytes, ctx);
  TensorSpec s;
  while (auto f = r.next()) {
    r.expect(*f, f->number == 2 ? WireType::kVarint : WireType::kLen);
    if (f->number == 1) s.name = std::string(f->bytes);
    if (f->number == 2) s.dtype = internal::decode_dtype(f->value, ctx);
    if (f->number == 3) s.shape = internal::decode_partial_shape(f->bytes, ctx);
  }
  return s;
}

SignatureDef decode_signature(std::string_view bytes, const std::string& ctx) {
  ProtoReader r(bytes, ctx);
  SignatureDef s;
  while (auto f = r.next()) {
    r.expect(*f, f->number == 2 ? WireType::kVarint : WireType::kLen);
    if (f->number == 1) s.name = std::string(f->bytes);
    if (f->number == 2) {
      if (f->value > (1u << 30)) throw InvalidArgumentError(ctx + ": function index out of range");
      s.function = static_cast<int>(f->value);
    }
    if (f->number == 3) s.inputs.push_back(decode_spec(f->bytes, ctx));
    if (f->number == 4) s.outputs.push_back(decode_spec(f->bytes, ctx));
  }
  return s;
}

VariableDef decode_variable(std::string_view bytes, const std::string& ctx) {
  ProtoReader r(bytes, ctx);
  VariableDef v;
  while (auto f = r.next()) {
    const bool varint = f->number == 3 || f->number == 5;
    r.expect(*f, varint ? WireType::kVarint : WireType::kLen);
    if (f->number == 1) v.key = std::string(f->bytes);
    if (f->number == 2) v.name = std::string(f->bytes);
    if (f->number == 3) v.dtype = internal::decode_dtype(f->value, ctx);
    if (f->number == 4) {
      PartialShape p = internal::decode_partial_shape(f->bytes, ctx);
      if (!p.is_fully_defined()) throw InvalidArgumentError(ctx + ": variable shape not defined");
      v.shape = p.to_shape();
    }
    if (f->number == 5) v.trainable = f->value != 0;
  }
  return v;
}

FileDigest decode_digest(std::string_view bytes, const std::string& ctx) {
  ProtoReader r(bytes, ctx);
  FileDigest d;
  while (auto f = r.next()) {
    r.expect(*f, f->number == 1 ? WireType::kLen : WireType::kVarint);
    if (f->number == 1) d.path = std::string(f->bytes);
    if (f->number == 2) d.size = f->value;
    if (f->number == 3) d.masked_crc32c = static_cast<uint32_t>(f->value);
  }
  return d;
}

}  // namespace

std::string encode_model_file(const ModelFile& m) {
  ProtoWriter w;
  w.bytes_field(1, m.producer);
  for (const std::string& f : m.functions) w.bytes_field(2, f);
  for (const SignatureDef& s : m.signatures) {
    ProtoWriter sw;
    sw.bytes_field(1, s.name);
    sw.varint_field(2, static_cast<uint64_t>(s.function));
    for (const TensorSpec& t : s.inputs) sw.bytes_field(3, encode_spec(t));
    for (const TensorSpec& t : s.outputs) sw.bytes_field(4, encode_spec(t));
    w.bytes_field(3, sw.str());
  }
  for (const VariableDef& v : m.variables) {
    ProtoWriter vw;
    vw.bytes_field(1, v.key);
    vw.bytes_field(2, v.name);
    vw.varint_field(3, static_cast<uint64_t>(v.dtype));
    vw.bytes_field(4, internal::encode_partial_shape(v.shape));
    vw.varint_field(5, v.trainable ? 1 : 0);
    w.bytes_field(4, vw.str());
  }
  for (const FileDigest& d : m.files) {
    ProtoWriter dw;
    dw.bytes_field(1, d.path);
    dw.varint_field(2, d.size);
    dw.varint_field(3, d.masked_crc32c);
    w.bytes_field(5, dw.str());
  }
  const std::string& payload = w.str();
  std::string out(kMagic, sizeof(kMagic));
  checkpoint::put_fixed32(out, kFormatVersion);
  checkpoint::put_fixed32(out, crc32c::mask(crc32c::value(payload)));
  checkpoint::put_fixed64(out, payload.size());
  out.append(payload);
  return out;
}

ModelFile decode_model_payload(std::string_view payload, const std::string& context) {
  ProtoReader r(payload, context);
  ModelFile m;
  m.version = kFormatVersion;
  while (auto f = r.next()) {
    r.expect(*f, WireType::kLen);
    switch (f->number) {
      case 1:
        m.producer = std::string(f->bytes);
        break;
      case 2:
        m.functions.emplace_back(f->bytes);
        break;
      case 3:
        m.signatures.push_back(decode_signature(f->bytes, context + ", signature"));
        break;
      case 4:
        m.variables.push_back(decode_variable(f->bytes, context + ", variable"));
        break;
      case 5:
        m.files.push_back(decode_digest(f->bytes, context + ", file digest"));
        break;
      default:
        break;
    }
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

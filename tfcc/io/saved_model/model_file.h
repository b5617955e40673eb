// The file DIR/saved_model.tfcc of an export: a 24-byte envelope (magic, format version, masked
// CRC32C and length of the payload) around one ModelFile message.
//
//   tfcc::saved_model::ModelFile m;
//   m.producer = "tfcc 0.1.0";
//   m.functions = encoded.functions;
//   std::string bytes = tfcc::saved_model::encode_model_file(m);
//   tfcc::saved_model::ModelFile back = tfcc::saved_model::decode_model_file(bytes, path);
//
// decode_model_file checks the envelope (DataLossError naming the file and the offset of what
// is wrong) and the message's structure; the functions stay encoded (graph_codec.h decodes them).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tfcc/core/shape.h"
#include "tfcc/graph/trace/tensor_spec.h"

namespace tfcc::saved_model {

/// A signature: a root function with named inputs and outputs.
struct SignatureDef {
  std::string name;
  int function = -1;  ///< index in ModelFile::functions
  std::vector<TensorSpec> inputs, outputs;
};

/// A variable the functions use (by index): its checkpoint key and what it holds.
struct VariableDef {
  std::string key;
  std::string name;
  DType dtype = float32;
  Shape shape;
  bool trainable = true;
};

/// Size and masked CRC32C of another file of the export (path relative to the directory).
struct FileDigest {
  std::string path;
  uint64_t size = 0;
  uint32_t masked_crc32c = 0;
};

/// The contents of saved_model.tfcc.
struct ModelFile {
  uint32_t version = 0;
  std::string producer;
  std::vector<std::string> functions;  ///< encoded Function messages (graph_codec.h)
  std::vector<SignatureDef> signatures;
  std::vector<VariableDef> variables;
  std::vector<FileDigest> files;
};

/// The whole file: envelope + payload.
std::string encode_model_file(const ModelFile& m);
/// Parses and checks the file's bytes; `path` names it in errors.
ModelFile decode_model_file(std::string_view bytes, const std::string& path);
/// Parses a payload alone (no envelope), for tests and fuzzing.
ModelFile decode_model_payload(std::string_view payload, const std::string& context);

}  // namespace tfcc::saved_model

#include "tfcc/io/checkpoint/checkpoint_state.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <filesystem>

#include "tfcc/io/checkpoint/bundle.h"
#include "tfcc/io/proto/checkpoint_state.pb.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/file.h"

namespace tfcc::train {
namespace {

// Keeps the first error of a text-format parse (the default collector would log them).
class FirstError : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string& message) override {
    if (error_.empty()) {
      error_ = internal::str_cat("line ", line + 1, ":", column + 1, ": ", message);
    }
  }
  const std::string& error() const { return error_; }

 private:
  std::string error_;
};

}  // namespace

std::string format_checkpoint_state(const CheckpointState& state) {
  tensorflow::CheckpointState p;
  p.set_model_checkpoint_path(state.model_checkpoint_path);
  for (const std::string& path : state.all_model_checkpoint_paths) {
    p.add_all_model_checkpoint_paths(path);
  }
  p.mutable_all_model_checkpoint_timestamps()->Add(state.all_model_checkpoint_timestamps.begin(),
                                                   state.all_model_checkpoint_timestamps.end());
  p.set_last_preserved_timestamp(state.last_preserved_timestamp);
  std::string out;
  google::protobuf::TextFormat::PrintToString(p, &out);
  return out;
}

CheckpointState parse_checkpoint_state(const std::string& text, const std::string& filename) {
  tensorflow::CheckpointState p;
  FirstError errors;
  google::protobuf::TextFormat::Parser parser;
  parser.RecordErrorsTo(&errors);
  if (!parser.ParseFromString(text, &p)) {
    throw DataLossError(
        internal::str_cat("Corrupt checkpoint state file ", filename, ", ", errors.error()));
  }
  return {.model_checkpoint_path = p.model_checkpoint_path(),
          .all_model_checkpoint_paths = {p.all_model_checkpoint_paths().begin(),
                                         p.all_model_checkpoint_paths().end()},
          .all_model_checkpoint_timestamps = {p.all_model_checkpoint_timestamps().begin(),
                                              p.all_model_checkpoint_timestamps().end()},
          .last_preserved_timestamp = p.last_preserved_timestamp()};
}

std::optional<CheckpointState> get_checkpoint_state(const std::string& directory) {
  std::filesystem::path file = std::filesystem::path(directory) / kCheckpointStateFile;
  if (!file_exists(file.string())) return std::nullopt;
  CheckpointState state = parse_checkpoint_state(read_file(file.string()), file.string());
  auto absolute = [&](std::string& p) {
    if (!p.empty() && std::filesystem::path(p).is_relative()) {
      p = (std::filesystem::path(directory) / p).string();
    }
  };
  absolute(state.model_checkpoint_path);
  for (std::string& p : state.all_model_checkpoint_paths) absolute(p);
  return state;
}

void update_checkpoint_state(const std::string& directory, CheckpointState state) {
  const auto dir = (std::filesystem::path(directory) / "").lexically_normal();
  auto relative = [&](std::string& p) {
    std::filesystem::path path(p);
    if ((path.parent_path() / "").lexically_normal() == dir) p = path.filename().string();
  };
  relative(state.model_checkpoint_path);
  for (std::string& p : state.all_model_checkpoint_paths) relative(p);
  make_dirs(directory);
  write_file_atomic((std::filesystem::path(directory) / kCheckpointStateFile).string(),
                    format_checkpoint_state(state));
}

std::optional<std::string> latest_checkpoint(const std::string& directory) {
  auto state = get_checkpoint_state(directory);
  if (!state || state->model_checkpoint_path.empty()) return std::nullopt;
  if (!checkpoint::bundle_exists(state->model_checkpoint_path)) return std::nullopt;
  return state->model_checkpoint_path;
}

}  // namespace tfcc::train

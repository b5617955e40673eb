#include "tfcc/io/checkpoint/checkpoint_state.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "tfcc/io/checkpoint/bundle.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/file.h"

namespace tfcc::train {
namespace {

void append_quoted(std::string& out, const std::string& s) {
  out.push_back('"');
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
    } else if (c == '\n') {
      out.append("\\n");
    } else if (c < 0x20 || c >= 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\%03o", c);
      out.append(buf);
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  out.push_back('"');
}

void append_double(std::string& out, double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  out.append(buf);
}

// Parses a protobuf text string literal ("..." or '...') with C escapes.
bool parse_quoted(std::string_view v, std::string* out) {
  if (v.size() < 2 || (v.front() != '"' && v.front() != '\'') || v.back() != v.front()) {
    return false;
  }
  v = v.substr(1, v.size() - 2);
  for (size_t i = 0; i < v.size(); ++i) {
    char c = v[i];
    if (c != '\\') {
      out->push_back(c);
      continue;
    }
    if (++i >= v.size()) return false;
    char e = v[i];
    if (e >= '0' && e <= '7') {
      int code = 0;
      for (int k = 0; k < 3 && i < v.size() && v[i] >= '0' && v[i] <= '7'; ++k, ++i) {
        code = code * 8 + (v[i] - '0');
      }
      --i;
      out->push_back(static_cast<char>(code & 0xff));
    } else if (e == 'n') {
      out->push_back('\n');
    } else if (e == 't') {
      out->push_back('\t');
    } else if (e == 'r') {
      out->push_back('\r');
    } else if (e == '"' || e == '\'' || e == '\\') {
      out->push_back(e);
    } else {
      return false;
    }
  }
  return true;
}

bool parse_double(std::string_view v, double* out) {
  std::string s(v);
  if (s.empty()) return false;
  char* end = nullptr;
  *out = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return "";
  size_t e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

}  // namespace

std::string format_checkpoint_state(const CheckpointState& state) {
  std::string out = "model_checkpoint_path: ";
  append_quoted(out, state.model_checkpoint_path);
  out.push_back('\n');
  for (const std::string& p : state.all_model_checkpoint_paths) {
    out.append("all_model_checkpoint_paths: ");
    append_quoted(out, p);
    out.push_back('\n');
  }
  for (double t : state.all_model_checkpoint_timestamps) {
    out.append("all_model_checkpoint_timestamps: ");
    append_double(out, t);
    out.push_back('\n');
  }
  if (state.last_preserved_timestamp != 0) {
    out.append("last_preserved_timestamp: ");
    append_double(out, state.last_preserved_timestamp);
    out.push_back('\n');
  }
  return out;
}

CheckpointState parse_checkpoint_state(const std::string& text, const std::string& filename) {
  CheckpointState state;
  size_t line_no = 0;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = trim(std::string_view(text).substr(start, end - start));
    start = end + 1;
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    auto fail = [&](const char* what) {
      throw DataLossError(internal::str_cat("Corrupt checkpoint state file ", filename, ", line ",
                                            line_no, ": ", what));
    };
    size_t colon = line.find(':');
    if (colon == std::string::npos) fail("expected 'field: value'");
    std::string field = trim(std::string_view(line).substr(0, colon));
    std::string value = trim(std::string_view(line).substr(colon + 1));
    std::string s;
    double d = 0;
    if (field == "model_checkpoint_path" || field == "all_model_checkpoint_paths") {
      if (!parse_quoted(value, &s)) fail("malformed string");
      if (field == "model_checkpoint_path") {
        state.model_checkpoint_path = s;
      } else {
        state.all_model_checkpoint_paths.push_back(s);
      }
    } else if (field == "all_model_checkpoint_timestamps" || field == "last_preserved_timestamp") {
      if (!parse_double(value, &d)) fail("malformed number");
      if (field == "last_preserved_timestamp") {
        state.last_preserved_timestamp = d;
      } else {
        state.all_model_checkpoint_timestamps.push_back(d);
      }
    } else {
      fail("unknown field");
    }
  }
  return state;
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

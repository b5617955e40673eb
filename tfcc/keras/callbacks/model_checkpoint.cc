// ModelCheckpoint (keras/callbacks.py).
#include "tfcc/keras/callbacks/model_checkpoint.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>

#include "tfcc/keras/models/model.h"
#include "tfcc/platform/file.h"
#include "tfcc/platform/logging.h"

namespace tfcc::keras::callbacks {
namespace {

struct Spec {
  char sign = 0;  // '+', ' ' or 0
  bool zero = false;
  int width = -1, precision = -1;
  char type = 0;
};

Spec parse_spec(const std::string& spec, const std::string& pattern) {
  Spec s;
  size_t i = 0;
  auto bad = [&] {
    return InvalidArgumentError(internal::str_cat("Failed to format this callback filepath: \"",
                                                  pattern, "\". Reason: Invalid format specifier '",
                                                  spec, "'"));
  };
  if (i < spec.size() && (spec[i] == '+' || spec[i] == '-' || spec[i] == ' ')) {
    s.sign = spec[i] == '-' ? 0 : spec[i];
    ++i;
  }
  if (i < spec.size() && spec[i] == '0') {
    s.zero = true;
    ++i;
  }
  auto number = [&](int& out) {
    size_t start = i;
    int64_t v = 0;
    while (i < spec.size() && spec[i] >= '0' && spec[i] <= '9') {
      v = v * 10 + (spec[i++] - '0');
      if (v > 4096) throw bad();
    }
    if (i > start) out = static_cast<int>(v);
    return i > start;
  };
  number(s.width);
  if (i < spec.size() && spec[i] == '.') {
    ++i;
    if (!number(s.precision)) throw bad();
  }
  if (i < spec.size()) s.type = spec[i++];
  if (i != spec.size() || (s.type && std::string("dfFeEgG%").find(s.type) == std::string::npos)) {
    throw bad();
  }
  return s;
}

std::string printf_format(const Spec& s, const char* conversion) {
  std::string f = "%";
  if (s.sign) f.push_back(s.sign);
  if (s.zero) f.push_back('0');
  if (s.width >= 0) f.append(std::to_string(s.width));
  if (s.precision >= 0) f.append(".").append(std::to_string(s.precision));
  return f.append(conversion);
}

template <typename T>
std::string render(const std::string& format, T value) {
  char buf[8192];
  std::snprintf(buf, sizeof buf, format.c_str(), value);
  return buf;
}

std::string format_int(int64_t v, const Spec& s, const std::string& key,
                       const std::string& pattern) {
  if (s.type == 0 || s.type == 'd') {
    TFCC_CHECK_ARG(s.precision < 0, "Failed to format this callback filepath: \"", pattern,
                   "\". Reason: Precision not allowed in integer format specifier (", key, ")");
    return render(printf_format(s, "lld"), static_cast<long long>(v));
  }
  Spec f = s;
  return render(printf_format(f, std::string(1, s.type == '%' ? 'f' : s.type).c_str()),
                static_cast<double>(v) * (s.type == '%' ? 100 : 1)) +
         (s.type == '%' ? "%" : "");
}

std::string format_float(double v, const Spec& s, const std::string& key,
                         const std::string& pattern) {
  TFCC_CHECK_ARG(s.type != 'd', "Failed to format this callback filepath: \"", pattern,
                 "\". Reason: Unknown format code 'd' for object of type 'float' (", key, ")");
  if (s.type == 0 && s.width < 0 && s.precision < 0 && !s.sign) return config::repr(v);
  Spec f = s;
  if (s.type == '%') {
    if (f.precision < 0) f.precision = 6;
    return render(printf_format(f, "f").c_str(), v * 100) + "%";
  }
  if (s.type == 0 || s.type == 'F') {
    return render(printf_format(f, s.type == 'F' ? "F" : "g").c_str(), v);
  }
  if (f.precision < 0 && s.type != 'g' && s.type != 'G') f.precision = 6;
  return render(printf_format(f, std::string(1, s.type).c_str()), v);
}

}  // namespace

std::string format_filepath(const std::string& pattern,
                            const std::vector<std::pair<std::string, int64_t>>& ints,
                            const Logs& values) {
  std::string out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '}') {
      TFCC_CHECK_ARG(i + 1 < pattern.size() && pattern[i + 1] == '}',
                     "Failed to format this callback filepath: \"", pattern,
                     "\". Reason: Single '}' encountered in format string");
      out.push_back('}');
      ++i;
      continue;
    }
    if (c != '{') {
      out.push_back(c);
      continue;
    }
    if (i + 1 < pattern.size() && pattern[i + 1] == '{') {
      out.push_back('{');
      ++i;
      continue;
    }
    const size_t close = pattern.find('}', i);
    TFCC_CHECK_ARG(close != std::string::npos, "Failed to format this callback filepath: \"",
                   pattern, "\". Reason: Single '{' encountered in format string");
    std::string field = pattern.substr(i + 1, close - i - 1);
    std::string key = field, spec;
    if (size_t colon = field.find(':'); colon != std::string::npos) {
      key = field.substr(0, colon);
      spec = field.substr(colon + 1);
    }
    const Spec s = parse_spec(spec, pattern);
    bool found = false;
    for (const auto& [name, v] : ints) {
      if (name == key) {
        out.append(format_int(v, s, key, pattern));
        found = true;
        break;
      }
    }
    if (!found) {
      std::optional<double> v = values.get(key);
      TFCC_CHECK_ARG(v.has_value(), "Failed to format this callback filepath: \"", pattern,
                     "\". Reason: '", key, "'");
      out.append(format_float(*v, s, key, pattern));
    }
    i = close;
  }
  return out;
}

ModelCheckpoint::ModelCheckpoint(std::string filepath, ModelCheckpointOptions options)
    : filepath_(std::move(filepath)), options_(std::move(options)) {
  TFCC_CHECK_ARG(!filepath_.empty(), "ModelCheckpoint: `filepath` is empty");
  if (options_.mode != "auto" && options_.mode != "min" && options_.mode != "max") {
    TFCC_LOG(WARNING) << "ModelCheckpoint mode " << options_.mode
                      << " is unknown, fallback to auto mode.";
    options_.mode = "auto";
  }
  const std::string& m = options_.monitor;
  maximize_ = options_.mode == "max" ||
              (options_.mode == "auto" &&
               (m.find("acc") != std::string::npos || m.rfind("fmeasure", 0) == 0));
  best_ = options_.initial_value_threshold.value_or(maximize_
                                                        ? -std::numeric_limits<double>::infinity()
                                                        : std::numeric_limits<double>::infinity());
}

void ModelCheckpoint::on_train_begin(Logs&) {
  last_batch_seen_ = 0;
  batches_since_last_save_ = 0;
}

void ModelCheckpoint::on_epoch_begin(int epoch, Logs&) { current_epoch_ = epoch; }

bool ModelCheckpoint::should_save_on_batch(int batch) {
  if (options_.save_freq.per_epoch()) return false;
  // A batch index not above the last one seen starts a new epoch.
  batches_since_last_save_ += batch <= last_batch_seen_ ? batch + 1 : batch - last_batch_seen_;
  last_batch_seen_ = batch;
  if (batches_since_last_save_ >= options_.save_freq.batches()) {
    batches_since_last_save_ = 0;
    return true;
  }
  return false;
}

void ModelCheckpoint::on_train_batch_end(int batch, Logs& logs) {
  if (should_save_on_batch(batch)) save_model(current_epoch_, batch, logs);
}

void ModelCheckpoint::on_epoch_end(int epoch, Logs& logs) {
  if (options_.save_freq.per_epoch()) save_model(epoch, std::nullopt, logs);
}

void ModelCheckpoint::save_model(int epoch, std::optional<int> batch, const Logs& logs) {
  if (!is_chief()) return;  // under a strategy only rank 0 writes checkpoints
  Model* m = model();
  TFCC_REQUIRE(FailedPreconditionError, m != nullptr, "ModelCheckpoint works inside Model.fit");
  std::vector<std::pair<std::string, int64_t>> ints = {{"epoch", epoch + 1}};
  if (batch && !logs.contains("batch")) ints.emplace_back("batch", *batch + 1);
  const std::string path = format_filepath(filepath_, ints, logs);
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  if (!dir.empty()) make_dirs(dir.string());
  auto write = [&] {
    if (options_.save_weights_only) {
      m->save_weights(path);
    } else {
      m->save(path);
    }
    last_saved_ = path;
  };
  char best[64], current[64];
  if (!options_.save_best_only) {
    if (options_.verbose > 0)
      std::cout << "\nEpoch " << epoch + 1 << ": saving model to " << path << "\n";
    write();
    return;
  }
  std::optional<double> value = logs.get(options_.monitor);
  if (!value) {
    TFCC_LOG(WARNING) << "Can save best model only with " << options_.monitor
                      << " available, skipping.";
    return;
  }
  std::snprintf(best, sizeof best, "%.5f", best_);
  std::snprintf(current, sizeof current, "%.5f", *value);
  const bool improved = maximize_ ? *value > best_ : *value < best_;
  if (improved) {
    if (options_.verbose > 0) {
      std::cout << "\nEpoch " << epoch + 1 << ": " << options_.monitor << " improved from " << best
                << " to " << current << ", saving model to " << path << "\n";
    }
    best_ = *value;
    write();
  } else if (options_.verbose > 0) {
    std::cout << "\nEpoch " << epoch + 1 << ": " << options_.monitor << " did not improve from "
              << best << "\n";
  }
}

}  // namespace tfcc::keras::callbacks

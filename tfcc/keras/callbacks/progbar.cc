#include "tfcc/keras/callbacks/progbar.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>

#include "tfcc/platform/errors.h"

namespace tfcc::keras::callbacks {
namespace {

std::string printf_string(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

int num_digits(int64_t n) {
  return n <= 0 ? 1 : static_cast<int>(std::floor(std::log10(double(n)))) + 1;
}

}  // namespace

Progbar::Progbar(std::optional<int64_t> target, ProgbarOptions options)
    : target_(target), options_(std::move(options)) {
  if (options_.io.dynamic) {
    dynamic_ = *options_.io.dynamic;
  } else {
    dynamic_ = options_.io.out == &std::cout && ::isatty(STDOUT_FILENO) == 1;
  }
  start_ = now();
}

double Progbar::now() const {
  if (options_.io.clock) return options_.io.clock();
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double Progbar::estimate_step_duration(int64_t current, double t) {
  if (current <= 0) return 0;
  // The first step includes start-up work (tracing, allocation), so later estimates skip it.
  double per_step;
  if (time_after_first_step_ && current > 1) {
    per_step = (t - *time_after_first_step_) / double(current - 1);
  } else {
    per_step = (t - start_) / double(current);
  }
  if (current == 1) time_after_first_step_ = t;
  return per_step;
}

std::string Progbar::format_time(double time_per_unit, const std::string& unit) const {
  std::string s;
  if (time_per_unit >= 1 || time_per_unit == 0) {
    s = printf_string(" %.0fs/", time_per_unit);
  } else if (time_per_unit >= 1e-3) {
    s = printf_string(" %.0fms/", time_per_unit * 1e3);
  } else {
    s = printf_string(" %.0fus/", time_per_unit * 1e6);
  }
  return s.append(unit);
}

std::string Progbar::format_value(double v, bool use_abs) const {
  const double m = use_abs ? std::abs(v) : v;
  return m > 1e-3 ? printf_string(" %.4f", v) : printf_string(" %.4e", v);
}

void Progbar::update(int64_t current, const Logs& values, std::optional<bool> finalize_opt) {
  const bool finalize = finalize_opt.value_or(target_ && current >= *target_);
  for (const auto& [k, v] : values.items()) values_.set(k, v);
  const double t = now();
  std::string info = printf_string(" - %.0fs", t - start_);
  if (target_ && current == *target_) time_at_epoch_end_ = t;
  std::ostream& out = *options_.io.out;
  if (options_.verbose == 1) {
    // Throttle redraws; off a terminal only the final line of the bar is written at all.
    if (!finalize && !dynamic_) {
      // Off a terminal Keras would print this update on a new line; tfcc skips it but keeps the
      // step-time bookkeeping identical.
      estimate_step_duration(current, t);
      last_update_ = t;
      return;
    }
    if (!finalize && t - last_update_ < options_.interval) return;
    std::string message;
    const size_t prev_total_width = total_width_;
    if (dynamic_) {
      message.append(prev_total_width, '\b');
      message.push_back('\r');
    }
    std::string bar;
    if (target_) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%*lld/%lld [", num_digits(*target_),
                    static_cast<long long>(current), static_cast<long long>(*target_));
      bar = buf;
      const double prog = *target_ > 0 ? double(current) / double(*target_) : 1.0;
      const int prog_width = static_cast<int>(options_.width * prog);
      if (prog_width > 0) {
        bar.append(static_cast<size_t>(prog_width - 1), '=');
        bar.push_back(current < *target_ ? '>' : '=');
      }
      bar.append(static_cast<size_t>(std::max(0, options_.width - prog_width)), '.');
      bar.push_back(']');
    } else {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%7lld/Unknown", static_cast<long long>(current));
      bar = buf;
    }
    total_width_ = bar.size();
    message.append(bar);
    const double time_per_unit = estimate_step_duration(current, t);
    if (!target_ || finalize) {
      info.append(format_time(time_per_unit, options_.unit_name));
    } else {
      const double eta = time_per_unit * double(*target_ - current);
      char buf[64];
      if (eta > 3600) {
        std::snprintf(buf, sizeof buf, "%d:%02d:%02d", int(eta / 3600),
                      int(std::fmod(eta, 3600) / 60), int(std::fmod(eta, 60)));
      } else if (eta > 60) {
        std::snprintf(buf, sizeof buf, "%d:%02d", int(eta / 60), int(std::fmod(eta, 60)));
      } else {
        std::snprintf(buf, sizeof buf, "%ds", int(eta));
      }
      info = std::string(" - ETA: ") + buf;
    }
    for (const auto& [k, v] : values_.items()) {
      info.append(" - ").append(k).append(":").append(format_value(v, true));
    }
    total_width_ += info.size();
    if (prev_total_width > total_width_) info.append(prev_total_width - total_width_, ' ');
    if (finalize) info.push_back('\n');
    message.append(info);
    out << message << std::flush;
  } else if (options_.verbose == 2 && finalize) {
    char buf[64];
    const int64_t tgt = target_.value_or(current);
    std::snprintf(buf, sizeof buf, "%*lld/%lld", num_digits(tgt), static_cast<long long>(current),
                  static_cast<long long>(tgt));
    std::string line = buf + info;
    for (const auto& [k, v] : values_.items()) {
      line.append(" - ").append(k).append(":").append(format_value(v, false));
    }
    if (time_at_epoch_end_) {
      const double per_epoch = *time_at_epoch_end_ - start_;
      const double per_step = per_epoch / double(std::max<int64_t>(1, tgt));
      time_at_epoch_end_.reset();
      line.append(" -").append(format_time(per_epoch, "epoch"));
      line.append(" -").append(format_time(per_step, options_.unit_name));
      line.push_back('\n');
    }
    out << line << std::flush;
  }
  last_update_ = t;
}

void ProgbarLogger::reset_progbar() {
  seen_ = 0;
  progbar_.reset();
}

void ProgbarLogger::batch_update(int batch, const Logs& logs) {
  if (!progbar_) {
    progbar_.emplace(params().steps, ProgbarOptions{.verbose = params().verbose, .io = io_});
  }
  seen_ = batch + 1;
  if (params().verbose == 1) progbar_->update(seen_, logs, false);
}

void ProgbarLogger::finalize(const Logs& logs) {
  if (!progbar_) {
    progbar_.emplace(params().steps, ProgbarOptions{.verbose = params().verbose, .io = io_});
  }
  if (!progbar_->target()) progbar_->set_target(seen_);
  progbar_->update(*progbar_->target(), logs, true);
}

void ProgbarLogger::on_train_begin(Logs&) { called_in_fit_ = true; }

void ProgbarLogger::on_epoch_begin(int epoch, Logs&) {
  reset_progbar();
  if (params().verbose && params().epochs > 1) {
    *io_.out << "Epoch " << (epoch + 1) << "/" << params().epochs << "\n" << std::flush;
  }
}

void ProgbarLogger::on_train_batch_end(int batch, Logs& logs) { batch_update(batch, logs); }

void ProgbarLogger::on_epoch_end(int, Logs& logs) { finalize(logs); }

void ProgbarLogger::on_test_begin(Logs&) {
  if (!called_in_fit_) reset_progbar();
}

void ProgbarLogger::on_test_batch_end(int batch, Logs& logs) {
  if (!called_in_fit_) batch_update(batch, logs);
}

void ProgbarLogger::on_test_end(Logs& logs) {
  if (!called_in_fit_) finalize(logs);
}

void ProgbarLogger::on_predict_begin(Logs&) { reset_progbar(); }

void ProgbarLogger::on_predict_batch_end(int batch, Logs& logs) { batch_update(batch, logs); }

void ProgbarLogger::on_predict_end(Logs&) { finalize(Logs{}); }

}  // namespace tfcc::keras::callbacks

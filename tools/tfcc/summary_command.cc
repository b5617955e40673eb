// `tfcc summary LOGDIR`: a quick look at TensorBoard logs without a browser. For each run and
// tag: the plugin, how many values and over which steps, and for scalars the last value, the
// minimum, the maximum and a one-line sparkline of the curve.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "tfcc/io/summary/logdir_loader.h"
#include "tfcc/platform/errors.h"
#include "tools/tfcc/commands.h"

namespace tfcc::tools {
namespace {

constexpr size_t kSparkWidth = 32;

// Eight block heights; a point is drawn at the level of its value between the series' min and
// max. Longer series are averaged into kSparkWidth columns; non-finite values draw a space.
std::string sparkline(const std::vector<summary::ScalarPoint>& points) {
  static const char* kLevels[] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
  size_t n = points.size();
  size_t width = std::min(n, kSparkWidth);
  std::vector<double> columns(width, 0.0);
  for (size_t c = 0; c < width; ++c) {
    size_t begin = c * n / width, end = (c + 1) * n / width;
    double sum = 0;
    for (size_t i = begin; i < end; ++i) sum += points[i].value;
    columns[c] = sum / static_cast<double>(end - begin);
  }
  double lo = INFINITY, hi = -INFINITY;
  for (double v : columns) {
    if (std::isfinite(v)) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  std::string out;
  for (double v : columns) {
    if (!std::isfinite(v)) {
      out += ' ';
    } else if (hi == lo) {
      out += kLevels[3];
    } else {
      int level = static_cast<int>(std::lround((v - lo) / (hi - lo) * 7));
      out += kLevels[std::clamp(level, 0, 7)];
    }
  }
  return out;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string pad(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

std::string steps(const summary::TagData& t) {
  if (t.first_step == t.last_step) return std::to_string(t.last_step);
  return std::to_string(t.first_step).append("..").append(std::to_string(t.last_step));
}

void print_run(const summary::RunData& run) {
  std::cout << "run " << run.name << "  (" << run.files.size()
            << (run.files.size() == 1 ? " event file, " : " event files, ") << run.num_events
            << " events";
  if (run.num_graphs > 0)
    std::cout << ", " << run.num_graphs << (run.num_graphs == 1 ? " graph" : " graphs");
  std::cout << ")\n";
  size_t tag_width = 4;
  for (const auto& [tag, data] : run.tags) tag_width = std::max(tag_width, tag.size());
  tag_width = std::min<size_t>(tag_width, 48);
  if (!run.tags.empty())
    std::cout << "  " << pad("tag", tag_width) << "  " << pad("plugin", 11) << pad("count", 7)
              << pad("steps", 14) << pad("last", 13) << pad("min", 13) << pad("max", 13)
              << "trend\n";
  for (const auto& [tag, data] : run.tags) {
    std::string line = "  ";
    line.append(pad(tag, tag_width)).append("  ");
    line.append(pad(data.plugin.empty() ? "?" : data.plugin, 11));
    line.append(pad(std::to_string(data.count), 7)).append(pad(steps(data), 14));
    if (!data.scalars.empty()) {
      double lo = INFINITY, hi = -INFINITY;
      for (const auto& p : data.scalars) {
        if (std::isnan(p.value)) continue;
        lo = std::min(lo, p.value);
        hi = std::max(hi, p.value);
      }
      line.append(pad(number(data.scalars.back().value), 13)).append(pad(number(lo), 13));
      line.append(pad(number(hi), 13)).append(sparkline(data.scalars));
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    std::cout << line << "\n";
  }
  for (const auto& note : run.notes) std::cout << "  note: " << note << "\n";
  for (const auto& problem : run.problems) std::cerr << "tfcc summary: error: " << problem << "\n";
}

int run_summary(const std::vector<std::string>& args) {
  if (args.size() != 1 || args[0] == "-h" || args[0] == "--help") {
    std::cerr << "usage: tfcc summary LOGDIR\n\n"
                 "Prints, for each run (directory with event files) under LOGDIR and each tag,\n"
                 "the plugin, the number of values and their steps, and for scalars the last\n"
                 "value, the minimum, the maximum and a sparkline of the curve.\n";
    return args.size() == 1 ? 0 : 2;
  }
  std::vector<summary::RunData> runs;
  try {
    runs = summary::load_logdir(args[0]);
  } catch (const Error& e) {
    std::cerr << "tfcc summary: " << e.what() << "\n";
    return 1;
  }
  if (runs.empty()) {
    std::cerr << "tfcc summary: no event files (names containing \"tfevents\") under " << args[0]
              << "\n";
    return 1;
  }
  bool problems = false;
  for (size_t i = 0; i < runs.size(); ++i) {
    if (i > 0) std::cout << "\n";
    print_run(runs[i]);
    problems = problems || !runs[i].problems.empty();
  }
  return problems ? 1 : 0;
}

}  // namespace

Command summary_command() {
  return {"summary", "LOGDIR",
          "Runs and tags of TensorBoard logs: last, min, max and a sparkline per scalar",
          run_summary};
}

}  // namespace tfcc::tools

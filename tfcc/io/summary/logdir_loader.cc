#include "tfcc/io/summary/logdir_loader.h"

#include <algorithm>
#include <filesystem>

#include "tfcc/io/summary/event_file_reader.h"
#include "tfcc/platform/errors.h"

namespace tfcc::summary {
namespace {

namespace fs = std::filesystem;

// The plugin a value implies when it carries no metadata (TF1-style values).
std::string implied_plugin(const SummaryValue& v) {
  if (v.simple_value) return "scalars";
  if (v.histo) return "histograms";
  if (v.image) return "images";
  return "";
}

bool scalar_value(const SummaryValue& v, const std::string& plugin, double* out) {
  if (v.simple_value) {
    *out = *v.simple_value;
    return true;
  }
  if (plugin != "scalars" || !v.tensor) return false;
  std::vector<double> values = v.tensor->to_doubles();
  if (values.size() != 1) {
    throw DataLossError("a scalars-plugin value does not hold exactly one number");
  }
  *out = values[0];
  return true;
}

void add_event(const Event& e, RunData& run) {
  ++run.num_events;
  if (!e.graph_def.empty()) ++run.num_graphs;
  for (const SummaryValue& v : e.summary) {
    auto [it, inserted] = run.tags.try_emplace(v.tag);
    TagData& tag = it->second;
    if (inserted) {
      tag.plugin = v.metadata && !v.metadata->plugin_name.empty() ? v.metadata->plugin_name
                                                                  : implied_plugin(v);
      tag.first_step = e.step;
    }
    ++tag.count;
    tag.last_step = e.step;
    double value = 0;
    if (scalar_value(v, tag.plugin, &value)) tag.scalars.push_back({e.step, e.wall_time, value});
  }
}

void load_file(const std::string& path, RunData& run) {
  try {
    EventFileReader reader(path, /*stop_at_truncated_tail=*/true);
    Event e;
    while (reader.read_next(e)) {
      try {
        add_event(e, run);
      } catch (const DataLossError& err) {
        throw DataLossError(
            tfcc::internal::str_cat(path, ": event of step ", e.step, ": ", err.what()));
      }
    }
    if (reader.truncated_tail()) {
      run.notes.push_back(
          tfcc::internal::str_cat(path, ": the last record (offset ", reader.offset(),
                                  ") is incomplete; the file is probably still being written"));
    }
  } catch (const Error& err) {
    run.problems.push_back(err.what());
  }
}

}  // namespace

std::vector<RunData> load_logdir(const std::string& logdir) {
  fs::path root(logdir);
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    if (fs::exists(root, ec)) throw FailedPreconditionError(logdir + " is not a directory");
    throw NotFoundError("No such log directory: " + logdir);
  }
  std::map<std::string, std::vector<std::string>> files_by_run;
  auto add = [&](const fs::path& file) {
    if (!is_event_file(file.filename().string())) return;
    fs::path rel = fs::relative(file.parent_path(), root, ec);
    std::string name = ec || rel.empty() ? "." : rel.generic_string();
    files_by_run[name].push_back(file.string());
  };
  for (fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec),
       end;
       it != end; it.increment(ec)) {
    if (ec) break;
    if (it->is_regular_file(ec)) add(it->path());
  }
  std::vector<RunData> runs;
  for (auto& [name, files] : files_by_run) {
    RunData run;
    run.name = name;
    std::sort(files.begin(), files.end());
    run.files = files;
    for (const auto& f : files) load_file(f, run);
    runs.push_back(std::move(run));
  }
  return runs;
}

}  // namespace tfcc::summary

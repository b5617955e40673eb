#include "tfcc/io/summary/trace.h"

#include <memory>
#include <mutex>
#include <vector>

#include "tfcc/graph/trace/concrete_function.h"
#include "tfcc/io/proto/message_io.h"
#include "tfcc/io/proto/summary.pb.h"
#include "tfcc/io/summary/graph_export.h"
#include "tfcc/io/summary/summary.h"
#include "tfcc/io/summary/summary_trace.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/logging.h"

namespace tfcc::summary {
namespace {

// Process-wide like TensorFlow's trace context: trace_on on one thread records the functions run
// by any thread.
struct Recorder {
  std::mutex mu;
  bool on = false;
  std::shared_ptr<std::vector<std::shared_ptr<const graph::Graph>>> graphs;
};

Recorder& recorder() {
  static Recorder r;
  return r;
}

}  // namespace

std::string run_metadata_with_graphs(const std::vector<GraphDef>& graphs) {
  tensorflow::RunMetadata run_metadata;
  for (const GraphDef& g : graphs) {
    *run_metadata.add_function_graphs()->mutable_pre_optimization_graph() = g;
  }
  return io::proto::serialize(run_metadata);
}

void trace_on(bool graph, bool profiler) {
  if (internal::tracing()) {
    TFCC_LOG(WARNING) << "Cannot enable trace inside a tfcc::function.";
    return;
  }
  Recorder& r = recorder();
  std::lock_guard<std::mutex> lock(r.mu);
  if (r.on) {
    TFCC_LOG(WARNING) << "Trace already enabled";
    return;
  }
  if (profiler) {
    TFCC_LOG(WARNING) << "tfcc::summary::trace_on: profiling is not implemented in tfcc; only "
                         "function graphs are recorded";
  }
  r.on = true;
  r.graphs = std::make_shared<std::vector<std::shared_ptr<const graph::Graph>>>();
  if (!graph) return;
  graph::set_function_run_hook([list = r.graphs](const std::shared_ptr<const graph::Graph>& g) {
    // Called under the hook's mutex, so the list needs no lock of its own.
    for (const auto& known : *list) {
      if (known == g) return;
    }
    list->push_back(g);
  });
}

void trace_off() {
  Recorder& r = recorder();
  std::lock_guard<std::mutex> lock(r.mu);
  graph::set_function_run_hook(nullptr);
  r.on = false;
  r.graphs.reset();
}

bool trace_export(const std::string& name, Step step, const std::string& profiler_outdir) {
  (void)profiler_outdir;
  if (internal::tracing()) {
    TFCC_LOG(WARNING) << "Cannot export trace inside a tfcc::function.";
    return false;
  }
  std::vector<std::shared_ptr<const graph::Graph>> graphs;
  {
    Recorder& r = recorder();
    std::lock_guard<std::mutex> lock(r.mu);
    if (!r.on) {
      throw FailedPreconditionError(
          "Must enable trace before export through tfcc::summary::trace_on.");
    }
    graph::set_function_run_hook(nullptr);  // after this, the list is ours alone
    graphs = *r.graphs;
    r.on = false;
    r.graphs.reset();
  }
  if (!should_record_summaries()) return false;
  std::vector<GraphDef> defs;
  for (const auto& g : graphs) defs.push_back(to_graph_def(*g));
  TensorProto t;
  t.dtype = kDtString;
  t.string_val.push_back(run_metadata_with_graphs(defs));
  SummaryMetadata m;
  m.plugin_name = "graph_run_metadata_graph";
  m.plugin_content.push_back('1');  // TensorFlow writes b"1"
  return write(name, t, std::move(step), m);
}

}  // namespace tfcc::summary

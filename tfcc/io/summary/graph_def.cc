#include "tfcc/io/summary/graph_def.h"

#include <ctime>

#include "tfcc/io/proto/graph.pb.h"
#include "tfcc/io/proto/message_io.h"
#include "tfcc/io/summary/event.h"
#include "tfcc/io/summary/summary_writer.h"

namespace tfcc::summary {

bool graph(const GraphDef& graph) {
  if (!should_record_summaries()) return false;
  Event event;
  timespec ts{};
  ::clock_gettime(CLOCK_REALTIME, &ts);
  event.wall_time = static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
  event.graph_def = io::proto::serialize(graph);
  default_writer().write_event(event);
  return true;
}

}  // namespace tfcc::summary

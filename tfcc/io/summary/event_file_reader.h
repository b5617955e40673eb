// EventFileReader: reads the events of a TensorBoard event file, validating every record's
// checksums and every event's encoding.
//
//   tfcc::summary::EventFileReader reader(path);
//   tfcc::summary::Event event;
//   while (reader.read_next(event)) {
//     for (const auto& v : event.summary) std::cout << event.step << " " << v.tag << "\n";
//   }
//
// Corrupt or truncated records and malformed events raise DataLossError naming the file and the
// record's offset. A file still being written may end inside a record; pass
// `stop_at_truncated_tail = true` to read it up to there (truncated_tail() then says so).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tfcc/io/record/record_reader.h"
#include "tfcc/io/summary/event.h"

namespace tfcc::summary {

/// Reads Events from one event file.
class EventFileReader {
 public:
  /// Opens `path`; NotFoundError if missing.
  explicit EventFileReader(const std::string& path, bool stop_at_truncated_tail = false);

  /// Reads the next event; false at the end of the file.
  bool read_next(Event& event);
  /// Offset of the next record in the file.
  uint64_t offset() const { return records_.offset(); }
  /// True if reading stopped at a record cut short (with stop_at_truncated_tail only).
  bool truncated_tail() const { return records_.truncated_tail(); }
  /// The file being read.
  const std::string& path() const { return records_.path(); }

 private:
  io::TFRecordReader records_;
  std::string record_;
};

/// Every event of `path`.
std::vector<Event> read_events(const std::string& path);

/// True if `filename` (a base name) is an event file for TensorBoard: it contains "tfevents".
bool is_event_file(const std::string& filename);

}  // namespace tfcc::summary

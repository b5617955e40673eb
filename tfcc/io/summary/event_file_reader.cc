#include "tfcc/io/summary/event_file_reader.h"

#include "tfcc/platform/errors.h"

namespace tfcc::summary {

EventFileReader::EventFileReader(const std::string& path, bool stop_at_truncated_tail)
    : records_(path, {}, stop_at_truncated_tail) {}

bool EventFileReader::read_next(Event& event) {
  uint64_t at = records_.offset();
  if (!records_.read_next(record_)) return false;
  try {
    event = Event::parse(record_);
  } catch (const DataLossError& e) {
    throw DataLossError(
        tfcc::internal::str_cat(records_.path(), ": record at offset ", at, ": ", e.what()));
  }
  return true;
}

std::vector<Event> read_events(const std::string& path) {
  EventFileReader reader(path);
  std::vector<Event> events;
  Event event;
  while (reader.read_next(event)) events.push_back(std::move(event));
  return events;
}

bool is_event_file(const std::string& filename) {
  return filename.find("tfevents") != std::string::npos;
}

}  // namespace tfcc::summary

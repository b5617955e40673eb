// Minimal leveled logging in TensorFlow's format, to stderr.
//
//   TFCC_LOG(WARNING) << "The calling iterator did not fully read the dataset being cached.";
//   // 2026-11-29 18:40:01.123456: W tfcc/data/cache.cc:42] The calling iterator ...
//
// TFCC_CPP_MIN_LOG_LEVEL (like TF_CPP_MIN_LOG_LEVEL) hides levels below it: 0 INFO, 1 WARNING,
// 2 ERROR.
#pragma once

#include <sstream>

namespace tfcc::logging {

enum class Level { INFO = 0, WARNING = 1, ERROR = 2 };

/// True if messages at `level` are printed.
bool enabled(Level level);

/// One log line; printed when destroyed.
class Message {
 public:
  Message(Level level, const char* file, int line);
  ~Message();
  std::ostream& stream() { return os_; }

 private:
  Level level_;
  const char* file_;
  int line_;
  std::ostringstream os_;
};

}  // namespace tfcc::logging

#define TFCC_LOG(level)                                           \
  if (!::tfcc::logging::enabled(::tfcc::logging::Level::level)) { \
  } else                                                          \
    ::tfcc::logging::Message(::tfcc::logging::Level::level, __FILE__, __LINE__).stream()

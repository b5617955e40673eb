#include "tfcc/platform/logging.h"

#include <sys/time.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace tfcc::logging {

bool enabled(Level level) {
  static const int min_level = [] {
    const char* v = std::getenv("TFCC_CPP_MIN_LOG_LEVEL");
    return v ? std::atoi(v) : 0;
  }();
  return static_cast<int>(level) >= min_level;
}

Message::Message(Level level, const char* file, int line)
    : level_(level), file_(file), line_(line) {}

Message::~Message() {
  timeval tv{};
  ::gettimeofday(&tv, nullptr);
  std::tm tm{};
  ::localtime_r(&tv.tv_sec, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", &tm);
  const char tag = "IWE"[static_cast<int>(level_)];
  std::fprintf(stderr, "%s.%06ld: %c %s:%d] %s\n", stamp, static_cast<long>(tv.tv_usec), tag, file_,
               line_, os_.str().c_str());
}

}  // namespace tfcc::logging

#include "tfcc/keras/engine/backend.h"

#include <cctype>
#include <map>
#include <mutex>

namespace tfcc::keras::backend {
namespace {
std::mutex& names_mu() {
  static std::mutex mu;
  return mu;
}
std::map<std::string, int>& name_counts() {
  static std::map<std::string, int> counts;
  return counts;
}
}  // namespace

std::string unique_object_name(const std::string& base, bool zero_based) {
  std::lock_guard<std::mutex> lock(names_mu());
  int& n = name_counts()[base];
  std::string name = base;
  if (!zero_based) {
    ++n;
    return name.append("_").append(std::to_string(n));
  }
  if (n > 0) name.append("_").append(std::to_string(n));
  ++n;
  return name;
}

void clear_session() {
  std::lock_guard<std::mutex> lock(names_mu());
  name_counts().clear();
}

// Keras: insert "_" before an upper-case letter that follows a lower-case letter or digit, or
// that starts a new word after an acronym; then lower-case everything.
std::string to_snake_case(const std::string& name) {
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (std::isupper(static_cast<unsigned char>(c)) && i > 0) {
      const char prev = name[i - 1];
      const bool next_lower =
          i + 1 < name.size() && std::islower(static_cast<unsigned char>(name[i + 1]));
      if (std::islower(static_cast<unsigned char>(prev)) ||
          (std::isupper(static_cast<unsigned char>(prev)) && next_lower)) {
        out.push_back('_');
      }
    }
    out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return out;
}

}  // namespace tfcc::keras::backend

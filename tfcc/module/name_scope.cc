#include "tfcc/module/name_scope.h"

namespace tfcc {
namespace {
std::string& scope_string() {
  thread_local std::string scope;
  return scope;
}
}  // namespace

NameScope::NameScope(const std::string& name) : previous_size_(scope_string().size()) {
  if (name.empty()) return;
  scope_string().append(name);
  if (scope_string().back() != '/') scope_string().push_back('/');
}

NameScope::~NameScope() { scope_string().resize(previous_size_); }

const std::string& current_name_scope() { return scope_string(); }

std::string scoped_name(const std::string& name) {
  std::string out = scope_string();
  out.append(name);
  return out;
}

}  // namespace tfcc

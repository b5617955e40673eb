// Name scopes: the "outer/inner/" prefix that variables and layers created inside them take, like
// tf.name_scope.
//
//   {
//     tfcc::NameScope scope("encoder");
//     tfcc::current_name_scope();          // "encoder/"
//     tfcc::scoped_name("kernel");          // "encoder/kernel"
//   }
//
// Scopes are per thread and nest; a NameScope restores the previous scope when destroyed.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <string>

namespace tfcc {

/// Enters a name scope for its lifetime. An empty name leaves the scope unchanged.
class NameScope {
 public:
  explicit NameScope(const std::string& name);
  ~NameScope();
  NameScope(const NameScope&) = delete;
  NameScope& operator=(const NameScope&) = delete;

 private:
  size_t previous_size_;
};

/// The current prefix, "" at top level, else "outer/inner/".
const std::string& current_name_scope();

/// `name` prefixed with the current scope.
std::string scoped_name(const std::string& name);

}  // namespace tfcc
#pragma GCC visibility pop

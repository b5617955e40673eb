// tfcc error types: exceptions named like TensorFlow's status codes.
//
// Every error a user can cause derives from tfcc::Error, so one catch handles them all, and the
// concrete type says what went wrong:
//
//   try {
//     auto z = tfcc::add(x, y);
//   } catch (const tfcc::InvalidArgumentError& e) {
//     std::cerr << e.what() << "\n";  // "AddV2: Incompatible shapes: [2,3] vs. [4]"
//   }
//
// The errors live in platform (not core, as ARCHITECTURE.md first placed them) because the file
// and thread utilities here already need to raise them.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace tfcc {

/// TensorFlow's canonical error codes (tensorflow/core/protobuf/error_codes.proto).
enum class ErrorCode {
  kCancelled = 1,
  kUnknown = 2,
  kInvalidArgument = 3,
  kDeadlineExceeded = 4,
  kNotFound = 5,
  kAlreadyExists = 6,
  kPermissionDenied = 7,
  kResourceExhausted = 8,
  kFailedPrecondition = 9,
  kAborted = 10,
  kOutOfRange = 11,
  kUnimplemented = 12,
  kInternal = 13,
  kUnavailable = 14,
  kDataLoss = 15,
};

/// The name TensorFlow prints for a code, e.g. "InvalidArgumentError".
const char* error_code_name(ErrorCode code);

/// Base of every tfcc error. `what()` is the message; `code()` the TensorFlow status code.
class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ErrorCode code() const { return code_; }

 private:
  ErrorCode code_;
};

#define TFCC_DEFINE_ERROR(Name, Code)                                              \
  /** Raised with TensorFlow's Code status. */                                     \
  class Name : public Error {                                                      \
   public:                                                                         \
    explicit Name(const std::string& message) : Error(ErrorCode::Code, message) {} \
  };

TFCC_DEFINE_ERROR(CancelledError, kCancelled)
TFCC_DEFINE_ERROR(UnknownError, kUnknown)
TFCC_DEFINE_ERROR(InvalidArgumentError, kInvalidArgument)
TFCC_DEFINE_ERROR(DeadlineExceededError, kDeadlineExceeded)
TFCC_DEFINE_ERROR(NotFoundError, kNotFound)
TFCC_DEFINE_ERROR(AlreadyExistsError, kAlreadyExists)
TFCC_DEFINE_ERROR(PermissionDeniedError, kPermissionDenied)
TFCC_DEFINE_ERROR(ResourceExhaustedError, kResourceExhausted)
TFCC_DEFINE_ERROR(FailedPreconditionError, kFailedPrecondition)
TFCC_DEFINE_ERROR(AbortedError, kAborted)
TFCC_DEFINE_ERROR(OutOfRangeError, kOutOfRange)
TFCC_DEFINE_ERROR(UnimplementedError, kUnimplemented)
TFCC_DEFINE_ERROR(InternalError, kInternal)
TFCC_DEFINE_ERROR(UnavailableError, kUnavailable)
TFCC_DEFINE_ERROR(DataLossError, kDataLoss)
#undef TFCC_DEFINE_ERROR

namespace internal {
/// Concatenates anything streamable into one string: str_cat("axis ", 3, " out of range").
template <typename... Args>
std::string str_cat(Args&&... args) {
  std::ostringstream os;
  (os << ... << std::forward<Args>(args));
  return os.str();
}
}  // namespace internal

}  // namespace tfcc

/// Throws ErrorType with the streamed message when cond is false:
///   TFCC_CHECK_ARG(axis < rank, "axis ", axis, " is out of range for rank ", rank);
#define TFCC_REQUIRE(ErrorType, cond, ...)                                        \
  do {                                                                            \
    if (!(cond)) throw ::tfcc::ErrorType(::tfcc::internal::str_cat(__VA_ARGS__)); \
  } while (0)
#define TFCC_CHECK_ARG(cond, ...) TFCC_REQUIRE(InvalidArgumentError, cond, __VA_ARGS__)
#pragma GCC visibility pop

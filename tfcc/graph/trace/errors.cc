#include "tfcc/graph/trace/errors.h"

namespace tfcc::graph {

void rethrow_with_note(const Error& e, const std::string& note) {
  std::string m = e.what();
  m.append(note);
  switch (e.code()) {
    case ErrorCode::kCancelled:
      throw CancelledError(m);
    case ErrorCode::kInvalidArgument:
      throw InvalidArgumentError(m);
    case ErrorCode::kDeadlineExceeded:
      throw DeadlineExceededError(m);
    case ErrorCode::kNotFound:
      throw NotFoundError(m);
    case ErrorCode::kAlreadyExists:
      throw AlreadyExistsError(m);
    case ErrorCode::kPermissionDenied:
      throw PermissionDeniedError(m);
    case ErrorCode::kResourceExhausted:
      throw ResourceExhaustedError(m);
    case ErrorCode::kFailedPrecondition:
      throw FailedPreconditionError(m);
    case ErrorCode::kAborted:
      throw AbortedError(m);
    case ErrorCode::kOutOfRange:
      throw OutOfRangeError(m);
    case ErrorCode::kUnimplemented:
      throw UnimplementedError(m);
    case ErrorCode::kInternal:
      throw InternalError(m);
    case ErrorCode::kUnavailable:
      throw UnavailableError(m);
    case ErrorCode::kDataLoss:
      throw DataLossError(m);
    case ErrorCode::kUnknown:
      break;
  }
  throw UnknownError(m);
}

}  // namespace tfcc::graph

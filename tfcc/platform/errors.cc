#include "tfcc/platform/errors.h"

namespace tfcc {

const char* error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::kCancelled:
      return "CancelledError";
    case ErrorCode::kUnknown:
      return "UnknownError";
    case ErrorCode::kInvalidArgument:
      return "InvalidArgumentError";
    case ErrorCode::kDeadlineExceeded:
      return "DeadlineExceededError";
    case ErrorCode::kNotFound:
      return "NotFoundError";
    case ErrorCode::kAlreadyExists:
      return "AlreadyExistsError";
    case ErrorCode::kPermissionDenied:
      return "PermissionDeniedError";
    case ErrorCode::kResourceExhausted:
      return "ResourceExhaustedError";
    case ErrorCode::kFailedPrecondition:
      return "FailedPreconditionError";
    case ErrorCode::kAborted:
      return "AbortedError";
    case ErrorCode::kOutOfRange:
      return "OutOfRangeError";
    case ErrorCode::kUnimplemented:
      return "UnimplementedError";
    case ErrorCode::kInternal:
      return "InternalError";
    case ErrorCode::kUnavailable:
      return "UnavailableError";
    case ErrorCode::kDataLoss:
      return "DataLossError";
  }
  return "Error";
}

}  // namespace tfcc

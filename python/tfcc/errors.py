"""tf.errors: tfcc's exceptions as Python classes named like TensorFlow's.

Every error a tfcc op raises is an instance of one of these (all subclasses of OpError), with
TensorFlow's `message` and `error_code`.
"""

from tfcc import _tfcc

OK = 0
CANCELLED = 1
UNKNOWN = 2
INVALID_ARGUMENT = 3
DEADLINE_EXCEEDED = 4
NOT_FOUND = 5
ALREADY_EXISTS = 6
PERMISSION_DENIED = 7
RESOURCE_EXHAUSTED = 8
FAILED_PRECONDITION = 9
ABORTED = 10
OUT_OF_RANGE = 11
UNIMPLEMENTED = 12
INTERNAL = 13
UNAVAILABLE = 14
DATA_LOSS = 15


class OpError(Exception):
    """The base of tfcc's op errors: tf.errors.OpError(node_def, op, message, error_code)."""

    def __init__(self, node_def, op, message, error_code=UNKNOWN, *args):
        super().__init__(message, *args)
        self._node_def = node_def
        self._op = op
        self._message = message
        self._error_code = error_code

    @property
    def message(self):
        return self._message

    @property
    def op(self):
        return self._op

    @property
    def node_def(self):
        return self._node_def

    @property
    def error_code(self):
        return self._error_code

    def __str__(self):
        return self._message


def _make(name, code, doc):
    def __init__(self, node_def, op, message, *args):
        OpError.__init__(self, node_def, op, message, code, *args)

    return type(name, (OpError,), {"__init__": __init__, "__doc__": doc})


_CODES = {
    CANCELLED: "CancelledError",
    UNKNOWN: "UnknownError",
    INVALID_ARGUMENT: "InvalidArgumentError",
    DEADLINE_EXCEEDED: "DeadlineExceededError",
    NOT_FOUND: "NotFoundError",
    ALREADY_EXISTS: "AlreadyExistsError",
    PERMISSION_DENIED: "PermissionDeniedError",
    RESOURCE_EXHAUSTED: "ResourceExhaustedError",
    FAILED_PRECONDITION: "FailedPreconditionError",
    ABORTED: "AbortedError",
    OUT_OF_RANGE: "OutOfRangeError",
    UNIMPLEMENTED: "UnimplementedError",
    INTERNAL: "InternalError",
    UNAVAILABLE: "UnavailableError",
    DATA_LOSS: "DataLossError",
}

_by_code = {}
for _code, _name in _CODES.items():
    _cls = _make(_name, _code, "Raised with TensorFlow's %s status." % _name[:-5])
    _cls.__module__ = __name__
    globals()[_name] = _cls
    _by_code[_code] = _cls

_tfcc.register_errors(_by_code)


class OperatorNotAllowedInGraphError(TypeError):
    """A symbolic tensor (inside a tf.function trace) used as a Python bool or iterated."""


__all__ = ["OpError", "OperatorNotAllowedInGraphError"] + list(_CODES.values())

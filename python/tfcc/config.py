"""tf.config: what tfcc supports of it."""

from tfcc._function import functions_run_eagerly, run_functions_eagerly

__all__ = ["functions_run_eagerly", "run_functions_eagerly"]

"""Records TensorFlow's results for cases.py into fixtures/tf_expected.json.

    /work/tf-venv/bin/python python/tests/make_fixtures.py   # any venv with tensorflow-cpu 2.21
"""

import json
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402

import cases  # noqa: E402


def record(expr, env):
    try:
        r = eval(expr, env)  # noqa: S307 - the expressions are this repository's cases.py
    except Exception as e:  # noqa: BLE001 - the class is what is recorded
        return {"error": type(e).__name__}
    return {"str": str(r), "repr": repr(r), "dtype": r.dtype.name, "shape": list(r.shape),
            "value": r.numpy().tolist()}


def main():
    env = {"tf": tf}
    exec(cases.SETUP, env)  # noqa: S102
    out = {"tensorflow": tf.__version__, "print": {}, "value": {}, "error": {}}
    for kind, exprs in (("print", cases.PRINT_CASES), ("value", cases.VALUE_CASES),
                        ("error", cases.ERROR_CASES)):
        for e in exprs:
            out[kind][e] = record(e, env)
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "fixtures", "tf_expected.json"), "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()

"""tfcc against TensorFlow's recorded results (fixtures/tf_expected.json, from make_fixtures.py):
printing, operators, indexing, the generated op functions and the error classes."""

import json
import os

import numpy as np
import pytest

import tfcc as tf

import cases

with open(os.path.join(os.path.dirname(__file__), "fixtures", "tf_expected.json")) as _f:
    EXPECTED = json.load(_f)


@pytest.fixture(scope="module")
def env():
    e = {"tf": tf}
    exec(cases.SETUP, e)  # noqa: S102
    return e


# tfcc's C++ printer (tfcc/core/tensor_print.cc) differs from TensorFlow here; reported, not
# fixed in the binding. strict: the test fails once the printer is fixed, to drop the mark.
PRINTER_DIFFERS = {
    "tf.constant([0.1, 1e-5, 12345.678])": "scientific notation pads the mantissa",
    "tf.zeros([2, 0])": "an empty tensor prints its nesting ([[]]), TF prints []",
}


@pytest.mark.parametrize("expr", [
    pytest.param(e, marks=pytest.mark.xfail(reason=PRINTER_DIFFERS[e], strict=True))
    if e in PRINTER_DIFFERS else e for e in cases.PRINT_CASES])
def test_print_matches_tensorflow(env, expr):
    want = EXPECTED["print"][expr]
    got = eval(expr, env)  # noqa: S307
    assert str(got) == want["str"]
    assert repr(got) == want["repr"]


@pytest.mark.parametrize("expr", cases.VALUE_CASES)
def test_value_matches_tensorflow(env, expr):
    want = EXPECTED["value"][expr]
    got = eval(expr, env)  # noqa: S307
    assert isinstance(got, tf.Tensor)
    assert got.dtype.name == want["dtype"]
    assert got.shape == want["shape"]
    np.testing.assert_allclose(np.asarray(got, dtype=np.float64),
                               np.asarray(want["value"], dtype=np.float64), rtol=2e-6, atol=1e-6)


@pytest.mark.parametrize("expr", cases.ERROR_CASES)
def test_error_class_matches_tensorflow(env, expr):
    want = EXPECTED["error"][expr]["error"]
    cls = getattr(tf.errors, want, None) or getattr(__builtins__, want, None) or \
        __builtins__[want]
    with pytest.raises(cls):
        eval(expr, env)  # noqa: S307

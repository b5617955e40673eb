"""Checks tfcc's TensorFlow SavedModel exports with TensorFlow itself.

For every OUT/<model>/ written by tf_saved_model_export: the export in OUT/<model>/1/ loads with
tf.saved_model.load, its serving_default signature run on x.npy gives tfcc's y.npy within 1e-4
(relative to the largest |y|) with the variables restored from the checkpoint through the object
graph, the function library holds only ops TensorFlow registers (no tfcc-internal op),
`saved_model_cli show --all` describes it, and `saved_model_cli run` (the Python TF1 loader) and
the C++ loader TF Serving uses (through the C API, tf_c_loader.py) give the same output.

usage: tf_saved_model_export.py OUT_DIR PATH/TO/saved_model_cli
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
import tensorflow as tf
from tensorflow.core.protobuf import saved_model_pb2

import tf_c_loader

TOLERANCE = 1e-4


def close(name, got, want, what):
    got = np.asarray(got)
    assert got.shape == want.shape, f"{name} ({what}): shape {got.shape} != {want.shape}"
    scale = max(1.0, float(np.max(np.abs(want))))
    err = float(np.max(np.abs(got - want))) / scale if want.size else 0.0
    assert err <= TOLERANCE, f"{name} ({what}): max relative difference {err:.3g}"
    print(f"  {what}: max relative difference {err:.3g}")


def check_proto(name, export):
    sm = saved_model_pb2.SavedModel()
    with open(os.path.join(export, "saved_model.pb"), "rb") as f:
        sm.ParseFromString(f.read())
    assert len(sm.meta_graphs) == 1, f"{name}: {len(sm.meta_graphs)} meta graphs"
    mg = sm.meta_graphs[0]
    assert list(mg.meta_info_def.tags) == ["serve"], f"{name}: tags {mg.meta_info_def.tags}"
    ops = {n.op for fn in mg.graph_def.library.function for n in fn.node_def}
    internal = sorted(op for op in ops
                      if op.startswith("_") or (op.startswith("Fused") and op != "FusedBatchNormV3"))
    assert not internal, f"{name}: internal ops in the export: {internal}"
    # Every op is one TensorFlow registers.
    from tensorflow.python.framework import op_def_registry
    unknown = sorted(op for op in ops if op_def_registry.get(op) is None)
    assert not unknown, f"{name}: ops TensorFlow does not know: {unknown}"
    print(f"  {len(mg.graph_def.library.function)} functions, ops: {', '.join(sorted(ops))}")


def check_model(out, name, cli):
    model_dir = os.path.join(out, name)
    export = os.path.join(model_dir, "1")
    x = np.load(os.path.join(model_dir, "x.npy"))
    want = np.load(os.path.join(model_dir, "y.npy"))
    print(f"{name}: x {x.shape} {x.dtype} -> y {want.shape}")
    check_proto(name, export)

    loaded = tf.saved_model.load(export)
    serve = loaded.signatures["serving_default"]
    (key,) = serve.structured_input_signature[1].keys()
    outputs = serve(**{key: tf.constant(x)})
    assert list(outputs.keys()) == ["output_0"], f"{name}: outputs {list(outputs.keys())}"
    close(name, outputs["output_0"].numpy(), want, "tf.saved_model.load, serving_default")

    keys = [k for k, _ in tf.train.list_variables(os.path.join(export, "variables", "variables"))]
    values = [k for k in keys if k.endswith("/.ATTRIBUTES/VARIABLE_VALUE")]
    assert values, f"{name}: no variables in the checkpoint"
    print(f"  checkpoint: {len(values)} variables, _CHECKPOINTABLE_OBJECT_GRAPH "
          f"{'present' if '_CHECKPOINTABLE_OBJECT_GRAPH' in keys else 'MISSING'}")
    assert "_CHECKPOINTABLE_OBJECT_GRAPH" in keys

    show = subprocess.run([cli, "show", "--dir", export, "--all"], capture_output=True, text=True)
    assert show.returncode == 0, f"{name}: saved_model_cli show failed:\n{show.stderr[-2000:]}"
    assert "signature_def['serving_default']" in show.stdout, show.stdout[-2000:]
    assert "tensorflow/serving/predict" in show.stdout
    print("  saved_model_cli show --all: OK")

    with tempfile.TemporaryDirectory() as tmp:
        run = subprocess.run([cli, "run", "--dir", export, "--tag_set", "serve", "--signature_def",
                              "serving_default", "--inputs", f"{key}={os.path.join(model_dir, 'x.npy')}",
                              "--outdir", tmp], capture_output=True, text=True)
        assert run.returncode == 0, f"{name}: saved_model_cli run failed:\n{run.stderr[-3000:]}"
        close(name, np.load(os.path.join(tmp, "output_0.npy")), want, "saved_model_cli run")

    got = tf_c_loader.run_serving_default(export, x).reshape(want.shape)
    close(name, got, want, "C++ loader (TF_LoadSessionFromSavedModel)")


def main():
    out, cli = sys.argv[1], sys.argv[2]
    models = sorted(d for d in os.listdir(out) if os.path.isdir(os.path.join(out, d)))
    assert models, f"no exports in {out}"
    for name in models:
        check_model(out, name, cli)
    print(f"{len(models)} models: OK")


if __name__ == "__main__":
    main()

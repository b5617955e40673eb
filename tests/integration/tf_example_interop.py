"""TensorFlow's side of tf_example_interop.sh.

  python tf_example_interop.py write DIR   writes DIR/tf_examples.tfrecord and
                                           DIR/tf_sequences.tfrecord with tf.io.TFRecordWriter
  python tf_example_interop.py check DIR   parses DIR/tfcc_examples.tfrecord and
                                           DIR/tfcc_sequences.tfrecord (written by tfcc) with
                                           tf.io.parse_single_example, tf.io.parse_example and
                                           tf.io.parse_single_sequence_example

values_of(i) is the twin of the function of the same name in example_interop.cc.
"""
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

RECORDS = 6


def values_of(i):
    return {
        "x": [i + 0.25, -1.5 * i],
        "y": [i * 7 - 3],
        "big": [-(1 << 40) - i, 1 << 62],
        "name": [b"r%d" % i],
        "blob": [b"\x00\xff" * i, b"z"],
        "tags": [k * 100 + i for k in range(i % 4)],
        "frames": [0.5 * k for k in range(2 * (i % 3))],
        "opt": [i] if i % 2 == 0 else None,
    }


def feature(values, kind):
    if kind == "float":
        return tf.train.Feature(float_list=tf.train.FloatList(value=values))
    if kind == "bytes":
        return tf.train.Feature(bytes_list=tf.train.BytesList(value=values))
    return tf.train.Feature(int64_list=tf.train.Int64List(value=values))


KINDS = {"x": "float", "y": "int64", "big": "int64", "name": "bytes", "blob": "bytes",
         "tags": "int64", "frames": "float", "opt": "int64"}

SPEC = {
    "x": tf.io.FixedLenFeature([2], tf.float32),
    "y": tf.io.FixedLenFeature([], tf.int64),
    "big": tf.io.FixedLenFeature([2], tf.int64),
    "name": tf.io.FixedLenFeature([], tf.string),
    "blob": tf.io.VarLenFeature(tf.string),
    "tags": tf.io.VarLenFeature(tf.int64),
    "frames": tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True),
    "opt": tf.io.FixedLenFeature([], tf.int64, default_value=-1),
}
CONTEXT_SPEC = {"len": tf.io.FixedLenFeature([], tf.int64)}
SEQUENCE_SPEC = {"tok": tf.io.VarLenFeature(tf.int64),
                 "emb": tf.io.FixedLenSequenceFeature([2], tf.float32)}


def example_of(i):
    v = values_of(i)
    feats = {k: feature(v[k], KINDS[k]) for k in KINDS if v[k] is not None}
    return tf.train.Example(features=tf.train.Features(feature=feats))


def sequence_of(i):
    tok = tf.train.FeatureList(feature=[feature(list(range(t + 1)), "int64")
                                        for t in range(i + 1)])
    emb = tf.train.FeatureList(feature=[feature([t, t + 0.5], "float") for t in range(i + 1)])
    return tf.train.SequenceExample(
        context=tf.train.Features(feature={"len": feature([i + 1], "int64")}),
        feature_lists=tf.train.FeatureLists(feature_list={"tok": tok, "emb": emb}))


def write(d):
    with tf.io.TFRecordWriter(os.path.join(d, "tf_examples.tfrecord")) as w:
        for i in range(RECORDS):
            w.write(example_of(i).SerializeToString())
    with tf.io.TFRecordWriter(os.path.join(d, "tf_sequences.tfrecord")) as w:
        for i in range(RECORDS):
            w.write(sequence_of(i).SerializeToString())
    print("TensorFlow wrote", RECORDS, "Examples and", RECORDS, "SequenceExamples")


bad = 0


def same(got, want, what):
    global bad
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape or not np.array_equal(got, want):
        print("MISMATCH:", what, "got", got.tolist(), "expected", want.tolist())
        bad += 1


def message(ok, what):
    global bad
    if not ok:
        print("MISMATCH:", what)
        bad += 1


def check(d):
    records = [r.numpy() for r in tf.data.TFRecordDataset(os.path.join(d, "tfcc_examples.tfrecord"))]
    same(len(records), RECORDS, "record count")
    for i, rec in enumerate(records):
        v = values_of(i)
        p = tf.io.parse_single_example(rec, SPEC)
        r = "record %d " % i
        same(p["x"].numpy(), np.array(v["x"], np.float32), r + "x")
        same(p["y"].numpy(), v["y"][0], r + "y")
        same(p["big"].numpy(), v["big"], r + "big")
        same(p["name"].numpy(), v["name"][0], r + "name")
        same(p["blob"].values.numpy(), np.array(v["blob"], dtype=object), r + "blob")
        same(p["tags"].values.numpy(), np.array(v["tags"], np.int64), r + "tags")
        same(p["frames"].numpy(), np.array(v["frames"], np.float32).reshape(-1, 2), r + "frames")
        same(p["opt"].numpy(), v["opt"][0] if v["opt"] else -1, r + "opt")
        # Byte for byte what TensorFlow serialises for the same Example (map keys sorted).
        message(tf.train.Example.FromString(rec) == example_of(i), r + "as a tf.train.Example")
        message(example_of(i).SerializeToString(deterministic=True) == rec, r + "bytes")
    batch = tf.io.parse_example(records, SPEC)
    same(batch["tags"].dense_shape.numpy(), [RECORDS, 3], "batch tags dense_shape")
    same(batch["frames"].shape.as_list(), [RECORDS, 2, 2], "batch frames shape")
    seqs = [r.numpy() for r in tf.data.TFRecordDataset(os.path.join(d, "tfcc_sequences.tfrecord"))]
    same(len(seqs), RECORDS, "sequence count")
    for i, rec in enumerate(seqs):
        ctx, lists = tf.io.parse_single_sequence_example(rec, CONTEXT_SPEC, SEQUENCE_SPEC)
        r = "sequence %d " % i
        same(ctx["len"].numpy(), i + 1, r + "len")
        dense = tf.sparse.to_dense(lists["tok"]).numpy()
        want = np.array([[k if k <= t else 0 for k in range(i + 1)] for t in range(i + 1)])
        same(dense, want, r + "tok")
        same(lists["emb"].numpy(), np.array([[t, t + 0.5] for t in range(i + 1)], np.float32),
             r + "emb")
        message(tf.train.SequenceExample.FromString(rec) == sequence_of(i),
                r + "as a SequenceExample")
        message(sequence_of(i).SerializeToString(deterministic=True) == rec, r + "bytes")
    print("TensorFlow parsed tfcc's records:", bad, "mismatches")
    return 1 if bad else 0


if __name__ == "__main__":
    cmd, d = sys.argv[1], sys.argv[2]
    sys.exit(write(d) if cmd == "write" else check(d))

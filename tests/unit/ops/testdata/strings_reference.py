"""Reference values for tests/unit/ops/strings_test.cc, from TensorFlow 2.21.

Run: /work/tf-venv/bin/python tests/unit/ops/testdata/strings_reference.py
Each line is `name: value` with Python reprs; the test holds the same values.
"""
import tensorflow as tf

s = tf.constant(["Hello World", "  a  b ", "ÀbC", ""])
cases = {
    "lower": tf.strings.lower(s),
    "upper": tf.strings.upper(s),
    "regex_replace": tf.strings.regex_replace(s, "[aeiou]", "_"),
    "regex_replace_first": tf.strings.regex_replace(s, "l+", "L", replace_global=False),
    "regex_replace_group": tf.strings.regex_replace(tf.constant(["ab12cd"]), r"(\d)(\d)", r"\2\1"),
    "regex_full_match": tf.strings.regex_full_match(s, r"\w+ \w+"),
    "split": tf.strings.split(s),
    "split_sep": tf.strings.split(tf.constant(["a,b,,c", "", ","]), sep=","),
    "split_max": tf.strings.split(tf.constant(["a b c d", " x  y  z "]), maxsplit=1),
    "join": tf.strings.join([tf.constant(["a", "b"]), tf.constant("-"), tf.constant(["c", "d"])], separator="+"),
    "reduce_join": tf.strings.reduce_join(tf.constant([["a", "b"], ["c", "d"]]), axis=1, separator=","),
    "reduce_join0": tf.strings.reduce_join(tf.constant([["a", "b"], ["c", "d"]]), axis=0, keepdims=True),
    "reduce_join_all": tf.strings.reduce_join(tf.constant([["a", "b"], ["c", "d"]]), separator="|"),
    "length": tf.strings.length(s),
    "length_utf8": tf.strings.length(s, unit="UTF8_CHAR"),
    "substr": tf.strings.substr(tf.constant(["hello", "ab"]), 1, 3),
    "substr_neg": tf.strings.substr(tf.constant(["hello", "abc"]), -2, 5),
    "strip": tf.strings.strip(s),
    "to_number": tf.strings.to_number(tf.constant(["1.5", " -2e3 ", "inf", "+7"])),
    "to_number_i64": tf.strings.to_number(tf.constant(["12", "-9000000000"]), out_type=tf.int64),
    "as_string_f": tf.strings.as_string(tf.constant([3.5, -0.25, 1e10])),
    "as_string_p": tf.strings.as_string(tf.constant([3.14159]), precision=2),
    "as_string_sci": tf.strings.as_string(tf.constant([1234.5]), scientific=True),
    "as_string_short": tf.strings.as_string(tf.constant([0.1, 1e-7, 100.0]), shortest=True),
    "as_string_i": tf.strings.as_string(tf.constant([7, -12]), width=5, fill="0"),
    "as_string_b": tf.strings.as_string(tf.constant([True, False])),
    "hash": tf.strings.to_hash_bucket_fast(tf.constant(["", "a", "hello", "TensorFlow", "x" * 100]), 1000),
    "hash_big": tf.strings.to_hash_bucket_fast(tf.constant(["a", "hello"]), 2**62),
    "bytes_split": tf.strings.bytes_split(tf.constant(["ab", "", "é"])),
    "ngrams2": tf.strings.ngrams(tf.ragged.constant([["a", "b", "c"], ["d"], []]), 2),
    "ngrams12": tf.strings.ngrams(tf.ragged.constant([["a", "b", "c"], ["d"]]), [1, 2], separator="_"),
    "ngrams_pad": tf.strings.ngrams(tf.ragged.constant([["a", "b"], ["c"]]), 3, pad_values=("<s>", "</s>")),
    "ngrams_pad1": tf.strings.ngrams(tf.ragged.constant([["a", "b"], ["c"]]), 3, pad_values=("L", "R"), padding_width=1),
    "ngrams_short": tf.strings.ngrams(tf.ragged.constant([["a", "b"], ["c", "d", "e"], []]), 3, preserve_short_sequences=True),
}
for name, value in cases.items():
    if isinstance(value, tf.RaggedTensor):
        print(f"{name}: values={value.values.numpy().tolist()} row_splits={value.row_splits.numpy().tolist()}")
    else:
        v = value.numpy()
        print(f"{name}: {v.tolist() if hasattr(v, 'tolist') else v}")

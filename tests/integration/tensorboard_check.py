"""Loads the log directory written by summary_log_writer with TensorBoard's own loaders and checks
every value against an independent computation.

Two loaders are used: the classic EventAccumulator (tensorboard.backend.event_processing.
event_accumulator) and the data provider behind TensorBoard's dashboards (plugin event
multiplexer + MultiplexerDataProvider), which applies TensorBoard's own data-class checks: what it
returns is what the Scalars, Histograms, Images and Text dashboards show.

usage: tensorboard_check.py LOGDIR
"""
import struct
import sys
import zlib

import numpy as np
from tensorboard import context
from tensorboard.backend.event_processing import data_provider
from tensorboard.backend.event_processing import event_accumulator as ea
from tensorboard.backend.event_processing import plugin_event_multiplexer
from tensorboard.plugins.histogram import summary_v2 as histogram_summary
from tensorboard.util import tensor_util

failures = []


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)


def decode_png(data):
    """A small PNG decoder (8-bit, non-interlaced), independent of libpng."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG signature"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        assert zlib.crc32(kind + body) == crc, "bad chunk CRC"
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, color, _, _, interlace = header
    assert depth == 8 and interlace == 0
    channels = {0: 1, 4: 2, 2: 3, 6: 4}[color]
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, channels, b"".join(rows)


def expected_weights(step):
    i = np.arange(1000, dtype=np.int64)
    return ((i * 37 + step * 11) % 101) / 4.0 - 10


def tensor_values(acc, tag):
    return [(e.step, tensor_util.make_ndarray(e.tensor_proto).item()) for e in acc.Tensors(tag)]


def check_in_function_and_keras(logdir, provider, ctx):
    # --- 3. Summaries written from inside a traced function, and its graph via trace_export.
    fn = ea.EventAccumulator(logdir + "/in_function", size_guidance={ea.TENSORS: 0})
    fn.Reload()
    check(tensor_values(fn, "x_squared") == [(s, float(s * s)) for s in range(5)],
          "in_function/x_squared: one value per call of the traced function")
    tagged = provider.list_blob_sequences(ctx, experiment_id="",
                                          plugin_name="graph_run_metadata_graph")
    entry = tagged.get("in_function", {}).get("f_trace")
    check(entry is not None and entry.plugin_content == b"1",
          "Graphs dashboard: trace_export's tag f_trace with version b'1'")
    seqs = provider.read_blob_sequences(ctx, experiment_id="",
                                        plugin_name="graph_run_metadata_graph", downsample=10)
    values = seqs.get("in_function", {}).get("f_trace", [])
    if values:
        from tensorboard.compat.proto import config_pb2
        from tensorboard.plugins.graph import graph_util
        raw = provider.read_blob(ctx, blob_key=values[0].values[0].blob_key)
        run_metadata = config_pb2.RunMetadata.FromString(raw)
        merged = graph_util.merge_graph_defs(
            [f.pre_optimization_graph for f in run_metadata.function_graphs])
        ops = {n.op for n in merged.node}
        check(len(run_metadata.function_graphs) == 1 and {"Mul", "WriteSummary"} <= ops,
              "trace_export: RunMetadata with the function graph (ops %s)" % sorted(ops))
    else:
        check(False, "trace_export blob sequence readable")

    # --- 4. A Keras fit logged by the TensorBoard callback (tf.keras tags and steps).
    train = ea.EventAccumulator(logdir + "/keras/train", size_guidance={ea.TENSORS: 0})
    train.Reload()
    val = ea.EventAccumulator(logdir + "/keras/validation", size_guidance={ea.TENSORS: 0})
    val.Reload()
    tags = set(train.Tags()["tensors"])
    check({"epoch_loss", "epoch_mae", "batch_loss", "batch_mae", "dense/kernel/histogram",
           "dense/bias/histogram"} <= tags, "keras/train tags %s" % sorted(tags))
    epoch_loss = tensor_values(train, "epoch_loss")
    batch_loss = tensor_values(train, "batch_loss")
    check([s for s, _ in epoch_loss] == [0, 1], "keras/train epoch_loss at epochs 0, 1")
    check([s for s, _ in batch_loss] == [2, 4], "keras/train batch_loss every 2 steps")
    check(batch_loss[-1][1] == epoch_loss[-1][1],
          "the last batch_loss is the epoch's running mean, epoch_loss")
    hist = train.Tensors("dense/kernel/histogram")
    check([e.step for e in hist] == [0, 1] and
          tensor_util.make_ndarray(hist[0].tensor_proto)[:, 2].sum() == 2,
          "keras/train kernel histograms per epoch, 2 weights counted")
    check(train.Tags()["graph"], "keras/train has the train step's graph")
    val_loss = tensor_values(val, "epoch_loss")
    evaluation = tensor_values(val, "evaluation_loss_vs_iterations")
    check([s for s, _ in val_loss] == [0, 1] and [s for s, _ in evaluation] == [2, 4],
          "keras/validation epoch_loss per epoch, evaluation_loss_vs_iterations per 2 steps")
    check([v for _, v in val_loss] == [v for _, v in evaluation],
          "validation epoch_loss equals evaluation_loss_vs_iterations")


def main(logdir):
    # --- 1. The classic EventAccumulator, run by run.
    train = ea.EventAccumulator(logdir + "/train", size_guidance={ea.TENSORS: 0})
    train.Reload()
    check(train.file_version == 2.0, "file_version brain.Event:2 (got %r)" % train.file_version)
    check(sorted(train.Tags()["tensors"]) == ["accuracy", "loss", "notes", "samples", "weights"],
          "train tags %s" % sorted(train.Tags()["tensors"]))
    loss = train.Tensors("loss")
    check([e.step for e in loss] == list(range(20)), "train/loss steps 0..19")
    check(all(tensor_util.make_ndarray(e.tensor_proto).dtype == np.float32 and
              tensor_util.make_ndarray(e.tensor_proto).shape == () and
              tensor_util.make_ndarray(e.tensor_proto) == np.float32(1.0 / (e.step + 1))
              for e in loss), "train/loss values 1/(step+1) as rank-0 float32")
    check(train.SummaryMetadata("loss").summary_description == "training loss",
          "train/loss description")
    check(all(b.wall_time >= a.wall_time > 1.6e9 for a, b in zip(loss, loss[1:])),
          "wall times increase")
    acc = train.Tensors("accuracy")
    check([float(tensor_util.make_ndarray(e.tensor_proto)) for e in acc] ==
          [float(np.float32(s) / np.float32(20)) for s in range(20)], "train/accuracy values")
    for e in train.Tensors("weights"):
        got = tensor_util.make_ndarray(e.tensor_proto)
        want = tensor_util.make_ndarray(
            histogram_summary.histogram_pb("weights", expected_weights(e.step)).value[0].tensor)
        check(got.dtype == np.float64 and got.shape == (30, 3) and np.array_equal(got, want),
              "train/weights step %d equals TensorBoard's own bucketing" % e.step)
    check([e.step for e in train.Tensors("weights")] == [0, 10], "train/weights steps")
    check(train.SummaryMetadata("weights").plugin_data.plugin_name == "histograms",
          "histogram plugin")

    images = train.Tensors("samples")
    check([e.step for e in images] == [0, 1], "train/samples steps")
    s0 = list(images[0].tensor_proto.string_val)
    check(s0[:2] == [b"5", b"4"] and len(s0) == 4, "step 0: width 5, height 4, two images")
    rgb = bytes((i * 7) % 256 for i in range(2 * 4 * 5 * 3))
    for k, png in enumerate(s0[2:]):
        w, h, c, pixels = decode_png(png)
        check((w, h, c) == (5, 4, 3) and pixels == rgb[k * 60:(k + 1) * 60],
              "step 0 image %d: RGB pixels as written" % k)
    s1 = list(images[1].tensor_proto.string_val)
    w, h, c, pixels = decode_png(s1[2])
    want = bytes(min(255, int(np.float32(k / 8) * np.float32(255.5))) for k in range(9))
    check(s1[:2] == [b"3", b"3"] and (w, h, c) == (3, 3, 1) and pixels == want,
          "step 1: float gray image converted like convert_image_dtype")

    notes = train.Tensors("notes")
    check(tensor_util.make_ndarray(notes[0].tensor_proto).item() == b"hello **tfcc**",
          "train/notes step 0")
    check(list(tensor_util.make_ndarray(notes[1].tensor_proto)) == [b"a", b"b", b"c"],
          "train/notes step 1 (a rank-1 string tensor)")

    check(train.Tags()["graph"], "train has a graph")
    graph = train.Graph()
    nodes = {n.name: n for n in graph.node}
    check(sorted(nodes) == ["dense/BiasAdd", "dense/MatMul", "dense/Relu", "dense/bias",
                            "dense/kernel", "x"], "graph node names")
    check(nodes["dense/MatMul"].op == "MatMul" and
          list(nodes["dense/MatMul"].input) == ["x", "dense/kernel"], "MatMul op and inputs")
    check(list(nodes["dense/Relu"].input) == ["dense/BiasAdd", "^x"], "control input")
    check(nodes["x"].attr["dtype"].type == 1, "Placeholder dtype DT_FLOAT")
    check([d.size for d in nodes["dense/BiasAdd"].attr["_output_shapes"].list.shape[0].dim] ==
          [-1, 8], "_output_shapes of dense/BiasAdd")

    traced = ea.EventAccumulator(logdir + "/traced")
    traced.Reload()
    traced_graph = traced.Graph()
    ops = {n.name: n.op for n in traced_graph.node}
    check({"Placeholder", "MatMul", "Relu", "Identity"} <= set(ops.values()),
          "traced function graph ops (got %s)" % sorted(set(ops.values())))
    relu = [n for n in traced_graph.node if n.op == "Relu"][0]
    check(ops.get(relu.input[0]) == "MatMul", "traced graph: Relu reads MatMul")

    validation = ea.EventAccumulator(logdir + "/validation", size_guidance={ea.TENSORS: 0})
    validation.Reload()
    check([float(tensor_util.make_ndarray(e.tensor_proto)) for e in validation.Tensors("loss")] ==
          [2.0 - 0.25 * s for s in range(5)], "validation/loss values")

    # --- 2. What the dashboards read: the data provider over the plugin event multiplexer.
    mux = plugin_event_multiplexer.EventMultiplexer()
    mux.AddRunsFromDirectory(logdir)
    mux.Reload()
    provider = data_provider.MultiplexerDataProvider(mux, logdir)
    ctx = context.RequestContext()
    scalars = provider.read_scalars(ctx, experiment_id="", plugin_name="scalars", downsample=1000)
    check({"train", "validation"} <= set(scalars), "runs train and validation")
    check([(d.step, d.value) for d in scalars["train"]["loss"]] ==
          [(s, float(np.float32(1.0 / (s + 1)))) for s in range(20)],
          "Scalars dashboard: train/loss")
    check([(d.step, d.value) for d in scalars["validation"]["loss"]] ==
          [(s, 2.0 - 0.25 * s) for s in range(5)], "Scalars dashboard: validation/loss")
    hist = provider.read_tensors(ctx, experiment_id="", plugin_name="histograms", downsample=1000)
    check(len(hist["train"]["weights"]) == 2 and hist["train"]["weights"][1].numpy.shape == (30, 3),
          "Histograms dashboard: train/weights")
    blobs = provider.read_blob_sequences(ctx, experiment_id="", plugin_name="images",
                                         downsample=1000)
    seq = blobs["train"]["samples"]
    check(len(seq) == 2 and len(seq[0].values) == 4, "Images dashboard: two steps, 2 + 2 blobs")
    blob = provider.read_blob(ctx, blob_key=seq[0].values[2].blob_key)
    check(decode_png(blob)[3] == rgb[:60], "Images dashboard: first image's pixels")
    text = provider.read_tensors(ctx, experiment_id="", plugin_name="text", downsample=1000)
    check(text["train"]["notes"][0].numpy.item() == b"hello **tfcc**", "Text dashboard: notes")

    graphs = provider.read_blob_sequences(ctx, experiment_id="", plugin_name="graphs",
                                          downsample=1000)
    run_graph = graphs.get("train", {}).get("__run_graph__", [])
    check(len(run_graph) == 1 and len(run_graph[0].values) == 1, "Graphs dashboard: one graph")
    if run_graph:
        graph_bytes = provider.read_blob(ctx, blob_key=run_graph[0].values[0].blob_key)
        from tensorboard.compat.proto import graph_pb2
        parsed = graph_pb2.GraphDef.FromString(graph_bytes)
        check(len(parsed.node) == 6, "Graphs dashboard: GraphDef parses with six nodes")

    check_in_function_and_keras(logdir, provider, ctx)

    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("all TensorBoard checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

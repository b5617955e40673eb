#!/usr/bin/env python3
"""PyTorch 2.x (pip) and ONNX Runtime side of the benchmark suite (suite_run.sh): the models of
suite_models.h in PyTorch, trained with a plain loop (Adam, cross-entropy from logits) eagerly and
under torch.compile, the faster reported; inference eagerly (inference_mode), under
torch.compile and, converted with torch.onnx.export, in ONNX Runtime (its own record).

  python suite_peers_torch.py --train resnet|gru|lstm|transformer|mlp [--threads 2] [--seconds 5]
  python suite_peers_torch.py --infer cnn|resnet [--batches 1,64]
  (each with --json OUT; SUITE_TORCH_COMPILE=0 skips torch.compile)
"""
import os
import sys
import tempfile
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

try:
    import onnxruntime as ort
except ImportError:  # the ONNX Runtime records are left out
    ort = None

from suite_common import TRAIN_BATCH, Records, parse_args, steps_per_s  # noqa: E402

COMPILE = os.environ.get("SUITE_TORCH_COMPILE", "1") != "0"


def conv_bn(cin, cout, k, stride):
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, padding=k // 2, bias=False),
                         nn.BatchNorm2d(cout, eps=1e-3, momentum=0.01))


class Block(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.a, self.b = conv_bn(cin, cout, 3, stride), conv_bn(cout, cout, 3, 1)
        self.short = conv_bn(cin, cout, 1, stride) if stride == 2 else nn.Identity()

    def forward(self, x):
        return F.relu(self.short(x) + self.b(F.relu(self.a(x))))


def resnet():
    blocks, cin = [conv_bn(1, 32, 3, 1), nn.ReLU()], 32
    for filters in (32, 64, 128):
        for block in range(2):
            blocks.append(Block(cin, filters, 2 if block == 0 and filters != 32 else 1))
            cin = filters
    return nn.Sequential(*blocks, nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(128, 10))


def seed_cnn():
    return nn.Sequential(nn.Conv2d(1, 32, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                         nn.Dropout(0.1), nn.Linear(32 * 13 * 13, 64), nn.ReLU(),
                         nn.BatchNorm1d(64, eps=1e-3, momentum=0.01), nn.Linear(64, 10))


class Recurrent(nn.Module):
    def __init__(self, kind):
        super().__init__()
        self.emb = nn.Embedding(50, 64)
        self.rnn = (nn.GRU if kind == "gru" else nn.LSTM)(64, 64, batch_first=True)
        self.out = nn.Linear(64, 2)

    def forward(self, ids):
        h, _ = self.rnn(self.emb(ids))
        return self.out(h[:, -1])


class Transformer(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(1000, 128)
        layer = nn.TransformerEncoderLayer(128, 4, 512, dropout=0.0, batch_first=True,
                                           layer_norm_eps=1e-3)
        self.enc = nn.TransformerEncoder(layer, 4, enable_nested_tensor=False)
        self.out = nn.Linear(128, 2)

    def forward(self, ids):
        return self.out(self.enc(self.emb(ids)).mean(1))


def train_model(name):
    """The model and 16 batches of random data (NCHW images)."""
    g = torch.Generator().manual_seed(42)
    n = 16 * TRAIN_BATCH[name]
    if name == "resnet":
        return resnet(), torch.rand(n, 1, 28, 28, generator=g), torch.randint(0, 10, (n,))
    if name in ("gru", "lstm"):
        return Recurrent(name), torch.randint(0, 50, (n, 30)), torch.randint(0, 2, (n,))
    if name == "transformer":
        return Transformer(), torch.randint(0, 1000, (n, 128)), torch.randint(0, 2, (n,))
    mlp = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(),
                        nn.Linear(512, 10))
    return mlp, torch.rand(n, 784, generator=g), torch.randint(0, 10, (n,))


def configs():
    return ["eager", "compile"] if COMPILE else ["eager"]


def train(a, rec):
    batch = TRAIN_BATCH[a.train]
    best = None
    for config in configs():
        torch.manual_seed(42)
        model, x, y = train_model(a.train)
        opt = torch.optim.Adam(model.parameters(), lr=1e-3, eps=1e-7)
        fwd = torch.compile(model) if config == "compile" else model
        xs, ys = torch.split(x, batch), torch.split(y, batch)
        state = {"i": 0}

        def run(n):
            for _ in range(n):
                i = state["i"] = (state["i"] + 1) % len(xs)
                loss = F.cross_entropy(fwd(xs[i]), ys[i])
                opt.zero_grad(set_to_none=True)
                loss.backward()
                opt.step()

        try:
            rate = steps_per_s(run, a.seconds) * batch
        except Exception as e:  # torch.compile may be unavailable (no compiler): eager stands
            print(f"pytorch {config} failed: {type(e).__name__}: {e}", file=sys.stderr)
            continue
        print(f"  pytorch {config}: {rate:.4g} samples/s", flush=True)
        if best is None or rate > best[0]:
            best = (rate, config)
    if best:
        rec.add(a.train, "train", batch, best[0], "samples/s", best[1])


def onnx_session(model, x, threads):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "m.onnx")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                torch.onnx.export(model, (x,), path, input_names=["x"], dynamo=False)
            except Exception:  # the TorchScript exporter may be gone: the dynamo one
                torch.onnx.export(model, (x,), path, input_names=["x"], dynamo=True)
        so = ort.SessionOptions()
        so.intra_op_num_threads, so.inter_op_num_threads = threads, 1
        return ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])


def infer(a, rec):
    torch.manual_seed(42)
    model = (seed_cnn() if a.infer == "cnn" else resnet()).eval()
    for b in a.batches:
        x = torch.rand(b, 1, 28, 28)
        best = None
        with torch.inference_mode():
            for config in configs():
                fwd = torch.compile(model) if config == "compile" else model
                try:
                    rate = steps_per_s(lambda n: [fwd(x) for _ in range(n)], a.seconds) * b
                except Exception as e:
                    print(f"pytorch {config} failed: {type(e).__name__}: {e}", file=sys.stderr)
                    continue
                print(f"  pytorch {config} batch {b}: {rate:.4g} samples/s", flush=True)
                if best is None or rate > best[0]:
                    best = (rate, config)
        if best:
            rec.add(a.infer, "infer", b, best[0], "samples/s", best[1])
        if ort is None:
            continue
        try:
            sess, feed = onnx_session(model, x, a.threads), {"x": x.numpy()}
            rate = steps_per_s(lambda n: [sess.run(None, feed) for _ in range(n)], a.seconds) * b
            rec.add(a.infer, "infer", b, rate, "samples/s", "torch.onnx.export",
                    framework="onnxruntime", version=ort.__version__)
        except Exception as e:
            print(f"onnxruntime failed: {type(e).__name__}: {e}", file=sys.stderr)


def main():
    a = parse_args(__doc__)
    if a.saved_model:
        sys.exit("suite_peers_torch.py: --saved-model is TensorFlow's (suite_peers_tf.py)")
    torch.set_num_threads(a.threads)
    rec = Records("pytorch", torch.__version__)
    np.random.seed(42)
    train(a, rec) if a.train else infer(a, rec)
    rec.write(a.json)


if __name__ == "__main__":
    main()

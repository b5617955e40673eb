"""benchmarks/suite_report.py grades the benchmark suite: medians over rounds, tfcc against the
fastest peer, busy slowdowns against TensorFlow's and the 2x ceiling, and n/a (never PASS) where a
figure is missing. Fed hand-made records here; no timing involved.

    python3 tests/benchmarks/suite_report_test.py
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

REPORT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "benchmarks",
                      "suite_report.py")


def rec(fw, workload, kind, batch, value, config=""):
    return {"framework": fw, "workload": workload, "kind": kind, "batch": batch, "value": value,
            "unit": "samples/s", "config": config, "version": "1"}


class SuiteReportTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        os.makedirs(os.path.join(self.dir.name, "raw"))

    def tearDown(self):
        self.dir.cleanup()

    def write(self, name, data):
        with open(os.path.join(self.dir.name, "raw", name + ".json"), "w") as f:
            json.dump(data, f)

    def report(self):
        out = subprocess.run([sys.executable, REPORT, self.dir.name], check=True,
                             capture_output=True, text=True).stdout
        return {"/".join(c.strip() for c in line.split("|")[1:4]):
                [c.strip() for c in line.split("|")[1:-1]]
                for line in out.splitlines() if line.startswith("| ") and "---" not in line}, out

    def test_medians_ratio_and_targets(self):
        # GRU, 2 threads: tfcc rounds 300/310/320 (median 310), TF 100, PyTorch 200/190/210.
        for r, (t, p) in enumerate([(300, 200), (310, 190), (320, 210)], 1):
            self.write(f"quiet.t2.train.gru.tfcc.r{r}", [rec("tfcc", "gru", "train", 64, t)])
            self.write(f"quiet.t2.train.gru.pytorch.r{r}",
                       [rec("pytorch", "gru", "train", 64, p, "eager")])
            self.write(f"quiet.t2.train.gru.tensorflow.r{r}",
                       [rec("tensorflow", "gru", "train", 64, 100)])
        # Busy: tfcc 310 -> 155 (2.0x), TensorFlow 100 -> 40 (2.5x).
        self.write("busy.t2.train.gru.tfcc.r1", [rec("tfcc", "gru", "train", 64, 155)])
        self.write("busy.t2.train.gru.tensorflow.r1", [rec("tensorflow", "gru", "train", 64, 40)])
        rows, _ = self.report()
        row = rows["Embedding + GRU/64/2"]
        self.assertEqual(row[3], "310")        # tfcc median
        self.assertEqual(row[5], "200 (eager)")
        self.assertEqual(row[7], "1.55x")      # 310 / 200
        self.assertEqual(row[9], "PASS")       # >= 1.5x
        self.assertEqual(row[11], "2.00x")
        self.assertEqual(row[12], "2.50x")
        self.assertEqual(row[13], "PASS")      # 2.0 <= 2.5 and <= 2

    def test_failures_and_missing_figures(self):
        # Inference: ONNX Runtime faster than tfcc fails the 1.0x target; busy slowdown above
        # TensorFlow's fails; a workload with no peer is n/a, not PASS.
        self.write("quiet.t1.infer.cnn.tfcc.r1", [rec("tfcc", "cnn", "infer", 1, 900),
                                                  rec("tfcc", "cnn", "infer", 64, 5000)])
        self.write("quiet.t1.infer.cnn.pytorch.r1",
                   [rec("pytorch", "cnn", "infer", 1, 500), rec("onnxruntime", "cnn", "infer",
                                                                1, 1000)])
        self.write("quiet.t1.infer.cnn.tensorflow.r1", [rec("tensorflow", "cnn", "infer", 1, 100)])
        self.write("busy.t1.infer.cnn.tfcc.r1", [rec("tfcc", "cnn", "infer", 1, 600)])
        self.write("busy.t1.infer.cnn.tensorflow.r1", [rec("tensorflow", "cnn", "infer", 1, 80)])
        self.write("quiet.t1.train.mlp.tfcc.r1", [rec("tfcc", "mlp", "train", 128, 1000)])
        rows, out = self.report()
        self.assertEqual(rows["cnn inference/1/1"][7], "0.90x")
        self.assertEqual(rows["cnn inference/1/1"][9], "FAIL")
        self.assertEqual(rows["cnn inference/1/1"][13], "FAIL")   # 1.5x > TensorFlow's 1.25x
        self.assertEqual(rows["MLP 784-512-512-10/128/1"][9], "n/a")
        self.assertIn("0 PASS, 2 FAIL (of 2 graded cells)", out)

    def test_fit_bench_json_and_saved_models(self):
        # fit_cnn_bench / fit_peers.py write one dict; the SavedModel section its own records.
        self.write("quiet.t1.train.cnn.tfcc.r1", {"framework": "tfcc", "samples_per_s": 3000})
        self.write("quiet.t1.train.cnn.tensorflow.r1",
                   {"framework": "tensorflow", "samples_per_s": 1000, "version": "2.21.0"})
        self.write("savedmodel.lstm.tfcc", [rec("tfcc", "lstm", "load", 0, 0.05),
                                            rec("tfcc", "lstm", "infer", 64, 6000)])
        self.write("savedmodel.lstm.tensorflow", [rec("tensorflow", "lstm", "load", 0, 0.5),
                                                  rec("tensorflow", "lstm", "infer", 64, 3000)])
        rows, out = self.report()
        self.assertEqual(rows["seed CNN fit/64/1"][7], "3.00x")
        self.assertEqual(rows["seed CNN fit/64/1"][9], "PASS")
        sm = next(line for line in out.splitlines() if line.startswith("| lstm |"))
        cells = [c.strip() for c in sm.split("|")[1:-1]]
        self.assertEqual(cells[1:4], ["0.050", "0.500", "10.00x"])
        self.assertEqual(cells[-3:], ["6,000", "3,000", "2.00x"])

    def test_saved_models_alone_take_the_median_of_the_rounds(self):
        # `TRAIN= INFER=` runs only the SavedModel section, one record file per round.
        for r, (a, b) in enumerate([(5000, 3000), (7000, 2000), (6000, 9000)], start=1):
            self.write(f"savedmodel.cnn.r{r}.tfcc", [rec("tfcc", "cnn", "infer", 64, a)])
            self.write(f"savedmodel.cnn.r{r}.tensorflow", [rec("tensorflow", "cnn", "infer", 64, b)])
        _, out = self.report()
        self.assertNotIn("graded cells", out)
        sm = next(line for line in out.splitlines() if line.startswith("| cnn |"))
        self.assertEqual([c.strip() for c in sm.split("|")[1:-1]][-3:], ["6,000", "3,000", "2.00x"])


if __name__ == "__main__":
    unittest.main()

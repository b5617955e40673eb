"""Prints the reference values of keras3_metrics_test.cc (Keras 3.15.1, TensorFlow 2.21 CPU).

Run with a Python that has Keras 3 (e.g. /work/tf-venv/bin/python); each line is
`case: v0, v1, ...` with the metric's result after each step of the case, as float32 printed
with 9 significant digits. The C++ test embeds these numbers; rerun this script after changing
an input there and paste the new values.
"""

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import keras  # noqa: E402

M = keras.metrics


def run(name, metric, steps):
    """steps: (y_true, y_pred, sample_weight) to update with, or "reset"."""
    out = []
    for step in steps:
        if step == "reset":
            metric.reset_state()
            continue
        y, p, w = step
        metric.update_state(np.array(y), np.array(p), None if w is None else np.array(w))
        r = np.asarray(metric.result(), dtype=np.float32).reshape(-1)
        out.extend(float(x) for x in r)
    print(f"{name}: " + ", ".join(f"{x:.9g}" for x in out))


# IoU family: labels / predictions / weights over two batches, a reset, one more batch.
iou_y1 = [0, 1, 2, 2, 1, 0]
iou_p1 = [0, 2, 2, 1, 1, 0]
iou_w1 = [1.0, 2.0, 1.0, 3.0, 1.0, 0.0]
iou_y2 = [[2, 0], [1, 1]]
iou_p2 = [[2, 1], [1, 0]]
iou_w2 = [[1.0, 1.0], [2.0, 1.0]]
iou_steps = [
    (iou_y1, iou_p1, iou_w1),
    (iou_y2, iou_p2, iou_w2),
    "reset",
    (iou_y1, iou_p1, None),
]
run("mean_iou_int", M.MeanIoU(num_classes=3), iou_steps)
frac = [
    (iou_y1, iou_p1, [0.5, 1.5, 1.0, 2.5, 0.25, 1.0]),
    (iou_y2, iou_p2, [[0.3, 0.7], [1.2, 0.9]]),
]
run("mean_iou_int_frac", M.MeanIoU(num_classes=3), frac)
run("mean_iou_float_frac", M.MeanIoU(num_classes=3, dtype="float32"), frac)
ignore = [
    ([0, 1, 255, 2, 1, 0], [0, 2, 2, 3, -1, 0], [1.0, 2.0, 1.0, 3.0, 1.0, 1.0]),
    ([255, 2, 2], [1, 2, 0], None),
]
run("mean_iou_ignore", M.MeanIoU(num_classes=3, ignore_class=255, dtype="float32"), ignore)
run("iou_0_2", M.IoU(num_classes=3, target_class_ids=[0, 2], dtype="float32"), frac)
run("iou_1", M.IoU(num_classes=3, target_class_ids=[1]), iou_steps)
bin_steps = [
    ([0, 1, 0, 1, 1], [0.1, 0.2, 0.4, 0.7, 0.3], [0.2, 0.3, 0.4, 0.1, 1.0]),
    ([[1, 0], [0, 1]], [[0.9, 0.3], [0.05, 0.31]], None),
]
run("binary_iou_float", M.BinaryIoU(target_class_ids=[0, 1], threshold=0.3, dtype="float32"),
    bin_steps)
run("binary_iou_int_1", M.BinaryIoU(target_class_ids=[1]), bin_steps)
oh_y1 = [[0, 0, 1], [1, 0, 0], [0, 1, 0], [1, 0, 0]]
oh_p1 = [[0.1, 0.2, 0.7], [0.2, 0.7, 0.1], [0.1, 0.6, 0.3], [0.5, 0.4, 0.1]]
oh_y2 = [[0, 1, 0], [0, 0, 1]]
oh_p2 = [[0.3, 0.3, 0.4], [0.2, 0.1, 0.7]]
oh_steps = [(oh_y1, oh_p1, [1.0, 2.0, 1.0, 3.0]), (oh_y2, oh_p2, [2.0, 1.0])]
run("one_hot_iou_0_1", M.OneHotIoU(num_classes=3, target_class_ids=[0, 1], dtype="float32"),
    oh_steps)
run("one_hot_mean_iou", M.OneHotMeanIoU(num_classes=3), oh_steps)

# F-scores: multi-label targets [batch, 3], probabilities, per-sample weights.
f_y1 = [[1, 0, 1], [0, 1, 0], [1, 1, 0], [0, 0, 1]]
f_p1 = [[0.7, 0.2, 0.6], [0.1, 0.8, 0.3], [0.4, 0.45, 0.1], [0.3, 0.3, 0.2]]
f_y2 = [[0, 1, 1], [1, 0, 0]]
f_p2 = [[0.2, 0.9, 0.9], [0.6, 0.1, 0.55]]
f_steps = [(f_y1, f_p1, [1.0, 0.5, 2.0, 1.0]), (f_y2, f_p2, [1.0, 3.0]), "reset",
           (f_y2, f_p2, None)]
run("f1_none", M.F1Score(), f_steps)
run("f1_macro_t05", M.F1Score(average="macro", threshold=0.5), f_steps)
run("fbeta2_micro", M.FBetaScore(average="micro", beta=2.0), f_steps)
run("fbeta05_weighted_t04", M.FBetaScore(average="weighted", beta=0.5, threshold=0.4), f_steps)

# R2Score: two outputs.
r_y1 = [[1.0, 2.0], [2.0, 0.5], [3.0, 1.0], [4.0, 3.0]]
r_p1 = [[1.1, 1.5], [1.8, 0.7], [3.3, 1.2], [3.6, 2.0]]
r_y2 = [[0.5, 1.5], [5.0, 2.5]]
r_p2 = [[1.0, 1.0], [4.5, 2.0]]
r_steps = [(r_y1, r_p1, [1.0, 2.0, 0.5, 1.0]), (r_y2, r_p2, None), "reset", (r_y1, r_p1, None)]
run("r2_uniform", M.R2Score(), r_steps)
run("r2_variance", M.R2Score(class_aggregation="variance_weighted_average"), r_steps)
run("r2_none", M.R2Score(class_aggregation=None), r_steps)
run("r2_adjusted", M.R2Score(num_regressors=2), r_steps)
run("r2_adjusted_fallback", M.R2Score(num_regressors=7), r_steps[:1])

# Confusion counts: probabilities (and values outside [0, 1], which Keras 3 does not reject).
c_y1 = [1, 0, 1, 1, 0, 0]
c_p1 = [0.9, 0.6, 0.5, 0.2, 0.1, 0.75]
c_w1 = [1.0, 2.0, 0.5, 1.0, 3.0, 1.0]
c_y2 = [[1, 0], [0, 1]]
c_p2 = [[1.5, -0.2], [0.25, 0.0]]
c_steps = [(c_y1, c_p1, c_w1), (c_y2, c_p2, None), "reset", (c_y1, c_p1, None)]
for cls, key in [(M.TruePositives, "tp"), (M.TrueNegatives, "tn"), (M.FalsePositives, "fp"),
                 (M.FalseNegatives, "fn")]:
    run(f"{key}_default", cls(), c_steps)
    run(f"{key}_three", cls(thresholds=[0.25, 0.5, 0.75]), c_steps)
    run(f"{key}_even", cls(thresholds=[0.0, 0.5, 1.0]), c_steps)

# Rate at rate: binary labels and scores, then class_id on [batch, 2] with per-sample weights.
s_y1 = [0, 0, 1, 1, 1, 0, 1, 0]
s_p1 = [0.1, 0.4, 0.35, 0.8, 0.5, 0.55, 0.9, 0.2]
s_w1 = [1.0, 2.0, 1.0, 0.5, 1.0, 1.0, 2.0, 1.0]
s_y2 = [1, 0, 0, 1]
s_p2 = [0.6, 0.7, 0.05, 0.3]
s_steps = [(s_y1, s_p1, s_w1), (s_y2, s_p2, None), "reset", (s_y1, s_p1, None)]
run("sens_at_spec_08", M.SensitivityAtSpecificity(0.8), s_steps)
run("spec_at_sens_07", M.SpecificityAtSensitivity(0.7), s_steps)
run("prec_at_rec_06", M.PrecisionAtRecall(0.6), s_steps)
run("rec_at_prec_075", M.RecallAtPrecision(0.75), s_steps)
run("rec_at_prec_n1", M.RecallAtPrecision(0.5, num_thresholds=1), s_steps)
run("sens_at_spec_n7", M.SensitivityAtSpecificity(0.5, num_thresholds=7), s_steps)
k_y = [[0, 1], [1, 0], [0, 1], [1, 0]]
k_p = [[0.3, 0.7], [0.6, 0.4], [0.8, 0.2], [0.45, 0.55]]
run("prec_at_rec_class1", M.PrecisionAtRecall(0.5, class_id=1),
    [(k_y, k_p, [1.0, 2.0, 0.5, 1.0])])

# SparseTopKCategoricalAccuracy with sorted ids.
t_y = [2, 0, 3, 1]
t_ids = [[2, 1, 0, 3], [1, 3, 0, 2], [0, 1, 2, 3], [1, 1, 2, 0]]
run("sparse_top2_sorted",
    M.SparseTopKCategoricalAccuracy(k=2, from_sorted_ids=True),
    [(t_y, t_ids, [1.0, 2.0, 1.0, 0.5]), (t_y, t_ids, None)])
run("sparse_top3_sorted", M.SparseTopKCategoricalAccuracy(k=3, from_sorted_ids=True),
    [(t_y, t_ids, None)])

# Precision / Recall / AUC on values outside [0, 1] and exactly on thresholds (Keras 3 neither
# asserts probabilities nor compares evenly spaced thresholds one by one).
a_y = [0, 1, 0, 1, 1, 0, 1]
a_p = [0.0, 0.25, 0.5, 0.75, 1.0, 1.2, -0.1]
run("precision_out_of_range", M.Precision(), [([0, 1, 1, 0, 1], [0.0, 1.0, 2.0, 0.0, 0.0], None)])
run("recall_even_thresholds", M.Recall(thresholds=[0.0, 0.25, 0.5, 0.75, 1.0]),
    [(a_y, a_p, [1.0, 2.0, 1.0, 0.5, 1.0, 1.0, 2.0])])
run("auc_roc_5", M.AUC(num_thresholds=5), [(a_y, a_p, [1.0, 2.0, 1.0, 0.5, 1.0, 1.0, 2.0])])
run("auc_pr_5", M.AUC(num_thresholds=5, curve="PR"), [(a_y, a_p, None)])

"""Writes keras3_trajectories.json: optimizer trajectories computed by Keras 3.

Each case serializes a Keras 3 optimizer, applies a few steps of fixed gradients to two float32
variables (a vector and a 2x3 matrix, so that Adafactor's factored path runs) and records the
variables after every step, the optimizer's variables at the end (Keras 3's order, learning rate
included) and, with use_ema, the weights finalize_variable_values leaves. trajectory_test.cc
rebuilds each optimizer from the serialized config with tfcc and compares.

Run with the venv holding Keras 3 (keras 3.15.1 made the checked-in file):
    /work/tf-venv/bin/python keras3_trajectories.py
"""
import json
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import keras  # noqa: E402
import numpy as np  # noqa: E402

O = keras.optimizers
S = keras.optimizers.schedules

W0 = np.array([1.0, -2.0], np.float32)
K0 = np.array([[0.5, -1.0, 1.5], [2.0, -0.5, 0.25]], np.float32)
GRADS = [
    (np.array([0.1, -0.2], np.float32),
     np.array([[0.3, -0.1, 0.05], [-0.4, 0.2, 0.6]], np.float32)),
    (np.array([0.5, 0.05], np.float32),
     np.array([[-0.2, 0.7, 0.1], [0.3, -0.05, 0.2]], np.float32)),
    (np.array([-0.3, 0.4], np.float32),
     np.array([[0.1, 0.1, -0.6], [0.25, 0.5, -0.3]], np.float32)),
    (np.array([0.2, -0.1], np.float32),
     np.array([[0.05, -0.3, 0.4], [-0.1, 0.2, 0.15]], np.float32)),
    (np.array([0.0, 0.3], np.float32),
     np.array([[0.2, 0.0, -0.1], [0.1, -0.2, 0.3]], np.float32)),
]


def cases():
    return {
        "lion": O.Lion(learning_rate=0.01),
        "lion_betas_weight_decay_clipnorm": O.Lion(learning_rate=0.02, beta_1=0.8, beta_2=0.95,
                                                   weight_decay=0.1, clipnorm=0.3),
        "lamb": O.Lamb(learning_rate=0.05),
        "lamb_global_clipnorm_weight_decay": O.Lamb(learning_rate=0.1, beta_1=0.8, beta_2=0.9,
                                                    epsilon=1e-4, weight_decay=0.05,
                                                    global_clipnorm=0.5),
        "adafactor": O.Adafactor(),
        "adafactor_absolute_step": O.Adafactor(learning_rate=0.05, relative_step=False,
                                               beta_2_decay=-0.6, epsilon_2=0.01,
                                               clip_threshold=0.5),
        "adafactor_schedule": O.Adafactor(learning_rate=S.ExponentialDecay(0.5, 2, 0.5)),
        "adam_ema": O.Adam(learning_rate=0.1, use_ema=True, ema_momentum=0.8),
        "sgd_ema_overwrite": O.SGD(learning_rate=0.1, momentum=0.5, use_ema=True,
                                   ema_momentum=0.7, ema_overwrite_frequency=2),
        "adam_accumulation": O.Adam(learning_rate=0.1, gradient_accumulation_steps=2,
                                    weight_decay=0.1, clipvalue=0.2),
        "nadam_accumulation_ema": O.Nadam(learning_rate=0.05, gradient_accumulation_steps=3,
                                          use_ema=True),
        "sgd_loss_scale_factor": O.SGD(learning_rate=0.1, loss_scale_factor=8.0),
        "rmsprop_weight_decay_clipvalue": O.RMSprop(learning_rate=0.01, weight_decay=0.2,
                                                    clipvalue=0.25),
        "adagrad_weight_decay_global_clipnorm": O.Adagrad(learning_rate=0.1, weight_decay=0.05,
                                                          global_clipnorm=0.4),
        "loss_scale_optimizer": O.LossScaleOptimizer(O.SGD(learning_rate=0.1, momentum=0.5),
                                                     initial_scale=4.0, dynamic_growth_steps=2),
        "loss_scale_optimizer_non_finite": O.LossScaleOptimizer(
            O.Adam(learning_rate=0.1, use_ema=True), initial_scale=16.0, dynamic_growth_steps=2),
    }


# Gradients with a NaN (step 2) and an infinity (step 4): LossScaleOptimizer skips those steps.
def grads_of(name):
    if not name.endswith("non_finite"):
        return GRADS
    grads = [(gw.copy(), gk.copy()) for gw, gk in GRADS]
    grads[1][0][1] = np.nan
    grads[3][1][0, 2] = np.inf
    return grads


def flat(x):
    return [float(v) for v in np.asarray(x).reshape(-1)]


def run(opt, grads):
    config = keras.saving.serialize_keras_object(opt)
    w = keras.Variable(W0, name="w")
    k = keras.Variable(K0, name="k")
    after = []
    for gw, gk in grads:
        opt.apply_gradients([(gw, w), (gk, k)])
        after.append([flat(w.numpy()), flat(k.numpy())])
    out = {
        "optimizer": config,
        "after": after,
        "grads": [[flat(gw), flat(gk)] for gw, gk in grads],
        "optimizer_variables": [
            {"shape": list(v.shape), "dtype": str(v.dtype), "value": flat(v.numpy())}
            for v in opt.variables
        ],
    }
    if getattr(opt, "inner_optimizer", opt).use_ema:
        opt.finalize_variable_values([w, k])
        out["finalized"] = [flat(w.numpy()), flat(k.numpy())]
    return out


def main():
    fixture = {
        "keras_version": keras.__version__,
        "initial": [flat(W0), flat(K0)],
        "shapes": [list(W0.shape), list(K0.shape)],
        "grads": [[flat(gw), flat(gk)] for gw, gk in GRADS],
        "cases": {name: run(opt, grads_of(name)) for name, opt in cases().items()},
    }
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "keras3_trajectories.json")
    with open(out, "w") as f:
        json.dump(fixture, f, indent=1)
        f.write("\n")
    print(f"wrote {len(fixture['cases'])} cases to {out}")


if __name__ == "__main__":
    main()

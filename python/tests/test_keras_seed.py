"""The seed's Keras CNN program (../shared/seeds/000, "Utiliser les boucles d'entraînement
Keras" and "Noms des métriques Keras") run as written with the imports replaced:
`import tensorflow as tf` -> `import tfcc as tf`, `import tensorflow_datasets as tfds` ->
`import tfcc.tfds as tfds`, and the data set 'mnist' -> 'fashion_mnist' (Debian ships
Fashion-MNIST; MNIST's digits must be provided by hand, tfcc/keras/datasets/datasets.h).
STEPS_PER_EPOCH = 5 keeps it small; the full run is test_seed_cnn_full (TFCC_FULL_TESTS=1).
"""

import contextlib
import io
import os
import re

import pytest

SEED_PROGRAM = """
import tfcc as tf
import tfcc.tfds as tfds

datasets, info = tfds.load(name='DATASET', with_info=True, as_supervised=True)
mnist_train, mnist_test = datasets['train'], datasets['test']

BUFFER_SIZE = 10 # Use a much larger value for real code
BATCH_SIZE = 64
NUM_EPOCHS = 5


def scale(image, label):
  image = tf.cast(image, tf.float32)
  image /= 255

  return image, label

train_data = mnist_train.map(scale).shuffle(BUFFER_SIZE).batch(BATCH_SIZE)
test_data = mnist_test.map(scale).batch(BATCH_SIZE)

STEPS_PER_EPOCH = 5

train_data = train_data.take(STEPS_PER_EPOCH)
test_data = test_data.take(STEPS_PER_EPOCH)

image_batch, label_batch = next(iter(train_data))

model = tf.keras.Sequential([
    tf.keras.layers.Conv2D(32, 3, activation='relu',
                           kernel_regularizer=tf.keras.regularizers.l2(0.02),
                           input_shape=(28, 28, 1)),
    tf.keras.layers.MaxPooling2D(),
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dropout(0.1),
    tf.keras.layers.Dense(64, activation='relu'),
    tf.keras.layers.BatchNormalization(),
    tf.keras.layers.Dense(10)
])

# Model is the full model w/o custom layers
model.compile(optimizer='adam',
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=['accuracy'])

model.fit(train_data, epochs=NUM_EPOCHS)
loss, acc = model.evaluate(test_data)

print("Loss {}, Accuracy {}".format(loss, acc))

model.compile(
    optimizer = tf.keras.optimizers.Adam(0.001),
    loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    metrics = ['acc', 'accuracy', tf.keras.metrics.SparseCategoricalAccuracy(name="my_accuracy")])
history = model.fit(train_data)
"""


def run_seed(steps=None):
    program = SEED_PROGRAM.replace("DATASET", "fashion_mnist")
    if steps is not None:
        program = program.replace("STEPS_PER_EPOCH = 5", f"STEPS_PER_EPOCH = {steps}")
    out = io.StringIO()
    env = {}
    with contextlib.redirect_stdout(out):
        exec(program, env)  # noqa: S102
    return env, out.getvalue()


def test_seed_cnn_program_runs_with_keras_output():
    env, out = run_seed()
    assert tuple(env["image_batch"].shape) == (64, 28, 28, 1)
    assert env["image_batch"].dtype.name == "float32"
    assert tuple(env["label_batch"].shape) == (64,)
    # fit's progress bar, printed by the C++ side, reached Python's sys.stdout.
    assert out.count("Epoch ") == 5 and "Epoch 5/5" in out
    assert re.search(r"5/5 \S*\[=+\] - .*loss: \d+\.\d{4} - accuracy: \d+\.\d{4}", out), out
    assert re.search(r"Loss \d+\.\d+, Accuracy \d+\.\d+", out)
    assert 0.0 <= env["acc"] <= 1.0 and env["loss"] > 0
    assert list(env["history"].history.keys()) == ["loss", "acc", "accuracy", "my_accuracy"]
    assert len(env["history"].history["loss"]) == 1


def test_summary_predict_save_and_load(tmp_path, capsys):
    import numpy as np
    import tfcc as tf

    model = tf.keras.Sequential([
        tf.keras.layers.Conv2D(4, 3, activation="relu", input_shape=(8, 8, 1)),
        tf.keras.layers.MaxPooling2D(),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(3),
    ])
    model.summary()
    text = capsys.readouterr().out
    assert "conv2d" in text and "(None, 6, 6, 4)" in text and "Total params: 151" in text
    x = np.random.default_rng(0).random((10, 8, 8, 1), dtype=np.float32)
    y = np.arange(10) % 3
    model.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=0.1),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    history = model.fit(x, y, batch_size=5, epochs=2, verbose=0, validation_data=(x, y))
    assert list(history.history) == ["loss", "accuracy", "val_loss", "val_accuracy"]
    assert history.epoch == [0, 1]
    p = model.predict(x, verbose=0)
    assert p.shape == (10, 3)
    path = str(tmp_path / "m.keras")
    model.save(path)
    loaded = tf.keras.models.load_model(path)
    np.testing.assert_allclose(loaded.predict(x, verbose=0), p, rtol=1e-5, atol=1e-6)
    assert loaded.evaluate(x, y, verbose=0) == pytest.approx(model.evaluate(x, y, verbose=0))


def test_dataset_from_numpy():
    import numpy as np
    import tfcc as tf

    x = np.arange(10, dtype=np.float32)
    ds = tf.data.Dataset.from_tensor_slices((x, x * 2)).map(lambda a, b: (a + b, b))
    batches = list(ds.shuffle(4, seed=1).batch(4).prefetch(1))
    assert [tuple(b[0].shape) for b in batches] == [(4,), (4,), (2,)]
    assert sorted(np.concatenate([b[0].numpy() for b in batches])) == list(x * 3)
    assert len(tf.data.Dataset.from_tensor_slices(x).batch(3)) == 4


def test_keras_errors_name_the_problem():
    import tfcc as tf

    with pytest.raises(tf.errors.OpError):
        tf.keras.layers.NoSuchLayer(units=3)
    with pytest.raises(TypeError):
        tf.keras.layers.Dense(3, "relu", "extra")


@pytest.mark.skipif(os.environ.get("TFCC_FULL_TESTS") != "1",
                    reason="the full seed CNN run takes minutes: TFCC_FULL_TESTS=1")
def test_seed_cnn_full():
    env, out = run_seed(steps=1000000)  # every batch of the training and test splits
    print(out[-2000:])
    assert env["acc"] >= 0.88


def test_fit_on_dataset_with_validation_dataset(capsys):
    import numpy as np
    import tfcc as tf

    rng = np.random.default_rng(1)
    x = rng.random((32, 4), dtype=np.float32)
    y = (x.sum(axis=1) > 2).astype(np.int64)
    train = tf.data.Dataset.from_tensor_slices((x, y)).batch(8)
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(4,))])
    model.compile(optimizer="adam",
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    history = model.fit(train, epochs=2, validation_data=train, verbose=2)
    assert list(history.history) == ["loss", "accuracy", "val_loss", "val_accuracy"]
    assert len(history.history["val_loss"]) == 2
    out = capsys.readouterr().out
    assert "Epoch 2/2" in out and "val_loss:" in out
    assert model.evaluate(train, verbose=0, return_dict=True).keys() == {"loss", "accuracy"}
    assert model.predict(train, verbose=0).shape == (32, 2)

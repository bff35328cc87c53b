"""Model files (evalcore.io.models): data only, a header naming what the model is, a SHA-256 check,
found by name in a package's models folder or by path."""

import json
import zipfile

import numpy as np
import pytest
from sklearn.compose import TransformedTargetRegressor
from sklearn.feature_extraction import DictVectorizer
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVR

from evalcore.io import models
from evalcore.io.models import FORMAT, ModelFileError, load_model, model_digest, read_header, save_model

HEADER = {"metric": "toy", "trained_on": "four rows", "signature": "toy|features:a+b", "licence": "test data"}


class Toy:
    """A caller's own class, allowed only where the caller names it."""

    def __init__(self, weights):
        self.weights = weights


def _regressor():
    x = np.array([[0.1, 1.0], [0.5, -1.0], [0.9, 0.5], [0.3, 0.0]])
    pipeline = Pipeline([("scale", StandardScaler()), ("svr", SVR(kernel="rbf", C=3.0))])
    return TransformedTargetRegressor(regressor=pipeline, transformer=StandardScaler()).fit(x, [1, 3, 5, 2]), x


def test_an_estimator_comes_back_with_the_same_state_and_predictions(tmp_path):
    model, x = _regressor()
    path = save_model(model, tmp_path / "m.npz", HEADER)
    back, header = load_model(path)
    assert type(back) is TransformedTargetRegressor and back is not model
    assert back.predict(x).tobytes() == model.predict(x).tobytes()
    svr, again = model.regressor_.named_steps["svr"], back.regressor_.named_steps["svr"]
    assert again.support_vectors_.tobytes() == svr.support_vectors_.tobytes()
    assert header["format"] == FORMAT and header["metric"] == "toy" and header["sha256"] == model_digest(model)
    assert {"version", "trained_on", "signature", "licence"} <= set(header)


def test_every_kind_of_value_survives_in_its_own_type(tmp_path):
    vec = DictVectorizer(dtype=np.float32).fit([{"a": 1.0, "b": 2.0}])
    tree = {"$odd key": 1, 2: "int key", "t": (1, "x", None), "fs": frozenset({("a", "b"), ("c", "d")}),
            "s": {3, 1}, "f64": np.float64(0.1), "i32": np.int32(7), "b": True, "nan": float("nan"),
            "u": np.array(["ab", "c"]), "i": np.arange(3, dtype=np.int32), "m": np.ones((2, 2), bool),
            "vec": vec, "toy": Toy([0.5, -1.0])}
    back, _ = load_model(save_model(tree, tmp_path / "t.npz", HEADER, classes=(Toy,)), classes=(Toy,))
    assert list(back) == list(tree)  # order kept
    assert back["$odd key"] == 1 and back[2] == "int key" and back["t"] == (1, "x", None)
    assert back["fs"] == tree["fs"] and type(back["fs"]) is frozenset and back["s"] == {1, 3}
    assert type(back["f64"]) is np.float64 and back["f64"] == 0.1 and type(back["i32"]) is np.int32
    assert back["b"] is True and np.isnan(back["nan"])
    for key in ("u", "i", "m"):
        assert back[key].dtype == tree[key].dtype and np.array_equal(back[key], tree[key])
    assert back["vec"].dtype is np.float32 and back["vec"].vocabulary_ == vec.vocabulary_
    assert type(back["toy"]) is Toy and back["toy"].weights == [0.5, -1.0]


def test_nothing_that_needs_pickle_is_written(tmp_path):
    with pytest.raises(TypeError, match="Python objects"):
        save_model({"x": np.array([object()])}, tmp_path / "o.npz", HEADER)
    with pytest.raises(TypeError, match="not an allowed model class"):
        save_model(Toy([1.0]), tmp_path / "c.npz", HEADER)
    with pytest.raises(TypeError, match="not an allowed model class"):
        save_model({"f": len}, tmp_path / "f.npz", HEADER)
    with pytest.raises(TypeError, match="not storable"):
        save_model({"t": dict}, tmp_path / "t.npz", HEADER)
    assert not list(tmp_path.iterdir())


def test_a_class_the_reader_does_not_allow_is_refused_by_name(tmp_path):
    path = save_model(Toy([1.0]), tmp_path / "toy.npz", HEADER, classes=(Toy,))
    with pytest.raises(ModelFileError, match=r"toy.npz holds a .*Toy, which this reader does not allow"):
        load_model(path)


def test_the_file_holds_json_and_plain_arrays_only(tmp_path):
    model, _ = _regressor()
    path = save_model(model, tmp_path / "m.npz", HEADER)
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
    assert "__aesop_model__.npy" in names and "__tree__.npy" in names
    with np.load(path, allow_pickle=False) as z:  # would raise on any pickled member
        assert all(z[n].dtype.kind != "O" for n in z.files)
        tree = json.loads(z["__tree__"].tobytes())
    assert tree["$object"] == "sklearn.compose.TransformedTargetRegressor"


def test_a_swapped_model_is_refused_before_anything_is_built(tmp_path, tamper_model_file):
    model, _ = _regressor()
    path = save_model(model, tmp_path / "m.npz", HEADER)
    load_model(path)
    tamper_model_file(path)
    with pytest.raises(ModelFileError, match="does not match the SHA-256 in its header"):
        load_model(path)


@pytest.mark.parametrize("content", [b"\x80\x04joblib pickle", b"PK\x03\x04 truncated", b""])
def test_a_file_of_another_format_is_a_clear_error(tmp_path, content):
    path = tmp_path / "old.joblib"
    path.write_bytes(content)
    with pytest.raises(ModelFileError, match="old.joblib"):
        load_model(path)
    with pytest.raises(ModelFileError, match="old.joblib"):
        read_header(path)


def test_a_cache_entry_is_not_a_model_file(tmp_path):
    from evalcore.io.persist import write_arrays

    path = write_arrays(tmp_path / "entry.npz", "toy/1", {"x": np.ones(2)})
    with pytest.raises(ModelFileError, match="a cache entry"):
        load_model(path)


def test_a_header_must_name_what_the_model_is(tmp_path):
    with pytest.raises(ValueError, match="lacks metric, signature"):
        save_model({}, tmp_path / "m.npz", {"trained_on": "x", "licence": "y"})
    with pytest.raises(ModelFileError, match="not found"):
        load_model(tmp_path / "none.npz")


def test_shipped_models_load_by_name_and_by_path():
    model, header = load_model("cremer_linear", package="summeval")
    path = models.model_file("summeval", "cremer_linear")
    assert path.name == "cremer_linear.npz" and path.parent.name == "models"
    assert load_model(path)[0] is model  # one read per process and file version
    assert read_header(str(path)) == header and header["metric"] == "cremer"
    assert models.model_file("mteval", "srl-en/model").parts[-2:] == ("srl-en", "model.npz")
    assert models.resolve("x.npz", package="summeval").name == "x.npz"  # a file name is a path


def test_no_shipped_model_is_a_pickle():
    from evalcore.resources.registry import package_path

    files = [f for p in ("summeval", "coherence", "parapeval", "mteval")
             for f in package_path(p, "models").rglob("*") if f.is_file()]
    assert not [f for f in files if f.suffix in (".joblib", ".pkl", ".pickle")]
    for f in files:
        if f.suffix == ".npz":
            header = read_header(f)
            assert header["metric"] and header["signature"] and header["trained_on"] and header["licence"]

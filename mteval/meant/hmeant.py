"""HMEANT on the human annotation of Birch et al. (WMT 2013, ``../shared/data/srl/hmeant-wmt13``):
a reader of its tab-separated tables (human frames and role fillers of references and MT output,
human alignments of MT frames/roles to reference frames/roles) and MEANT's weighted f-score
(:mod:`.formula`) applied to them, apart from any SRL or lexical-similarity error.

Schema (upstream README, checked against the files): ``sentences_text`` (id, language, segment,
number, version 00 = reference, 01-03 = phrase-based, syntax-based, rule-based output, text with
tokens separated by spaces); ``annotations`` (id, sentence_id, annotator, ref_id): an MT annotation
points through ``ref_id`` at the annotator's copy of the reference annotation, whose token numbers
index the reference sentence although its sentence_id is the MT sentence; ``actions`` (id,
annotation_id, 0-based head token); ``slots`` (id, action_id, role, comma-separated contiguous
tokens); ``action_aligns`` / ``slot_aligns`` (id, ref id, hypo id, full | partial | undefined | null).
"""

from __future__ import annotations

import csv
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from evalcore.io.textfiles import InputError
from mteval.meant.formula import PRF, AlignedFrames, SideFrame, weighted_f
from mteval.meant.roles import RoleWeights, role_class
from mteval.srl.frames import Argument, Frame, FramedSentence

TABLES = ("sentences_text", "annotations", "actions", "slots", "action_aligns", "slot_aligns")
SYSTEMS = {"01": "phrase-based", "02": "syntax-based", "03": "rule-based"}
#: similarity of a human alignment [decision: w_partial = 0.5 as in the 2011 example; "undefined"
#: and "null" links (7 frame, 16 filler links) carry nothing]
LINK_WEIGHTS = {"full": 1.0, "partial": 0.5}


@dataclass(frozen=True)
class HumanFrames:
    """One annotator's frames of one sentence (tokens = the text split on spaces), with each
    frame's action id and its fillers' slot ids, and the tokens each frame fills."""

    sentence: FramedSentence
    action_ids: tuple[str, ...]
    slot_ids: tuple[tuple[str, ...], ...]

    def side(self) -> list[SideFrame]:
        """The frames as the f-score needs them (coverage, fillers per role type)."""
        n = max(1, len(self.sentence.tokens))
        out = []
        for frame in self.sentence.frames:
            filled = {frame.predicate}.union(*(range(*a.span) for a in frame.arguments))
            counts: dict[str, int] = defaultdict(int)
            for a in frame.arguments:
                counts[role_class(a.role)] += 1
            out.append(SideFrame(len(filled) / n, dict(counts)))
        return out


@dataclass(frozen=True)
class Annotated:
    """One annotator's HMEANT annotation of one MT sentence against its reference: frames of both,
    frame links (MT frame, REF frame, type) and filler links ((MT frame, filler), (REF frame, filler), type)."""

    hyp_id: str
    language: str
    document: str
    system: str
    annotator: str
    mt_text: str
    ref_text: str
    mt: HumanFrames
    ref: HumanFrames
    frame_links: tuple[tuple[int, int, str], ...]
    slot_links: tuple[tuple[tuple[int, int], tuple[int, int], str], ...]


@dataclass(frozen=True)
class HmeantData:
    """Every MT annotation, and each annotator's own annotation of each reference (for agreement)."""

    annotated: tuple[Annotated, ...]
    references: Mapping[tuple[str, str, str], HumanFrames]  # (language, reference id, annotator) -> frames


def _table(root: Path, name: str) -> list[dict[str, str]]:
    path = root / name
    if not path.is_file():
        raise InputError(f"{path}: missing HMEANT table (expected {', '.join(TABLES)} in {root})")
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


def _frames(tokens: Sequence[str], actions: Sequence[dict], slots_of: Mapping[str, list[dict]],
            where: str) -> HumanFrames:
    frames, action_ids, slot_ids = [], [], []
    for act in sorted(actions, key=lambda a: (int(a["tokens"]), int(a["id"]))):
        head = int(act["tokens"])
        args, ids = [], []
        for slot in sorted(slots_of.get(act["id"], []), key=lambda s: [int(t) for t in s["tokens"].split(",")]):
            toks = [int(t) for t in slot["tokens"].split(",")]
            if max(toks) >= len(tokens) or toks != list(range(toks[0], toks[-1] + 1)):
                raise InputError(f"{where}: slot {slot['id']} tokens {slot['tokens']} are not a span of the sentence")
            args.append(Argument(slot["type"], toks[0], (toks[0], toks[-1] + 1)))
            ids.append(slot["id"])
        if head >= len(tokens):
            raise InputError(f"{where}: action {act['id']} head {head} outside the sentence ({len(tokens)} tokens)")
        frames.append(Frame(head, tokens[head].lower(), "other", tuple(args)))
        action_ids.append(act["id"])
        slot_ids.append(tuple(ids))
    return HumanFrames(FramedSentence(tuple(tokens), tuple(frames)), tuple(action_ids), tuple(slot_ids))


def read_hmeant(root: str | Path) -> HmeantData:
    """The annotation below ``root`` (the folder holding ``data/`` or ``data/`` itself)."""
    root = Path(root)
    root = root / "data" if (root / "data").is_dir() else root
    t = {name: _table(root, name) for name in TABLES}
    sentences = {r["id"]: r for r in t["sentences_text"]}
    reference_of = {(r["language"], r["segment"], r["number"]): r for r in sentences.values() if r["version"] == "00"}
    actions_of: dict[str, list[dict]] = defaultdict(list)
    for a in t["actions"]:
        actions_of[a["annotation_id"]].append(a)
    slots_of: dict[str, list[dict]] = defaultdict(list)
    for s in t["slots"]:
        slots_of[s["action_id"]].append(s)
    annotations = {a["id"]: a for a in t["annotations"]}
    action_links = {r["hypo_action_id"]: r for r in t["action_aligns"]}
    slot_links = {r["hypo_slot_id"]: r for r in t["slot_aligns"]}
    for name, links in (("action_aligns", t["action_aligns"]), ("slot_aligns", t["slot_aligns"])):
        key = "ref_action_id" if name == "action_aligns" else "ref_slot_id"
        other = key.replace("ref", "hypo")
        if len({r[key] for r in links}) != len(links) or len({r[other] for r in links}) != len(links):
            raise InputError(f"{root / name}: links are not one-to-one")
    annotated, references = [], {}
    for ann in annotations.values():
        sent = sentences[ann["sentence_id"]]
        ref_sent = reference_of.get((sent["language"], sent["segment"], sent["number"]))
        where = f"{root}: annotation {ann['id']}"
        if ref_sent is None:
            raise InputError(f"{where}: no reference sentence for segment {sent['segment']}/{sent['number']}")
        ref_tokens = ref_sent["text"].split(" ")
        if sent["version"] == "00":
            references[(sent["language"], sent["id"], ann["annotator"])] = _frames(ref_tokens, actions_of[ann["id"]],
                                                                                   slots_of, where)
            continue
        if ann["ref_id"] == "NULL":  # the annotator's copy of the reference annotation: read through its MT annotation
            continue
        mt = _frames(sent["text"].split(" "), actions_of[ann["id"]], slots_of, where)
        ref = _frames(ref_tokens, actions_of[ann["ref_id"]], slots_of, where)
        annotated.append(_linked(ann, sent, ref_sent, mt, ref, action_links, slot_links))
    annotated.sort(key=lambda a: (a.language, a.document, a.system, a.annotator))
    return HmeantData(tuple(annotated), references)


def _linked(ann, sent, ref_sent, mt: HumanFrames, ref: HumanFrames, action_links, slot_links) -> Annotated:
    """An MT annotation with its frame and filler links resolved to positions."""
    ref_frame = {a: i for i, a in enumerate(ref.action_ids)}
    ref_slot = {s: (i, k) for i, ids in enumerate(ref.slot_ids) for k, s in enumerate(ids)}
    frames = tuple((i, ref_frame[action_links[a]["ref_action_id"]], action_links[a]["type"])
                   for i, a in enumerate(mt.action_ids) if a in action_links)
    slots = tuple(((i, k), ref_slot[slot_links[s]["ref_slot_id"]], slot_links[s]["type"])
                  for i, ids in enumerate(mt.slot_ids) for k, s in enumerate(ids) if s in slot_links)
    return Annotated(sent["id"], sent["language"], f"{sent['segment']}-{sent['number']}",
                     SYSTEMS.get(sent["version"], sent["version"]), ann["annotator"], sent["text"], ref_sent["text"],
                     mt, ref, frames, slots)


def aligned_frames(a: Annotated, link_weights: Mapping[str, float] = LINK_WEIGHTS) -> list[AlignedFrames]:
    """The human frame links as MEANT's aligned pairs: s_pred = the link's weight; each linked
    filler of an aligned pair adds its weight under the MT filler's role type [decision: the human
    link says the fillers correspond, whatever label either annotation gave]."""
    pairs = {(i, j): link_weights.get(kind, 0.0) for i, j, kind in a.frame_links if link_weights.get(kind, 0.0) > 0}
    roles: dict[tuple[int, int], dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for (i, k), (j, _), kind in a.slot_links:
        if (i, j) in pairs:
            roles[(i, j)][role_class(a.mt.sentence.frames[i].arguments[k].role)] += link_weights.get(kind, 0.0)
    return [AlignedFrames(i, j, w, dict(roles[(i, j)])) for (i, j), w in sorted(pairs.items())]


def hmeant(a: Annotated, weights: RoleWeights, frame_weights: str = "coverage", denominator: str = "all") -> PRF:
    """HMEANT of one annotation: MEANT's f-score on the human frames and links; 0 when either side
    has no frame (nothing to align: the human annotation has no text backoff)."""
    if not a.mt.sentence.frames or not a.ref.sentence.frames:
        return PRF(0.0, 0.0)
    return weighted_f(a.mt.side(), a.ref.side(), aligned_frames(a), weights, frame_weights, denominator)


def reference_frames(data: HmeantData, language: str) -> list[FramedSentence]:
    """Each annotator's frames of each reference of ``language`` (UMEANT counts roles on these:
    the references of the test set)."""
    return [f.sentence for (lang, _, _), f in sorted(data.references.items()) if lang == language]

"""Shared documents of a live stage (Yjs CRDTs): the code of each coding question, the
design notes and the whiteboard scene.

Clients exchange Yjs updates over the stage's websocket. Each update is validated and
appended to the stage's event log as `doc.update` (so replay and resync see every
keystroke), and broadcast. Because CRDT updates commute, any web process can accept
updates; the server's merged copy is rebuilt from the last `StageDocument` snapshot plus
the tail of the log, and compacted back into the snapshot as it grows.

The log itself stays bounded: when a document's updates in it pass `LOG_MAX_BYTES` (and
twice its merged size), they are folded into one — the newest of those events carries the
merged state, the older ones an empty update (`document_log_compact`). Sequence numbers
stay as they were, so resync and replay go on working; replay then shows that document's
earlier edits arriving at once. Ordinary typing never gets there (a long session's
keystrokes are about a megabyte); a flood of large updates does.

Document names: `code:<question id>` (Text `code`, Map `meta` with `language`),
`notes:<question id>` (Map `notes`: section → text), `scene:<question id>` (Map `scene`:
`elements` → JSON text of the whiteboard).
"""

import base64
import binascii
import json
import re
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Sum
from django.db.models.fields.json import KT
from django.db.models.functions import Length
from django.utils.translation import gettext as _
from pycrdt import Doc, Map, Text

from interviews.access import access_stage_document_edit
from interviews.models import Answer, Stage, StageDocument, StageEvent, StageQuestion
from interviews.realtime.events import emit_many, emit_many_stages

from .errors import DomainError, InvalidInput, StateConflict, TooLarge

MAX_UPDATE_BYTES = 256 * 1024
COMPACT_AFTER = 50
#: A document's updates in the event log (base64 text) are folded past this much...
LOG_MAX_BYTES = 2 * 1024 * 1024
#: ...checked when an edit's `seq` is a multiple of this (one SUM query then).
LOG_CHECK_EVERY = 50
EMPTY_UPDATE_B64 = base64.b64encode(Doc().get_update()).decode()
NAME_RE = re.compile(r"^(code|notes|scene):(\d+)$")


@dataclass
class DocumentState:
    name: str
    state: bytes
    seq: int
    text: str
    language: str

    def as_dict(self) -> dict:
        return {
            "name": self.name,
            "state": base64.b64encode(self.state).decode(),
            "seq": self.seq,
            "text": self.text,
            "language": self.language,
        }


def _parse_name(stage: Stage, name: str) -> int:
    match = NAME_RE.match(name or "")
    if not match:
        raise InvalidInput(
            errors={"doc": [_("Use code:<question>, notes:<question> or scene:<question>.")]}
        )
    question_id = int(match.group(2))
    # A stage read for the room log (selectors.stages.stages_for_edit_log) carries its
    # question ids: a batch of rooms is checked without a query per room.
    known = getattr(stage, "edit_log_question_ids", None)
    if known is not None:
        in_stage = question_id in known
    else:
        in_stage = StageQuestion.objects.filter(stage=stage, question_id=question_id).exists()
    if not in_stage:
        raise InvalidInput(errors={"doc": [_("Not a question of this stage.")]})
    return question_id


def _decode(update_b64: str) -> bytes:
    if not isinstance(update_b64, str):
        raise InvalidInput(errors={"update": [_("Expected base64 text.")]})
    if len(update_b64) > MAX_UPDATE_BYTES * 4 // 3 + 4:
        raise TooLarge(
            _("This edit is too large."),
            errors={"update": [_("Max %(limit)s bytes.") % {"limit": MAX_UPDATE_BYTES}]},
        )
    try:
        update = base64.b64decode(update_b64, validate=True)
        Doc().apply_update(update)  # rejects bytes that are not a Yjs update
    except (binascii.Error, ValueError, RuntimeError) as exc:
        raise InvalidInput(errors={"update": [_("Not a Yjs update.")]}) from exc
    return update


@dataclass(frozen=True)
class CheckedEdit:
    """A document edit whose name and bytes passed `document_edit_parse`: the only input
    `document_edits_record` takes, so the relay and the log check an update once."""

    name: str
    update_b64: str


def document_edit_parse(*, name: str, update_b64: str) -> CheckedEdit:
    """Check an edit's form without the database: a document name, a Yjs update in size.
    The live room relays an edit once this and `document_edit_check` passed."""
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise InvalidInput(
            errors={"doc": [_("Use code:<question>, notes:<question> or scene:<question>.")]}
        )
    _decode(update_b64)
    return CheckedEdit(name=name, update_b64=update_b64)


def document_edit_check(*, stage: Stage, actor: AbstractBaseUser, name: str) -> None:
    """May `actor` edit the document `name` of `stage` now: the rules of
    `document_update_apply`, which a live room checks once per document and socket (and
    again after the stage or the user changed) rather than per keystroke."""
    access_stage_document_edit(actor, stage, name=name)
    if stage.status != Stage.Status.LIVE:
        raise StateConflict(_("The stage is not live; edits are closed."), code="stage_not_live")
    _parse_name(stage, name)


def document_update_apply(
    *, stage: Stage, actor: AbstractBaseUser, name: str, update_b64: str, paste_chars: int = 0
) -> StageEvent:
    """Record one edit from the stage's candidate, or a whiteboard stroke from its coach
    (who never types in the code or the notes)."""
    access_stage_document_edit(actor, stage, name=name)
    if stage.status != Stage.Status.LIVE:
        raise StateConflict(_("The stage is not live; edits are closed."), code="stage_not_live")
    _parse_name(stage, name)
    edit = document_edit_parse(name=name, update_b64=update_b64)
    [event] = _record(stage, [(actor, edit)])
    return event


@transaction.atomic
def document_edits_record(
    *, stage: Stage, edits: list[tuple[AbstractBaseUser, CheckedEdit]]
) -> tuple[list[StageEvent], dict[int, DomainError]]:
    """Record a live room's batch of edits (realtime/roomlog.py), in order, as consecutive
    `doc.update` events. Each (author, document) pair is checked once, as
    `document_update_apply` checks one edit; returns the events of the edits recorded and,
    by index into `edits`, the refusal of each one that was not. `stage` is read fresh by
    the caller (its status decides)."""
    accepted, refused = _edits_checked(stage, edits)
    return _record(stage, accepted), refused


@transaction.atomic
def document_edits_record_rooms(
    *, rooms: list[tuple[Stage, list[tuple[AbstractBaseUser, CheckedEdit]]]]
) -> dict[int, tuple[list[StageEvent], dict[int, DomainError]]]:
    """`document_edits_record` for several live rooms at once, by stage id: the same checks
    and events, written with a few statements for all of them (`emit_many_stages`), so the
    stages' rows stay locked for milliseconds, not for a write per room. Any failure fails
    the whole call; the room log then writes the rooms one by one."""
    checked = {stage.pk: (stage, *_edits_checked(stage, edits)) for stage, edits in rooms}
    events = emit_many_stages(
        {
            stage_id: [
                ("doc.update", {"doc": e.name, "update": e.update_b64}, actor)
                for actor, e in accepted
            ]
            for stage_id, (_stage, accepted, _refused) in checked.items()
        }
    )
    out = {}
    for stage_id, (stage, _accepted, refused) in checked.items():
        _fold_if_due(stage, events.get(stage_id, []))
        out[stage_id] = (events.get(stage_id, []), refused)
    return out


def _edits_checked(
    stage: Stage, edits: list[tuple[AbstractBaseUser, CheckedEdit]]
) -> tuple[list[tuple[AbstractBaseUser, CheckedEdit]], dict[int, DomainError]]:
    """The edits that may be recorded, and by index the refusal of the others; each
    (author, document) pair is checked once."""
    refused: dict[int, DomainError] = {}
    checked: dict[tuple[int, str], DomainError | None] = {}
    accepted: list[tuple[AbstractBaseUser, CheckedEdit]] = []
    for index, (actor, edit) in enumerate(edits):
        key = (actor.pk, edit.name)
        if key not in checked:
            try:
                document_edit_check(stage=stage, actor=actor, name=edit.name)
                checked[key] = None
            except DomainError as exc:
                checked[key] = exc
        if checked[key] is None:
            accepted.append((actor, edit))
        else:
            refused[index] = checked[key]
    return accepted, refused


def _record(stage: Stage, edits: list[tuple[AbstractBaseUser, CheckedEdit]]) -> list[StageEvent]:
    """Log checked edits, then fold the log if it is due."""
    events = emit_many(
        stage,
        [("doc.update", {"doc": e.name, "update": e.update_b64}, actor) for actor, e in edits],
    )
    _fold_if_due(stage, events)
    return events


def _fold_if_due(stage: Stage, events: list[StageEvent]) -> None:
    """Every LOG_CHECK_EVERY numbers, see whether a document's log needs folding (one SUM
    query)."""
    if events and events[-1].seq // LOG_CHECK_EVERY != (events[0].seq - 1) // LOG_CHECK_EVERY:
        for name in sorted({event.payload["doc"] for event in events}):
            snapshot = StageDocument.objects.filter(stage=stage, name=name).first()
            merged_b64 = len(snapshot.state) * 4 // 3 if snapshot is not None else 0
            if _log_bytes(stage, name) > max(LOG_MAX_BYTES, 2 * merged_b64):
                document_log_compact(stage=stage, name=name, upto=events[-1].seq)


def _doc_updates(stage: Stage, name: str):
    return StageEvent.objects.filter(stage=stage, type="doc.update", payload__doc=name)


def _log_bytes(stage: Stage, name: str) -> int:
    total = _doc_updates(stage, name).aggregate(n=Sum(Length(KT("payload__update"))))["n"]
    return total or 0


@transaction.atomic
def document_log_compact(*, stage: Stage, name: str, upto: int) -> int:
    """Fold the log's updates of `name` up to `seq` `upto` into its newest one there (the
    merged state; the others become empty updates) and store the merged snapshot; returns
    how many events were folded. Yjs updates commute and re-applying one is harmless, so
    a client that saw the originals and one that gets the merged state agree."""
    events = list(_doc_updates(stage, name).filter(seq__lte=upto).order_by("seq"))
    if len(events) < 2:
        return 0
    doc = Doc()
    for event in events:
        doc.apply_update(base64.b64decode(event.payload["update"]))
    state = doc.get_update()
    for event in events[:-1]:
        event.payload = {**event.payload, "update": EMPTY_UPDATE_B64}
    events[-1].payload = {**events[-1].payload, "update": base64.b64encode(state).decode()}
    StageEvent.objects.bulk_update(events, ["payload"], batch_size=500)
    text, language, _ = _views(name, doc)
    _store_snapshot(stage, name, state, events[-1].seq, text, language)
    return len(events)


def _merged(stage: Stage, name: str) -> tuple[Doc, int, int, StageDocument | None]:
    snapshot = StageDocument.objects.filter(stage=stage, name=name).first()
    doc = Doc()
    seq = 0
    if snapshot is not None and snapshot.state:
        doc.apply_update(bytes(snapshot.state))
        seq = snapshot.seq
    tail = 0
    events = StageEvent.objects.filter(stage=stage, type="doc.update", seq__gt=seq).order_by("seq")
    for seq_value, payload in events.values_list("seq", "payload"):
        if payload.get("doc") != name:
            continue
        doc.apply_update(base64.b64decode(payload["update"]))
        seq = seq_value
        tail += 1
    return doc, seq, tail, snapshot


def _views(name: str, doc: Doc) -> tuple[str, str, dict]:
    """Plain views of a document: (code text, language, answer fields)."""
    kind = name.split(":", 1)[0]
    if kind == "code":
        meta = doc.get("meta", type=Map)
        return str(doc.get("code", type=Text)), str(meta.get("language") or ""), {}
    if kind == "notes":
        notes = {key: str(value) for key, value in doc.get("notes", type=Map).items()}
        return "", "", {"notes": notes}
    elements = doc.get("scene", type=Map).get("elements")
    try:
        scene = {"elements": json.loads(elements)} if elements else {}
    except (TypeError, ValueError):
        scene = {}
    return "", "", {"scene": scene}


def document_state(
    *, stage: Stage, name: str, compact: bool = True, store_answer: bool = False
) -> DocumentState:
    """The merged state of a document; folds a long tail of updates into the snapshot.
    Notes and scene are copied into the question's Answer when folded, or every time with
    `store_answer` (the scripted interviewer reads the notes as the answer)."""
    question_id = _parse_name(stage, name)
    doc, seq, tail, snapshot = _merged(stage, name)
    state = doc.get_update()
    text, language, answer_fields = _views(name, doc)
    folded = compact and tail and (tail >= COMPACT_AFTER or snapshot is None)
    if folded:
        _store_snapshot(stage, name, state, seq, text, language)
    if answer_fields and (folded or store_answer):
        Answer.objects.update_or_create(
            stage=stage, question_id=question_id, defaults=answer_fields
        )
    return DocumentState(name=name, state=state, seq=seq, text=text, language=language)


@transaction.atomic
def _store_snapshot(
    stage: Stage, name: str, state: bytes, seq: int, text: str, language: str
) -> None:
    snapshot, _ = StageDocument.objects.select_for_update().get_or_create(stage=stage, name=name)
    if snapshot.seq >= seq and snapshot.state:
        return  # another process already folded at least this far
    snapshot.state, snapshot.seq, snapshot.text, snapshot.language = state, seq, text, language
    snapshot.save()


def documents_of(stage: Stage, *, kind: str | None = None) -> list[DocumentState]:
    """Every document that has content in the stage, merged (for room load and deadline);
    `kind` (`code`, `notes`, `scene`) keeps only documents of that kind."""
    names = set(StageDocument.objects.filter(stage=stage).values_list("name", flat=True))
    names.update(
        StageEvent.objects.filter(stage=stage, type="doc.update")
        .values_list("payload__doc", flat=True)
        .distinct()
    )
    wanted = sorted(n for n in names if n and (kind is None or n.startswith(f"{kind}:")))
    return [document_state(stage=stage, name=name) for name in wanted]

"""The live room's protocol, declared once: every message the server sends over
`/ws/stages/{id}/` and every one it accepts, with its exact keys and their types (zulip's
`zerver/lib/event_types.py`).

Three things read this module, so they cannot drift apart:
- `emit()` checks each logged event's payload against its declaration (`check_event`),
  including whether it is private — a coach-only event emitted as public is refused;
- the tests check that every action emits exactly its events, and that every declared
  type is covered (tests/interviews/services/test_events_emitted.py);
- `manage.py generate_event_types` writes the browser's types from it
  (frontend/src/ws/events.gen.ts; a test fails when that file is stale).

Payloads are plain TypedDicts: every key is always sent (nullable where it may be empty),
so a client never has to ask whether a key exists. docs/events.md says what they mean.
"""

import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, NotRequired, TypedDict, Union, get_args, get_origin
from typing import get_type_hints as _type_hints
from typing import is_typeddict as _is_typeddict

StageStatusValue = Literal["pending", "live", "done"]
Role = Literal["candidate", "coach", "admin"]
SubmissionStatusValue = Literal["queued", "running", "done", "error"]
SubmissionMode = Literal["run", "submit"]
Recommendation = Literal["strong_no", "no", "yes", "strong_yes"]
#: Whatever JSON the client sent (echoed back, never interpreted).
Json = Any


class EventSchemaError(ValueError):
    """A message does not match its declaration: a bug in the code that built it."""


# --- shapes used inside messages ------------------------------------------------------


class TimerPayload(TypedDict):
    """The clock as the server decides it; `remaining_ms` is measured when sent."""

    reason: Literal["hello", "pause", "resume", "extend", "expired"]
    status: StageStatusValue
    deadline: str | None
    paused: bool
    remaining_ms: int


class PresenceEntry(TypedDict):
    user: str
    role: Role


# --- logged events: the payload (event_message adds type, seq, at, actor, private) ----


class StageStatusPayload(TypedDict):
    """One shape for start, finish and the deadline: the stage row as it now is."""

    status: StageStatusValue
    reason: Literal["start", "finish", "deadline"]
    started_at: str | None
    deadline: str | None
    finished_at: str | None
    coach_requested: bool


class StageClaimedPayload(TypedDict):
    coach: str


class StageReleasedPayload(TypedDict):
    """Its coach gave the stage back to the queue (`coach`: who had it)."""

    coach: str


class DocUpdatePayload(TypedDict):
    doc: str
    update: str


class FollowUpPayload(TypedDict):
    """Never the bank's coach notes. `text` is the English (or a coach's free text);
    `translations` the bank follow-up's prompt in each language it is translated into
    (`{"zh-Hans": …}`), so every client of the room shows its own reader's language and
    a replay shows it too."""

    id: int
    text: str
    translations: dict[str, str]
    question: int | None
    unlocks_part: int | None


class ChatPayload(TypedDict):
    text: str


class PresencePayload(TypedDict):
    user: str
    role: Role
    state: Literal["joined", "left"]


class SubmissionStatusPayload(TypedDict):
    """`message` explains an `error` status to the candidate (the sandbox was down);
    null otherwise."""

    id: int
    status: SubmissionStatusValue
    verdict: str
    passed: int
    total: int
    question: int
    part: int
    mode: SubmissionMode
    message: str | None


class AnswerSavedPayload(TypedDict):
    id: int
    question: int | None
    fields: list[str]


class ReviewCommentPayload(TypedDict):
    id: int
    question: int
    lines: list[int]
    category: str
    text: str


class ReviewCommentDeletedPayload(TypedDict):
    id: int


class NotePayload(TypedDict):
    id: int
    text: str


class PasteSignal(TypedDict):
    kind: Literal["paste"]
    chars: int


class BlurSignal(TypedDict):
    kind: Literal["blur"]
    ms: int


class ScorecardSavedPayload(TypedDict):
    """`recommendation` null: a draft without one yet; `submitted` false: a draft."""

    id: int
    recommendation: Recommendation | None
    submitted: bool


class ReviewMatchSetPayload(TypedDict):
    """`flaw` null: the coach ruled that the comment matches no flaw."""

    comment: int
    flaw: int | None


class ReviewMatchClearedPayload(TypedDict):
    comment: int


RecordingKind = Literal["call", "answer"]


class RecordingProposedPayload(TypedDict):
    """Someone asked to record (`needs`: who must agree, the proposer already has). A
    spoken answer (`kind` answer, its `question`) needs only its candidate and starts at
    once."""

    id: int
    kind: RecordingKind
    question: int | None
    proposed_by: str
    needs: list[str]


class RecordingStartedPayload(TypedDict):
    """Everyone agreed: audio is recorded from here. `offset_ms`: after the stage's clock
    started (replay lines the audio up with the log by it)."""

    id: int
    kind: RecordingKind
    question: int | None
    offset_ms: int


class RecordingStoppedPayload(TypedDict):
    """`reason`: stopped (by `actor`), declined (someone said no before it started),
    deleted (its candidate deleted it) or stage_finished (the stage ended first)."""

    id: int
    kind: RecordingKind
    reason: Literal["stopped", "declined", "deleted", "stage_finished"]


@dataclass(frozen=True)
class EventSpec:
    """A logged event type: its payload and whether only coaches and admins receive it."""

    payload: Any
    private: bool = False


EVENTS: dict[str, EventSpec] = {
    "stage.status": EventSpec(StageStatusPayload),
    "stage.claimed": EventSpec(StageClaimedPayload),
    "stage.released": EventSpec(StageReleasedPayload),
    "timer": EventSpec(TimerPayload),
    "doc.update": EventSpec(DocUpdatePayload),
    "follow_up": EventSpec(FollowUpPayload),
    "chat": EventSpec(ChatPayload),
    "presence": EventSpec(PresencePayload),
    "submission.status": EventSpec(SubmissionStatusPayload),
    "answer.saved": EventSpec(AnswerSavedPayload),
    "review_comment": EventSpec(ReviewCommentPayload),
    "review_comment.updated": EventSpec(ReviewCommentPayload),
    "review_comment.deleted": EventSpec(ReviewCommentDeletedPayload),
    "note": EventSpec(NotePayload, private=True),
    "integrity": EventSpec(PasteSignal | BlurSignal, private=True),
    "scorecard.saved": EventSpec(ScorecardSavedPayload, private=True),
    "review_match.set": EventSpec(ReviewMatchSetPayload, private=True),
    "review_match.cleared": EventSpec(ReviewMatchClearedPayload, private=True),
    "recording.proposed": EventSpec(RecordingProposedPayload),
    "recording.started": EventSpec(RecordingStartedPayload),
    "recording.stopped": EventSpec(RecordingStoppedPayload),
}


class EventEnvelope(TypedDict):
    """What every logged event carries besides `type` and its payload."""

    seq: int
    at: str
    actor: str | None
    private: bool


# --- unlogged messages from the server (besides `type`) --------------------------------


class HelloPayload(TypedDict):
    """`last_seq` already counts the joining socket's own presence event."""

    user: str
    role: Role
    last_seq: int
    presence: list[PresenceEntry]
    timer: TimerPayload


class ResyncDonePayload(TypedDict):
    last_seq: int


class CursorPayload(TypedDict):
    """Another viewer's selection in a document (not echoed to its sender)."""

    user: str
    doc: str
    anchor: int | None
    head: int | None


class DocRelayPayload(TypedDict):
    """Another viewer's edit, relayed as soon as it arrives (not echoed to its sender); the
    same update comes again as the logged `doc.update` once written (Yjs ignores the
    repeat)."""

    user: str
    doc: str
    update: str


class DocSavedPayload(TypedDict):
    """To an edit's sender: the edits sent with these `ref`s are in the log, up to `saved_seq`
    (several refs when edits that came faster than the log was written were merged).
    Not `seq`: this message is not itself in the log."""

    refs: list[Json]
    saved_seq: int


class PongPayload(TypedDict):
    ref: Json


#: Call signalling relayed from another participant (`from`: their username): SDP offers
#: and answers, ICE candidates, mute state. Never logged, never echoed to its sender.
RtcSignalPayload = TypedDict("RtcSignalPayload", {"from": str, "data": dict[str, Json]})
RtcSignalPayload.__doc__ = (
    "Call signalling from another participant (`from`), relayed as sent; never logged."
)


class ErrorPayload(TypedDict):
    detail: str
    errors: dict[str, Json]
    code: str  # as in the API's error bodies (`invalid`, `not_allowed`, `stage_not_live`, …)
    ref: Json


SERVER_MESSAGES: dict[str, Any] = {
    "hello": HelloPayload,
    "resync.done": ResyncDonePayload,
    "cursor": CursorPayload,
    "doc.relay": DocRelayPayload,
    "doc.saved": DocSavedPayload,
    "rtc.signal": RtcSignalPayload,
    "pong": PongPayload,
    "error": ErrorPayload,
}


# --- messages from the client (besides `type`); the services validate their values -----


class ResyncRequest(TypedDict):
    after: int


class DocUpdateRequest(TypedDict):
    """`ref` comes back in the `doc.saved` once the edit is logged, or in the `error`
    that refuses it."""

    doc: str
    update: str
    ref: NotRequired[Json]


class ChatRequest(TypedDict):
    text: str


class IntegrityRequest(TypedDict):
    """`amount`: characters pasted, or milliseconds away from the tab."""

    kind: Literal["paste", "blur"]
    amount: int


class CursorRequest(TypedDict):
    doc: str
    anchor: int
    head: int


class RtcSignalRequest(TypedDict):
    """`data` (a JSON object, at most 64 KiB) goes to the room's other connected
    participants, or only to the user named `to`."""

    to: NotRequired[str | None]
    data: dict[str, Json]
    ref: NotRequired[Json]


class PingRequest(TypedDict):
    ref: Json


CLIENT_MESSAGES: dict[str, Any] = {
    "resync": ResyncRequest,
    "doc.update": DocUpdateRequest,
    "chat": ChatRequest,
    "integrity": IntegrityRequest,
    "cursor": CursorRequest,
    "rtc.signal": RtcSignalRequest,
    "ping": PingRequest,
}


# --- checking -------------------------------------------------------------------------

Check = Callable[[Any, str], None]


def _fail(path: str, expected: str, value: Any) -> None:
    raise EventSchemaError(f"{path}: expected {expected}, got {value!r}")


def _is_union(tp: Any) -> bool:
    return get_origin(tp) in (Union, types.UnionType)


def _compile(tp: Any) -> Check:
    """A checker for one declared type, built once: emit() runs it for every keystroke."""
    if tp is Any:
        return lambda value, path: None
    if tp is type(None):

        def check_none(value: Any, path: str) -> None:
            if value is not None:
                _fail(path, "null", value)

        return check_none
    if tp is bool:

        def check_bool(value: Any, path: str) -> None:
            if value is not True and value is not False:
                _fail(path, "a boolean", value)

        return check_bool
    if tp is int:

        def check_int(value: Any, path: str) -> None:
            if type(value) is not int:  # bool is an int subclass, and not a number here
                _fail(path, "an integer", value)

        return check_int
    if tp is str:

        def check_str(value: Any, path: str) -> None:
            if not isinstance(value, str):
                _fail(path, "a string", value)

        return check_str
    origin, args = get_origin(tp), get_args(tp)
    if origin is Literal:
        allowed = frozenset(args)

        def check_literal(value: Any, path: str) -> None:
            if not isinstance(value, str) or value not in allowed:
                _fail(path, " | ".join(map(repr, args)), value)

        return check_literal
    if _is_union(tp):
        options = [arg for arg in args if arg is not type(None)]
        nullable = len(options) < len(args)
        checks = [_compile(arg) for arg in options]

        def check_union(value: Any, path: str) -> None:
            if value is None and nullable:
                return
            problems = []
            for check in checks:
                try:
                    check(value, path)
                    return
                except EventSchemaError as exc:
                    problems.append(str(exc))
            raise EventSchemaError(" or ".join(problems) + (" (or null)" if nullable else ""))

        return check_union
    if origin is list:
        check_item = _compile(args[0])

        def check_list(value: Any, path: str) -> None:
            if not isinstance(value, list):
                _fail(path, "a list", value)
            for index, item in enumerate(value):
                check_item(item, f"{path}[{index}]")

        return check_list
    if origin is dict:
        check_value = _compile(args[1])

        def check_dict(value: Any, path: str) -> None:
            if not isinstance(value, dict):
                _fail(path, "an object", value)
            for key, item in value.items():
                if not isinstance(key, str):
                    _fail(path, "string keys", key)
                check_value(item, f"{path}.{key}")

        return check_dict
    if _is_typeddict(tp):
        return _compile_typeddict(tp)
    raise TypeError(f"event_types cannot check {tp!r}")


def _compile_typeddict(tp: Any) -> Check:
    fields = [(key, _compile(hint)) for key, hint in _type_hints(tp).items()]
    required, known = frozenset(tp.__required_keys__), frozenset(tp.__annotations__)

    def check_object(value: Any, path: str) -> None:
        if not isinstance(value, dict):
            _fail(path, f"an object ({tp.__name__})", value)
        keys = value.keys()
        if not (required <= keys <= known):
            missing, extra = sorted(required - keys), sorted(keys - known)
            raise EventSchemaError(f"{path}: missing keys {missing}, unexpected keys {extra}")
        for key, check in fields:
            if key in value:
                check(value[key], f"{path}.{key}")

    return check_object


_EVENT_CHECKS: dict[str, tuple[Check, bool]] = {
    type_: (_compile(spec.payload), spec.private) for type_, spec in EVENTS.items()
}
_SERVER_CHECKS: dict[str, Check] = {type_: _compile(tp) for type_, tp in SERVER_MESSAGES.items()}
_ENVELOPE_KEYS = frozenset({"type", *EventEnvelope.__annotations__})
_check_envelope = _compile(EventEnvelope)


def check_event(type: str, payload: Any, *, private: bool) -> None:
    """Raise EventSchemaError unless `payload` is exactly what `type` declares (and the
    event's privacy is the declared one)."""
    try:
        check, declared_private = _EVENT_CHECKS[type]
    except KeyError:
        raise EventSchemaError(f"{type!r} is not a declared event type") from None
    if private is not declared_private:
        raise EventSchemaError(f"{type}: private must be {declared_private}")
    check(payload, type)


def check_server_message(message: dict[str, Any]) -> None:
    """Check a whole message as a client receives it: a logged event (envelope and
    payload) or an unlogged one (`hello`, `resync.done`, ...)."""
    type_ = message.get("type")
    if type_ in _EVENT_CHECKS:
        envelope = {key: message.get(key) for key in EventEnvelope.__annotations__}
        _check_envelope(envelope, f"{type_} envelope")
        payload = {key: value for key, value in message.items() if key not in _ENVELOPE_KEYS}
        check_event(type_, payload, private=message["private"])
    elif type_ in _SERVER_CHECKS:
        _SERVER_CHECKS[type_]({k: v for k, v in message.items() if k != "type"}, type_)
    else:
        raise EventSchemaError(f"{type_!r} is not a declared server message")

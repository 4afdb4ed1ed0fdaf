"""Deep-dive feedback: deterministic, explainable checks on a project deep-dive answer.

Three checks, each a pure function of the answer's text:

1. **Checklist** of the seven parts (context, architecture, trade-off, failure, metrics,
   ownership, extension). A part is covered when a heading names it (`HEADING_RULES`) or
   a cue phrase for it occurs in the text (`CUE_RULES`). Every fired rule is reported with
   the text span it fired on.
2. **Quantification**: numbers with units (`UNITS`: ms, %, GB, QPS, $, engineer-years …)
   and before/after pairs ("from 120 ms to 45 ms", "120 ms → 45 ms", "before … after …").
   The answer *quantifies* when it has a before/after pair or at least
   `QUANTIFIES_MIN_FIGURES` figures with units.
3. **ROI**: money and effort figures classified as cost or benefit by the nearest cue
   word in their clause (`COST_CUES`, `BENEFIT_CUES`), recurring ones annualised and
   multiplied by the horizon, then total benefit compared with total cost, with the
   arithmetic spelled out line by line.

Nothing here is a model of language: it is a fixed set of patterns, so the same text
always gets the same feedback, and the candidate can see why.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from interviews.models import Answer, Stage

# --- text spans ----------------------------------------------------------------------------


class Span(TypedDict):
    rule: str
    description: str
    text: str
    start: int
    end: int
    line: int


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _span(text: str, start: int, end: int, rule: str, description: str) -> Span:
    return {
        "rule": rule,
        "description": description,
        "text": text[start:end],
        "start": start,
        "end": end,
        "line": _line_of(text, start),
    }


# --- 1. the seven parts --------------------------------------------------------------------

PARTS: list[tuple[str, str, str]] = [
    ("context", "Context", "Say what problem the project solved, for whom, and what it cost them."),
    (
        "architecture",
        "Architecture",
        "Describe the design: the main components and how data flows between them.",
    ),
    (
        "trade-off",
        "Trade-offs",
        'Name an alternative you rejected and what your choice cost ("we chose X over Y '
        'because …, at the cost of …").',
    ),
    ("failure", "Failures", "Tell one thing that broke, how you found out and what you changed."),
    ("metrics", "Metrics", "Give the numbers before and after, and how they were measured."),
    (
        "ownership",
        "Ownership",
        'Say what you did yourself ("I designed …", "I led …") versus the team.',
    ),
    ("extension", "10× extension", "Say what would break first at ten times the load."),
]
PART_IDS = [part for part, _, _ in PARTS]

#: A heading names at most one part: the first in this order whose pattern matches, so
#: "Design trade-offs" counts for trade-offs, not architecture.
HEADING_RULES: list[tuple[str, str]] = [
    (
        "extension",
        r"\b(?:10|100|ten)\s?[x×](?![a-z])|\bten times\b|\bscal(?:e|ing)\b|\bextension\b"
        r"|\bnext steps?\b|\bfuture\b|\bwhat would break\b|\bgrowth\b",
    ),
    (
        "trade-off",
        r"\btrade[- ]?offs?\b|\balternatives?\b|\bdecisions?\b|\boptions considered\b"
        r"|\bwhy not\b",
    ),
    (
        "failure",
        r"\bfailures?\b|\bincidents?\b|\boutages?\b|\bwhat (?:went wrong|broke)\b|\bmistakes?\b"
        r"|\blessons?\b|\bpost-?mortems?\b",
    ),
    (
        "metrics",
        r"\bmetrics?\b|\bresults?\b|\bimpact\b|\bmeasurements?\b|\bnumbers\b|\boutcomes?\b"
        r"|\bkpis?\b",
    ),
    (
        "ownership",
        r"\bownership\b|\bmy role\b|\bmy (?:part|contribution)s?\b|\bwhat i did\b"
        r"|\bresponsibilit(?:y|ies)\b",
    ),
    (
        "architecture",
        r"\barchitecture\b|\bdesign\b|\bapproach\b|\bsolution\b|\bhow it works\b|\bsystem\b",
    ),
    ("context", r"\bcontext\b|\bbackground\b|\bproblem\b|\bmotivation\b|\bsituation\b"),
]

#: How a line is recognised as a heading; group `title` is what is matched against
#: `HEADING_RULES`.
HEADING_LINE_PATTERNS: list[tuple[str, str]] = [
    ("markdown", r"^[ \t]{0,3}#{1,6}[ \t]+(?P<title>[^\n]+?)[ \t#]*$"),
    (
        "bold",
        r"^[ \t]*(?:[-*+][ \t]+|\d+[.)][ \t]+)?(?:\*\*|__)(?P<title>[^*_\n]{2,80})(?:\*\*|__)",
    ),
    (
        "label",
        r"^[ \t]*(?:[-*+][ \t]+|\d+[.)][ \t]+)?(?P<title>[A-Za-z0-9×][A-Za-z0-9× /&'-]{1,40}):",
    ),
]


@dataclass(frozen=True)
class CueRule:
    id: str
    part: str
    pattern: str
    description: str


CUE_RULES: list[CueRule] = [
    # context
    CueRule(
        "context.problem-was",
        "context",
        r"\bthe (?:problem|issue|challenge|goal|pain) (?:was|is)\b",
        "states the problem",
    ),
    CueRule("context.needed-to", "context", r"\bwe (?:needed|had) to\b", "states the need"),
    CueRule(
        "context.cost-of-problem",
        "context",
        r"\b(?:was|were) (?:costing|blocking|hurting|slowing)\b",
        "says what the problem cost",
    ),
    CueRule(
        "context.who",
        "context",
        r"\bpain points?\b|\b(?:customers?|users?|teams?) (?:were|was|complained|kept)\b",
        "says who had the problem",
    ),
    # architecture
    CueRule("architecture.word", "architecture", r"\barchitecture\b", "names the architecture"),
    CueRule(
        "architecture.built",
        "architecture",
        r"\b(?:i|we) (?:designed|built|architected|implemented)\b",
        "describes what was built",
    ),
    CueRule(
        "architecture.structure",
        "architecture",
        r"\b(?:consists? of|made up of|composed of)\b",
        "describes the structure",
    ),
    CueRule(
        "architecture.components",
        "architecture",
        r"\b(?:components?|control plane|data plane|load balancer|message queue|sidecar"
        r"|api gateway|write-ahead log|sharded|replicas?)\b",
        "names components",
    ),
    # trade-off
    CueRule("trade-off.word", "trade-off", r"\btrade[- ]?offs?\b", "names a trade-off"),
    CueRule(
        "trade-off.instead",
        "trade-off",
        r"\binstead of\b|\brather than\b|\bover the alternative\b",
        "compares with an alternative",
    ),
    CueRule(
        "trade-off.chose",
        "trade-off",
        r"\b(?:we|i) (?:chose|picked|went with|opted for|rejected|considered)\b",
        "explains a choice",
    ),
    CueRule(
        "trade-off.price",
        "trade-off",
        r"\bat the cost of\b|\bthe downsides?\b|\bin exchange for\b|\bthe price (?:was|we paid)\b",
        "says what the choice cost",
    ),
    # failure
    CueRule(
        "failure.incident",
        "failure",
        r"\boutages?\b|\bincidents?\b|\bpost-?mortems?\b|\broot cause\b|\bsev ?[0-3]\b",
        "tells an incident",
    ),
    CueRule(
        "failure.broke",
        "failure",
        r"\bbroke\b|\bwent wrong\b|\bfailed\b|\bfailures?\b|\bcrash(?:ed|es)?\b|\bregressions?\b",
        "tells what broke",
    ),
    CueRule(
        "failure.rollback",
        "failure",
        r"\brolled back\b|\broll ?backs?\b",
        "tells a rollback",
    ),
    CueRule(
        "failure.lesson",
        "failure",
        r"\b(?:we|i) learned\b|\blessons? learned\b|\bmy mistake\b|\bwe got wrong\b",
        "draws a lesson",
    ),
    # metrics
    CueRule(
        "metrics.percentile",
        "metrics",
        r"\bp(?:50|90|95|99|99\.9|999)\b",
        "quotes a latency percentile",
    ),
    CueRule(
        "metrics.measure",
        "metrics",
        r"\blatency\b|\bthroughput\b|\berror rate\b|\butili[sz]ation\b|\bavailability\b"
        r"|\buptime\b|\bcost per\b",
        "names a measure",
    ),
    CueRule(
        "metrics.how-measured",
        "metrics",
        r"\b(?:we|i) (?:measured|tracked|monitored|benchmarked)\b|\bdashboards?\b|\bslos?\b"
        r"|\ba/b test",
        "says how it was measured",
    ),
    # ownership
    CueRule(
        "ownership.i-did",
        "ownership",
        r"\bi (?:led|owned|wrote|designed|built|drove|proposed|decided|implemented|pushed"
        r"|convinced|mentored|personally|was responsible|took ownership)\b",
        "says what the candidate did",
    ),
    CueRule(
        "ownership.my-role",
        "ownership",
        r"\bmy (?:role|responsibility|part|contribution|decision)\b",
        "names the candidate's role",
    ),
    CueRule(
        "ownership.lead",
        "ownership",
        r"\btech(?:nical)? lead\b|\bdri\b|\bon-call owner\b",
        "names a lead role",
    ),
    # extension
    CueRule(
        "extension.10x",
        "extension",
        r"\b(?:10|100|ten)\s?[x×](?![a-z])|\bten times\b|\b(?:10|ten)-?fold\b",
        "considers ten times the scale",
    ),
    CueRule(
        "extension.breaks-first",
        "extension",
        r"\bwhat would break\b|\bwould break first\b|\bnext bottleneck\b|\bbreaks? first\b",
        "says what breaks first",
    ),
    CueRule(
        "extension.growth",
        "extension",
        r"\bif (?:the )?(?:load|traffic|usage|data|volume) (?:grew|grows|doubled|increased)\b"
        r"|\bscal(?:e|ing) (?:it )?(?:to|further|out)\b",
        "considers growth",
    ),
]

_FLAGS = re.IGNORECASE | re.MULTILINE
_HEADING_LINES = [(kind, re.compile(p, _FLAGS)) for kind, p in HEADING_LINE_PATTERNS]
_HEADING_RULES = [(part, re.compile(p, re.IGNORECASE)) for part, p in HEADING_RULES]
_CUE_RULES = [(rule, re.compile(rule.pattern, re.IGNORECASE)) for rule in CUE_RULES]
MAX_EVIDENCE_PER_PART = 3


class ChecklistItem(TypedDict):
    part: str
    label: str
    covered: bool
    evidence: list[Span]
    hint: str


def _headings(text: str) -> list[tuple[str, int, int]]:
    """(part, start, end) of each heading line naming a part; one part per line."""
    found: dict[int, tuple[str, int, int]] = {}
    for _, line_pattern in _HEADING_LINES:
        for match in line_pattern.finditer(text):
            line_start = text.rfind("\n", 0, match.start()) + 1
            if line_start in found:
                continue
            title = match.group("title")
            for part, pattern in _HEADING_RULES:
                if pattern.search(title):
                    found[line_start] = (part, match.start("title"), match.end("title"))
                    break
    return sorted(found.values(), key=lambda item: item[1])


def checklist(text: str) -> list[ChecklistItem]:
    """Which of the seven parts the text covers, and the rules that say so."""
    evidence: dict[str, list[Span]] = {part: [] for part in PART_IDS}
    for part, start, end in _headings(text):
        evidence[part].append(
            _span(text, start, end, f"{part}.heading", "a heading names this part")
        )
    for rule, pattern in _CUE_RULES:
        match = pattern.search(text)
        if match:
            evidence[rule.part].append(
                _span(text, match.start(), match.end(), rule.id, rule.description)
            )
    items: list[ChecklistItem] = []
    for part, label, hint in PARTS:
        spans = sorted(evidence[part], key=lambda s: s["start"])[:MAX_EVIDENCE_PER_PART]
        items.append(
            {
                "part": part,
                "label": label,
                "covered": bool(spans),
                "evidence": spans,
                "hint": "" if spans else hint,
            }
        )
    return items


# --- 2. quantities -------------------------------------------------------------------------

QuantityKind = Literal[
    "money", "effort", "rate", "data", "percent", "time", "hardware", "multiplier", "count"
]

_NUMBER = r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
_SCALE = r"(?P<scale>k|K|thousand|m|M|mn|MM|million|b|B|bn|billion)"
_SCALES = {
    "k": 1e3,
    "thousand": 1e3,
    "m": 1e6,
    "mn": 1e6,
    "mm": 1e6,
    "million": 1e6,
    "b": 1e9,
    "bn": 1e9,
    "billion": 1e9,
}

#: (kind, canonical unit, pattern after the number). Earlier entries win where two
#: readings of the same text overlap (so "engineer-years" is effort, not time).
UNITS: list[tuple[QuantityKind, str, str]] = [
    ("effort", "engineer-years", r"(?:engineer|person|eng|developer|dev|man)[- ]years?"),
    ("effort", "engineer-months", r"(?:engineer|person|eng|developer|dev|man)[- ]months?"),
    ("effort", "FTE", r"FTEs?"),
    ("effort", "engineers", r"engineers"),
    ("rate", "QPS", r"QPS|RPS|TPS|req(?:uest)?s?/s(?:ec)?|requests per second"),
    ("rate", "tokens/s", r"tok(?:en)?s?/s(?:ec)?|tokens per second"),
    ("rate", "GB/s", r"GB/s|GiB/s|GBps"),
    ("rate", "MB/s", r"MB/s|MiB/s|MBps"),
    ("data", "PB", r"PB|PiB"),
    ("data", "TB", r"TB|TiB"),
    ("data", "GB", r"GB|GiB"),
    ("data", "MB", r"MB|MiB"),
    ("data", "KB", r"KB|KiB|kB"),
    ("data", "bytes", r"bytes"),
    ("percent", "%", r"%|percent|per cent|pp|percentage points?"),
    ("time", "ns", r"ns|nanoseconds?"),
    ("time", "µs", r"µs|us|microseconds?"),
    ("time", "ms", r"ms|milliseconds?"),
    ("time", "s", r"s|secs?|seconds?"),
    ("time", "min", r"mins?|minutes?"),
    ("time", "h", r"h|hrs?|hours?"),
    ("time", "days", r"days?"),
    ("time", "weeks", r"weeks?"),
    ("time", "months", r"months?"),
    ("time", "years", r"years?|yrs?"),
    ("hardware", "GPUs", r"GPUs?|H100s?|A100s?|TPUs?"),
    ("hardware", "nodes", r"nodes?|servers?|machines?|hosts?|cores?|racks?"),
    ("multiplier", "x", r"[x×](?![A-Za-z])"),
    ("count", "requests", r"requests?|queries"),
    ("count", "tokens", r"tokens?"),
    ("count", "users", r"users?|customers?|tenants?"),
    ("count", "jobs", r"jobs?|models?|deployments?"),
]

_MONEY_PATTERNS = [
    re.compile(rf"(?<![\w$])\$\s?{_NUMBER}\s?{_SCALE}?(?![A-Za-z])"),
    re.compile(rf"(?<![\w$.]){_NUMBER}\s?{_SCALE}?\s?(?:USD|dollars)\b", re.IGNORECASE),
]
_UNIT_PATTERNS = [
    (
        kind,
        unit,
        re.compile(
            rf"(?<![\w.$]){_NUMBER}(?:\s?(?P<scale>k|K|M|B|bn|million|billion|thousand)\b)?"
            rf"[ \t]?(?:{pattern})(?![A-Za-z])",
            re.IGNORECASE,
        ),
    )
    for kind, unit, pattern in UNITS
]
_BARE_NUMBER = re.compile(rf"(?<![\w.$]){_NUMBER}(?P<scale>k|K|M|B|bn)?(?![\w.]*\d)(?![A-Za-z])")


class Quantity(TypedDict):
    text: str
    value: float
    unit: str | None
    kind: QuantityKind | None
    start: int
    end: int
    line: int
    rule: str


def _number(match: re.Match) -> float:
    value = float(match.group("num").replace(",", ""))
    scale = match.groupdict().get("scale")
    if scale:
        value *= _SCALES[scale.lower()]
    return value


def quantities(text: str) -> list[Quantity]:
    """Every number in the text, with its unit where one follows it (money also with a
    leading `$`). Overlapping readings resolve to the earliest-starting, then longest,
    then highest-priority one."""
    found: list[tuple[int, int, int, Quantity]] = []

    def add(priority: int, match: re.Match, kind, unit, rule: str) -> None:
        quantity: Quantity = {
            "text": match.group(0),
            "value": _number(match),
            "unit": unit,
            "kind": kind,
            "start": match.start(),
            "end": match.end(),
            "line": _line_of(text, match.start()),
            "rule": rule,
        }
        found.append((match.start(), -(match.end() - match.start()), priority, quantity))

    for pattern in _MONEY_PATTERNS:
        for match in pattern.finditer(text):
            add(0, match, "money", "USD", "quantity.money")
    for priority, (kind, unit, pattern) in enumerate(_UNIT_PATTERNS, start=1):
        for match in pattern.finditer(text):
            add(priority, match, kind, unit, f"quantity.{kind}")
    for match in _BARE_NUMBER.finditer(text):
        add(len(_UNIT_PATTERNS) + 1, match, None, None, "quantity.bare")
    found.sort(key=lambda item: item[:3])
    chosen: list[Quantity] = []
    last_end = -1
    for start, _, _, quantity in found:
        if start >= last_end:
            chosen.append(quantity)
            last_end = quantity["end"]
    return chosen


class BeforeAfter(TypedDict):
    text: str
    before: float
    after: float
    unit: str
    change: str
    start: int
    end: int
    line: int
    rule: str


_ARROW_BETWEEN = re.compile(r"^\s*(?:->|→|=>|⟶)\s*$")
_TO_BETWEEN = re.compile(r"^\s*(?:down |up )?to\s*$", re.IGNORECASE)
_FROM_BEFORE = re.compile(r"\bfrom\s*$", re.IGNORECASE)
_BEFORE_LABEL = re.compile(r"\bbefore\b\W{0,4}$", re.IGNORECASE)
_AFTER_LABEL = re.compile(r"\bafter\b\W{0,4}$", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<!\d)[.!?;](?!\d)|\n\s*\n")


#: Units of one family convert, so "from 2 s to 900 ms" is a pair (in the first unit).
UNIT_SCALES: dict[str, dict[str, float]] = {
    "time": {
        "ns": 1e-6,
        "µs": 1e-3,
        "ms": 1.0,
        "s": 1e3,
        "min": 6e4,
        "h": 3.6e6,
        "days": 8.64e7,
        "weeks": 6.048e8,
    },
    "data": {"bytes": 1.0, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "PB": 1e15},
    "rate": {"MB/s": 1e6, "GB/s": 1e9},
}


def _in_unit(value: float, unit: str, target: str) -> float | None:
    """`value` of `unit` expressed in `target`; None when they do not convert."""
    if unit == target:
        return value
    for scales in UNIT_SCALES.values():
        if unit in scales and target in scales:
            return value * scales[unit] / scales[target]
    return None


def _change(before: float, after: float) -> str:
    if before == 0:
        return "n/a"
    percent = (after - before) / before * 100
    return f"{percent:+.1f}%"


def before_after_pairs(text: str, found: list[Quantity]) -> list[BeforeAfter]:
    """Before/after pairs: "from A to B", "A → B" (or ->, =>), and "before: A … after: B"
    in one sentence. At least one side must carry a unit; a bare side takes the other's;
    two units must be the same or convert (`UNIT_SCALES`), and `after` is given in the
    unit of `before`."""
    pairs: list[BeforeAfter] = []
    used: set[int] = set()
    for i in range(len(found) - 1):
        a, b = found[i], found[i + 1]
        between = text[a["end"] : b["start"]]
        lead = text[max(0, a["start"] - 12) : a["start"]]
        rule = None
        if _ARROW_BETWEEN.match(between):
            rule = "before-after.arrow"
        elif _TO_BETWEEN.match(between) and _FROM_BEFORE.search(lead):
            rule = "before-after.from-to"
        elif _BEFORE_LABEL.search(lead) and not _SENTENCE_END.search(between):
            after_index = next(
                (
                    j
                    for j in range(i + 1, len(found))
                    if _AFTER_LABEL.search(text[max(0, found[j]["start"] - 12) : found[j]["start"]])
                    and not _SENTENCE_END.search(text[a["end"] : found[j]["start"]])
                ),
                None,
            )
            if after_index is not None:
                b = found[after_index]
                rule = "before-after.labels"
        if rule is None or i in used:
            continue
        unit_a, unit_b = a["unit"], b["unit"]
        if unit_a is None and unit_b is None:
            continue
        unit = unit_a or unit_b
        after_value = b["value"]
        if unit_a is not None and unit_b is not None:
            converted = _in_unit(b["value"], unit_b, unit_a)
            if converted is None:
                continue
            after_value = round(converted, 6)
        start = a["start"]
        if rule == "before-after.from-to":
            start -= len(lead) - _FROM_BEFORE.search(lead).start()
        elif rule == "before-after.labels":
            start -= len(lead) - _BEFORE_LABEL.search(lead).start()
        used.add(i)
        pairs.append(
            {
                "text": text[start : b["end"]],
                "before": a["value"],
                "after": after_value,
                "unit": unit or "",
                "change": _change(a["value"], after_value),
                "start": start,
                "end": b["end"],
                "line": _line_of(text, start),
                "rule": rule,
            }
        )
    return pairs


#: The answer quantifies with a before/after pair, or with at least this many figures.
QUANTIFIES_MIN_FIGURES = 3


class Quantification(TypedDict):
    quantifies: bool
    level: Literal["none", "some", "strong"]
    figures: list[Quantity]
    before_after: list[BeforeAfter]
    rule: str


def quantification(text: str, found: list[Quantity] | None = None) -> Quantification:
    found = quantities(text) if found is None else found
    figures = [q for q in found if q["unit"] is not None]
    pairs = before_after_pairs(text, found)
    quantifies = bool(pairs) or len(figures) >= QUANTIFIES_MIN_FIGURES
    if not figures:
        level: Literal["none", "some", "strong"] = "none"
    elif pairs and len(figures) >= QUANTIFIES_MIN_FIGURES:
        level = "strong"
    else:
        level = "some"
    rule = (
        f"{len(figures)} figure(s) with units, {len(pairs)} before/after pair(s); quantifies "
        f"when there is a before/after pair or at least {QUANTIFIES_MIN_FIGURES} figures"
    )
    return {
        "quantifies": quantifies,
        "level": level,
        "figures": figures,
        "before_after": pairs,
        "rule": rule,
    }


# --- 3. ROI --------------------------------------------------------------------------------

#: 50 engineer-years ≈ $20M in the prompt: $400k per engineer-year, salary and overhead.
ENGINEER_YEAR_USD = 400_000
#: Recurring figures with no horizon in the answer are counted over this many years.
DEFAULT_HORIZON_YEARS = 3

#: A benefit cue wins over a cost word it contains ("reduced GPU cost by $5M").
BENEFIT_CUES = (
    r"\b(?:reduc\w*|cut|cutting|lower\w*|sav\w*|shr[ai]nk\w*|trimm?\w*|dropp?\w*)\b"
    r"[^.;\n$]{0,40}?\b(?:costs?|spend\w*|bills?|budget)\b"
    r"|\b(?:costs?|spend|bills?) (?:went )?down\b"
    r"|\bsav(?:e|ed|es|ing|ings)\b|\breturn(?:ed|s)?\b|\brevenue\b|\bavoid(?:ed|s)?\b"
    r"|\bfreed\b|\bgain(?:ed|s)?\b|\bearn(?:ed|s)?\b|\bbenefits?\b|\bprofits?\b"
    r"|\brecover(?:ed)?\b|\bworth\b|\bvalue\b|\broi\b|\bpaid back\b|\bpayback\b"
)
COST_CUES = (
    r"\bcost(?:s|ing)?\b|\bspen[dt]\w*\b|\binvest(?:ed|ment|ing)?\b|\bbudget\b|\bpaid\b"
    r"|\bprice\b|\bcapex\b|\bopex\b|\bsalar(?:y|ies)\b|\bheadcount\b|\bburn\w*\b|\bfunded\b"
)
TOTAL_CUE = r"(?:\btotal\b|\bin total\b|\boverall\b|\baltogether\b|\bcombined\b|=)[^.;\n]{0,15}$"
_PERIOD_WORDS = {
    "year": 1.0,
    "yr": 1.0,
    "annum": 1.0,
    "month": 12.0,
    "mo": 12.0,
    "quarter": 4.0,
    "week": 52.0,
    "day": 365.0,
}
_ADVERBS = {
    "annual": 1.0,
    "annually": 1.0,
    "yearly": 1.0,
    "monthly": 12.0,
    "quarterly": 4.0,
    "weekly": 52.0,
    "daily": 365.0,
}
_PERIOD_AFTER = re.compile(
    r"^(?:\s+[\w-]+){0,3}?\s*(?:/\s*|\bper\s+|\ba\s+|\ban\s+|\beach\s+|\bevery\s+)"
    r"(?P<word>year|yr|annum|month|mo|quarter|week|day)s?\b"
    r"|^(?:\s+[\w-]+){0,3}?\s+(?P<adverb>annual(?:ly)?|yearly|monthly|quarterly|weekly|daily)\b",
    re.IGNORECASE,
)
_PERIOD_BEFORE = re.compile(
    r"\b(?P<adverb>annual|yearly|monthly|quarterly|weekly|daily)\b[^.;\n$]{0,30}$",
    re.IGNORECASE,
)
_WORD_NUMBERS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}
HORIZON = re.compile(
    r"\b(?:over|for|across|within)\s+(?:the\s+(?:next|first)\s+)?"
    r"(?P<n>\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten)\s+"
    r"(?P<unit>years?|months?)\b",
    re.IGNORECASE,
)
#: A heading (any style) with these words starts the ROI section; the section runs to the
#: next markdown or bold heading. When there is one, only its figures are weighed, so the
#: cost of the *problem* in the context part is not taken for the cost of the project.
ROI_HEADING = (
    r"\broi\b|\breturn on investment\b|\bbusiness case\b|\bpayback\b|\breturns?\b"
    r"|\bcosts? (?:and|vs\.?|versus) (?:benefits?|returns?|savings)\b"
)
_ROI_HEADING = re.compile(ROI_HEADING, re.IGNORECASE)
_BENEFIT = re.compile(BENEFIT_CUES, re.IGNORECASE)
_COST = re.compile(COST_CUES, re.IGNORECASE)
_TOTAL = re.compile(TOTAL_CUE, re.IGNORECASE)

#: A money figure followed by "per GPU-hour", "/token", "an hour" … is a price or a rate,
#: not an amount: it is never added (per year, month … are periods: see `_PERIOD_AFTER`).
RATE_AFTER = (
    r"^\s*(?:/\s*|\s*\bper\s+|\s+an?\s+|\s+each\s+)(?:1k\s+|1m\s+|million\s+|thousand\s+)?"
    r"(?:gpu[- ]?(?:hours?|hrs?|h)\b|gpus?\b|hours?\b|hrs?\b|h\b|tokens?\b|requests?\b"
    r"|quer(?:y|ies)\b|calls?\b|users?\b|seats?\b|units?\b|engineers?\b|gb\b|tb\b"
    r"|nodes?\b|instances?\b|machines?\b|servers?\b|inferences?\b)"
)
#: A negation just before a figure ("does not cover $20M", "never returned $5M", "less
#: than $1M"): the figure is not claimed, so it is not counted on either side.
NEGATION_BEFORE = (
    r"(?:\b(?:not|never|no|nor|without|short of|far from|less than|fails? to|failed to)\b"
    r"|n't\b)[^.;\n$]{0,30}$"
)
#: A one-off figure followed by "over 3 years" (in, across, within, for) is an N-year total.
HORIZON_TOTAL_AFTER = (
    r"^\s*(?:in total\s+|total\s+)?(?:over|across|in|within|for)\s+(?:the\s+(?:next|first)\s+)?"
    r"(?P<n>\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten)\s+years?\b"
)
#: The answer itself says the project does not pay back.
SAYS_IT_DOES_NOT_PAY = (
    r"\b(?:does|did|do|would|will|could)\s*(?:not|n't)\s+(?:fully\s+)?(?:cover|pay (?:for|back|off)"
    r"|add up|break even|return|justify|recoup|make up)"
    r"|\bnot worth\b|\bnever paid (?:back|off)\b|\bfalls? short\b|\bdoesn't pay\b"
)
#: A yearly figure times the horizon and a stated N-year total agree within this share.
TOTAL_TOLERANCE = 0.1
_RATE_AFTER = re.compile(RATE_AFTER, re.IGNORECASE)
_NEGATION_BEFORE = re.compile(NEGATION_BEFORE, re.IGNORECASE)
_HORIZON_TOTAL_AFTER = re.compile(HORIZON_TOTAL_AFTER, re.IGNORECASE)
_SAYS_IT_DOES_NOT_PAY = re.compile(SAYS_IT_DOES_NOT_PAY, re.IGNORECASE)


class RoiFigure(TypedDict):
    text: str
    kind: Literal["money", "effort"]
    start: int
    end: int
    line: int
    side: Literal["cost", "benefit", "unclassified"]
    cue: str
    rule: str
    amount_usd: float
    per_year: float | None
    stated_total: bool
    counted: bool
    excluded: Literal["", "rate", "negated", "horizon_total"]
    note: str


class Roi(TypedDict):
    status: Literal["adds_up", "does_not_add_up", "unsure", "incomplete", "absent"]
    cost_usd: float | None
    benefit_usd: float | None
    ratio: float | None
    horizon_years: float | None
    horizon_assumed: bool
    figures: list[RoiFigure]
    arithmetic: list[str]
    verdict: str


def usd(amount: float) -> str:
    """$1.2M, $300k, $2.5B, $950 — the way the arithmetic lines show money."""
    sign = "-" if amount < 0 else ""
    amount = abs(amount)
    for scale, suffix in ((1e9, "B"), (1e6, "M"), (1e3, "k")):
        if amount >= scale:
            return f"{sign}${amount / scale:,.2f}".rstrip("0").rstrip(".") + suffix
    return f"{sign}${amount:,.0f}"


def _clause_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    left = 0
    for match in _SENTENCE_END.finditer(text, 0, start):
        left = match.end()
    after = _SENTENCE_END.search(text, end)
    return left, after.start() if after else len(text)


def _cues(text: str, left: int, right: int) -> list[tuple[int, int, str]]:
    """(start, end, side) of the cue words in text[left:right]; a benefit cue that
    contains a cost word ("reduced GPU cost") hides that word."""
    cues: list[tuple[int, int, str]] = []
    for side, pattern in (("benefit", _BENEFIT), ("cost", _COST)):
        for match in pattern.finditer(text, left, right):
            if not any(s <= match.start() and match.end() <= e for s, e, _ in cues):
                cues.append((match.start(), match.end(), side))
    return cues


def _classify(text: str, figures: list[Quantity]) -> list[tuple[str, str, str]]:
    """(side, cue text, rule) for each money or effort figure, in order:

    1. the nearest cue before it, after the previous figure of its clause;
    2. else the nearest cue after it, before the next figure of its clause;
    3. else the side of the previous figure in its clause — a list going on ("$4M + $2M")
       or a restatement ("50 engineer-years (~$20M)");
    4. else effort is a cost; anything else is left unclassified (and not counted).
    """
    results: list[tuple[str, str, str]] = []
    for index, figure in enumerate(figures):
        left, right = _clause_bounds(text, figure["start"], figure["end"])
        previous = figures[index - 1] if index else None
        following = figures[index + 1] if index + 1 < len(figures) else None
        lead_from = max(left, previous["end"]) if previous else left
        trail_to = min(right, following["start"]) if following else right
        before = _cues(text, lead_from, figure["start"])
        after = _cues(text, figure["end"], trail_to)
        if before:
            start, end, side = max(before, key=lambda c: c[1])
            results.append((side, text[start:end], f"roi.{side}.cue-before"))
        elif after:
            start, end, side = min(after, key=lambda c: c[0])
            results.append((side, text[start:end], f"roi.{side}.cue-after"))
        elif previous is not None and previous["end"] > left and results[-1][0] != "unclassified":
            side = results[-1][0]
            results.append((side, results[-1][1], f"roi.{side}.follows-previous"))
        elif figure["kind"] == "effort":
            results.append(("cost", "", "roi.cost.effort-default"))
        else:
            results.append(("unclassified", "", "roi.unclassified"))
    return results


def _per_year(text: str, quantity: Quantity) -> tuple[float | None, str]:
    """How many times a year the figure recurs (None: one-off), and the words saying so."""
    tail = text[quantity["end"] : quantity["end"] + 40]
    match = _PERIOD_AFTER.match(tail)
    if match:
        word = match.group("word")
        if word:
            return _PERIOD_WORDS[word.lower()], match.group(0).strip()
        return _ADVERBS[match.group("adverb").lower()], match.group(0).strip()
    left, _ = _clause_bounds(text, quantity["start"], quantity["end"])
    match = _PERIOD_BEFORE.search(text, left, quantity["start"])
    if match:
        return _ADVERBS[match.group("adverb").lower()], match.group("adverb")
    return None, ""


def roi_section(text: str) -> tuple[int, int, str] | None:
    """(start, end, heading) of the answer's ROI section, if a heading announces one."""
    headings = sorted(
        (match.start(), kind, match.group("title"))
        for kind, pattern in _HEADING_LINES
        for match in pattern.finditer(text)
    )
    roi_heading = next((h for h in headings if _ROI_HEADING.search(h[2])), None)
    if roi_heading is None:
        return None
    start, _, title = roi_heading
    later = [at for at, kind, _ in headings if at > start and kind != "label"]
    return start, min(later) if later else len(text), title.strip()


def _horizon(text: str, start: int = 0, end: int | None = None) -> tuple[float | None, str]:
    """The first "over N years" (for, across, within …) in the range."""
    match = HORIZON.search(text, start, len(text) if end is None else end)
    if not match:
        return None, ""
    raw = match.group("n").lower()
    n = float(_WORD_NUMBERS.get(raw, raw))
    years = n if match.group("unit").lower().startswith("year") else n / 12
    return years, match.group(0)


def roi(text: str, found: list[Quantity] | None = None) -> Roi:
    """Whether the ROI adds up: total benefit over the horizon vs total cost.

    Rules, in order:
    - money figures ($20M, $300k, 1.2 million dollars) and effort figures (engineer- or
      person-years/-months; `ENGINEER_YEAR_USD` each) are the candidates;
    - each is a cost or a benefit by the nearest cue in its clause (`_classify`); effort
      with no cue is a cost; anything else with no cue is left out;
    - a figure followed by "per year", "/month", "a year", "annually" … (or after
      "annual", "monthly" …) recurs: it is annualised (×12 for months, ×4 quarters, ×52
      weeks, ×365 days) and counted over the horizon — "over 3 years", "for the next two
      years" — or `DEFAULT_HORIZON_YEARS` when none is given (said in the output);
    - on each side money figures are used if there are any, effort figures otherwise
      (so "50 engineer-years (~$20M)" is not counted twice); a figure repeating the same
      amount and period on the same side is counted once;
    - a figure introduced as a total ("total", "overall", "=") replaces the sum of that
      side (the largest such total is used);
    - rates are not amounts: a money figure followed by "per GPU-hour", "/token", "an
      hour" … (`RATE_AFTER`) is never added;
    - negated figures are not claims: one just after "not", "never", "n't", "less than" …
      in its clause (`NEGATION_BEFORE`: "does not cover $20M") is counted on no side;
    - totals are not added to their parts: a one-off figure followed by "over N years"
      (`HORIZON_TOTAL_AFTER`) beside a yearly figure of the same side is that figure's
      total; it is left out, and if the two disagree by more than `TOTAL_TOLERANCE` the
      check is unsure;
    - it adds up when total benefit ≥ total cost — unless the answer itself says it does
      not pay back (`SAYS_IT_DOES_NOT_PAY`) or the figures disagree: then it is *unsure*
      and says why instead of adding.
    """
    found = quantities(text) if found is None else found
    candidates = [
        q
        for q in found
        if q["kind"] == "money" or q["unit"] in ("engineer-years", "engineer-months")
    ]
    arithmetic: list[str] = []
    section = roi_section(text)
    horizon, horizon_text = _horizon(text)
    if section is not None:
        start, end, heading = section
        inside = [q for q in candidates if start <= q["start"] < end]
        if inside:
            candidates = inside
            horizon, horizon_text = _horizon(text, start, end)
            arithmetic.append(
                f'Figures read from the section "{heading}" (line {_line_of(text, start)})'
            )
    figures: list[RoiFigure] = []
    horizon_totals: dict[int, float] = {}
    classified = _classify(text, candidates)
    for index, (q, (side, cue, rule)) in enumerate(zip(candidates, classified, strict=True)):
        if q["kind"] == "money":
            amount = q["value"]
        else:
            years = q["value"] if q["unit"] == "engineer-years" else q["value"] / 12
            amount = years * ENGINEER_YEAR_USD
        per_year, period_text = _per_year(text, q)
        left, _ = _clause_bounds(text, q["start"], q["end"])
        stated_total = bool(_TOTAL.search(text[left : q["start"]]))
        note = f'classified by "{cue}"' if cue else ""
        if q["kind"] == "effort":
            note = (note + "; " if note else "") + (
                f"{q['text']} × {usd(ENGINEER_YEAR_USD)}/engineer-year = {usd(amount)}"
            )
        if per_year:
            note = (note + "; " if note else "") + f'recurs ("{period_text}")'
        excluded = ""
        tail = text[q["end"] : q["end"] + 40]
        lead = text[max(left, candidates[index - 1]["end"] if index else 0) : q["start"]]
        rate = _RATE_AFTER.match(tail) if q["kind"] == "money" and not per_year else None
        negation = _NEGATION_BEFORE.search(lead)
        total_years = _HORIZON_TOTAL_AFTER.match(tail) if not per_year else None
        if rate:
            excluded = "rate"
            note = (note + "; " if note else "") + (
                f'a rate ("{q["text"]}{rate.group(0)}"), not an amount: not added'
            )
        elif negation:
            excluded = "negated"
            note = (note + "; " if note else "") + (
                f'negated ("{negation.group(0).strip()}"): not claimed, not counted'
            )
        elif total_years:
            raw = total_years.group("n").lower()
            horizon_totals[len(figures)] = float(_WORD_NUMBERS.get(raw, raw))
        figures.append(
            {
                "text": q["text"],
                "kind": "money" if q["kind"] == "money" else "effort",
                "start": q["start"],
                "end": q["end"],
                "line": q["line"],
                "side": side,  # type: ignore[typeddict-item]
                "cue": cue,
                "rule": rule,
                "amount_usd": amount,
                "per_year": per_year,
                "stated_total": stated_total,
                "counted": False,
                "excluded": excluded,  # type: ignore[typeddict-item]
                "note": note,
            }
        )

    # An N-year total beside a yearly figure of the same side is that figure again.
    unsure: list[str] = []
    for index, total_years in horizon_totals.items():
        total = figures[index]
        recurring_figures = [f for f in figures if f["per_year"] and not f["excluded"]]

        def over_years(group: list[RoiFigure], n: float = total_years) -> float:
            return sum(f["amount_usd"] * (f["per_year"] or 0) for f in group) * n

        def agrees(amount: float, total_usd: float = total["amount_usd"]) -> bool:
            return abs(amount - total_usd) <= TOTAL_TOLERANCE * max(amount, total_usd)

        yearly = [f for f in recurring_figures if f["side"] == total["side"]]
        if total["side"] == "unclassified" or not yearly:
            # Its own cue may mislead ("… GPU spend, $4.5M over three years"): a yearly
            # figure it is exactly the total of, whatever that one's side, claims it.
            yearly = [f for f in recurring_figures if agrees(over_years([f]))][:1]
        if not yearly:
            continue
        total["excluded"] = "horizon_total"
        total["note"] = (total["note"] + "; " if total["note"] else "") + (
            f"the {total_years:g}-year total of "
            + ", ".join(f'"{f["text"]}"' for f in yearly)
            + ": not added again"
        )
        if not agrees(over_years(yearly)):
            unsure.append(
                f'"{total["text"]}" over {total_years:g} years does not match the yearly '
                f"figures ({usd(over_years(yearly))} over {total_years:g} years)"
            )

    if not figures:
        return {
            "status": "absent",
            "cost_usd": None,
            "benefit_usd": None,
            "ratio": None,
            "horizon_years": horizon,
            "horizon_assumed": False,
            "figures": [],
            "arithmetic": [],
            "verdict": "No cost or benefit figures found: say what the project cost and what "
            "it returned, in dollars or engineer-years, with a time period.",
        }

    recurring = any(
        f["per_year"] for f in figures if f["side"] != "unclassified" and not f["excluded"]
    )
    horizon_assumed = recurring and horizon is None
    years = horizon if horizon is not None else float(DEFAULT_HORIZON_YEARS)
    if recurring:
        arithmetic.append(
            f"Horizon: {years:g} years"
            + (f' ("{horizon_text}")' if horizon_text else " (assumed: the answer gives none)")
        )

    def over_horizon(figure: RoiFigure) -> float:
        if figure["per_year"]:
            return figure["amount_usd"] * figure["per_year"] * years
        return figure["amount_usd"]

    def describe(figure: RoiFigure) -> str:
        if figure["per_year"]:
            per_year = figure["amount_usd"] * figure["per_year"]
            yearly = (
                f"{usd(figure['amount_usd'])} × {figure['per_year']:g}/year = "
                if figure["per_year"] != 1
                else ""
            )
            return f"({yearly}{usd(per_year)}/year × {years:g} years = {usd(over_horizon(figure))})"
        return usd(figure["amount_usd"])

    totals: dict[str, float | None] = {}
    for side in ("cost", "benefit"):
        on_side = [f for f in figures if f["side"] == side and not f["excluded"]]
        money = [f for f in on_side if f["kind"] == "money"]
        used = money or on_side
        seen: set[tuple[float, float | None]] = set()
        distinct: list[RoiFigure] = []
        for figure in used:
            key = (figure["amount_usd"], figure["per_year"])
            if key in seen:
                figure["note"] = (figure["note"] + "; " if figure["note"] else "") + (
                    "repeats an amount already counted"
                )
                continue
            seen.add(key)
            distinct.append(figure)
        used_ids = {id(figure) for figure in used}
        for figure in on_side:
            if id(figure) not in used_ids:
                figure["note"] = (figure["note"] + "; " if figure["note"] else "") + (
                    "effort not added: money figures given for this side"
                )
        if not distinct:
            totals[side] = None
            continue
        stated = [f for f in distinct if f["stated_total"]]
        if stated:
            chosen = max(stated, key=over_horizon)
            chosen["counted"] = True
            for figure in distinct:
                if figure is not chosen:
                    figure["note"] = (figure["note"] + "; " if figure["note"] else "") + (
                        "part of the stated total"
                    )
            totals[side] = over_horizon(chosen)
            arithmetic.append(
                f"{side.capitalize()}: stated total {describe(chosen)} "
                f'("{chosen["text"]}", line {chosen["line"]})'
            )
        else:
            for figure in distinct:
                figure["counted"] = True
            total = sum(over_horizon(f) for f in distinct)
            totals[side] = total
            parts = " + ".join(describe(f) for f in distinct)
            arithmetic.append(
                f"{side.capitalize()}: {parts}" + (f" = {usd(total)}" if len(distinct) > 1 else "")
            )

    cost, benefit = totals["cost"], totals["benefit"]
    unclassified = [f for f in figures if f["side"] == "unclassified" and not f["excluded"]]
    if unclassified:
        arithmetic.append(
            "Not counted (no cost or benefit word in their sentence): "
            + ", ".join(f'"{f["text"]}"' for f in unclassified)
        )
    for reason, label in (
        ("rate", "rates, not amounts"),
        ("negated", "negated: the answer does not claim them"),
        ("horizon_total", "totals of yearly figures already counted"),
    ):
        left_out = [f for f in figures if f["excluded"] == reason]
        if left_out:
            arithmetic.append(
                f"Not counted ({label}): " + ", ".join(f'"{f["text"]}"' for f in left_out)
            )
    if cost is None or benefit is None:
        missing = "benefit" if cost is not None else "cost"
        if cost is None and benefit is None:
            missing = "cost and benefit"
        return {
            "status": "incomplete",
            "cost_usd": cost,
            "benefit_usd": benefit,
            "ratio": None,
            "horizon_years": years if recurring else horizon,
            "horizon_assumed": horizon_assumed,
            "figures": figures,
            "arithmetic": arithmetic,
            "verdict": f"No {missing} figure found: the ROI cannot be checked. Put a dollar "
            "(or engineer-year) amount on both sides, with a time period.",
        }
    ratio = round(benefit / cost, 2) if cost else None
    adds_up = benefit >= cost
    scope = text[section[0] : section[1]] if section is not None else text
    says_no = _SAYS_IT_DOES_NOT_PAY.search(scope)
    if adds_up and says_no:
        unsure.append(
            f'the answer says it does not pay back ("{says_no.group(0)}") but the figures '
            "read give more benefit than cost"
        )
    comparison = (
        f"Benefit {usd(benefit)} {'≥' if adds_up else '<'} cost {usd(cost)}"
        + (f": ratio {ratio:g}" if ratio is not None else "")
        + (f", net {usd(benefit - cost)}" if cost else "")
    )
    arithmetic.append(comparison)
    result = {
        "cost_usd": cost,
        "benefit_usd": benefit,
        "ratio": ratio,
        "horizon_years": years if recurring else horizon,
        "horizon_assumed": horizon_assumed,
        "figures": figures,
        "arithmetic": arithmetic,
    }
    if unsure:
        return {
            "status": "unsure",
            **result,
            "verdict": "Unsure, so not added up: " + "; ".join(unsure) + ". Say which "
            "figures are yearly, which are totals and which are rates, and state the "
            "comparison yourself.",
        }
    if adds_up:
        verdict = f"It adds up: {usd(benefit)} returned for {usd(cost)} spent."
    else:
        verdict = (
            f"It does not add up: {usd(benefit)} returned for {usd(cost)} spent; "
            f"{usd(cost - benefit)} short."
        )
    if horizon_assumed:
        verdict += f" (Over an assumed {DEFAULT_HORIZON_YEARS}-year horizon: state yours.)"
    return {"status": "adds_up" if adds_up else "does_not_add_up", **result, "verdict": verdict}


# --- the feedback --------------------------------------------------------------------------


class AnswerFeedback(TypedDict):
    question: int | None
    question_title: str
    words: int
    covered: int
    total: int
    checklist: list[ChecklistItem]
    quantification: Quantification
    roi: Roi
    ownership_voice: dict[str, Any]


_I = re.compile(r"\b(?:I|I'm|I've|I'd|me|my|myself)\b")
_WE = re.compile(r"\b(?:we|we're|we've|we'd|us|our|ours)\b", re.IGNORECASE)


def answer_feedback(text: str) -> dict[str, Any]:
    """The three checks on one answer's text (see the module docstring)."""
    found = quantities(text)
    items = checklist(text)
    singular, plural = len(_I.findall(text)), len(_WE.findall(text))
    return {
        "words": len(text.split()),
        "covered": sum(1 for item in items if item["covered"]),
        "total": len(items),
        "checklist": items,
        "quantification": quantification(text, found),
        "roi": roi(text, found),
        "ownership_voice": {
            "i": singular,
            "we": plural,
            "note": (
                'Mostly "we": say which parts were yours.' if plural > 2 * max(singular, 1) else ""
            ),
        },
    }


def _answer_text(answer: Answer) -> str:
    return answer.text or ""


def _feedback_of(answers: Iterable[Answer]) -> list[AnswerFeedback]:
    ordered = sorted(answers, key=lambda a: (a.question_id is not None, a.question_id or 0))
    return [
        {
            "question": answer.question_id,
            "question_title": answer.question.title if answer.question_id else "",
            **answer_feedback(_answer_text(answer)),
        }
        for answer in ordered
    ]


class DeepDiveFeedback(TypedDict):
    stage: int
    answers: list[AnswerFeedback]


def deep_dive_feedback_for_stages(stage_ids: Iterable[int]) -> dict[int, DeepDiveFeedback]:
    """Feedback for each given deep-dive stage, from one query."""
    stage_ids = list(stage_ids)
    answers: dict[int, list[Answer]] = {stage_id: [] for stage_id in stage_ids}
    for answer in Answer.objects.filter(stage_id__in=stage_ids).select_related("question"):
        answers[answer.stage_id].append(answer)
    return {
        stage_id: {"stage": stage_id, "answers": _feedback_of(stage_answers)}
        for stage_id, stage_answers in answers.items()
    }


def deep_dive_feedback(*, stage: Stage) -> DeepDiveFeedback:
    return deep_dive_feedback_for_stages([stage.pk])[stage.pk]

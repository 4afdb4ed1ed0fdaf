"""Derive the bank's Traditional Chinese (zh-Hant) text from its Simplified (zh-Hans).

    .venv/bin/python -m tools.hant [--check] [FILE ...]

The translations are written once, in Simplified Chinese; this regenerates every `zh-Hant`
block next to a `zh-Hans` block with OpenCC's `s2twp` (Taiwan standard with Taiwan phrases:
内存 → 記憶體, 服务器 → 伺服器, 线程 → 執行緒), then applies the reviewed fixes in
`FIXES` where OpenCC picks the wrong Taiwan word for our domain. Code stays untouched:
fenced blocks and `inline code` are copied as they are. Without FILE it covers every
hand-written bank file, every `tools/bankgen/i18n/<slug>.yaml` and the interface's
glossary catalogue (`DERIVED_CATALOGUES`). `--check` only
reports files whose zh-Hant is stale (the bank tests run it). A developer tool, like
`tools.bankgen`: nothing at runtime imports it.

The files are edited as text, not loaded and dumped, so that comments, key order and
block styles of the hand-written files survive.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HAND_WRITTEN = (
    "design",
    "discussion",
    "review",
    "rubrics",
    "loops",
    "deep-dive",
    "second-sitting",
    "plans",
)
LOCALES = ROOT / "frontend" / "src" / "i18n" / "locales"
#: Interface catalogues whose zh-Hant is derived the same way (the glossary's definitions).
DERIVED_CATALOGUES = ("glossary",)

#: OpenCC's Taiwan phrases are right for most text but not for every term of this domain.
#: Each entry was found by reading the converted bank (see docs/decisions.md).
FIXES: dict[str, str] = {
    "擴充套件": "擴展",  # 扩展 (an extension of the question), not an extension package
    "釋出": "發布",  # 发布 (a release), as Taiwan writes it
    "視訊記憶體": "顯示記憶體",  # 显存 is GPU memory, not video memory
    "網絡卡": "網路卡",  # 网卡 split as 网络 + 卡
    "質量": "品質",  # quality (a quality regression), not mass
    "主頁": "首頁",
    "賬": "帳",  # 对账, 算账
    "示例": "範例",
    "采集": "採集",
    "數據": "資料",  # 个数据流 split as 个数 + 据流
    "用戶": "使用者",
    "合同": "合約",
    "併發": "並行",  # concurrency
    "流式": "串流",  # streaming (output, API)
    "B 引數": "B 參數",  # a 70B-parameter model: 参数 as parameters, not arguments
    "引數變化": "參數變化",
    "字首": "前綴",  # a prompt prefix, not a word's prefix
    "字尾": "後綴",
    "啟用": "激活",  # activations (activation quantisation), not "enable"
    "分割槽": "分區",  # a network partition, not a disk partition
    "響應": "回應",
}

_BLOCK_START = re.compile(r"^(?P<indent> *)zh-Hans:\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_INLINE_CODE = re.compile(r"(`+)(?:.*?)\1", re.DOTALL)


@cache
def _converter():
    import opencc  # a developer dependency (the `dev` extra), only needed here

    return opencc.OpenCC("s2twp")


def to_hant(text: str) -> str:
    """One piece of prose: OpenCC, then the reviewed fixes."""
    converted = _converter().convert(text)
    for wrong, right in FIXES.items():
        converted = converted.replace(wrong, right)
    return converted


def convert_prose(text: str) -> str:
    """A paragraph outside code fences: convert everything but its `inline code` (which
    may run over a line break, as Markdown allows)."""
    out: list[str] = []
    last = 0
    for match in _INLINE_CODE.finditer(text):
        out.append(to_hant(text[last : match.start()]))
        out.append(match.group(0))
        last = match.end()
    out.append(to_hant(text[last:]))
    return "".join(out)


def convert_block(lines: list[str]) -> list[str]:
    """The body of a zh-Hans block, paragraph by paragraph, leaving fenced code alone."""
    out: list[str] = []
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            out.extend(convert_prose("\n".join(paragraph)).split("\n"))
            paragraph.clear()

    in_fence = False
    for line in lines:
        if _FENCE.match(line):
            flush()
            in_fence = not in_fence
            out.append(line)
        elif in_fence:
            out.append(line)
        elif not line.strip():
            flush()
            out.append(line)
        else:
            paragraph.append(line)
    flush()
    return out


def _block_end(lines: list[str], start: int, indent: int) -> int:
    """Index after the last line belonging to the mapping that starts at `start`."""
    end = start + 1
    last_content = start
    while end < len(lines):
        line = lines[end]
        if line.strip() and len(line) - len(line.lstrip(" ")) <= indent:
            break
        if line.strip():
            last_content = end
        end += 1
    return last_content + 1


def regenerate(text: str) -> str:
    """The file's text with every zh-Hant block rebuilt from the zh-Hans block above it."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        match = _BLOCK_START.match(lines[i])
        if not match:
            out.append(lines[i])
            i += 1
            continue
        indent = len(match.group("indent"))
        end = _block_end(lines, i, indent)
        body = lines[i + 1 : end]
        out.append(lines[i])
        out.extend(body)
        out.append(" " * indent + "zh-Hant:")
        out.extend(convert_block(body))
        i = end
        if i < len(lines) and lines[i] == " " * indent + "zh-Hant:":
            i = _block_end(lines, i, indent)
    return "\n".join(out)


def catalogue_text(simplified: dict) -> str:
    """The zh-Hant catalogue JSON for a zh-Hans one (ICU placeholders are ASCII: kept)."""

    def convert(value):
        if isinstance(value, dict):
            return {key: convert(item) for key, item in value.items()}
        return to_hant(value)

    return json.dumps(convert(simplified), ensure_ascii=False, indent=2) + "\n"


def regenerate_catalogues(*, write: bool) -> list[Path]:
    """The derived zh-Hant catalogues that are stale (rewritten when `write`)."""
    stale = []
    for namespace in DERIVED_CATALOGUES:
        simplified = json.loads((LOCALES / "zh-Hans" / f"{namespace}.json").read_text())
        target = LOCALES / "zh-Hant" / f"{namespace}.json"
        text = catalogue_text(simplified)
        if not target.exists() or target.read_text() != text:
            stale.append(target)
            if write:
                target.write_text(text)
    return stale


def default_files() -> list[Path]:
    files = [ROOT / "bank" / f"{name}.yaml" for name in HAND_WRITTEN]
    files += sorted((ROOT / "tools" / "bankgen" / "i18n").glob("*.yaml"))
    return files


def stale_files(files: list[Path]) -> list[Path]:
    return [path for path in files if regenerate(path.read_text()) != path.read_text()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="report stale files, write none")
    parser.add_argument("files", nargs="*", type=Path)
    args = parser.parse_args(argv)
    files = args.files or default_files()
    if args.check:
        stale = stale_files(files) + ([] if args.files else regenerate_catalogues(write=False))
        for path in stale:
            print(f"{path}: zh-Hant is stale; run python -m tools.hant", file=sys.stderr)
        return 1 if stale else 0
    for path in files:
        text = path.read_text()
        new = regenerate(text)
        if new != text:
            path.write_text(new)
            print(f"updated {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    if not args.files:
        for path in regenerate_catalogues(write=True):
            print(f"updated {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

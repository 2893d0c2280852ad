"""Display names as the server keeps them, and when two of them are the same name.

A name is kept NFKC-normalised, with control, format (bidi overrides, zero-width characters, soft hyphens) and
other invisible characters removed and runs of spaces made one; so nothing in it can break a page's layout, turn
text around or hide a difference. Two names are the same when their confusable skeletons (Unicode TR39,
"skeleton" of the case-folded name) are equal: "Anna", "ANNA" with a Cyrillic A (U+0410), "Anna" with a
zero-width space inside and "Anna" with a Greek Alpha are one name, and so are "rn" and "m". The skeleton is
ICU's (`SpoofChecker.getSkeleton`, through PyICU), the reference implementation of TR39's confusables data.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

import icu  # type: ignore[import-untyped]

# Characters that draw nothing or draw as space, though not of a category removed below (Hangul fillers, braille
# blank, Khmer vowels inherent).
_BLANK = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u17b4", "\u17b5"}
_SPOOF = icu.SpoofChecker()


def display_name(name: str) -> str:
    """The name as it is kept and shown: NFKC, no control, format or invisible characters, spaces collapsed."""
    text = unicodedata.normalize("NFKC", name)
    out: list[str] = []
    for c in text:
        if c.isspace():
            out.append(" ")  # (tabs and line breaks too: a name is one line)
            continue
        if unicodedata.category(c) in ("Cc", "Cf", "Co", "Cs", "Cn") or c in _BLANK:
            continue  # (control, format: bidi and zero-width; private use, surrogates, unassigned)
        out.append(c)
    return " ".join("".join(out).split())


@lru_cache(maxsize=4096)
def name_key(name: str) -> str:
    """What "the same name" is judged on: the TR39 skeleton of the case-folded display name."""
    return str(_SPOOF.getSkeleton(0, display_name(name).casefold())).casefold()  # (the skeleton maps 0 to O)


def same_name(a: str, b: str) -> bool:
    return name_key(a) == name_key(b)

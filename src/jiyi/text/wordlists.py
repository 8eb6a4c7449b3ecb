"""Word lists written as text: ``words("的 了 吗")``, and the lexicons kept as data files (``data/*.tsv``).

Stopword and lexicon lists run to hundreds of entries; a block of space-separated
words is easier to read and review than a list literal of quoted strings.
"""

from __future__ import annotations

from pathlib import Path

_DATA = Path(__file__).parent / "data"

#: English job titles, as a regex alternation (the longer ones first)
EN_JOB_TITLES = (
    "software engineer|data scientist|product manager|police officer|social worker|grad student|phd student|"
    "stay-at-home mom|stay-at-home dad|engineer|developer|programmer|teacher|nurse|doctor|student|designer|lawyer|"
    "accountant|manager|writer|artist|chef|cook|driver|pilot|scientist|researcher|professor|consultant|analyst|"
    "architect|photographer|musician|dentist|pharmacist|therapist|counselor|psychologist|journalist|editor|banker|"
    "farmer|firefighter|soldier|veteran|electrician|plumber|mechanic|carpenter|salesperson|marketer|entrepreneur|"
    "freelancer|founder|ceo|cto|intern|barista|waiter|waitress|cashier|librarian|veterinarian|paramedic|surgeon|"
    "translator|tutor|coach|instructor|retiree|homemaker|nanny|painter|dancer|actor|actress|singer|youtuber|streamer"
)



def words(text: str) -> frozenset[str]:
    """The whitespace-separated words of ``text`` as a frozenset."""
    return frozenset(text.split())


def word_list(text: str) -> list[str]:
    """The whitespace-separated words of ``text``, in order (for regex alternations)."""
    return text.split()


def data_rows(name: str) -> list[list[str]]:
    """The rows of the tab-separated lexicon ``data/<name>`` (kinds.tsv, kin.tsv, changes.tsv), without its
    ``#`` comment lines, blank lines and header (the first line that is neither)."""
    lines = [line for line in (_DATA / name).read_text(encoding="utf-8").splitlines()
             if line and not line.startswith("#")]
    return [line.split("\t") for line in lines[1:]]

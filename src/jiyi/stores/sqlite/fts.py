"""FTS5 keyword index helpers: per-user scope tokens and safe MATCH expressions.

The pipeline hands us pre-tokenized text (jieba for Chinese) joined by spaces, and
the ``unicode61`` tokenizer splits it back on those spaces. Each FTS row also holds
an opaque per-user token in the ``scope_key`` column; every query ANDs it in, so
FTS5 intersects posting lists inside the user's own rows instead of ranking the
whole table and filtering afterwards. The tenant/user columns are still checked in
SQL (the token is a hash, and a hash is not a security boundary).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence


def scope_key(tenant: str, user_id: str) -> str:
    """An FTS5-safe single token for one (tenant, user_id)."""
    digest = hashlib.blake2b(f"{tenant}\x00{user_id}".encode(), digest_size=12).hexdigest()
    return "s" + digest


def match_expression(tenant: str, user_id: str, tokens: Sequence[str]) -> str | None:
    """``scope_key:"k" AND keywords:("t1" OR "t2")``, or None when no token can match.

    Each token is a quoted FTS5 string (inner quotes doubled), so user text such as
    ``AND``, ``NEAR(`` or ``"`` is searched for, never parsed as query syntax. Tokens
    without a letter or digit would tokenize to nothing and are dropped.
    """
    quoted: list[str] = []
    seen: set[str] = set()
    for tok in tokens:
        tok = tok.strip()
        if not tok or not any(ch.isalnum() for ch in tok) or tok in seen:
            continue
        seen.add(tok)
        quoted.append('"' + tok.replace('"', '""') + '"')
    if not quoted:
        return None
    return f'scope_key:"{scope_key(tenant, user_id)}" AND keywords:({" OR ".join(quoted)})'

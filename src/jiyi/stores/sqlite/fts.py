"""FTS5 keyword index helpers: the per-user scope token of each FTS row.

The pipeline hands us pre-tokenized text (jieba for Chinese) joined by spaces, and
the ``unicode61`` tokenizer splits it back on those spaces. FTS5 is the durable
keyword index; searches are answered from per-user in-memory postings loaded from
it (:mod:`~jiyi.stores.sqlite.textindex`), so no query walks other users' posting
lists. Each FTS row also holds an opaque per-user token in the ``scope_key`` column,
which keeps ad-hoc ``MATCH`` queries (``scope_key:"s…" AND keywords:…``) per user.
"""

from __future__ import annotations

import hashlib


def scope_key(tenant: str, user_id: str) -> str:
    """An FTS5-safe single token for one (tenant, user_id)."""
    digest = hashlib.blake2b(f"{tenant}\x00{user_id}".encode(), digest_size=12).hexdigest()
    return "s" + digest

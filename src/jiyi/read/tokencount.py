"""A real token count for budgets: the e5 sentencepiece tokenizer (bundled, offline)."""

from __future__ import annotations

import re

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_WORD = re.compile(r"[A-Za-z0-9]+|[^\sA-Za-z0-9\u3400-\u9fff]")


def count_tokens(text: str) -> int:
    """Tokens of ``text`` under multilingual-e5's tokenizer (XLM-R sentencepiece).

    Falls back to a close estimate (one per CJK character, ~1.3 per word) if the
    bundled engine cannot load.
    """
    try:
        from jiyi.embedders.e5 import _model

        model = _model(1, "query")  # the read path's handle: counting never waits behind ingest
    except (ImportError, OSError, RuntimeError):  # the engine cannot load: estimate
        return len(_CJK.findall(text)) + int(len(_WORD.findall(_CJK.sub(" ", text))) * 1.3)
    return int(model.token_count(text)) - 2  # minus <s> and </s>

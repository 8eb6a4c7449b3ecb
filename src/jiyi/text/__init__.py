"""The offline text layer: Chinese first, English equal.

- :mod:`~jiyi.text.zh` — jieba, loaded lazily and quietly, with a user-dictionary hook
- :mod:`~jiyi.text.tokens` — :func:`tokenize` / :func:`keywords_text`, one tokenizer for
  the keyword index and for queries
- :mod:`~jiyi.text.smalltalk` — :func:`is_smalltalk` (你好 / 谢谢 / ok / 👍)
- :mod:`~jiyi.text.signals` — :func:`has_memory_signal` (记住 / 我叫 / remember / always)
- :mod:`~jiyi.text.language` — :func:`detect_language` ("zh" or "en")
- :mod:`~jiyi.text.person` — first person → third person (我 → 用户, I love → User loves)
- :mod:`~jiyi.text.entities` — names, places, organisations, codes and numbers
- :mod:`~jiyi.text.relations` — relation words, given names, pronoun genders

Nothing here imports jieba until a function needs it.
"""

from jiyi.text.language import detect_language
from jiyi.text.signals import has_memory_signal
from jiyi.text.smalltalk import is_smalltalk
from jiyi.text.tokens import keywords_text, tokenize

__all__ = ["detect_language", "has_memory_signal", "is_smalltalk", "keywords_text", "tokenize"]

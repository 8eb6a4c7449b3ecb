"""Adapters for agent frameworks; each module needs its extra (``jiyi[langchain]``)."""

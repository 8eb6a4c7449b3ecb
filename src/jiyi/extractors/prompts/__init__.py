"""Prompts for LLM tasks, one module per task: a prompt function and a pydantic reply model.

Every prompt puts untrusted text (conversation, a broken reply) inside a fence from
:mod:`jiyi.extractors.prompts.fence` and tells the model it is data, not instructions.
"""

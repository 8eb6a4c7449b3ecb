"""The one LLM client: any OpenAI-compatible ``/v1/chat/completions`` endpoint.

OpenAI, DeepSeek, Qwen/DashScope, SiliconFlow, Ollama and vLLM all speak this API, so
jiyi has no per-vendor module (see :mod:`jiyi.llms.presets` for their URLs). Retries,
backoff, the concurrency limit and error mapping come from :class:`~jiyi.llms.endpoint.Endpoint`;
this module builds the request and reads the answer.

JSON mode: ``complete(..., json_mode=True)`` sends ``response_format={"type": "json_object"}``.
Some servers (older vLLM and Ollama builds, some proxies) reject that field with a 400;
the client then repeats the call without it, remembers that for later calls
(``supports_json_mode`` becomes False) and relies on the prompt asking for JSON.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from jiyi.errors import ConfigError, ProviderBadOutput
from jiyi.llms.endpoint import Endpoint, ProviderRejected, RetryPolicy, UsageMeter, read_usage
from jiyi.llms.presets import resolve_base_url
from jiyi.llms.protocol import Completion, Usage

if TYPE_CHECKING:
    import httpx

    from jiyi.config import Settings

log = logging.getLogger("jiyi.llms.openai_compat")

_JSON_MODE_REJECTED = (400, 415, 422)


class OpenAICompatLLM:
    """A chat model behind an OpenAI-compatible endpoint (implements :class:`~jiyi.llms.protocol.LLM`).

    ``usage`` is the running total over every call of this client (thread-safe);
    each :class:`Completion` carries its own. ``extra_body`` is merged into every
    request, for vendor switches such as DashScope's ``{"enable_thinking": False}``.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        *,
        timeout: float = 30.0,
        max_retries: int = 3,
        concurrency: int = 4,
        backoff: float = 0.5,
        json_mode: bool = True,
        extra_body: Mapping[str, Any] | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        if not model:
            raise ConfigError("an LLM model name is needed: set JIYI_LLM_MODEL")
        self.model = model
        self.supports_json_mode = json_mode
        self._extra = dict(extra_body or {})
        self._endpoint = Endpoint(
            base_url,
            api_key,
            timeout=timeout,
            retry=RetryPolicy(max_retries=max(0, max_retries), base_delay=backoff),
            concurrency=concurrency,
            setting="JIYI_LLM",
            transport=transport,
        )
        self._meter = UsageMeter()

    @property
    def base_url(self) -> str:
        return self._endpoint.base_url

    @property
    def usage(self) -> Usage:
        """Tokens used by every call so far."""
        return self._meter.total

    @property
    def calls(self) -> int:
        """Calls that returned an answer (failed calls are not counted)."""
        return self._meter.calls

    def reset_usage(self) -> None:
        self._meter.reset()

    def close(self) -> None:
        self._endpoint.close()

    def __enter__(self) -> OpenAICompatLLM:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def complete(
        self,
        messages: Sequence[dict[str, str]],
        *,
        json_mode: bool = False,
        temperature: float = 0.0,
        max_tokens: int | None = None,
    ) -> Completion:
        """One chat completion. Raises ProviderUnavailable, ProviderRejected or ProviderBadOutput."""
        payload = self._payload(messages, temperature, max_tokens)
        use_json = json_mode and self.supports_json_mode
        if use_json:
            payload["response_format"] = {"type": "json_object"}
        try:
            data = self._endpoint.post_json("chat/completions", payload)
        except ProviderRejected as exc:
            if not use_json or exc.status_code not in _JSON_MODE_REJECTED:
                raise
            log.info(
                "%s rejected response_format (HTTP %d); retrying without JSON mode",
                self.base_url,
                exc.status_code,
            )
            self.supports_json_mode = False
            del payload["response_format"]
            data = self._endpoint.post_json("chat/completions", payload)
        completion = Completion(
            _message_text(data, self.base_url),
            read_usage(data),
            str(data.get("model") or self.model),
        )
        self._meter.add(completion.usage)
        return completion

    def stream(
        self,
        messages: Sequence[dict[str, str]],
        *,
        temperature: float = 0.0,
        max_tokens: int | None = None,
    ) -> Iterator[str]:
        """Yield the answer's text as it arrives (server-sent events).

        Usage is asked for with ``stream_options.include_usage`` and added to the
        totals when the server sends it; it cannot appear in a per-call Completion.
        """
        payload = self._payload(messages, temperature, max_tokens)
        payload["stream_options"] = {"include_usage": True}
        usage = Usage()
        for event in self._endpoint.stream_events("chat/completions", payload):
            if isinstance(event.get("usage"), dict):
                usage = read_usage(event)
            for choice in event.get("choices") or ():
                if not isinstance(choice, dict):
                    continue
                part = choice.get("delta") or choice.get("message")  # message: stream ignored
                text = part.get("content") if isinstance(part, dict) else None
                if isinstance(text, str) and text:
                    yield text
        self._meter.add(usage)

    def _payload(
        self, messages: Sequence[dict[str, str]], temperature: float, max_tokens: int | None
    ) -> dict[str, Any]:
        payload: dict[str, Any] = {
            **self._extra,
            "model": self.model,
            "messages": [dict(m) for m in messages],
            "temperature": temperature,
        }
        if max_tokens is not None:
            payload["max_tokens"] = max_tokens
        return payload


def _message_text(data: Mapping[str, Any], where: str) -> str:
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise ProviderBadOutput(f"{where} answered without choices: {str(data)[:200]}")
    choice = choices[0]
    message = choice.get("message")
    if not isinstance(message, dict):
        raise ProviderBadOutput(f"{where} answered a choice without a message")
    content = message.get("content")
    if isinstance(content, str) and content:
        return content
    if message.get("refusal"):
        raise ProviderBadOutput(f"the model refused: {str(message['refusal'])[:200]}")
    raise ProviderBadOutput(
        f"{where} answered with empty content (finish_reason={choice.get('finish_reason')!r}); "
        "the model may not support this request"
    )


def from_settings(settings: Settings) -> OpenAICompatLLM:
    """Build the client from ``JIYI_LLM_*`` settings (``llm_base_url`` may be a preset name)."""
    missing = [
        name
        for name, value in (
            ("JIYI_LLM_BASE_URL", settings.llm_base_url),
            ("JIYI_LLM_MODEL", settings.llm_model),
        )
        if not value
    ]
    if missing:
        raise ConfigError(
            f"the LLM is not configured: set {' and '.join(missing)} "
            "(e.g. JIYI_LLM_BASE_URL=https://api.deepseek.com/v1 JIYI_LLM_MODEL=deepseek-chat; "
            "presets: openai, deepseek, qwen, siliconflow, ollama, vllm)"
        )
    assert settings.llm_base_url is not None and settings.llm_model is not None
    return OpenAICompatLLM(
        resolve_base_url(settings.llm_base_url),
        settings.llm_model,
        settings.llm_api_key,
        timeout=settings.llm_timeout,
        max_retries=settings.llm_max_retries,
        concurrency=settings.llm_concurrency,
    )

"""One OpenAI-compatible HTTP endpoint: retries, backoff, concurrency, usage, error mapping.

The chat client (:mod:`jiyi.llms.openai_compat`) and the embeddings client
(:mod:`jiyi.embedders.openai_compat`) both POST JSON to ``{base_url}/...`` with a
bearer key. Everything that keeps them well-behaved against a rate-limited or flaky
server lives here once, so the two clients only build payloads and read answers:

* at most ``concurrency`` requests in flight per endpoint (a semaphore, released
  while we back off, so a sleeping retry does not hold a slot);
* timeouts, connection errors, 408, 429 and 5xx are retried with exponential backoff
  and jitter; a ``Retry-After`` (or OpenAI's ``retry-after-ms``) header is honoured;
* the last failure becomes :class:`~jiyi.errors.ProviderUnavailable`; a request the
  server refuses (other 4xx) becomes :class:`ProviderRejected` at once, since sending
  it again cannot help. Messages name the ``JIYI_*`` setting to check.
"""

from __future__ import annotations

import json
import logging
import random
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any

from jiyi.errors import (
    ConfigError,
    MissingDependency,
    ProviderBadOutput,
    ProviderError,
    ProviderUnavailable,
)
from jiyi.llms.protocol import Usage

try:
    import httpx
except ImportError as exc:  # httpx is in the `llm` extra, not in the core dependencies
    raise MissingDependency("the OpenAI-compatible LLM and embedding clients", "llm") from exc

log = logging.getLogger("jiyi.llms.endpoint")

RETRY_STATUS = frozenset({408, 409, 425, 429})  # plus every 5xx
_SUFFIXES = ("/chat/completions", "/embeddings", "/completions")


class ProviderRejected(ProviderError):
    """The server refused the request (a 4xx other than 408/409/425/429): retrying will not help."""

    def __init__(self, message: str, status_code: int, body: str) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.body = body


@dataclass(slots=True, frozen=True)
class RetryPolicy:
    """How long to wait between attempts. ``max_retries`` counts retries, not attempts."""

    max_retries: int = 3
    base_delay: float = 0.5
    max_delay: float = 20.0
    max_retry_after: float = 60.0  # a server asking for a longer pause is reported, not obeyed

    def delay(self, attempt: int, retry_after: float | None) -> float:
        """Seconds before retry number ``attempt + 1``.

        Without a hint: "equal jitter" exponential backoff, so that many clients that
        failed together do not retry together. With ``Retry-After``: at least what the
        server asked, plus up to 10 % so a crowd does not return on the same tick.
        """
        if retry_after is not None:
            return retry_after + random.uniform(0.0, min(1.0, retry_after * 0.1))
        cap = min(self.max_delay, self.base_delay * (2.0**attempt))
        return cap / 2 + random.uniform(0.0, cap / 2)


class UsageMeter:
    """Thread-safe running totals of token usage and calls."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._prompt = 0
        self._completion = 0
        self._calls = 0

    def add(self, usage: Usage) -> None:
        with self._lock:
            self._prompt += usage.prompt_tokens
            self._completion += usage.completion_tokens
            self._calls += 1

    @property
    def total(self) -> Usage:
        with self._lock:
            return Usage(self._prompt, self._completion)

    @property
    def calls(self) -> int:
        with self._lock:
            return self._calls

    def reset(self) -> None:
        with self._lock:
            self._prompt = self._completion = self._calls = 0


def read_usage(data: Mapping[str, Any]) -> Usage:
    """The ``usage`` block of an OpenAI-style answer; zeros when a server omits it."""
    raw = data.get("usage")
    if not isinstance(raw, Mapping):
        return Usage()
    prompt = raw.get("prompt_tokens")
    completion = raw.get("completion_tokens")
    return Usage(
        prompt if isinstance(prompt, int) else 0,
        completion if isinstance(completion, int) else 0,
    )


def normalize_base_url(base_url: str) -> str:
    """Strip a trailing slash or a pasted endpoint path (``.../v1/chat/completions`` → ``.../v1``)."""
    url = base_url.strip().rstrip("/")
    if not url.startswith(("http://", "https://")):
        raise ConfigError(f"base URL {base_url!r} must start with http:// or https://")
    for suffix in _SUFFIXES:
        if url.endswith(suffix):
            return url[: -len(suffix)]
    return url


class _Retryable(Exception):
    def __init__(self, reason: str, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after


class Endpoint:
    """An OpenAI-compatible base URL with a key, a timeout, a retry policy and a concurrency limit.

    ``setting`` is the prefix of the settings that configure it (``JIYI_LLM`` or
    ``JIYI_EMBEDDER``), used only to make error messages say what to change.
    ``transport`` and ``sleep`` exist for tests (an ``httpx.MockTransport``, a
    recording sleep); production code leaves them alone.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        *,
        timeout: float = 30.0,
        retry: RetryPolicy | None = None,
        concurrency: int = 4,
        setting: str = "JIYI_LLM",
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base_url = normalize_base_url(base_url)
        self.timeout = timeout
        self.retry = retry or RetryPolicy()
        self.setting = setting
        self._sleep = sleep
        self._slots = threading.BoundedSemaphore(max(1, concurrency))
        headers = {"Accept": "application/json", "User-Agent": "jiyi"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        self._client = httpx.Client(
            headers=headers,
            timeout=httpx.Timeout(timeout),
            transport=transport,
            limits=httpx.Limits(max_connections=max(1, concurrency)),
        )

    def close(self) -> None:
        self._client.close()

    def url(self, path: str) -> str:
        return f"{self.base_url}/{path.lstrip('/')}"

    def post_json(self, path: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        """POST ``payload``; the decoded JSON object of the answer (retried as the module says)."""
        request = self._client.build_request("POST", self.url(path), json=payload)
        response = self._with_retries(request, stream=False)
        return _json_object(response, str(request.url), self.setting)

    def stream_events(self, path: str, payload: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
        """POST with ``stream: true`` and yield each server-sent ``data:`` JSON event.

        Retries happen only before the first byte arrives: a stream that broke halfway
        cannot be replayed without duplicating output, so it raises ProviderUnavailable.
        One concurrency slot is held for the whole stream.
        """
        request = self._client.build_request(
            "POST", self.url(path), json={**payload, "stream": True}
        )
        with self._slots:
            response = self._with_retries(request, stream=True, hold_slot=False)
            try:
                if "text/event-stream" not in response.headers.get("content-type", ""):
                    # The server ignored ``stream``: one plain JSON answer stands for the stream.
                    response.read()
                    yield _json_object(response, str(request.url), self.setting)
                    return
                yield from _sse_events(response, str(request.url))
            except httpx.HTTPError as exc:
                raise ProviderUnavailable(f"stream from {request.url} broke: {exc!r}") from exc
            finally:
                response.close()

    def _with_retries(
        self, request: httpx.Request, *, stream: bool, hold_slot: bool = True
    ) -> httpx.Response:
        attempts = self.retry.max_retries + 1
        reason = ""
        for attempt in range(attempts):
            try:
                return self._attempt(request, stream=stream, hold_slot=hold_slot)
            except _Retryable as exc:
                reason = exc.reason
                if exc.retry_after is not None and exc.retry_after > self.retry.max_retry_after:
                    raise ProviderUnavailable(
                        f"{request.url}: {reason}; the server asks to wait {exc.retry_after:g}s, "
                        f"more than the {self.retry.max_retry_after:g}s we allow. Try again later "
                        f"or use a key with a higher rate limit ({self.setting}_API_KEY)."
                    ) from None
                if attempt + 1 < attempts:
                    wait = self.retry.delay(attempt, exc.retry_after)
                    log.debug(
                        "%s: %s; retry %d/%d in %.2fs",
                        request.url,
                        reason,
                        attempt + 1,
                        attempts - 1,
                        wait,
                    )
                    self._sleep(wait)
        tries = f"{attempts} attempt" + ("s" if attempts != 1 else "")
        raise ProviderUnavailable(
            f"{request.url}: {reason} (gave up after {tries}). " + self._hint(reason)
        )

    def _attempt(self, request: httpx.Request, *, stream: bool, hold_slot: bool) -> httpx.Response:
        try:
            if hold_slot:
                with self._slots:
                    response = self._client.send(request, stream=stream)
            else:
                response = self._client.send(request, stream=stream)
        except httpx.TimeoutException as exc:
            raise _Retryable(f"timed out after {self.timeout:g}s ({type(exc).__name__})") from exc
        except httpx.TransportError as exc:
            raise _Retryable(f"connection failed ({type(exc).__name__}: {exc})") from exc
        status = response.status_code
        if status < 400:
            return response
        body = _body_text(response)
        if status in RETRY_STATUS or status >= 500:
            raise _Retryable(f"HTTP {status} {body[:160]!r}", _retry_after(response.headers))
        raise ProviderRejected(
            f"{request.url} refused the request: HTTP {status} {body[:300]!r}. {self._advice(status)}",
            status,
            body,
        )

    def _hint(self, reason: str) -> str:
        if reason.startswith("timed out"):
            return "Is the server overloaded? Raise JIYI_LLM_TIMEOUT or JIYI_LLM_MAX_RETRIES."
        if reason.startswith("connection"):
            return f"Is the server running, and is {self.setting}_BASE_URL right ({self.base_url})?"
        if reason.startswith("HTTP 429"):
            return "Rate limited: lower JIYI_LLM_CONCURRENCY or raise the provider's limit."
        return "The provider is failing; try again later."

    def _advice(self, status: int) -> str:
        if status in (401, 403):
            return f"Check {self.setting}_API_KEY."
        if status == 404:
            return f"Check {self.setting}_BASE_URL (usually ends in /v1) and {self.setting}_MODEL."
        return f"Check {self.setting}_MODEL and what this server supports."


def _json_object(response: httpx.Response, url: str, setting: str) -> dict[str, Any]:
    try:
        data = response.json()
    except ValueError as exc:
        raise ProviderBadOutput(
            f"{url} answered HTTP {response.status_code} with a body that is not JSON "
            f"({response.text[:120]!r}); is {setting}_BASE_URL an OpenAI-compatible /v1 URL?"
        ) from exc
    if not isinstance(data, dict):
        raise ProviderBadOutput(f"{url} answered JSON that is not an object")
    return data


def _body_text(response: httpx.Response) -> str:
    try:
        response.read()
        return response.text
    except httpx.HTTPError:
        return ""
    finally:
        response.close()


def _retry_after(headers: httpx.Headers) -> float | None:
    """Seconds from ``retry-after-ms`` or ``Retry-After`` (seconds or an HTTP date)."""
    millis = headers.get("retry-after-ms")
    if millis:
        try:
            return max(0.0, float(millis) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _sse_events(response: httpx.Response, url: str) -> Iterator[dict[str, Any]]:
    for line in response.iter_lines():
        if not line.startswith("data:"):
            continue  # comments, event:/id: fields, keep-alives
        data = line[5:].strip()
        if data == "[DONE]":
            return
        try:
            event = json.loads(data)
        except ValueError as exc:
            raise ProviderBadOutput(
                f"{url} streamed an event that is not JSON: {data[:120]!r}"
            ) from exc
        if isinstance(event, dict):
            yield event

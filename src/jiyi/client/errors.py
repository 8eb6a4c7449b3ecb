"""Errors only the service has; everything else comes back as the class ``Memory`` raises.

    JiyiError
    └── ServiceError          the service answered with an error Memory has no class for
        ├── AuthError         401/403: the API key is missing, wrong, revoked or not allowed
        ├── RateLimited       429: wait ``retry_after`` seconds
        └── ServiceUnavailable the service could not be reached (refused, timeout)
"""

from __future__ import annotations

from jiyi.errors import JiyiError


class ServiceError(JiyiError):
    """The service answered with an error that has no counterpart in ``Memory``."""

    def __init__(self, message: str, *, status: int = 0, code: str = "service_error") -> None:
        super().__init__(message)
        self.status, self.code = status, code


class AuthError(ServiceError):
    """The API key is missing, wrong or revoked (401), or not allowed (403)."""


class RateLimited(ServiceError):
    """Too many requests for this key; ``retry_after`` says how many seconds to wait."""

    def __init__(self, message: str, *, status: int = 429, code: str = "rate_limited",
                 retry_after: float = 1.0) -> None:
        super().__init__(message, status=status, code=code)
        self.retry_after = retry_after


class ServiceUnavailable(ServiceError):
    """The service could not be reached (connection refused, timeout): is ``jiyi serve`` running?"""

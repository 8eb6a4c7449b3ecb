"""API key → tenant, as FastAPI dependencies.

A request carries its key as ``Authorization: Bearer <key>`` or ``X-API-Key: <key>``.
The key decides the tenant; nothing in the request can choose another one, so a
tenant never reaches another tenant's users. Inside the tenant, ``user_id`` scopes
every call (the store enforces both).

With ``insecure_no_auth`` (only for a server on a trusted machine) no key is asked
for and every request is the configured default tenant; the rate limit then counts
per client address.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from jiyi.memory import Memory
from jiyi.server.errors import ServiceError, rate_limited, unauthorized
from jiyi.server.keys import KeyStore
from jiyi.server.metrics import Metrics
from jiyi.server.ratelimit import RateLimiter
from jiyi.server.tenants import TenantPool


@dataclass(slots=True)
class ServerState:
    """What the routes need, kept on ``app.state.jiyi``."""

    pool: TenantPool
    keys: KeyStore | None
    limiter: RateLimiter
    metrics: Metrics
    default_tenant: str
    insecure: bool = False
    operators: frozenset[str] = frozenset()  # tenants whose keys read every tenant's figures


@dataclass(slots=True, frozen=True)
class Principal:
    """Who is calling: the tenant, and the key id (or client address) for rate limiting and logs."""

    tenant: str
    key_id: str


def server_state(request: Request) -> ServerState:
    state: ServerState = request.app.state.jiyi
    return state


bearer_scheme = HTTPBearer(auto_error=False, scheme_name="bearer",
                           description="`Authorization: Bearer <key>` with a key from `jiyi keys create`.")
header_scheme = APIKeyHeader(name="X-API-Key", auto_error=False, scheme_name="apiKey",
                             description="The same key in an `X-API-Key` header.")


def authenticate(request: Request,
                 bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer_scheme)] = None,
                 header_key: Annotated[str | None, Depends(header_scheme)] = None) -> Principal:
    """Resolve the caller's tenant and spend one token of its rate limit (401 / 429 otherwise)."""
    state = server_state(request)
    if state.insecure or state.keys is None:
        host = request.client.host if request.client else "unknown"
        principal = Principal(state.default_tenant, f"addr:{host}")
    else:
        token = (bearer.credentials.strip() if bearer else None) or (header_key or "").strip() or None
        if token is None:
            raise unauthorized("missing API key: send 'Authorization: Bearer <key>' (create one with "
                               "`jiyi keys create --tenant NAME`)")
        key = state.keys.verify(token)
        if key is None:
            raise unauthorized("invalid or revoked API key")
        principal = Principal(key.tenant, key.id)
    wait = state.limiter.take(principal.key_id)
    if wait > 0:
        raise rate_limited(wait)
    request.state.principal = principal
    return principal


def tenant_memory(request: Request, principal: Annotated[Principal, Depends(authenticate)]) -> Memory:
    """The caller's tenant's Memory (every data route depends on this)."""
    return server_state(request).pool.get(principal.tenant)


MemoryDep = Annotated[Memory, Depends(tenant_memory)]


def operator(request: Request, principal: Annotated[Principal, Depends(authenticate)]) -> Principal:
    """Only an operator credential (a key of an operator tenant) passes: 403 otherwise."""
    state = server_state(request)
    if not state.insecure and principal.tenant not in state.operators:
        raise ServiceError(403, "forbidden", "this needs an operator key (a key of an operator tenant: "
                                             "`jiyi serve --operator-tenant NAME`)")
    return principal

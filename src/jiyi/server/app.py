"""The FastAPI application factory: ``create_app(settings, options)``.

The app holds no data of its own: every route resolves the caller's tenant from its
API key and calls that tenant's ``Memory``. The store and the model are opened when
the app starts (lifespan), not when it is built, so building the app is cheap (the
OpenAPI document is generated that way) and a bad configuration fails at start.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from starlette.middleware.cors import CORSMiddleware

from jiyi import __version__
from jiyi.clock import Clock
from jiyi.config import Settings
from jiyi.errors import ConfigError
from jiyi.maintain.schedule import for_store
from jiyi.server.auth import ServerState, authenticate
from jiyi.server.errors import install_error_handlers
from jiyi.server.keys import KeyStore
from jiyi.server.limits import BodyLimitMiddleware
from jiyi.server.metrics import Metrics, MetricsMiddleware
from jiyi.server.ratelimit import RateLimiter
from jiyi.server.routes import ERRORS, admin, context, memories
from jiyi.server.tenants import TenantPool
from jiyi.web import SecretFile
from jiyi.web import build_router as build_panel

log = logging.getLogger("jiyi.server")

DESCRIPTION = """Long-term memory for chatbots and agents, as a service.

Every `/v1` route and `/metrics` need an API key (`Authorization: Bearer <key>` or
`X-API-Key: <key>`), created with `jiyi keys create --tenant NAME`. The key decides the
tenant; `user_id` picks the user inside it. Errors are JSON with a stable code:
`{"error": {"code": "not_found", "message": "..."}}`.
"""


@dataclass(slots=True, frozen=True)
class ServerOptions:
    """How the service runs (the memory engine itself is configured by ``Settings``).

    ``rate_limit`` is requests per second per API key (0 = unlimited) with bursts up
    to ``rate_burst``; ``max_body_bytes`` caps request bodies (413 beyond);
    ``cors_origins`` is empty by default, which leaves CORS off (browsers on other
    origins cannot call the API). ``keys_path`` defaults to ``$JIYI_HOME/keys.db``.
    ``operator_tenants``: whose keys may read ``/metrics``.
    """

    worker: bool = True
    insecure_no_auth: bool = False
    keys_path: Path | None = None
    rate_limit: float = 50.0
    rate_burst: int = 100
    max_body_bytes: int = 2 * 1024 * 1024
    cors_origins: tuple[str, ...] = ()
    #: Keys of these tenants are operator credentials: they read ``/metrics`` (every
    #: tenant's figures). Empty: the configured default tenant's keys.
    operator_tenants: tuple[str, ...] = ()


def create_app(settings: Settings | None = None, options: ServerOptions | None = None, *,
               keys: KeyStore | None = None, clock: Clock | None = None) -> FastAPI:
    """Build the app. Raises ConfigError when no API key exists, unless ``insecure_no_auth``."""
    settings = settings or Settings(**{})  # environment and config file (mypy sees no pydantic defaults)
    options = options or ServerOptions()
    if options.insecure_no_auth:
        keys = None
    else:
        keys = keys or KeyStore(options.keys_path or settings.home / "keys.db")
        if keys.active_count() == 0:
            raise ConfigError(f"no API keys in {keys.path}: create one with `jiyi keys create --tenant NAME` "
                              "(or run without auth on a trusted machine with --insecure-no-auth)")
    pool = TenantPool(settings, clock=clock, worker=options.worker)
    state = ServerState(pool=pool, keys=keys, limiter=RateLimiter(options.rate_limit, options.rate_burst),
                        metrics=Metrics(), default_tenant=settings.tenant, insecure=options.insecure_no_auth,
                        operators=frozenset(options.operator_tenants or (settings.tenant,)))
    _register_gauges(state)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if options.insecure_no_auth:
            log.warning("authentication is OFF (--insecure-no-auth): every request is tenant %r", settings.tenant)
        gc_schedule = for_store(pool.open().store, settings, clock=clock)  # gc by itself (maintain/schedule.py)
        log.info("jiyi serving store %s (worker %s)", settings.store_backend(), "on" if options.worker else "off")
        try:
            if gc_schedule is not None:
                gc_schedule.start()
            yield
        finally:
            if gc_schedule is not None:
                gc_schedule.stop()
            pool.close()

    app = _fastapi(title="jiyi", version=__version__, description=DESCRIPTION, lifespan=lifespan)
    app.state.jiyi = state
    install_error_handlers(app)
    for router in (memories.router, context.router, admin.router, admin.ops):
        app.include_router(router)
    app.include_router(build_panel(pool.get, keys, SecretFile.in_home(settings.home), api_auth=authenticate,
                                   default_tenant=settings.tenant, clock=clock),
                       responses=ERRORS)  # web panel /ui + POST /v1/ui-links
    # add_middleware wraps: the last one added is the outermost.
    app.add_middleware(BodyLimitMiddleware, max_bytes=options.max_body_bytes)
    if options.cors_origins:
        app.add_middleware(CORSMiddleware, allow_origins=list(options.cors_origins), allow_credentials=False,
                           allow_methods=["GET", "POST", "PATCH", "DELETE"],
                           allow_headers=["Authorization", "X-API-Key", "Content-Type"])
    app.add_middleware(MetricsMiddleware, metrics=state.metrics)
    return app


#: Where the Swagger UI / ReDoc scripts and styles are served from (fastapi-offline ships them).
DOCS_ASSETS = "/docs-assets"


def _fastapi(**kwargs: Any) -> FastAPI:
    """The app with ``/docs`` and ``/redoc`` whose scripts come from this server, not a CDN (they
    work offline); without ``fastapi-offline`` both pages are off (``/openapi.json`` stays)."""
    try:
        from fastapi_offline import FastAPIOffline
    except ImportError:
        log.warning("fastapi-offline is not installed: /docs and /redoc are off (pip install 'jiyi[server]')")
        return FastAPI(docs_url=None, redoc_url=None, **kwargs)
    app: FastAPI = FastAPIOffline(static_url=DOCS_ASSETS, **kwargs)
    return app


def openapi_document() -> dict[str, Any]:
    """The OpenAPI document. It does not depend on configuration; docs/openapi.json is this."""
    return create_app(Settings.model_construct(), ServerOptions(insecure_no_auth=True)).openapi()


def _register_gauges(state: ServerState) -> None:
    m, pool = state.metrics, state.pool
    m.gauge("jiyi_jobs_pending", "Accepted writes waiting for the worker (all tenants).", pool.pending_jobs)
    m.gauge("jiyi_jobs_failed", "Jobs that failed past their retry limit.", pool.failed_jobs)
    m.gauge("jiyi_tenants_open", "Tenants with an open Memory in this process.", lambda: len(pool.tenants()))

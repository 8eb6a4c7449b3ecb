"""``POST /v1/ui-links``: a signed, expiring panel link for one end user.

A bot owner's backend calls it (with its API key, like every ``/v1`` route) when a
user asks "what do you remember about me?", and sends the user the link. The link
opens the panel as that user of the key's tenant only, until it expires.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field

from jiyi.clock import format_iso
from jiyi.web.panel import PREFIX, Panel
from jiyi.web.signing import make_user_link_token, parse_ttl


class UiLinkRequest(BaseModel):
    user_id: str = Field(min_length=1, max_length=128, description="The user the link shows.")
    ttl: str = Field("24h", max_length=16, description="Lifetime: seconds, or a number with s, m, h, d or w "
                                                       "(at most 90 days).", examples=["30m", "24h", "7d"])


class UiLinkOut(BaseModel):
    url: str = Field(description="Absolute link, as seen from this request's host.")
    path: str = Field(description="The same link relative to the server root (for a reverse proxy).")
    tenant: str
    user_id: str
    expires_at: str = Field(description="ISO 8601, UTC.")


def build_api_router(panel: Panel, api_auth: Callable[..., Any]) -> APIRouter:
    """The link endpoint, authenticated by the service's own API-key dependency."""
    router = APIRouter(prefix="/v1", tags=["web panel"])

    @router.post("/ui-links", response_model=UiLinkOut, summary="Make an end-user panel link")
    def make_link(req: UiLinkRequest, request: Request,
                  principal: Any = Depends(api_auth)) -> dict[str, Any]:  # noqa: B008 - a closure, not a global
        """A signed link that opens the web panel as ``user_id`` of the caller's tenant, showing only that
        user's memories (see, edit, delete, export, forget), until ``ttl`` passes. Anyone holding the link
        can use it until then: send it only to that user."""
        expires = panel.clock.now() + parse_ttl(req.ttl)
        token = make_user_link_token(panel.secret, tenant=principal.tenant, user_id=req.user_id, expires_at=expires)
        path = f"{PREFIX}/u/{token}"
        return {"url": str(request.base_url).rstrip("/") + path, "path": path, "tenant": principal.tenant,
                "user_id": req.user_id, "expires_at": format_iso(expires)}

    return router

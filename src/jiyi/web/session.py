"""Who is looking at the panel: the signed session cookie and its CSRF token.

Three kinds of session:

- ``anon``: not signed in; still has a CSRF token so that the sign-in form itself is
  protected (login CSRF);
- ``operator``: signed in with a tenant's API key; sees every user of that tenant.
  The key id is kept, and the session ends as soon as that key is revoked;
- ``user``: opened from a signed end-user link; sees one user of one tenant, until
  the link's expiry.

The cookie is ``HttpOnly``, ``SameSite=Lax`` and scoped to ``/ui``; it holds no
secret of the caller (never the API key), only who they are and until when. Every
state-changing request must echo the session's CSRF token (a hidden form field or an
``X-CSRF-Token`` header, which htmx sends); comparisons are constant-time.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Literal

from jiyi.web.signing import sign, unsign

COOKIE = "jiyi_ui"
LANG_COOKIE = "jiyi_lang"
OPERATOR_TTL = timedelta(hours=8)
ANON_TTL = timedelta(hours=2)

SessionKind = Literal["anon", "operator", "user"]


@dataclass(slots=True, frozen=True)
class Session:
    kind: SessionKind
    csrf: str
    exp: int
    tenant: str | None = None
    user_id: str | None = None  # fixed for end users; None for operators
    key_id: str | None = None

    @property
    def signed_in(self) -> bool:
        return self.kind != "anon" and self.tenant is not None

    @property
    def is_operator(self) -> bool:
        return self.kind == "operator"

    def csrf_ok(self, presented: str | None) -> bool:
        return bool(presented) and hmac.compare_digest(self.csrf.encode(), str(presented).encode())

    def with_new_csrf(self) -> Session:
        return replace(self, csrf=new_csrf())


def new_csrf() -> str:
    return secrets.token_urlsafe(24)


def anonymous(now: datetime) -> Session:
    return Session("anon", new_csrf(), int((now + ANON_TTL).timestamp()))


def operator(tenant: str, key_id: str | None, now: datetime) -> Session:
    return Session("operator", new_csrf(), int((now + OPERATOR_TTL).timestamp()), tenant=tenant, key_id=key_id)


def end_user(tenant: str, user_id: str, exp: int) -> Session:
    return Session("user", new_csrf(), exp, tenant=tenant, user_id=user_id)


def encode(secret: bytes, session: Session) -> str:
    return sign(secret, "session", {"k": session.kind, "c": session.csrf, "exp": session.exp, "t": session.tenant,
                                    "u": session.user_id, "i": session.key_id})


def decode(secret: bytes, cookie: str | None, *, now: datetime) -> Session | None:
    """The session in a cookie, or None when it is missing, forged or expired."""
    if not cookie:
        return None
    p = unsign(secret, "session", cookie, now=now)
    if p is None or p.get("k") not in ("anon", "operator", "user") or not isinstance(p.get("c"), str):
        return None
    for field in ("t", "u", "i"):
        if p.get(field) is not None and not isinstance(p[field], str):
            return None
    if p["k"] != "anon" and not p.get("t") or p["k"] == "user" and not p.get("u"):
        return None
    return Session(p["k"], p["c"], int(p["exp"]), tenant=p.get("t"), user_id=p.get("u"), key_id=p.get("i"))

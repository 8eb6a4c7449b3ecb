"""HTTP routes: thin calls into ``Memory``; each module is one APIRouter."""

from __future__ import annotations

from jiyi.errors import InvalidInput
from jiyi.server.schemas import ErrorOut

#: Error responses every authenticated route can give (documented in OpenAPI).
ERRORS: dict[int | str, dict[str, object]] = {
    400: {"model": ErrorOut, "description": "The body is not valid JSON or could not be read (malformed_json, "
                                            "malformed_body)."},
    401: {"model": ErrorOut, "description": "Missing, invalid or revoked API key."},
    413: {"model": ErrorOut, "description": "The body is larger than the server's limit (payload_too_large)."},
    415: {"model": ErrorOut, "description": "The body is not sent as JSON (unsupported_media_type)."},
    422: {"model": ErrorOut, "description": "The request was understood but refused (validation_error, "
                                            "invalid_input)."},
    429: {"model": ErrorOut, "description": "Rate limit of this API key exceeded (see Retry-After)."},
    503: {"model": ErrorOut, "description": "The store failed (read-only, disk full, unreachable: "
                                            "store_unavailable); retry later."},
}
NOT_FOUND: dict[int | str, dict[str, object]] = {
    404: {"model": ErrorOut, "description": "No such memory for this user."}}


def pick_user(query_user_id: str | None, body_user_id: str | None) -> str:
    """The user id from ``?user_id=`` or the body; both is fine if they agree."""
    if query_user_id is not None and body_user_id is not None and query_user_id != body_user_id:
        raise InvalidInput("user_id in the query and in the body differ")
    user_id = query_user_id if query_user_id is not None else body_user_id
    if user_id is None:
        raise InvalidInput("user_id is required: pass ?user_id= or put it in the JSON body")
    return user_id

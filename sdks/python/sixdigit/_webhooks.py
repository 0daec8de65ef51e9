"""Standard Webhooks verification (https://www.standardwebhooks.com) with the standard library."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from typing import Any, Dict, Mapping, Optional, Union

from ._errors import WebhookVerificationError

TOLERANCE_SECONDS = 5 * 60
_PREFIX = "whsec_"


def _header(headers: Mapping[str, Any], name: str) -> str:
    for key, value in headers.items():
        if key.lower() == name:
            if isinstance(value, (list, tuple)):
                return " ".join(str(v) for v in value)
            return str(value)
    return ""


def verify_webhook(
    body: Union[str, bytes, bytearray],
    headers: Mapping[str, Any],
    secret: str,
    *,
    tolerance: int = TOLERANCE_SECONDS,
    now: Optional[float] = None,
) -> Dict[str, Any]:
    """Verifies one delivery and returns its parsed JSON body.

    ``body`` must be the raw request body exactly as received; ``headers`` any mapping (any case),
    e.g. ``request.headers``; ``secret`` the endpoint's ``whsec_…`` secret. The HMAC-SHA256 of
    ``webhook-id.webhook-timestamp.body`` must equal one of the space-separated ``v1,<base64>``
    signatures (compared in constant time), and the timestamp must be within ``tolerance`` seconds
    of now. Raises ``WebhookVerificationError`` otherwise.
    """
    raw = body.encode("utf-8") if isinstance(body, str) else bytes(body)
    msg_id = _header(headers, "webhook-id")
    timestamp = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    if not msg_id or not timestamp or not signatures:
        raise WebhookVerificationError("Missing webhook-id, webhook-timestamp or webhook-signature header")
    try:
        sent_at = int(timestamp)
    except ValueError:
        raise WebhookVerificationError("Invalid webhook-timestamp header") from None
    current = time.time() if now is None else now
    if sent_at < current - tolerance:
        raise WebhookVerificationError("Message timestamp too old")
    if sent_at > current + tolerance:
        raise WebhookVerificationError("Message timestamp too new")

    encoded = secret[len(_PREFIX):] if secret.startswith(_PREFIX) else secret
    try:
        key = base64.b64decode(encoded, validate=True)
    except (ValueError, TypeError):
        raise WebhookVerificationError("The secret is not a whsec_ base64 secret") from None
    signed = msg_id.encode("utf-8") + b"." + timestamp.encode("utf-8") + b"." + raw
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest())

    for candidate in signatures.split(" "):
        version, _, signature = candidate.partition(",")
        if version == "v1" and hmac.compare_digest(signature.encode("utf-8"), expected):
            try:
                parsed = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError):
                raise WebhookVerificationError("The body is not JSON") from None
            if not isinstance(parsed, dict):
                raise WebhookVerificationError("The body is not a JSON object")
            return parsed
    raise WebhookVerificationError("No matching signature found")

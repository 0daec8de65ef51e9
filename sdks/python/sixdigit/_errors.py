"""Typed errors: one class per kind of failure, each carrying the API's error envelope."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional


class SixdigitError(Exception):
    """An error answer from the API, or no answer at all.

    ``code`` is the API's error code (``validation_failed``, ``rate_limited``, ...) or
    ``connection_error`` / ``timeout`` when nothing came back; ``status`` is the HTTP status
    (None without an answer); ``request_id`` is the X-Request-Id to quote to support;
    ``doc_url`` is the code's entry in the docs; ``details`` lists refused fields.
    """

    def __init__(
        self,
        message: str,
        *,
        code: str,
        status: Optional[int],
        request_id: Optional[str] = None,
        doc_url: Optional[str] = None,
        details: Optional[List[Dict[str, str]]] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = status
        self.request_id = request_id
        self.doc_url = doc_url
        self.details = details
        self.headers: Dict[str, str] = {k.lower(): v for k, v in (headers or {}).items()}

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, status={self.status!r}, request_id={self.request_id!r}, message={self.message!r})"


class InvalidRequestError(SixdigitError):
    """400, 413, 414, 415: the request itself is wrong. Do not retry."""


class AuthenticationError(SixdigitError):
    """401: the API key is missing, wrong or revoked."""


class InsufficientCreditError(SixdigitError):
    """402: the balance does not cover the check."""


class PermissionDeniedError(SixdigitError):
    """403: API access is suspended."""


class NotFoundError(SixdigitError):
    """404: no such user, verification or endpoint."""


class ConflictError(SixdigitError):
    """409: e.g. already enrolled, or an Idempotency-Key reused with another body."""


class RateLimitError(SixdigitError):
    """429 after the retries ran out."""

    @property
    def retry_after(self) -> Optional[float]:
        value = self.headers.get("retry-after")
        try:
            return float(value) if value else None
        except ValueError:
            return None


class ServerError(SixdigitError):
    """5xx after the retries ran out."""


class ConnectionError(SixdigitError):  # noqa: A001 - the SDK's own, exported as sixdigit.ConnectionError
    """No answer (refused, reset, DNS, timeout) after the retries ran out."""


class WebhookVerificationError(Exception):
    """A webhook delivery whose signature or timestamp does not check out."""


_BY_STATUS = {
    400: InvalidRequestError,
    401: AuthenticationError,
    402: InsufficientCreditError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    413: InvalidRequestError,
    414: InvalidRequestError,
    415: InvalidRequestError,
    422: InvalidRequestError,
    429: RateLimitError,
}


def error_from_response(status: int, headers: Mapping[str, str], body: Any) -> SixdigitError:
    envelope = body.get("error") if isinstance(body, dict) and isinstance(body.get("error"), dict) else {}
    lowered = {k.lower(): v for k, v in headers.items()}
    cls = _BY_STATUS.get(status) or (ServerError if status >= 500 else SixdigitError)

    def text(name: str) -> Optional[str]:
        value = envelope.get(name)
        return value if isinstance(value, str) else None

    details = envelope.get("details")
    return cls(
        text("message") or f"HTTP {status} without an error envelope",
        code=text("code") or f"http_{status}",
        status=status,
        request_id=text("request_id") or lowered.get("x-request-id"),
        doc_url=text("doc_url"),
        details=details if isinstance(details, list) else None,
        headers=lowered,
    )

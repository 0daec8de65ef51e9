"""Sixdigit: TOTP enrolment and verification API client (standard library only).

    from sixdigit import Sixdigit, SixdigitError
    client = Sixdigit("sk_test_…", base_url="https://your-host")
"""

from ._client import Sixdigit, WebhookEndpoints
from ._errors import (
    AuthenticationError,
    ConflictError,
    ConnectionError,
    InsufficientCreditError,
    InvalidRequestError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    ServerError,
    SixdigitError,
    WebhookVerificationError,
)
from ._http import VERSION, RetryPolicy, backoff_seconds, retry_after_seconds
from ._webhooks import verify_webhook

__version__ = VERSION
__all__ = [
    "AuthenticationError",
    "ConflictError",
    "ConnectionError",
    "InsufficientCreditError",
    "InvalidRequestError",
    "NotFoundError",
    "PermissionDeniedError",
    "RateLimitError",
    "RetryPolicy",
    "ServerError",
    "Sixdigit",
    "SixdigitError",
    "WebhookEndpoints",
    "WebhookVerificationError",
    "backoff_seconds",
    "retry_after_seconds",
    "verify_webhook",
    "__version__",
]

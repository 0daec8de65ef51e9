"""The client: dicts in, dicts out, one method per API operation."""

from __future__ import annotations

import urllib.parse
from typing import Any, Callable, Dict, Iterator, List, Optional

from ._http import RetryPolicy, Transport
from ._webhooks import verify_webhook


def _api_base(base_url: str) -> str:
    parsed = urllib.parse.urlsplit(base_url)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise ValueError('base_url must be an absolute http(s) URL, e.g. "https://your-host"')
    path = parsed.path.rstrip("/")
    return f"{parsed.scheme}://{parsed.netloc}{path or '/api/v1'}"


def _segment(value: str) -> str:
    if not isinstance(value, str) or value == "":
        raise ValueError("an id must be a non-empty string")
    return urllib.parse.quote(value, safe="")


def _drop_none(values: Dict[str, Any]) -> Dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None}


class WebhookEndpoints:
    """``/webhook_endpoints``: where Sixdigit sends signed events."""

    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def create(self, *, url: str, events: List[str], description: Optional[str] = None, idempotency_key: Optional[str] = None) -> Dict[str, Any]:
        """Creates an endpoint; keep the returned ``secret`` (shown once) to verify its deliveries."""
        body = _drop_none({"url": url, "events": events, "description": description})
        return self._t.call("POST", "/webhook_endpoints", body=body, idempotency_key=idempotency_key)[0]

    def list_page(self, **params: Any) -> Dict[str, Any]:
        """One page, newest first: ``{"data": [...], "has_more": bool}`` (limit, starting_after)."""
        return self._t.call("GET", "/webhook_endpoints", query=params)[0]

    def list(self, **params: Any) -> Iterator[Dict[str, Any]]:
        """Every endpoint, newest first, fetching pages as you iterate."""
        return _paginate(self.list_page, "id", params)

    def get(self, endpoint_id: str) -> Dict[str, Any]:
        return self._t.call("GET", f"/webhook_endpoints/{_segment(endpoint_id)}")[0]

    def update(self, endpoint_id: str, **fields: Any) -> Dict[str, Any]:
        """PATCH: only the fields you pass change (url, events, description (None clears it), is_active)."""
        return self._t.call("PATCH", f"/webhook_endpoints/{_segment(endpoint_id)}", body=fields)[0]

    def delete(self, endpoint_id: str) -> None:
        self._t.call("DELETE", f"/webhook_endpoints/{_segment(endpoint_id)}")

    def test(self, endpoint_id: str) -> Dict[str, Any]:
        """Queues a signed ``test.ping`` event (``ConflictError`` when the endpoint is switched off)."""
        return self._t.call("POST", f"/webhook_endpoints/{_segment(endpoint_id)}/test")[0]

    def deliveries_page(self, endpoint_id: str, **params: Any) -> Dict[str, Any]:
        """One page of the endpoint's delivery log, newest first."""
        return self._t.call("GET", f"/webhook_endpoints/{_segment(endpoint_id)}/deliveries", query=params)[0]

    def deliveries(self, endpoint_id: str, **params: Any) -> Iterator[Dict[str, Any]]:
        """Every delivery to the endpoint (attempts included), newest first."""
        return _paginate(lambda **q: self.deliveries_page(endpoint_id, **q), "id", params)


def _paginate(fetch_page: Callable[..., Dict[str, Any]], id_field: str, params: Dict[str, Any]) -> Iterator[Dict[str, Any]]:
    """Walks a ``{data, has_more}`` list with the ``starting_after`` cursor (the last item's id)."""
    query = {"limit": 100, **params}
    while True:
        page = fetch_page(**query)
        data = page.get("data") or []
        yield from data
        if not page.get("has_more") or not data:
            return
        query = {**query, "starting_after": data[-1][id_field]}


class Sixdigit:
    """A client for one API key (``sk_live_…`` or ``sk_test_…``).

    >>> client = Sixdigit("sk_test_…", base_url="https://your-host")
    >>> client.generate(user_id="user_42")["otpauth_uri"]
    """

    #: ``Sixdigit.verify_webhook(body, headers, secret)``, the same as ``sixdigit.verify_webhook``.
    verify_webhook = staticmethod(verify_webhook)

    def __init__(
        self,
        api_key: str,
        *,
        base_url: str,
        timeout: float = 30.0,
        max_retries: int = 3,
        retry: Optional[RetryPolicy] = None,
    ) -> None:
        if not isinstance(api_key, str) or api_key.strip() == "":
            raise ValueError("api_key is required")
        policy = retry or RetryPolicy()
        if retry is None or max_retries != 3:
            policy = RetryPolicy(max_retries=max_retries, initial_delay=policy.initial_delay, max_delay=policy.max_delay, max_retry_after=policy.max_retry_after)
        self._t = Transport(base_url=_api_base(base_url), api_key=api_key.strip(), timeout=timeout, retry=policy)
        self.webhook_endpoints = WebhookEndpoints(self._t)

    @property
    def base_url(self) -> str:
        return self._t.base_url

    def generate(self, *, user_id: str, idempotency_key: Optional[str] = None, **options: Any) -> Dict[str, Any]:
        """Enrols a user (issuer, label, algorithm, digits, period, purpose, rotate as keywords).

        The answer's ``secret`` and ``backup_codes`` are shown this once.
        """
        return self._t.call("POST", "/generate", body={"user_id": user_id, **options}, idempotency_key=idempotency_key)[0]

    def verify(self, *, idempotency_key: Optional[str] = None, **body: Any) -> Dict[str, Any]:
        """Checks a code: ``user_id=, totp_code=`` (or ``backup_code=``), or stateless ``secret=, token=``.

        A wrong code is an answer (``verified`` False, ``status`` says why), not an exception.
        """
        return self._t.call("POST", "/verify", body=body, idempotency_key=idempotency_key)[0]

    def profile(self) -> Dict[str, Any]:
        return self._t.call("GET", "/profile")[0]

    def test_api_key(self) -> Dict[str, Any]:
        """Checks the key works (free)."""
        return self._t.call("POST", "/test")[0]

    def delete_user(self, user_id: str) -> None:
        self._t.call("DELETE", f"/users/{_segment(user_id)}")

    def get_user(self, user_id: str) -> Dict[str, Any]:
        return self._t.call("GET", f"/users/{_segment(user_id)}")[0]

    def get_verification(self, verification_id: str) -> Dict[str, Any]:
        return self._t.call("GET", f"/verifications/{_segment(verification_id)}")[0]

    def list_verifications_page(self, **params: Any) -> Dict[str, Any]:
        """One page, newest first: ``{"data": [...], "has_more": bool}``.

        Filters: user_id, status, created_after, created_before, limit (1–100), starting_after.
        """
        return self._t.call("GET", "/verifications", query=params)[0]

    def list_verifications(self, **params: Any) -> Iterator[Dict[str, Any]]:
        """Every check matching the filters, newest first, fetching pages of ``limit`` (default 100)."""
        return _paginate(self.list_verifications_page, "verification_id", params)

    def list_users_page(self, **params: Any) -> Dict[str, Any]:
        """One page of enrolled users: ``{"data": [...], "has_more": bool}`` (limit, starting_after)."""
        return self._t.call("GET", "/users", query=params)[0]

    def list_users(self, **params: Any) -> Iterator[Dict[str, Any]]:
        """Every enrolled user, fetching pages of ``limit`` (default 100) as you iterate."""
        return _paginate(self.list_users_page, "user_id", params)

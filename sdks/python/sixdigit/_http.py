"""One call to the API with the retry rules every Sixdigit SDK keeps.

- retried: no answer (network error, timeout), 429 and 5xx;
- waits: exponential backoff with jitter, or exactly what ``Retry-After`` says;
- a POST carries ONE ``Idempotency-Key`` (yours or a generated one) on every attempt, so a
  retried check that did reach the server is answered from the stored result, not billed twice.
"""

from __future__ import annotations

import email.utils
import json
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Mapping, Optional, Tuple

from ._errors import ConnectionError, error_from_response

VERSION = "0.1.0"


@dataclass(frozen=True)
class RetryPolicy:
    max_retries: int = 3
    """Retries after the first attempt (0 disables retrying)."""
    initial_delay: float = 0.5
    """First backoff step in seconds; each retry doubles it."""
    max_delay: float = 8.0
    """Longest backoff in seconds."""
    max_retry_after: float = 60.0
    """A Retry-After longer than this is not waited for: the error is raised."""


def retry_after_seconds(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """Retry-After as seconds from now: delay-seconds or an HTTP date; None when absent/unreadable."""
    if value is None or value.strip() == "":
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        parsed = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, parsed.timestamp() - (time.time() if now is None else now))


def backoff_seconds(retry: int, policy: RetryPolicy, rand: Callable[[], float] = random.random) -> float:
    """The wait before retry number ``retry`` (1-based): half the step plus up to as much again at random."""
    ceiling = min(policy.max_delay, policy.initial_delay * (2 ** (retry - 1)))
    return ceiling / 2 + rand() * (ceiling / 2)


@dataclass
class Transport:
    base_url: str
    api_key: str
    timeout: float = 30.0
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    sleep: Callable[[float], None] = time.sleep
    rand: Callable[[], float] = random.random
    user_agent: str = f"sixdigit-python/{VERSION}"

    def url(self, path: str, query: Optional[Mapping[str, Any]]) -> str:
        url = self.base_url.rstrip("/") + path
        params = {k: ("true" if v is True else "false" if v is False else str(v)) for k, v in (query or {}).items() if v is not None}
        return f"{url}?{urllib.parse.urlencode(params)}" if params else url

    def call(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, Any]] = None,
        body: Any = None,
        idempotency_key: Optional[str] = None,
    ) -> Tuple[Any, int, Dict[str, str]]:
        url = self.url(path, query)
        headers = {
            "Authorization": f"Bearer {self.api_key}",
            "Accept": "application/json",
            "User-Agent": self.user_agent,
        }
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        if method == "POST":
            # One key for every attempt of this call.
            headers["Idempotency-Key"] = idempotency_key or str(uuid.uuid4())

        attempt = 0
        while True:
            can_retry = attempt < self.retry.max_retries
            attempt += 1
            request = urllib.request.Request(url, data=data, headers=headers, method=method)
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:  # noqa: S310 - the caller's base URL
                    status = response.status
                    answer_headers = {k.lower(): v for k, v in response.headers.items()}
                    raw = response.read()
                return (_parse(raw) if status != 204 else None), status, answer_headers
            except urllib.error.HTTPError as err:
                status = err.code
                answer_headers = {k.lower(): v for k, v in (err.headers or {}).items()}
                try:
                    raw = err.read()
                finally:
                    err.close()
                parsed = _parse(raw)
                if can_retry and (status == 429 or status >= 500):
                    asked = retry_after_seconds(answer_headers.get("retry-after"))
                    if asked is None or asked <= self.retry.max_retry_after:
                        self.sleep(asked if asked is not None else backoff_seconds(attempt, self.retry, self.rand))
                        continue
                raise error_from_response(status, answer_headers, parsed) from None
            except (urllib.error.URLError, socket.timeout, TimeoutError, ConnectionResetError, OSError) as err:
                if can_retry:
                    self.sleep(backoff_seconds(attempt, self.retry, self.rand))
                    continue
                reason = getattr(err, "reason", err)
                timed_out = isinstance(reason, (socket.timeout, TimeoutError))
                raise ConnectionError(
                    f"No answer from {url} within {self.timeout} s" if timed_out else f"Could not reach {url}: {reason}",
                    code="timeout" if timed_out else "connection_error",
                    status=None,
                ) from err


def _parse(raw: bytes) -> Any:
    if not raw:
        return None
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None

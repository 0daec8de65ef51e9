"""The SDK's HTTP rules against a local server that misbehaves on purpose (standard library only).

Run: python -m unittest discover -s sdks/python/tests (the repository's `npm test` runs it
against the pip-installed package).
"""

import base64
import hashlib
import hmac
import json
import threading
import time
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import sixdigit
from sixdigit import (
    AuthenticationError,
    ConnectionError,
    InvalidRequestError,
    RateLimitError,
    RetryPolicy,
    ServerError,
    Sixdigit,
    SixdigitError,
    WebhookVerificationError,
    backoff_seconds,
    retry_after_seconds,
)

SEEN = []
SCRIPT = [lambda n, seen: (200, {}, {})]


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def _answer(self):
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length).decode() if length else ""
        record = {"method": self.command, "path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body, "at": time.monotonic()}
        SEEN.append(record)
        answer = SCRIPT[0](len(SEEN), record)
        if answer == "drop":
            self.close_connection = True
            self.connection.shutdown(2)
            return
        status, headers, payload = answer
        raw = json.dumps(payload).encode() if payload is not None else b""
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("x-request-id", f"req-{len(SEEN)}")
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("content-length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    do_GET = do_POST = do_DELETE = do_PATCH = _answer


def envelope(code, status, **extra):
    return {"error": {"code": code, "message": f"{code} happened", "request_id": f"req-{status}", "doc_url": f"https://example.test/docs#error-{code}", **extra}}


VERIFIED = {"verified": True, "status": "verified", "verification_id": "ver_1"}


class ClientTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        cls.thread = threading.Thread(target=cls.server.serve_forever, daemon=True)
        cls.thread.start()
        cls.base = f"http://127.0.0.1:{cls.server.server_address[1]}"

    @classmethod
    def tearDownClass(cls):
        cls.server.shutdown()
        cls.server.server_close()

    def setUp(self):
        SEEN.clear()
        SCRIPT[0] = lambda n, seen: (200, {}, {})

    def client(self, **kwargs):
        kwargs.setdefault("retry", RetryPolicy(initial_delay=0.01, max_delay=0.04))
        return Sixdigit("sk_test_unit", base_url=self.base, **kwargs)

    def test_retries_503_and_dropped_connection_with_one_idempotency_key(self):
        SCRIPT[0] = lambda n, s: (503, {}, envelope("unavailable", 503)) if n == 1 else "drop" if n == 2 else (200, {}, VERIFIED)
        self.assertEqual(self.client().verify(user_id="u1", totp_code="123456"), VERIFIED)
        self.assertEqual(len(SEEN), 3)
        keys = {s["headers"].get("idempotency-key") for s in SEEN}
        self.assertEqual(len(keys), 1)
        self.assertRegex(keys.pop(), r"^[0-9a-f-]{36}$")
        self.assertTrue(all(json.loads(s["body"]) == {"user_id": "u1", "totp_code": "123456"} for s in SEEN))
        self.assertEqual(SEEN[0]["headers"]["authorization"], "Bearer sk_test_unit")

    def test_new_key_per_call_and_callers_own_key(self):
        SCRIPT[0] = lambda n, s: (201, {}, {"user_id": "u"})
        c = self.client()
        c.generate(user_id="u")
        c.generate(user_id="u")
        c.generate(user_id="u", idempotency_key="order-42")
        keys = [s["headers"]["idempotency-key"] for s in SEEN]
        self.assertNotEqual(keys[0], keys[1])
        self.assertEqual(keys[2], "order-42")

    def test_get_has_no_idempotency_key_and_is_retried_on_500(self):
        SCRIPT[0] = lambda n, s: (500, {}, envelope("internal", 500)) if n == 1 else (200, {}, {"business_id": "b"})
        self.assertEqual(self.client().profile(), {"business_id": "b"})
        self.assertEqual([s["headers"].get("idempotency-key") for s in SEEN], [None, None])

    def test_waits_retry_after_on_429(self):
        SCRIPT[0] = lambda n, s: (429, {"retry-after": "1"}, envelope("rate_limited", 429)) if n == 1 else (200, {}, VERIFIED)
        self.client().verify(secret="JBSWY3DPEHPK3PXP", token="123456")
        self.assertEqual(len(SEEN), 2)
        self.assertGreaterEqual(SEEN[1]["at"] - SEEN[0]["at"], 0.95)
        self.assertEqual(SEEN[0]["headers"]["idempotency-key"], SEEN[1]["headers"]["idempotency-key"])

    def test_long_retry_after_is_not_waited_for(self):
        SCRIPT[0] = lambda n, s: (429, {"retry-after": "120"}, envelope("rate_limited", 429))
        with self.assertRaises(RateLimitError) as caught:
            self.client().profile()
        self.assertEqual(len(SEEN), 1)
        self.assertEqual((caught.exception.code, caught.exception.status, caught.exception.request_id, caught.exception.retry_after), ("rate_limited", 429, "req-429", 120.0))

    def test_gives_up_after_max_retries(self):
        SCRIPT[0] = lambda n, s: (502, {}, envelope("bad_gateway", 502))
        with self.assertRaises(ServerError) as caught:
            self.client(max_retries=2).profile()
        self.assertEqual(len(SEEN), 3)
        self.assertIsInstance(caught.exception, SixdigitError)
        self.assertEqual(caught.exception.doc_url, "https://example.test/docs#error-bad_gateway")

    def test_4xx_is_not_retried_and_is_typed(self):
        SCRIPT[0] = lambda n, s: (400, {}, envelope("validation_failed", 400, details=[{"path": "user_id", "message": "Required"}]))
        with self.assertRaises(InvalidRequestError) as caught:
            self.client().generate(user_id="")
        self.assertEqual(len(SEEN), 1)
        e = caught.exception
        self.assertEqual((e.code, e.status, e.request_id, e.details), ("validation_failed", 400, "req-400", [{"path": "user_id", "message": "Required"}]))
        SCRIPT[0] = lambda n, s: (401, {}, envelope("unauthorized", 401))
        with self.assertRaises(AuthenticationError):
            self.client().profile()

    def test_refused_connection_is_connection_error(self):
        c = Sixdigit("k", base_url="http://127.0.0.1:1", max_retries=1, retry=RetryPolicy(initial_delay=0.005))
        with self.assertRaises(ConnectionError) as caught:
            c.profile()
        self.assertEqual((caught.exception.code, caught.exception.status), ("connection_error", None))

    def test_pagination_follows_starting_after(self):
        pages = {None: {"data": [{"verification_id": "v3"}, {"verification_id": "v2"}], "has_more": True}, "v2": {"data": [{"verification_id": "v1"}], "has_more": False}}

        def answer(n, s):
            from urllib.parse import parse_qs, urlsplit

            after = parse_qs(urlsplit(s["path"]).query).get("starting_after", [None])[0]
            return 200, {}, pages[after]

        SCRIPT[0] = answer
        ids = [v["verification_id"] for v in self.client().list_verifications(user_id="u 1", limit=2)]
        self.assertEqual(ids, ["v3", "v2", "v1"])
        self.assertEqual([s["path"] for s in SEEN], ["/api/v1/verifications?limit=2&user_id=u+1", "/api/v1/verifications?limit=2&user_id=u+1&starting_after=v2"])

    def test_ids_in_paths_are_escaped(self):
        self.client().get_user("a/b c")
        self.assertEqual(SEEN[0]["path"], "/api/v1/users/a%2Fb%20c")

    def test_backoff_and_retry_after_parsing(self):
        policy = RetryPolicy(initial_delay=0.5, max_delay=8)
        self.assertEqual([backoff_seconds(r, policy, lambda: 1.0) for r in range(1, 7)], [0.5, 1, 2, 4, 8, 8])
        self.assertEqual([backoff_seconds(r, policy, lambda: 0.0) for r in range(1, 4)], [0.25, 0.5, 1])
        self.assertEqual(retry_after_seconds("3"), 3)
        self.assertAlmostEqual(retry_after_seconds("Thu, 01 Jan 1970 00:00:15 GMT", now=10), 5)
        self.assertIsNone(retry_after_seconds(None))
        self.assertIsNone(retry_after_seconds("soon"))

    def test_construction(self):
        with self.assertRaises(ValueError):
            Sixdigit("", base_url=self.base)
        self.assertEqual(Sixdigit("k", base_url="https://h.example/").base_url, "https://h.example/api/v1")
        self.assertEqual(Sixdigit("k", base_url="https://h.example/v1").base_url, "https://h.example/v1")


class WebhookTest(unittest.TestCase):
    # The Standard Webhooks reference vector.
    SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    VECTOR = ("msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, '{"test": 2432232314}', "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")

    def headers(self, msg_id, ts, sig):
        return {"Webhook-Id": msg_id, "webhook-timestamp": str(ts), "webhook-signature": sig}

    def sign(self, msg_id, ts, body):
        key = base64.b64decode(self.SECRET[len("whsec_"):])
        return "v1," + base64.b64encode(hmac.new(key, f"{msg_id}.{ts}.{body}".encode(), hashlib.sha256).digest()).decode()

    def test_reference_vector(self):
        msg_id, ts, body, sig = self.VECTOR
        self.assertEqual(sixdigit.verify_webhook(body, self.headers(msg_id, ts, f"v1,bogus {sig}"), self.SECRET, now=ts), {"test": 2432232314})
        self.assertEqual(Sixdigit.verify_webhook(body.encode(), self.headers(msg_id, ts, sig), self.SECRET, now=ts + 299), {"test": 2432232314})

    def test_refusals(self):
        msg_id, ts, body, sig = self.VECTOR
        for bad_body, headers, secret, now in [
            (body.replace("2", "3"), self.headers(msg_id, ts, sig), self.SECRET, ts),
            (body, self.headers(msg_id, ts, sig), "whsec_" + base64.b64encode(b"x" * 32).decode(), ts),
            (body, self.headers(msg_id, ts, sig), self.SECRET, ts + 301),
            (body, self.headers(msg_id, ts, sig), self.SECRET, ts - 301),
            (body, self.headers(msg_id, ts, "v2," + sig[3:]), self.SECRET, ts),
            (body, {"webhook-id": msg_id}, self.SECRET, ts),
        ]:
            with self.assertRaises(WebhookVerificationError):
                sixdigit.verify_webhook(bad_body, headers, secret, now=now)

    def test_fresh_signature_with_default_clock(self):
        ts = int(time.time())
        body = '{"type":"verification.success"}'
        self.assertEqual(sixdigit.verify_webhook(body, self.headers("msg_x", ts, self.sign("msg_x", ts, body)), self.SECRET), {"type": "verification.success"})


if __name__ == "__main__":
    unittest.main()

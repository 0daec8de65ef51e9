"""The Python package `sixdigit`, installed with pip into a venv, driven against a live server.

Run by sdks/sdks.test.ts as `python integration.py <scenario>` with that venv's interpreter;
input comes as JSON in SIXDIGIT_INPUT, the results go to stdout as one JSON object.
"""

import base64
import json
import os
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone

import sixdigit
from sixdigit import InvalidRequestError, NotFoundError, Sixdigit, SixdigitError, WebhookVerificationError

# The package is imported from the venv, not from the source tree.
assert "site-packages" in sixdigit.__file__, sixdigit.__file__

data = json.loads(os.environ.get("SIXDIGIT_INPUT", "{}"))
client = Sixdigit(data.get("apiKey", "unused"), base_url=data.get("baseUrl", "http://127.0.0.1:1"))


def code(secret, offset=0):
    """What the user's authenticator shows now (or `offset` steps from now), from oathtool."""
    at = datetime.now(timezone.utc) + timedelta(seconds=30 * offset)
    return subprocess.check_output(["oathtool", "--totp", "-b", "--now=" + at.strftime("%Y-%m-%d %H:%M:%S UTC"), secret]).decode().strip()


def error_of(fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
        return None
    except SixdigitError as err:
        return {"class": type(err).__name__, "code": err.code, "status": err.status, "request_id": err.request_id, "doc_url": err.doc_url, "details": err.details}


def main():
    prefix = data["prefix"]
    profile = client.profile()
    enrolled = client.generate(user_id=prefix + "-a", issuer="SDK Test")
    first = code(enrolled["secret"])
    verified = client.verify(user_id=enrolled["user_id"], totp_code=first)
    replayed = client.verify(user_id=enrolled["user_id"], totp_code=first)
    wrong = client.verify(user_id=enrolled["user_id"], totp_code="111111" if first == "000000" else "000000")
    stateless = client.verify(secret=enrolled["secret"], token=code(enrolled["secret"], 1))
    looked = client.get_verification(verified["verification_id"])
    user = client.get_user(enrolled["user_id"])
    checks = list(client.list_verifications(user_id=enrolled["user_id"], limit=1))
    client.generate(user_id=prefix + "-b")
    client.generate(user_id=prefix + "-c")
    users = list(client.list_users(limit=1))
    bad = error_of(client.generate, user_id="")
    client.delete_user(prefix + "-c")
    gone = error_of(client.get_user, prefix + "-c")
    return {
        "profile": profile,
        "enrolled": {"user_id": enrolled["user_id"], "backup_codes": len(enrolled["backup_codes"]), "secret": enrolled["secret"]},
        "verified": verified,
        "replayed": replayed,
        "wrong": wrong,
        "stateless": stateless,
        "looked": looked,
        "user": user,
        "checks": [c["verification_id"] for c in checks],
        "users": [u["user_id"] for u in users],
        "badRequest": bad,
        "gone": gone,
        "typed": {"badIsInvalidRequest": bad is not None and bad["class"] == InvalidRequestError.__name__, "goneIsNotFound": gone is not None and gone["class"] == NotFoundError.__name__},
    }


def ratelimit():
    started = time.monotonic()
    enrolled = client.generate(user_id=data["prefix"] + "-limited")
    return {"user_id": enrolled["user_id"], "waitedMs": round((time.monotonic() - started) * 1000)}


def webhook():
    delivery = data["delivery"]
    body, headers, secret = delivery["body"], delivery["headers"], delivery["secret"]
    event = sixdigit.verify_webhook(body, headers, secret)
    tampered = wrong_secret = None
    try:
        sixdigit.verify_webhook(body.replace('"verified"', '"replayed"'), headers, secret)
    except WebhookVerificationError:
        tampered = "WebhookVerificationError"
    try:
        sixdigit.verify_webhook(body, headers, "whsec_" + base64.b64encode(b"\x01" * 32).decode())
    except WebhookVerificationError:
        wrong_secret = "WebhookVerificationError"
    return {"event": event, "tampered": tampered, "wrongSecret": wrong_secret}


def endpoints():
    created = client.webhook_endpoints.create(url=data["url"], events=["verification.success"], description="sdk test")
    listed = [e["id"] for e in client.webhook_endpoints.list(limit=1)]
    got = client.webhook_endpoints.get(created["id"])
    updated = client.webhook_endpoints.update(created["id"], description="sdk test, renamed")
    queued = client.webhook_endpoints.test(created["id"])
    return {"created": created, "listed": listed, "got": got, "updated": updated, "queued": queued}


def delete_endpoint():
    deliveries = [{"id": d["id"], "type": d["type"]} for d in client.webhook_endpoints.deliveries(data["endpointId"])]
    client.webhook_endpoints.delete(data["endpointId"])
    gone = error_of(client.webhook_endpoints.get, data["endpointId"])
    return {"deliveries": deliveries, "gone": gone}


def testmode():
    profile = client.profile()
    enrolled = client.generate(user_id=data["userId"])
    verified = client.verify(user_id=data["userId"], totp_code=code(enrolled["secret"]))
    looked = client.get_verification(verified["verification_id"])
    live_user = error_of(client.get_user, data["liveUserId"])
    return {"profile": profile, "enrolled": {"user_id": enrolled["user_id"], "livemode": enrolled.get("livemode")}, "verified": verified, "looked": looked, "liveUser": live_user}


def verify_code():
    enrolled = client.generate(user_id=data["userId"])
    verified = client.verify(user_id=data["userId"], totp_code=code(enrolled["secret"]))
    return {"enrolled": {"user_id": enrolled["user_id"]}, "verified": verified}


SCENARIOS = {
    "main": main,
    "ratelimit": ratelimit,
    "webhook": webhook,
    "verifyCode": verify_code,
    "endpoints": endpoints,
    "deleteEndpoint": delete_endpoint,
    "testmode": testmode,
}

if __name__ == "__main__":
    try:
        sys.stdout.write(json.dumps(SCENARIOS[sys.argv[1]]()))
    except SixdigitError as err:
        sys.stderr.write(f"{type(err).__name__} {err.code} {err.status}: {err}\n")
        sys.exit(1)

// The npm package `sixdigit`, installed from its tarball, driven against a live server.
// Run by sdks/sdks.test.ts as `node integration.mjs <scenario>` in the folder it was installed in;
// input comes as JSON in SIXDIGIT_INPUT, the results go to stdout as one JSON object.
import { execFileSync } from 'node:child_process';
import { InvalidRequestError, NotFoundError, Sixdigit, SixdigitError, WebhookVerificationError } from 'sixdigit';

const input = JSON.parse(process.env.SIXDIGIT_INPUT ?? '{}');
// The webhook scenario needs no client (the helper is static).
const sd = input.apiKey ? new Sixdigit({ apiKey: input.apiKey, baseUrl: input.baseUrl }) : null;
/** What the user's authenticator shows now (or `offset` steps from now), from oathtool. */
const code = (secret, offset = 0) =>
  execFileSync('oathtool', ['--totp', '-b', `--now=${new Date(Date.now() + offset * 30_000).toISOString().replace('T', ' ').slice(0, 19)} UTC`, secret]).toString().trim();
const errorOf = async (promise) => {
  try {
    await promise;
    return null;
  } catch (err) {
    if (!(err instanceof SixdigitError)) throw err;
    return { class: err.constructor.name, code: err.code, status: err.status, request_id: err.request_id, doc_url: err.doc_url, details: err.details };
  }
};
const collect = async (iterator) => {
  const items = [];
  for await (const item of iterator) items.push(item);
  return items;
};

const scenarios = {
  async main() {
    const { prefix } = input;
    const profile = await sd.profile();
    const enrolled = await sd.generate({ user_id: `${prefix}-a`, issuer: 'SDK Test' });
    const first = code(enrolled.secret);
    const verified = await sd.verify({ user_id: enrolled.user_id, totp_code: first });
    const replayed = await sd.verify({ user_id: enrolled.user_id, totp_code: first });
    const wrong = await sd.verify({ user_id: enrolled.user_id, totp_code: first === '000000' ? '111111' : '000000' });
    const stateless = await sd.verify({ secret: enrolled.secret, token: code(enrolled.secret, 1) });
    const looked = await sd.getVerification(verified.verification_id);
    const user = await sd.getUser(enrolled.user_id);
    // Three checks for this user, one per page: the iterator follows starting_after.
    const checks = await collect(sd.listVerifications({ user_id: enrolled.user_id, limit: 1 }));
    await sd.generate({ user_id: `${prefix}-b` });
    await sd.generate({ user_id: `${prefix}-c` });
    const users = await collect(sd.listUsers({ limit: 1 }));
    const badRequest = await errorOf(sd.generate({ user_id: '' }));
    await sd.deleteUser(`${prefix}-c`);
    const gone = await errorOf(sd.getUser(`${prefix}-c`));
    return {
      profile,
      enrolled: { user_id: enrolled.user_id, backup_codes: enrolled.backup_codes.length, secret: enrolled.secret },
      verified,
      replayed,
      wrong,
      stateless,
      looked,
      user,
      checks: checks.map((c) => c.verification_id),
      users: users.map((u) => u.user_id),
      badRequest,
      gone,
      typed: { badIsInvalidRequest: badRequest?.class === InvalidRequestError.name, goneIsNotFound: gone?.class === NotFoundError.name },
    };
  },

  /** One enrolment while the key is over its limit: the SDK waits out Retry-After and retries. */
  async ratelimit() {
    const started = Date.now();
    const enrolled = await sd.generate({ user_id: `${input.prefix}-limited` });
    return { user_id: enrolled.user_id, waitedMs: Date.now() - started };
  },

  /** A delivery the test's receiver got, checked with the SDK's helper (and a tampered copy). */
  async webhook() {
    const { body, headers, secret } = input.delivery;
    const event = Sixdigit.webhooks.verify(body, headers, secret);
    let tampered = null;
    try {
      Sixdigit.webhooks.verify(body.replace('"verified"', '"replayed"'), headers, secret);
    } catch (err) {
      tampered = err instanceof WebhookVerificationError ? 'WebhookVerificationError' : String(err);
    }
    let wrongSecret = null;
    try {
      Sixdigit.webhooks.verify(body, headers, `whsec_${Buffer.alloc(32, 1).toString('base64')}`);
    } catch (err) {
      wrongSecret = err instanceof WebhookVerificationError ? 'WebhookVerificationError' : String(err);
    }
    return { event, tampered, wrongSecret };
  },

  /** Webhook endpoints over the API: create (secret once), list, get, update, test.ping. */
  async endpoints() {
    const created = await sd.webhookEndpoints.create({ url: input.url, events: ['verification.success'], description: 'sdk test' });
    const listed = await collect(sd.webhookEndpoints.list({ limit: 1 }));
    const got = await sd.webhookEndpoints.get(created.id);
    const updated = await sd.webhookEndpoints.update(created.id, { description: 'sdk test, renamed' });
    const queued = await sd.webhookEndpoints.test(created.id);
    return { created, listed: listed.map((e) => e.id), got, updated, queued };
  },

  /** The endpoint's delivery log, then the endpoint deleted (a lookup is then NotFoundError). */
  async deleteEndpoint() {
    const deliveries = await collect(sd.webhookEndpoints.deliveries(input.endpointId));
    await sd.webhookEndpoints.delete(input.endpointId);
    const gone = await errorOf(sd.webhookEndpoints.get(input.endpointId));
    return { deliveries: deliveries.map((d) => ({ id: d.id, type: d.type })), gone };
  },

  /** With a test key: enrol and verify for free, `livemode: false`; a live user is invisible. */
  async testmode() {
    const profile = await sd.profile();
    const enrolled = await sd.generate({ user_id: input.userId });
    const verified = await sd.verify({ user_id: input.userId, totp_code: code(enrolled.secret) });
    const looked = await sd.getVerification(verified.verification_id);
    const liveUser = await errorOf(sd.getUser(input.liveUserId));
    return { profile, enrolled: { user_id: enrolled.user_id, livemode: enrolled.livemode }, verified, looked, liveUser };
  },

  /** Verifies a user's code as the caller of a (later) live/test key step would. */
  async verifyCode() {
    const enrolled = await sd.generate({ user_id: input.userId });
    const verified = await sd.verify({ user_id: input.userId, totp_code: code(enrolled.secret) });
    return { enrolled: { user_id: enrolled.user_id }, verified };
  },
};

const scenario = scenarios[process.argv[2]];
if (!scenario) {
  console.error(`unknown scenario ${process.argv[2]}`);
  process.exit(2);
}
try {
  process.stdout.write(JSON.stringify(await scenario()));
} catch (err) {
  console.error(err instanceof SixdigitError ? `${err.name} ${err.code} ${err.status}: ${err.message}` : err);
  process.exit(1);
}

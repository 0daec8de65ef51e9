/**
 * A software WebAuthn authenticator for server tests: a real ES256 key pair (WebCrypto) and the
 * bytes a browser and authenticator would send — clientDataJSON, authenticatorData, a "none"
 * attestation object, DER signatures — built here by hand, so the server's verification runs on
 * genuine responses, and a test can bend one thing (no UV flag, an old counter) at a time.
 */
import { createHash, randomBytes, webcrypto } from 'node:crypto';

const subtle = webcrypto.subtle;

// --- minimal CBOR (RFC 8949): unsigned/negative ints, byte and text strings, maps --------------

function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
  if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(n, 1);
  return b;
}

type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>;

export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  const parts = [head(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const b64u = (data: Uint8Array) => Buffer.from(data).toString('base64url');

/** WebCrypto's ECDSA signature is r||s; WebAuthn wants the ASN.1 DER SEQUENCE of two INTEGERs. */
function derSignature(raw: Uint8Array): Buffer {
  const int = (bytes: Uint8Array) => {
    let i = 0;
    while (i < bytes.length - 1 && bytes[i] === 0) i++;
    let v = Buffer.from(bytes.subarray(i));
    if (v[0]! & 0x80) v = Buffer.concat([Buffer.from([0]), v]);
    return Buffer.concat([Buffer.from([0x02, v.length]), v]);
  };
  const body = Buffer.concat([int(raw.subarray(0, 32)), int(raw.subarray(32))]);
  return Buffer.concat([Buffer.from([0x30, body.length]), body]);
}

const FLAG = { UP: 0x01, UV: 0x04, BE: 0x08, BS: 0x10, AT: 0x40 } as const;

export interface CeremonyTweaks {
  /** set the user-verified flag (default true) */
  userVerified?: boolean;
  /** the origin the "browser" puts in clientDataJSON (default the authenticator's) */
  origin?: string;
  /** override the signature counter this response reports */
  counter?: number;
  /** the challenge to sign instead of the one in the options */
  challenge?: string;
}

interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}
interface RequestOptions {
  challenge: string;
  rpId?: string;
}

export class SoftAuthenticator {
  readonly credentialId = randomBytes(32);
  counter = 0;
  /** the user handle stored with the discoverable credential at registration */
  userHandle: string | null = null;
  private keys: CryptoKeyPair | undefined;

  constructor(
    readonly origin: string,
    readonly rpId: string,
    /** whether this authenticator answers the PRF extension */
    readonly prf = true,
  ) {}

  get id(): string {
    return b64u(this.credentialId);
  }

  private async keyPair(): Promise<CryptoKeyPair> {
    this.keys ??= (await subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as CryptoKeyPair;
    return this.keys;
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
  }

  /** navigator.credentials.create() → RegistrationResponseJSON, attestation "none". */
  async register(options: CreationOptions, tweaks: CeremonyTweaks = {}) {
    const { publicKey } = await this.keyPair();
    const jwk = await subtle.exportKey('jwk', publicKey);
    const coseKey = cbor(new Map<Cbor, Cbor>([[1, 2], [3, -7], [-1, 1], [-2, Buffer.from(jwk.x!, 'base64url')], [-3, Buffer.from(jwk.y!, 'base64url')]]));
    const flags = FLAG.UP | FLAG.AT | FLAG.BE | FLAG.BS | (tweaks.userVerified === false ? 0 : FLAG.UV);
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(tweaks.counter ?? this.counter);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([sha256(options.rp.id ?? this.rpId), Buffer.from([flags]), counter, Buffer.alloc(16), idLength, this.credentialId, coseKey]);
    const attestationObject = cbor(new Map<Cbor, Cbor>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]));
    this.userHandle = options.user.id;
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64u(this.clientData('webauthn.create', tweaks.challenge ?? options.challenge, tweaks.origin ?? this.origin)),
        attestationObject: b64u(attestationObject),
        transports: ['internal', 'hybrid'],
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: this.prf ? { prf: { enabled: true } } : {},
    };
  }

  /** navigator.credentials.get() → AuthenticationResponseJSON; the counter goes up by one. */
  async assert(options: RequestOptions, tweaks: CeremonyTweaks = {}) {
    const { privateKey } = await this.keyPair();
    if (tweaks.counter === undefined) this.counter += 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(tweaks.counter ?? this.counter);
    const flags = FLAG.UP | FLAG.BE | FLAG.BS | (tweaks.userVerified === false ? 0 : FLAG.UV);
    const authData = Buffer.concat([sha256(options.rpId ?? this.rpId), Buffer.from([flags]), counter]);
    const clientDataJSON = this.clientData('webauthn.get', tweaks.challenge ?? options.challenge, tweaks.origin ?? this.origin);
    const signed = Buffer.concat([authData, sha256(clientDataJSON)]);
    const raw = new Uint8Array(await subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, privateKey, signed));
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64u(clientDataJSON),
        authenticatorData: b64u(authData),
        signature: b64u(derSignature(raw)),
        ...(this.userHandle ? { userHandle: this.userHandle } : {}),
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }
}

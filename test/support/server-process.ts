import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * The real server (`server/src/main.ts`, or its bundle) as a child process, as an operator runs it: its own
 * event loop, its own database connections, killable with SIGKILL. Listens on a port the OS
 * picks (PORT=0); the address is read from its "Server listening at" log line.
 */
export interface ServerProcess {
  url: string;
  process: ChildProcess;
  /** Everything it wrote to stdout/stderr so far (for failure messages). */
  output(): string;
  /** SIGKILL: no shutdown hook runs, in-flight transactions die with the process. */
  kill(): Promise<void>;
  /** SIGTERM and wait for the graceful shutdown. */
  stop(): Promise<void>;
}

const ROOT = resolve(import.meta.dirname, '../..');
const START_TIMEOUT_MS = 30_000;

export interface StartOptions {
  /** A bundle scripts/build-server.ts made (what `npm start` runs), instead of the TypeScript through tsx. */
  bundle?: string;
}

export async function startServerProcess(env: Record<string, string>, options: StartOptions = {}): Promise<ServerProcess> {
  const command = options.bundle ? ['--enable-source-maps', options.bundle] : ['--import', 'tsx', 'server/src/main.ts'];
  const child = spawn(process.execPath, command, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: '0',
      ...env,
      // The address is read from the "Server listening at" line, logged at info.
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL'); // never leave a half-started server behind
      reject(new Error(`server did not start within ${START_TIMEOUT_MS} ms:\n${output.slice(-3000)}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.length > 2_000_000) output = output.slice(-1_000_000);
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code ?? signal}) before listening:\n${output.slice(-3000)}`));
    });
  });
  return {
    url,
    process: child,
    output: () => output,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A cookie-session client over real HTTP (what a browser tab on one instance would send). */
export function client(baseUrl: string) {
  return async (method: string, path: string, options: { cookie?: string; body?: unknown; headers?: Record<string, string> } = {}) => {
    const headers: Record<string, string> = { ...(options.cookie ? { cookie: options.cookie } : {}), ...(options.headers ?? {}) };
    if (method !== 'GET') headers['sec-fetch-site'] = 'same-origin';
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${baseUrl}${path}`, { method, headers, redirect: 'manual', body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json: json as Record<string, unknown> & Record<string, never> };
  };
}

/** Signs in through the local development sign-in of the instance at `baseUrl`; the session cookie. */
export async function signInOver(baseUrl: string, email: string, name = 'Test User'): Promise<string> {
  const res = await fetch(`${baseUrl}/api/login/local`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams({ email, name }).toString(),
  });
  if (res.status !== 303) throw new Error(`local sign-in failed: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .filter((c) => !c.endsWith('='))
    .join('; ');
}

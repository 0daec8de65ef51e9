import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake OpenAI-compatible chat endpoint (the shape Ollama and llama.cpp serve at /v1), over
 * real HTTP. It records every request's messages and answers with `reply(messages)`, or hangs
 * for `delayMs` first.
 */
export interface FakeModel {
  baseUrl: string;
  requests: Array<{ model: string; messages: Array<{ role: string; content: string }> }>;
  reply: (messages: Array<{ role: string; content: string }>) => string;
  delayMs: number;
  close(): Promise<void>;
}

export async function startFakeModel(): Promise<FakeModel> {
  const fake: FakeModel = {
    baseUrl: '',
    requests: [],
    reply: () => 'A drafted answer.',
    delayMs: 0,
    close: async () => {},
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404).end();
        return;
      }
      const parsed = JSON.parse(body) as FakeModel['requests'][number];
      fake.requests.push(parsed);
      setTimeout(() => {
        if (res.destroyed) return;
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: 'chatcmpl-fake',
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model: parsed.model,
            choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: fake.reply(parsed.messages) } }],
          }),
        );
      }, fake.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = () => new Promise((resolve) => server.close(() => resolve()));
  // Hanging requests must not keep the server open at the end.
  fake.close = ((close) => async () => {
    server.closeAllConnections();
    await close();
  })(fake.close);
  return fake;
}

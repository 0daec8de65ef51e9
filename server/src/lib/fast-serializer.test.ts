import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fastSerializerCompiler } from './fast-serializer';

const Answer = z.object({
  verified: z.boolean(),
  status: z.enum(['verified', 'invalid_code']),
  cost: z.string(),
  backup_codes_left: z.number().int().optional(),
  nested: z.object({ a: z.string() }).optional(),
});
const write = fastSerializerCompiler({ schema: Answer });

describe('fastSerializerCompiler', () => {
  it('writes what the zod serializer would: the same JSON for a valid answer', () => {
    const answer = { verified: true, status: 'verified', cost: '0.10', backup_codes_left: 3, nested: { a: 'x' } } as const;
    expect(JSON.parse(write(answer))).toEqual(Answer.parse(answer));
  });

  it('leaves out a property the schema does not name, at any depth (nothing leaks by accident)', () => {
    const out = JSON.parse(write({ verified: false, status: 'invalid_code', cost: '0.10', secret: 'JBSWY3DP', nested: { a: 'x', secret_enc: 'v1:…' } }));
    expect(out).toEqual({ verified: false, status: 'invalid_code', cost: '0.10', nested: { a: 'x' } });
  });

  it('omits an optional property that is absent', () => {
    expect(JSON.parse(write({ verified: true, status: 'verified', cost: '0.00' }))).toEqual({ verified: true, status: 'verified', cost: '0.00' });
  });

  it('throws when a required property is missing, rather than answer part of the object', () => {
    expect(() => write({ verified: true, status: 'verified' })).toThrow(/cost/);
  });

  it('escapes strings as JSON', () => {
    expect(JSON.parse(write({ verified: true, status: 'verified', cost: '"\u2028</script>\\' })).cost).toBe('"\u2028</script>\\');
  });

  it('accepts a plain JSON Schema too (Fastify passes what the route declared)', () => {
    const writeRaw = fastSerializerCompiler({ schema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
    expect(writeRaw({ ok: true, other: 1 })).toBe('{"ok":true}');
  });
});

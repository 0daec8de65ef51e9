import { createHmac, timingSafeEqual } from 'node:crypto';
import { MAIL_CATEGORIES, type MailCategory } from '@common/contract/mail';

/**
 * Unsubscribe links work signed out (a mail client's one-click POST has no cookie), so they carry
 * a token: the person's id, one category, and an HMAC over both with a key derived from the
 * installation's encryption key. It grants exactly one thing: turning that one category of mail
 * on or off for that one person. It reveals nothing but a masked address, never expires (links in
 * old mails must keep working, RFC 8058), and cannot be made for another person without the key.
 */
const VERSION = 'u1';

function mac(key: Buffer, userId: string, category: string): string {
  return createHmac('sha256', key).update(`unsubscribe:${VERSION}:${userId}:${category}`).digest('base64url').slice(0, 32);
}

export function unsubscribeToken(key: Buffer, userId: string, category: MailCategory): string {
  return [VERSION, Buffer.from(userId).toString('base64url'), category, mac(key, userId, category)].join('.');
}

/** The person and category a token names, or null for anything not made by `unsubscribeToken` with this key. */
export function readUnsubscribeToken(key: Buffer, token: string): { userId: string; category: MailCategory } | null {
  const [version, encodedUser, category, given, ...rest] = token.split('.');
  if (version !== VERSION || !encodedUser || !category || !given || rest.length > 0) return null;
  if (!(category in MAIL_CATEGORIES) || !MAIL_CATEGORIES[category as MailCategory].optional) return null;
  const userId = Buffer.from(encodedUser, 'base64url').toString('utf8');
  const expected = Buffer.from(mac(key, userId, category));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
  return { userId, category: category as MailCategory };
}

export const UNSUBSCRIBE_KEY_PURPOSE = 'mail-unsubscribe';

import { MAIL_CATEGORIES, OPTIONAL_MAIL_CATEGORIES, type EmailPreferences, type MailCategory, type UnsubscribeState } from '@common/contract/mail';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { insertAuditEntry } from '../audit/repo';
import * as repo from './repo';
import { readUnsubscribeToken, UNSUBSCRIBE_KEY_PURPOSE } from './unsubscribe';

export async function preferences(ctx: AppContext, user: { id: string; email: string }): Promise<EmailPreferences> {
  const chosen = await repo.preferencesOf(ctx.db, user.id);
  return {
    email: user.email,
    preferences: OPTIONAL_MAIL_CATEGORIES.map((category) => ({
      category,
      label: MAIL_CATEGORIES[category].label,
      description: MAIL_CATEGORIES[category].description,
      enabled: chosen.get(category) ?? true,
    })),
    alwaysSent: (Object.keys(MAIL_CATEGORIES) as MailCategory[])
      .filter((c) => !MAIL_CATEGORIES[c].optional)
      .map((c) => ({ label: MAIL_CATEGORIES[c].label, description: MAIL_CATEGORIES[c].description })),
  };
}

export async function setPreference(ctx: AppContext, user: { id: string; email: string }, category: MailCategory, enabled: boolean): Promise<EmailPreferences> {
  await repo.setPreference(ctx.db, user.id, category, enabled, new Date());
  return preferences(ctx, user);
}

function personOf(ctx: AppContext, token: string): { userId: string; category: MailCategory } {
  const found = readUnsubscribeToken(ctx.secrets.deriveKey(UNSUBSCRIBE_KEY_PURPOSE), token);
  if (!found) throw new AppError('not_found', 'This unsubscribe link is not valid. Sign in and open Settings → E-mail to choose what we send you.');
  return found;
}

/** "j•••@example.com": enough for a person to recognise their address, too little to harvest one. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${email[0]}•••${email.slice(at)}`;
}

/** What a signed-out unsubscribe page shows for a token: the category and a masked address. */
export async function unsubscribeState(ctx: AppContext, token: string): Promise<UnsubscribeState> {
  const { userId, category } = personOf(ctx, token);
  const email = await repo.emailOf(ctx.db, userId);
  if (!email) throw new AppError('not_found', 'This unsubscribe link belongs to an account that no longer exists.');
  const chosen = await repo.preferencesOf(ctx.db, userId);
  return {
    category: category as UnsubscribeState['category'],
    label: MAIL_CATEGORIES[category].label,
    description: MAIL_CATEGORIES[category].description,
    maskedEmail: maskEmail(email),
    enabled: chosen.get(category) ?? true,
  };
}

/** Turns the token's one category on or off for its one person (signed out: the link is the proof). */
export async function setByToken(ctx: AppContext, token: string, enabled: boolean, via: 'page' | 'one-click'): Promise<UnsubscribeState> {
  const { userId, category } = personOf(ctx, token);
  if (!(await repo.emailOf(ctx.db, userId))) throw new AppError('not_found', 'This unsubscribe link belongs to an account that no longer exists.');
  await ctx.db.transaction().execute(async (trx) => {
    await repo.setPreference(trx, userId, category, enabled, new Date());
    await insertAuditEntry(trx, {
      actorUserId: null,
      actorLabel: `unsubscribe-link:${via}`,
      action: enabled ? 'mail.category_on' : 'mail.category_off',
      subjectType: 'user',
      subjectId: userId,
      details: { category },
    });
  });
  return unsubscribeState(ctx, token);
}

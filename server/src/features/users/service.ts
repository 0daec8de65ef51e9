import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { AppError } from '../../lib/errors';
import { insertAuditEntry } from '../audit/repo';
import { ROLES, type Role } from '../auth/auth';
import * as repo from './repo';

export interface Actor {
  userId: string | null;
  label: string;
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/**
 * Changes a user's role. The administrator is the one account whose e-mail equals ADMIN_EMAIL,
 * so `admin` can be neither given to anyone else nor taken from that account.
 */
export async function setUserRole(
  db: Kysely<Database>,
  adminEmail: string,
  input: { email: string; role: string },
  actor: Actor,
): Promise<repo.UserRow> {
  if (!isRole(input.role)) {
    throw new AppError('validation_failed', `Unknown role "${input.role}". Roles: ${ROLES.join(', ')}.`);
  }
  const role = input.role;
  const email = input.email.trim().toLowerCase();
  return db.transaction().execute(async (trx) => {
    const user = await repo.findUserByEmail(trx, email);
    if (!user) throw new AppError('not_found', `No user with e-mail ${email}. They must sign in once first.`);
    if (email === adminEmail && role !== 'admin') {
      throw new AppError('conflict', 'The administrator account (ADMIN_EMAIL) always keeps the admin role.');
    }
    if (email !== adminEmail && role === 'admin') {
      throw new AppError('conflict', 'Only the account whose e-mail equals ADMIN_EMAIL can be the administrator.');
    }
    if (user.role !== role) {
      await repo.updateUserRole(trx, user.id, role);
      await insertAuditEntry(trx, {
        actorUserId: actor.userId,
        actorLabel: actor.label,
        action: 'user.role_changed',
        subjectType: 'user',
        subjectId: user.id,
        details: { email, from: user.role, to: role },
      });
    }
    return { ...user, role };
  });
}

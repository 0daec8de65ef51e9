import type { ColumnType, Generated } from 'kysely';

/** Timestamps are set in code as Date; PostgreSQL returns Date, SQLite ISO text (see normalize.ts). */
export type Timestamp = ColumnType<Date | string, Date | string, Date | string>;
/** JSON is bound as text; PostgreSQL returns an object, SQLite text. */
export type Json = ColumnType<unknown, string, string>;
/** SQLite has no boolean: it stores 1/0. */
export type Bool = ColumnType<boolean | number, boolean, boolean>;

/** better-auth's tables (created by its own migrations), as far as our code reads them. */
export interface UserTable {
  id: string;
  name: string;
  email: string;
  emailVerified: Bool;
  image: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  role: string | null;
  banned: Bool | null;
  banReason: string | null;
  banExpires: Timestamp | null;
  firstName: string | null;
  lastName: string | null;
}

export interface SessionTable {
  id: string;
  expiresAt: Timestamp;
  token: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  ipAddress: string | null;
  userAgent: string | null;
  userId: string;
  impersonatedBy: string | null;
}

export interface AuditLogTable {
  id: string;
  actor_user_id: string | null;
  /** who acted, readable even after the user is gone: an e-mail, `cli:<os user>` or `system` */
  actor_label: string;
  action: string;
  subject_type: string | null;
  subject_id: string | null;
  details: Json;
  created_at: Timestamp;
}

export interface Database {
  user: UserTable;
  session: SessionTable;
  audit_log: AuditLogTable;
}

export type Dialect = 'sqlite' | 'postgres';
export type { Generated };

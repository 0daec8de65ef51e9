/** The administrator's area (/api/admin/*): MFA, dashboard, payments, users, impersonation, roles, audit, businesses. */
import { z } from 'zod';
import { DeskMessage } from './contact';
import { DeskPayment } from './financial';
import { isoDate, isoDateTime, rupees, storableText } from './shared';

// --- MFA ---------------------------------------------------------------------------------------

export const MfaStatus = z.object({
  email: z.string(),
  mfaConfigured: z.boolean(),
  mfaVerified: z.boolean(),
  verifiedUntil: isoDateTime.nullable(),
  recoveryCodesLeft: z.number().int(),
});
export type MfaStatus = z.infer<typeof MfaStatus>;

export const EmptyBody = z.object({}).strict().nullish();

/**
 * The first setup needs the operator's one-time enrolment code (start-up log or
 * `npm run cli -- admin:mfa-enrol-code`). Optional here so a missing code answers
 * `403 enrolment_code_required` rather than a validation error; case, dashes and spaces do not matter.
 */
export const MfaSetupBody = z.object({ enrolmentCode: z.string().max(64).optional() }).strict().nullish();
export type MfaSetupBody = z.infer<typeof MfaSetupBody>;

export const MfaSetup = z.object({ qrCodeUrl: z.string(), secret: z.string(), manualEntry: z.string(), otpauthUri: z.string() });
export type MfaSetup = z.infer<typeof MfaSetup>;

const totpCode = z.string().trim().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.');
const recoveryCode = z.string().trim().min(8).max(20);
export const MfaConfirmBody = z.object({ totpCode }).strict();
export const MfaVerifyBody = z.union([z.object({ totpCode }).strict(), z.object({ recoveryCode }).strict()]);
export type MfaProof = z.infer<typeof MfaVerifyBody>;

/** The first code turns the pending secret into the MFA; the recovery codes are shown this once. */
export const MfaConfirmed = z.object({
  mfaConfigured: z.literal(true),
  mfaVerified: z.literal(true),
  verifiedUntil: isoDateTime,
  recoveryCodes: z.array(z.string()),
});
export type MfaConfirmed = z.infer<typeof MfaConfirmed>;
export const MfaVerified = z.object({ mfaVerified: z.literal(true), verifiedUntil: isoDateTime });
export type MfaVerified = z.infer<typeof MfaVerified>;

// --- dashboard, payments, audit ----------------------------------------------------------------

export const AuditEntry = z.object({
  id: z.string(),
  actorLabel: z.string(),
  actorUserId: z.string().nullable(),
  action: z.string(),
  subjectType: z.string().nullable(),
  subjectId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  createdAt: isoDateTime,
  impersonatedBy: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

const probe = z.object({ ok: z.boolean(), latencyMs: z.number().nullable() });

export const AdminDashboard = z.object({
  totals: z.object({ users: z.number().int(), activeApiKeys: z.number().int(), verificationsToday: z.number().int(), revenueToday: rupees }),
  pendingApprovals: z.object({ count: z.number().int(), amount: rupees, items: z.array(DeskPayment) }),
  service: z.object({
    database: probe,
    redis: z.object({ configured: z.boolean(), ok: z.boolean().nullable(), latencyMs: z.number().nullable() }),
    webhooks: z.object({ outboxDepth: z.number().int(), oldestDueAgeSeconds: z.number().nullable() }),
    worker: z.object({ enabled: z.boolean(), lastHeartbeatAt: isoDateTime.nullable(), ok: z.boolean() }),
  }),
  recentActivity: z.array(AuditEntry),
  /** refunds and messages a financial manager sent up: the admin's queue */
  escalatedMessages: z.object({ count: z.number().int(), items: z.array(DeskMessage) }),
});
export type AdminDashboard = z.infer<typeof AdminDashboard>;

export const AdminPayments = z.object({
  counts: z.object({ pending: z.number().int(), approved: z.number().int(), rejected: z.number().int() }),
  pendingAmount: rupees,
  avgProcessingSeconds: z.number().nullable(),
  pending: z.array(DeskPayment),
  recent: z.array(DeskPayment),
});
export type AdminPayments = z.infer<typeof AdminPayments>;

export const AuditFiltersQuery = z.object({
  actor: z.string().trim().max(320).optional(),
  action: z.string().trim().max(80).optional(),
  target: z.string().trim().max(128).optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
});
export type AuditFilters = z.infer<typeof AuditFiltersQuery>;
export const AuditPageQuery = AuditFiltersQuery.extend({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});
export const AuditPage = z.object({ entries: z.array(AuditEntry), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() });
export type AuditPage = z.infer<typeof AuditPage>;

// --- roles -------------------------------------------------------------------------------------

export const Roles = z.object({
  admin: z.object({ email: z.string() }),
  financialManagers: z.array(z.object({ id: z.string(), email: z.string(), name: z.string() })),
});
export type Roles = z.infer<typeof Roles>;

const email = z
  .string()
  .trim()
  .min(1, 'Email Required - Please enter a valid email address')
  .max(320)
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Invalid Email - Please enter a valid email address');
export const RoleChangeBody = z.object({ userEmail: email });
export const RoleChanged = z.object({ user: z.object({ id: z.string(), email: z.string(), role: z.string() }) });
export type RoleChanged = z.infer<typeof RoleChanged>;

// --- users and impersonation -------------------------------------------------------------------

export const SearchQuery = z.object({ q: z.string().trim().max(200).default(''), limit: z.coerce.number().int().min(1).max(100).default(50) });

export const AdminUser = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(['user', 'financial_manager', 'admin']),
  status: z.enum(['active', 'banned']),
  business: z.object({ id: z.string(), companyName: z.string(), balance: rupees, apiKeyPrefix: z.string().nullable() }).nullable(),
  lastActiveAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
});
export type AdminUser = z.infer<typeof AdminUser>;
export const AdminUsers = z.object({ users: z.array(AdminUser) });
export type AdminUsers = z.infer<typeof AdminUsers>;

export const ImpersonationView = z.object({
  id: z.string(),
  adminEmail: z.string(),
  userId: z.string(),
  userEmail: z.string(),
  reason: z.string(),
  startedAt: isoDateTime,
  expiresAt: isoDateTime,
});
export type ImpersonationView = z.infer<typeof ImpersonationView>;

export const StartImpersonationBody = z
  .object({ userId: z.string().trim().min(1).max(64), reason: storableText().trim().min(3, 'Say why (at least 3 characters).').max(500) })
  .strict();
export const ImpersonationStarted = z.object({ impersonation: ImpersonationView });
export type ImpersonationStarted = z.infer<typeof ImpersonationStarted>;
/** GET /api/admin/impersonation: the one impersonation acting now (one at a time), if any. */
export const LiveImpersonation = z.object({ live: ImpersonationView.nullable() });
export type LiveImpersonation = z.infer<typeof LiveImpersonation>;

// --- businesses --------------------------------------------------------------------------------

export const AdminIdParams = z.object({ id: z.string().trim().min(1).max(64) });
const reason = storableText().trim().min(3, 'Give a reason (at least 3 characters).').max(500);
export const ReasonBody = z.object({ reason });

export const AdminBusiness = z.object({
  id: z.string(),
  companyName: z.string(),
  ownerUserId: z.string(),
  ownerEmail: z.string(),
  ownerStatus: z.enum(['active', 'banned']),
  balance: rupees,
  verificationsLeft: z.number().int(),
  rateLimitPerMinute: z.number().int(),
  apiKey: z.object({ prefix: z.string(), createdAt: isoDateTime, lastUsedAt: isoDateTime.nullable() }).nullable(),
  suspended: z.object({ at: isoDateTime, reason: z.string() }).nullable(),
  createdAt: isoDateTime,
});
export type AdminBusiness = z.infer<typeof AdminBusiness>;
export const AdminBusinesses = z.object({ businesses: z.array(AdminBusiness) });
export type AdminBusinesses = z.infer<typeof AdminBusinesses>;

export const LedgerRow = z.object({
  id: z.string(),
  kind: z.string(),
  amount: rupees,
  reason: z.string().nullable(),
  reference: z.string().nullable(),
  actor: z.string(),
  createdAt: isoDateTime,
});
export type LedgerRow = z.infer<typeof LedgerRow>;
export const AdminBusinessDetail = z.object({ business: AdminBusiness, ledger: z.array(LedgerRow) });
export type AdminBusinessDetail = z.infer<typeof AdminBusinessDetail>;

export const GrantBody = z.object({
  amountRupees: z
    .number()
    .positive()
    .max(10_000_000)
    .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, 'Use at most two decimals (paise).'),
  reason,
});
export const Granted = z.object({ balance: rupees, verificationsLeft: z.number().int() });
export type Granted = z.infer<typeof Granted>;
export const RateLimitBody = z.object({ perMinute: z.number().int().min(1).max(100_000) });
export const RateLimitSet = z.object({ rateLimitPerMinute: z.number().int() });
export const BusinessChanged = z.object({ business: AdminBusiness });
export const UserStanding = z.object({ user: z.object({ id: z.string(), email: z.string(), status: z.enum(['active', 'banned']) }) });
export type UserStanding = z.infer<typeof UserStanding>;

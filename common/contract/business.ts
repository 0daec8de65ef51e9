/** The business dashboard's cookie API (/api/business/*): what the server answers and the web reads. */
import { z } from 'zod';
import { isoDate, isoDateTime, rupees, storableText } from './shared';

/** Which data a dashboard view reads, and which key a regeneration replaces: live unless asked. */
export const API_MODES = ['live', 'test'] as const;
export type ApiMode = (typeof API_MODES)[number];
export const ModeQuery = z.object({ mode: z.enum(API_MODES).default('live') });
export type ModeQuery = z.infer<typeof ModeQuery>;

export const AutoRefillSettings = z.object({
  enabled: z.boolean(),
  thresholdPaise: z.number().int().nullable(),
  packId: z.string().nullable(),
});
export type AutoRefillSettings = z.infer<typeof AutoRefillSettings>;

export const BusinessProfile = z.object({
  id: z.string(),
  companyName: z.string(),
  balance: rupees,
  balancePaise: z.number().int(),
  credits: z.number().int(),
  verificationsLeft: z.number().int(),
  lowBalance: z.boolean(),
  rateLimitPerMinute: z.number().int(),
  apiKeyPrefix: z.string().nullable(),
  apiKeyCreatedAt: isoDateTime.nullable(),
  apiKeyLastUsedAt: isoDateTime.nullable(),
  /** the test key (sk_test_…): free calls, data kept apart from live; null until one is made */
  testApiKeyPrefix: z.string().nullable(),
  testApiKeyCreatedAt: isoDateTime.nullable(),
  testApiKeyLastUsedAt: isoDateTime.nullable(),
  /** calls a minute allowed to the test key */
  testRateLimitPerMinute: z.number().int(),
  autoRefill: AutoRefillSettings,
  createdAt: isoDateTime,
});
export type BusinessProfile = z.infer<typeof BusinessProfile>;

export const CreateBusinessBody = z.object({ companyName: storableText().max(200) });
/** POST /api/business/create answers the profile plus both full keys, each shown once. */
export const CreatedBusiness = BusinessProfile.extend({ apiKey: z.string(), testApiKey: z.string() });
export type CreatedBusiness = z.infer<typeof CreatedBusiness>;

export const VERIFICATION_STATUSES = ['verified', 'invalid_code', 'expired', 'replayed'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

export const RecentVerification = z.object({
  id: z.string(),
  isVerified: z.boolean(),
  /** one of VERIFICATION_STATUSES; kept open so a new status does not fail the answer */
  status: z.string(),
  userId: z.string().nullable(),
  purpose: z.string().nullable(),
  createdAt: isoDateTime,
  responseTime: z.number().nullable(),
  cost: rupees,
});
export type RecentVerification = z.infer<typeof RecentVerification>;

export const DailyCount = z.object({
  /** YYYY-MM-DD (UTC day) */
  date: z.string(),
  total: z.number().int(),
  verified: z.number().int(),
  failed: z.number().int(),
});
export type DailyCount = z.infer<typeof DailyCount>;

export const BusinessDashboard = z.object({
  stats: z.object({
    today: z.object({ totalRequests: z.number(), successRate: z.number(), avgResponseTime: z.number(), failedVerifications: z.number() }),
    month: z.object({ totalRequests: z.number(), successfulVerifications: z.number(), totalCost: rupees, avgResponseTime: z.number() }),
    daily: z.array(DailyCount),
  }),
  recentVerifications: z.array(RecentVerification),
  /** which mode's data these are */
  mode: z.enum(API_MODES),
});
export type BusinessDashboard = z.infer<typeof BusinessDashboard>;

export const RegeneratedKey = z.object({ apiKey: z.string(), prefix: z.string(), mode: z.enum(API_MODES) });
export type RegeneratedKey = z.infer<typeof RegeneratedKey>;

export const AutoRefillBody = z.object({
  enabled: z.boolean(),
  thresholdRupees: z.number().int().min(100).max(10_000_000),
  packId: z.string().max(40),
});
export type AutoRefillBody = z.infer<typeof AutoRefillBody>;

export const LedgerEntry = z.object({
  id: z.string(),
  amount: rupees,
  /** top_up | grant | refund | adjustment */
  kind: z.string(),
  reference: z.string().nullable(),
  reason: z.string().nullable(),
  createdAt: isoDateTime,
});
export type LedgerEntry = z.infer<typeof LedgerEntry>;

export const UsageCsvQuery = z.object({ from: isoDate, to: isoDate, mode: z.enum(API_MODES).default('live') });

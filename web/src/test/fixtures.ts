/** Shared test data for component tests. */
import type { BusinessProfile } from '@/features/business/api';

export function makeProfile(overrides: Partial<BusinessProfile> = {}): BusinessProfile {
  return {
    id: 'biz_123',
    companyName: 'Acme Payments',
    balance: '123.40',
    balancePaise: 12_340,
    credits: 1_234,
    verificationsLeft: 1_234,
    lowBalance: false,
    rateLimitPerMinute: 1_000,
    apiKeyPrefix: 'sk_live_AbCd',
    apiKeyCreatedAt: '2025-03-01T10:00:00.000Z',
    apiKeyLastUsedAt: null,
    testApiKeyPrefix: 'sk_test_WxYz',
    testApiKeyCreatedAt: '2025-03-01T10:00:00.000Z',
    testApiKeyLastUsedAt: null,
    testRateLimitPerMinute: 100,
    autoRefill: { enabled: false, thresholdPaise: null, packId: null, mode: 'bank', offReason: null, offAt: null, mandate: null, lastRefill: null },
    createdAt: '2025-03-01T10:00:00.000Z',
    ...overrides,
  };
}

import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('operations settings', () => {
  it('default: metrics off, upkeep hourly, verifications kept forever', () => {
    const config = loadConfig({});
    expect(config.metricsToken).toBeUndefined();
    expect(config.upkeep).toEqual({ intervalMs: 3_600_000, verificationRetentionDays: 0 });
  });

  it('reads METRICS_TOKEN, UPKEEP_INTERVAL_SECONDS and VERIFICATION_RETENTION_DAYS', () => {
    const config = loadConfig({ METRICS_TOKEN: 'a-long-enough-metrics-token', UPKEEP_INTERVAL_SECONDS: '0', VERIFICATION_RETENTION_DAYS: '400' });
    expect(config.metricsToken).toBe('a-long-enough-metrics-token');
    expect(config.upkeep).toEqual({ intervalMs: 0, verificationRetentionDays: 400 });
  });

  it('refuses a guessable metrics token and nonsense intervals, naming the variable', () => {
    expect(problemsOf({ METRICS_TOKEN: 'short' })).toEqual([expect.stringMatching(/^METRICS_TOKEN: must be at least 16 characters/)]);
    expect(problemsOf({ UPKEEP_INTERVAL_SECONDS: '-1' })[0]).toMatch(/^UPKEEP_INTERVAL_SECONDS:/);
    expect(problemsOf({ VERIFICATION_RETENTION_DAYS: 'forever' })[0]).toMatch(/^VERIFICATION_RETENTION_DAYS:/);
  });
});

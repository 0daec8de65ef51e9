import type { ReactNode } from 'react';
import { BookOpen, Gauge, KeyRound, Link2 } from 'lucide-react';
import { API_KEY_PLACEHOLDER, renderSample } from '@common/samples';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import type { ApiMode, BusinessProfile } from '../api';
import { count, formatDate, timeAgo } from '../format';
import { useCopy } from '@/lib/use-copy';
import { CopyButton } from './CopyButton';
import { ModeSwitch } from './ModeSwitch';

export const OPENAPI_URL = '/api/v1/openapi.json';

/** The public API's base URL for this deployment. */
export function apiBaseUrl(): string {
  return `${window.location.origin}/api/v1`;
}

/** "sk_live_AbCd" → "sk_live_AbCd••••": the stored prefix, never the secret. */
export function maskedKey(prefix: string): string {
  return `${prefix}••••`;
}

function Row({ icon: Icon, label, children }: { icon: typeof KeyRound; label: string; children: ReactNode }) {
  return (
    <div className="space-y-1.5">
      <dt className="flex items-center gap-1.5 text-sm font-medium text-muted-foreground">
        <Icon className="size-4" aria-hidden="true" />
        {label}
      </dt>
      <dd className="space-y-1">{children}</dd>
    </div>
  );
}

/** One mode's key as the profile describes it (prefix and dates only; the key itself is never kept). */
export function keyOf(profile: BusinessProfile, mode: ApiMode) {
  return mode === 'test'
    ? { prefix: profile.testApiKeyPrefix, createdAt: profile.testApiKeyCreatedAt, lastUsedAt: profile.testApiKeyLastUsedAt, perMinute: profile.testRateLimitPerMinute }
    : { prefix: profile.apiKeyPrefix, createdAt: profile.apiKeyCreatedAt, lastUsedAt: profile.apiKeyLastUsedAt, perMinute: profile.rateLimitPerMinute };
}

interface ApiConfigCardProps {
  profile: BusinessProfile;
  mode: ApiMode;
  onModeChange: (mode: ApiMode) => void;
  onRegenerate: (mode: ApiMode) => void;
}

export function ApiConfigCard({ profile, mode, onModeChange, onRegenerate }: ApiConfigCardProps) {
  const { copied, copy } = useCopy();
  const baseUrl = apiBaseUrl();
  const key = keyOf(profile, mode);
  const prefix = key.prefix;
  const test = mode === 'test';

  return (
    <Card className="flex flex-col">
      <CardHeader className="gap-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle>API configuration</CardTitle>
          <ModeSwitch mode={mode} onChange={onModeChange} label="API key mode" />
        </div>
        <CardDescription>
          {test ? (
            <>
              The test key does everything the live key does — for free, on test data only. Move to live by changing this
              one string.
            </>
          ) : (
            <>Send the key as a Bearer token from your server — never from a browser or app.</>
          )}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex-1">
        <dl className="space-y-5">
          <Row icon={KeyRound} label={test ? 'Test API key' : 'Live API key'}>
            {prefix ? (
              <>
                <div className="flex items-center gap-2">
                  <code className="min-w-0 flex-1 truncate rounded-md border bg-muted/50 px-3 py-1.5 font-mono text-sm" data-testid={test ? 'test-api-key-prefix' : 'api-key-prefix'}>
                    {maskedKey(prefix)}
                  </code>
                  <CopyButton
                    label="Copy API key prefix"
                    copied={copied === 'prefix'}
                    onCopy={() =>
                      void copy('prefix', prefix, {
                        title: 'Copied!',
                        description: 'Key prefix copied. The full key is shown only when it is created or regenerated.',
                      })
                    }
                  />
                </div>
                <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
                  <p className="text-xs text-muted-foreground">
                    {key.createdAt && <>Created {formatDate(key.createdAt)} · </>}
                    {key.lastUsedAt ? <>Last used {timeAgo(key.lastUsedAt)}</> : 'Not used yet'}
                  </p>
                  <Button type="button" size="sm" variant="link" className="h-auto px-0" onClick={() => onRegenerate(mode)}>
                    {test ? 'Regenerate test key' : 'Regenerate live key'}
                  </Button>
                </div>
              </>
            ) : (
              <div className="flex flex-wrap items-center gap-2 text-sm">
                <span>{test ? 'No test key yet.' : 'No active key.'}</span>
                <Button type="button" size="sm" variant="outline" onClick={() => onRegenerate(mode)}>
                  {test ? 'Create a test key' : 'Create a key'}
                </Button>
              </div>
            )}
          </Row>
          <Row icon={Link2} label="Base URL">
            <div className="flex items-center gap-2">
              <code className="min-w-0 flex-1 rounded-md border bg-muted/50 px-3 py-1.5 font-mono text-sm break-all" data-testid="api-base-url">
                {baseUrl}
              </code>
              <CopyButton
                label="Copy base URL"
                copied={copied === 'base'}
                onCopy={() => void copy('base', baseUrl, { title: 'Copied!', description: 'Base URL copied to clipboard.' })}
              />
            </div>
          </Row>
          <Row icon={Gauge} label="Rate limit">
            <p className="text-sm">
              <span className="font-semibold tabular-nums">{count(key.perMinute)} requests/minute</span>
              <span className="text-muted-foreground">{test ? ' for the test key, apart from the live key' : ' per API key'}</span>
            </p>
          </Row>
        </dl>
        <details open className="group mt-5 rounded-md border bg-muted/30 text-sm">
          <summary className="cursor-pointer rounded-md px-3 py-2 font-medium focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
            Quick start: verify a code
          </summary>
          {/* Scrolls sideways on a phone: focusable so a keyboard can scroll it too. */}
          <pre tabIndex={0} aria-label="Quick start sample" className="overflow-x-auto border-t px-3 py-2 font-mono text-xs leading-relaxed focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
            {/* The site's one verify sample (common/samples, executed by its test), with the key prefix. */}
            {renderSample('verify', 'curl', { baseUrl, apiKey: prefix ? maskedKey(prefix) : API_KEY_PLACEHOLDER })}
          </pre>
        </details>
        <Button asChild variant="link" className="mt-3 h-auto px-0">
          <a href={OPENAPI_URL} target="_blank" rel="noreferrer">
            <BookOpen aria-hidden="true" />
            API reference (OpenAPI)
          </a>
        </Button>
      </CardContent>
    </Card>
  );
}

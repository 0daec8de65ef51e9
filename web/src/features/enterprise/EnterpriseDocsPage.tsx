import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EnterprisePlaceholder } from './EnterprisePlaceholder';

const example = (origin: string) => `curl ${origin}/v1/verify \\
  -H "Authorization: Bearer sk_live_…" \\
  -H "Content-Type: application/json" \\
  -d '{"secret":"JBSWY3DPEHPK3PXP","token":"123456"}'`;

export function EnterpriseDocsPage() {
  return (
    <EnterprisePlaceholder
      eyebrow="API documentation"
      title="Verify a code with one request"
      description="A small REST API: generate a secret and QR code for a user, then verify the codes they type. Authenticate with a Bearer API key."
      planned={[
        'Quick start and authentication with your API key',
        'POST /v1/verify and POST /v1/generate, with request and response fields',
        'Examples in cURL, JavaScript, Python and PHP, each with a copy button',
        'Rate limits, errors and webhooks',
      ]}
    >
      <Card className="min-w-0">
        <CardHeader>
          <CardTitle>
            <span>A first look</span>
          </CardTitle>
          <CardDescription>cURL — the full page adds JavaScript, Python and PHP.</CardDescription>
        </CardHeader>
        <CardContent>
          <pre className="overflow-x-auto rounded-lg bg-muted p-4 font-mono text-xs leading-relaxed">
            <code>{example(window.location.origin)}</code>
          </pre>
        </CardContent>
      </Card>
    </EnterprisePlaceholder>
  );
}

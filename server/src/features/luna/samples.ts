/**
 * Code that calls POST /verify, one template per language, filled with the asker's real base
 * URL and key PREFIX: the full key is never known to the server (only its hash), so never shown.
 */
export const LANGUAGES = ['curl', 'javascript', 'python', 'php'] as const;
export type Language = (typeof LANGUAGES)[number];

export interface SampleContext {
  /** e.g. https://sixdigit.example/api/v1 */
  baseUrl: string;
  /** e.g. sk_live_AbC1 — rendered as sk_live_AbC1… with a note to paste the full key */
  keyPrefix: string | null;
}

const keyText = (ctx: SampleContext) => (ctx.keyPrefix ? `${ctx.keyPrefix}…` : 'sk_live_…');

export function verifySample(language: Language, ctx: SampleContext): string {
  const key = keyText(ctx);
  switch (language) {
    case 'curl':
      return [
        `curl -X POST ${ctx.baseUrl}/verify \\`,
        `  -H "Authorization: Bearer ${key}" \\`,
        `  -H "Content-Type: application/json" \\`,
        `  -d '{"user_id":"user_42","totp_code":"123456"}'`,
      ].join('\n');
    case 'javascript':
      return [
        `// Node 18+ (built-in fetch). Keep the key in an environment variable on your server.`,
        `const res = await fetch('${ctx.baseUrl}/verify', {`,
        `  method: 'POST',`,
        `  headers: { Authorization: \`Bearer \${process.env.SIXDIGIT_API_KEY}\`, 'Content-Type': 'application/json' }, // ${key}`,
        `  body: JSON.stringify({ user_id: 'user_42', totp_code: '123456' }),`,
        `});`,
        `const result = await res.json();`,
        `if (res.ok && result.verified) {`,
        `  // signed in`,
        `} else {`,
        `  console.log(result.status ?? result.error?.code); // invalid_code, expired, replayed, insufficient_credits…`,
        `}`,
      ].join('\n');
    case 'python':
      return [
        `# Python 3, standard library only. Keep the key in an environment variable on your server.`,
        `import json, os, urllib.request, urllib.error`,
        ``,
        `req = urllib.request.Request(`,
        `    "${ctx.baseUrl}/verify",`,
        `    data=json.dumps({"user_id": "user_42", "totp_code": "123456"}).encode(),`,
        `    headers={"Authorization": f"Bearer {os.environ['SIXDIGIT_API_KEY']}",  # ${key}`,
        `             "Content-Type": "application/json"},`,
        `    method="POST",`,
        `)`,
        `try:`,
        `    with urllib.request.urlopen(req) as res:`,
        `        result = json.load(res)`,
        `        print(result["verified"], result["status"])`,
        `except urllib.error.HTTPError as err:`,
        `    print(err.code, json.load(err)["error"]["code"])`,
      ].join('\n');
    case 'php':
      return [
        `<?php`,
        `// Keep the key in an environment variable on your server (${key}).`,
        `$ch = curl_init('${ctx.baseUrl}/verify');`,
        `curl_setopt_array($ch, [`,
        `    CURLOPT_POST => true,`,
        `    CURLOPT_RETURNTRANSFER => true,`,
        `    CURLOPT_HTTPHEADER => ['Authorization: Bearer ' . getenv('SIXDIGIT_API_KEY'), 'Content-Type: application/json'],`,
        `    CURLOPT_POSTFIELDS => json_encode(['user_id' => 'user_42', 'totp_code' => '123456']),`,
        `]);`,
        `$result = json_decode(curl_exec($ch), true);`,
        `echo ($result['verified'] ?? false) ? 'verified' : ($result['status'] ?? $result['error']['code']);`,
      ].join('\n');
  }
}

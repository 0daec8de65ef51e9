import { escapeHtml } from '../../lib/html';
const STYLE = `<style>
  :root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f4f4f5; color: #18181b; }
  @media (prefers-color-scheme: dark) { body { background: #09090b; color: #fafafa; } .card { background: #18181b !important; border-color: #27272a !important; } input { background: #09090b; color: #fafafa; border-color: #3f3f46 !important; } }
  .card { box-sizing: border-box; width: min(92vw, 400px); background: #fff; border: 1px solid #e4e4e7; border-radius: 12px; padding: 28px; box-shadow: 0 1px 3px rgba(0,0,0,.06); }
  .badge { display: inline-block; font-size: 12px; font-weight: 600; letter-spacing: .02em; color: #92400e; background: #fef3c7; border: 1px solid #fcd34d; border-radius: 999px; padding: 2px 10px; }
  h1 { font-size: 22px; margin: 14px 0 6px; }
  p { margin: 0 0 16px; font-size: 14px; line-height: 1.5; color: #71717a; }
  label { display: block; font-size: 14px; font-weight: 500; margin: 14px 0 6px; }
  input { width: 100%; box-sizing: border-box; font: inherit; padding: 10px 12px; border: 1px solid #d4d4d8; border-radius: 8px; }
  input:focus-visible, button:focus-visible { outline: 2px solid #4f46e5; outline-offset: 2px; }
  button { margin-top: 20px; width: 100%; font: inherit; font-weight: 600; padding: 10px 12px; border: 0; border-radius: 8px; background: #4f46e5; color: #fff; cursor: pointer; }
  .alt { display: block; margin-top: 12px; text-align: center; font-weight: 600; padding: 10px 12px; border: 1px solid #d4d4d8; border-radius: 8px; color: inherit; text-decoration: none; }
  .alt:focus-visible { outline: 2px solid #4f46e5; outline-offset: 2px; }
  .error { color: #b91c1c; background: #fef2f2; border: 1px solid #fecaca; border-radius: 8px; padding: 8px 12px; }
</style>`;

/**
 * The development sign-in form, shown by /api/login when no OpenID Connect issuer is configured.
 * Plain HTML with no script so it works before the web app is built (and our CSP allows no inline
 * script): "Sign in with a passkey" links to the web app's page that runs the WebAuthn ceremony.
 */
export function renderLocalSignInPage(options: { returnTo: string; error?: string; email?: string; name?: string }): string {
  const error = options.error
    ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Local sign-in · Sixdigit (development)</title>
${STYLE}
</head>
<body>
<main class="card">
  <span class="badge">Development only</span>
  <h1>Local sign-in</h1>
  <p>No OpenID Connect issuer is configured, so this install signs you in with just an e-mail and a name. Set <code>OIDC_CLIENT_ID</code> (Google by default) to use real sign-in; production refuses to start without it.</p>
  ${error}
  <form method="post" action="/api/login/local">
    <input type="hidden" name="returnTo" value="${escapeHtml(options.returnTo)}">
    <label for="email">E-mail</label>
    <input id="email" name="email" type="email" required autocomplete="email" maxlength="320" value="${escapeHtml(options.email ?? '')}" autofocus>
    <label for="name">Full name</label>
    <input id="name" name="name" type="text" required autocomplete="name" maxlength="120" value="${escapeHtml(options.name ?? '')}">
    <button type="submit">Sign in</button>
  </form>
  <a class="alt" href="/sign-in/passkey?returnTo=${encodeURIComponent(options.returnTo)}">Sign in with a passkey</a>
</main>
</body>
</html>`;
}


/**
 * /api/login with an identity provider configured: its button, and "Sign in with a passkey" (the
 * web app's page runs the WebAuthn ceremony; our CSP allows no inline script here). One click more
 * than a straight redirect, so that a person with a passkey never needs the provider at all.
 */
export function renderSignInChooserPage(options: { returnTo: string; providerName: string }): string {
  const returnTo = encodeURIComponent(options.returnTo);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in · Sixdigit</title>
${STYLE}
<style>
  .primary { display: block; margin-top: 8px; text-align: center; font-weight: 600; padding: 10px 12px; border-radius: 8px; background: #4f46e5; color: #fff; text-decoration: none; }
  .primary:focus-visible { outline: 2px solid #4f46e5; outline-offset: 2px; }
</style>
</head>
<body>
<main class="card">
  <h1>Sign in to Sixdigit</h1>
  <p>Use your ${escapeHtml(options.providerName)} account, or a passkey you added on your account security page.</p>
  <a class="primary" href="/api/login/oidc?returnTo=${returnTo}">Continue with ${escapeHtml(options.providerName)}</a>
  <a class="alt" href="/sign-in/passkey?returnTo=${returnTo}">Sign in with a passkey</a>
</main>
</body>
</html>`;
}

/**
 * Shown when GET /api/logout was opened from another site: the link stays a link (SPEC), but
 * only a click on our own page (Sec-Fetch-Site: same-origin) signs out.
 */
export function renderSignOutConfirmPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign out? · Sixdigit</title>
${STYLE}
<style>
  .actions { display: flex; gap: 12px; margin-top: 20px; }
  .actions a { flex: 1; text-align: center; text-decoration: none; font-weight: 600; padding: 10px 12px; border-radius: 8px; }
  .primary { background: #4f46e5; color: #fff; }
  .secondary { border: 1px solid #d4d4d8; color: inherit; }
</style>
</head>
<body>
<main class="card">
  <h1>Sign out of Sixdigit?</h1>
  <p>Another site sent you to the sign-out link. You are still signed in; sign out only if you meant to.</p>
  <div class="actions">
    <a class="primary" href="/api/logout">Sign out</a>
    <a class="secondary" href="/">Stay signed in</a>
  </div>
</main>
</body>
</html>`;
}

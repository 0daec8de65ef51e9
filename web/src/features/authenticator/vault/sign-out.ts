/**
 * Sign-out locks the vault before the page leaves. Kept apart from the vault code so the layout's
 * menu does not pull the vault's cryptography into every page.
 */
const listeners = new Set<() => void>();

export function onSignOut(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function signingOut(): void {
  for (const listener of listeners) listener();
}

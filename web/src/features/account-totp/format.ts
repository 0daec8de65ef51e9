const DATE_TIME = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });

export function formatWhen(iso: string | null, never = 'Not yet'): string {
  return iso ? DATE_TIME.format(new Date(iso)) : never;
}

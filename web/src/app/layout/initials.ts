export interface NameParts {
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
}

function firstLetter(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? Array.from(trimmed)[0] : undefined;
}

/**
 * Avatar initials (SPEC §2): the first letters of the first and last name; else the first
 * letter of the e-mail; else "U".
 */
export function userInitials({ firstName, lastName, email }: NameParts): string {
  const first = firstLetter(firstName);
  const last = firstLetter(lastName);
  if (first && last) return `${first}${last}`.toUpperCase();
  const fromEmail = firstLetter(email);
  if (fromEmail) return fromEmail.toUpperCase();
  return 'U';
}

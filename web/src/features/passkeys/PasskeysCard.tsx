/** The passkeys card on the account security page. A placeholder: filled by the passkeys branch (issue 19 item 4). */
export function PasskeysCard() {
  return null;
}

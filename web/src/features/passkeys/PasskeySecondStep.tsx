/**
 * "Use a passkey" on the second-step page. A placeholder: filled by the passkeys branch (issue 19
 * item 4), which completes the session through the server's completeSecondFactor and then calls
 * `onDone`.
 */
export function PasskeySecondStep(_props: { onDone: () => void }) {
  return null;
}

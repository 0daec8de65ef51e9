/** What one vault entry holds once decrypted: an authenticator account and its place in the list. */
import { z } from 'zod';
import { OtpAccount } from '../contract/authenticator';

export const VaultAccount = OtpAccount.extend({
  createdAt: z.string(),
  /** position in the list (smaller first); accounts with the same order sort by createdAt */
  order: z.number(),
});
export type VaultAccount = z.infer<typeof VaultAccount>;

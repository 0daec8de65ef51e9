import type { ColumnType, Generated } from 'kysely';

/** Timestamps are set in code as Date; PostgreSQL returns Date, SQLite ISO text (see normalize.ts). */
export type Timestamp = ColumnType<Date | string, Date | string, Date | string>;
/** JSON is bound as text; PostgreSQL returns an object, SQLite text. */
export type Json = ColumnType<unknown, string, string>;
/** SQLite has no boolean: it stores 1/0. */
export type Bool = ColumnType<boolean | number, boolean, boolean>;

/** better-auth's tables (created by its own migrations), as far as our code reads them. */
export interface UserTable {
  id: string;
  name: string;
  email: string;
  emailVerified: Bool;
  image: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  role: string | null;
  banned: Bool | null;
  banReason: string | null;
  banExpires: Timestamp | null;
  firstName: string | null;
  lastName: string | null;
}

export interface SessionTable {
  id: string;
  expiresAt: Timestamp;
  token: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  ipAddress: string | null;
  userAgent: string | null;
  userId: string;
  impersonatedBy: string | null;
  /** issue 19: signed in by the first step only, until the second factor completes it */
  secondFactorPending: Bool | null;
}

export interface AuditLogTable {
  id: string;
  actor_user_id: string | null;
  /** who acted, readable even after the user is gone: an e-mail, `cli:<os user>` or `system` */
  actor_label: string;
  action: string;
  subject_type: string | null;
  subject_id: string | null;
  details: Json;
  created_at: Timestamp;
}

export interface BusinessTable {
  id: string;
  owner_user_id: string;
  company_name: string;
  balance_paise: number;
  rate_limit_per_minute: number;
  low_balance_notified: Bool;
  auto_refill_enabled: Bool;
  auto_refill_threshold_paise: number | null;
  auto_refill_pack_id: string | null;
  /** why the server switched auto-refill off (a failed charge); cleared when the owner turns it on */
  auto_refill_off_reason: ColumnType<string | null, string | null | undefined, string | null>;
  auto_refill_off_at: ColumnType<Date | string | null, Date | string | null | undefined, Date | string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** set while an administrator has suspended the business's API access */
  suspended_at: Timestamp | null;
  suspended_reason: string | null;
  /** the buyer's details printed on receipts (issue 22): GSTIN, GST state code, postal address */
  gstin: string | null;
  billing_state: string | null;
  billing_address: string | null;
}

export interface ApiKeyTable {
  id: string;
  business_id: string;
  prefix: string;
  key_hash: string;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
  last_used_at: Timestamp | null;
  /** false for test mode (sk_test_ keys): free, and kept apart from live data */
  livemode: ColumnType<boolean | number, boolean | undefined, boolean>;
}

export type LedgerKind = 'top_up' | 'grant' | 'refund' | 'adjustment';

export interface ReceiptCounterTable {
  /** e.g. 2026-27 */
  financial_year: string;
  last_number: number;
}

/** A frozen copy of everything a receipt shows (issue 22): later edits change no issued receipt. */
export interface ReceiptTable {
  id: string;
  business_id: string;
  /** SD/2026-27/000123 */
  number: string;
  financial_year: string;
  sequence: number;
  ledger_entry_id: string;
  payment_kind: string;
  payment_id: string;
  method: string;
  method_label: string;
  payment_reference: string;
  /** the bank's UTR, or the gateway's payment id */
  transaction_id: string | null;
  amount_paise: number;
  credits_added: number;
  buyer_name: string;
  buyer_email: string | null;
  buyer_address: string | null;
  buyer_state: string | null;
  buyer_gstin: string | null;
  payee_name: string;
  payee_details: string;
  payee_gstin: string | null;
  payee_state: string | null;
  sac: string | null;
  taxable_paise: number;
  cgst_paise: number;
  sgst_paise: number;
  igst_paise: number;
  issued_at: Timestamp;
}

export interface LedgerEntryTable {
  id: string;
  business_id: string;
  /** positive: credit added; verifications are debited through the verification table */
  amount_paise: number;
  kind: LedgerKind;
  reference: string | null;
  reason: string | null;
  actor_label: string;
  created_at: Timestamp;
}

export interface EnrolmentTable {
  id: string;
  business_id: string;
  external_user_id: string;
  secret_enc: string;
  algorithm: 'SHA1' | 'SHA256' | 'SHA512';
  digits: number;
  period: number;
  /** RFC 6238 §5.2: the last accepted time step; a code at or before it is a replay */
  last_used_step: number | null;
  purpose: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** false for test mode (sk_test_ keys): free, and kept apart from live data */
  livemode: ColumnType<boolean | number, boolean | undefined, boolean>;
}

export interface BackupCodeTable {
  id: string;
  enrolment_id: string;
  code_hash: string;
  used_at: Timestamp | null;
}

export type VerificationStatus = 'verified' | 'invalid_code' | 'expired' | 'replayed';

export interface VerificationTable {
  id: string;
  business_id: string;
  external_user_id: string | null;
  mode: 'managed' | 'stateless';
  method: 'totp' | 'backup';
  purpose: string | null;
  status: VerificationStatus;
  cost_paise: number;
  response_time_ms: number;
  created_at: Timestamp;
  /** false for test mode (sk_test_ keys): free, and kept apart from live data */
  livemode: ColumnType<boolean | number, boolean | undefined, boolean>;
}

export interface IdempotencyRecordTable {
  business_id: string;
  idempotency_key: string;
  endpoint: string;
  request_hash: string;
  status_code: number;
  response_body: string;
  created_at: Timestamp;
  /** false for test mode (sk_test_ keys): free, and kept apart from live data */
  livemode: ColumnType<boolean | number, boolean | undefined, boolean>;
}

export interface WebhookTable {
  id: string;
  business_id: string;
  url: string;
  events: Json;
  /** the owner's note on what the endpoint is for (API: `description`) */
  description: string | null;
  secret_enc: string;
  is_active: Bool;
  disabled_reason: string | null;
  created_at: Timestamp;
  last_triggered_at: Timestamp | null;
  /** start of the current run of failed attempts; null after a success */
  failing_since: Timestamp | null;
  /** when the server switched it off (410 Gone, a day of failures); null if on or switched off by the owner */
  disabled_at: Timestamp | null;
  /** false for test mode (sk_test_ keys): free, and kept apart from live data */
  livemode: ColumnType<boolean | number, boolean | undefined, boolean>;
}

export type DeliveryStatus = 'pending' | 'delivering' | 'succeeded' | 'exhausted' | 'cancelled';

export interface WebhookDeliveryTable {
  id: string;
  webhook_id: string;
  business_id: string;
  event: string;
  payload: string;
  verification_id: string | null;
  status: DeliveryStatus;
  attempt_count: number;
  next_attempt_at: Timestamp;
  locked_until: Timestamp | null;
  last_status_code: number | null;
  last_error: string | null;
  last_response_ms: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookAttemptTable {
  id: string;
  delivery_id: string;
  attempt_number: number;
  status_code: number | null;
  error: string | null;
  response_time_ms: number | null;
  created_at: Timestamp;
}

export interface AccountTotpTable {
  user_id: string;
  secret_enc: string;
  algorithm: 'SHA1' | 'SHA256' | 'SHA512';
  digits: number;
  period: number;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** null while pending: only a confirmed TOTP protects sign-in */
  confirmed_at: Timestamp | null;
  /** RFC 6238 §5.2: the last accepted time step */
  last_used_step: number | string | null;
  last_used_at: Timestamp | null;
}

export interface AccountTotpAttemptTable {
  id: string;
  user_id: string;
  created_at: Timestamp;
}

export interface AccountTotpBackupCodeTable {
  id: string;
  user_id: string;
  code_hash: string;
  used_at: Timestamp | null;
}

export interface AuthenticatorAccountTable {
  id: string;
  user_id: string;
  type: 'totp' | 'hotp';
  issuer: string | null;
  account_name: string;
  secret_enc: string;
  algorithm: 'SHA1' | 'SHA256' | 'SHA512';
  digits: number;
  period: number;
  /** HOTP only; bigint on PostgreSQL (a string when read) */
  counter: ColumnType<number | string | null, number | null, number | null>;
  fingerprint: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The authenticator vault's header: wrapped keys (JSON) the server cannot unwrap. */
export interface VaultTable {
  user_id: string;
  vault_id: string;
  format: number;
  header_version: number;
  slots: string;
  /** bigint on PostgreSQL (a string when read) */
  revision: ColumnType<number | string, number, number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface VaultEntryTable {
  user_id: string;
  id: string;
  version: number;
  ciphertext: string | null;
  revision: ColumnType<number | string, number, number>;
  updated_at: Timestamp;
}

export interface PaymentReferenceTable {
  id: string;
  business_id: string;
  reference: string;
  pack_id: string;
  amount_paise: number;
  verification_code: string;
  payee_upi_id: string;
  payee_name: string;
  payee_bank_details: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export type PaymentMethod = 'upi' | 'bank_transfer';
export type PaymentRequestStatus = 'pending' | 'approved' | 'rejected';

export interface PaymentRequestTable {
  id: string;
  business_id: string;
  reference_id: string;
  payment_reference: string;
  method: PaymentMethod;
  /** the bank's transaction id (UTR), upper-case; unique across all businesses */
  utr: string;
  amount_paise: number;
  pack_id: string;
  notes: string | null;
  status: PaymentRequestStatus;
  submitted_by_user_id: string | null;
  submitted_by_label: string;
  decision_notes: string | null;
  rejection_reason: string | null;
  processed_by_user_id: string | null;
  processed_by_label: string | null;
  processed_at: Timestamp | null;
  ledger_entry_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RazorpayOrderTable {
  /** Razorpay's order id (`order_…`) */
  id: string;
  business_id: string;
  amount_paise: number;
  currency: string;
  receipt: string;
  pack_id: string;
  status: 'created' | 'paid';
  payment_id: string | null;
  paid_via: 'checkout' | 'webhook' | null;
  created_by_user_id: string | null;
  created_at: Timestamp;
  paid_at: Timestamp | null;
  updated_at: Timestamp;
}

export type AutoRefillStatus = 'due' | 'charging' | 'open' | 'credited' | 'failed' | 'expired';

export interface AutoRefillTable {
  id: string;
  business_id: string;
  mode: 'razorpay' | 'bank' | null;
  status: AutoRefillStatus;
  pack_id: string;
  amount_paise: number;
  balance_at_crossing_paise: number;
  threshold_paise: number;
  order_id: string | null;
  payment_id: string | null;
  reference_id: string | null;
  failure_reason: string | null;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp;
  locked_until: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AutoRefillMandateTable {
  business_id: string;
  customer_id: string;
  token_id: string | null;
  method: 'card' | 'upi';
  status: 'pending' | 'active' | 'revoked';
  auth_order_id: string;
  max_amount_paise: number;
  label: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface NotificationTable {
  id: string;
  business_id: string;
  kind: string;
  title: string;
  message: string;
  subject_id: string | null;
  created_at: Timestamp;
  read_at: Timestamp | null;
}

export interface AdminMfaTable {
  user_id: string;
  secret_enc: string;
  confirmed_at: Timestamp | null;
  last_used_step: number | string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AdminMfaRecoveryCodeTable {
  id: string;
  user_id: string;
  code_hash: string;
  used_at: Timestamp | null;
}

export interface AdminMfaAttemptTable {
  id: string;
  user_id: string;
  created_at: Timestamp;
}

/** The one-time code the first admin MFA enrolment needs (only its SHA-256 is kept). */
export interface AdminMfaEnrolmentCodeTable {
  id: string;
  code_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface AdminMfaSessionTable {
  session_id: string;
  user_id: string;
  verified_at: Timestamp;
}

export interface ImpersonationTable {
  id: string;
  admin_user_id: string;
  admin_email: string;
  target_user_id: string;
  target_email: string;
  session_id: string;
  reason: string;
  started_at: Timestamp;
  expires_at: Timestamp;
  ended_at: Timestamp | null;
}

export interface UserNoticeTable {
  id: string;
  user_id: string;
  kind: string;
  subject_id: string | null;
  message: string;
  details: string;
  visible_from: Timestamp;
  created_at: Timestamp;
  read_at: Timestamp | null;
}

export interface ServiceHeartbeatTable {
  /** e.g. `webhook-worker:<host>:<pid>` */
  name: string;
  beat_at: Timestamp;
}

export type ContactCategory = 'general' | 'technical' | 'payment' | 'refund';
export type ContactStatus = 'open' | 'assigned_to_luna' | 'escalated' | 'closed';

export interface ContactMessageTable {
  id: string;
  reference: string;
  user_id: string | null;
  email: string;
  company_name: string | null;
  category: ContactCategory;
  subject: string;
  message: string;
  status: ContactStatus;
  escalated_to: 'luna' | 'admin' | null;
  luna_response: string | null;
  resolution: string | null;
  closed_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  closed_at: Timestamp | null;
}

export interface PasskeyTable {
  id: string;
  user_id: string;
  name: string;
  credential_id: string;
  public_key: string;
  /** bigint on PostgreSQL (a string when read) */
  counter: ColumnType<number | string, number, number>;
  /** JSON array text */
  transports: string;
  device_type: string;
  backed_up: Bool;
  prf_supported: Bool;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
}

export interface WebauthnChallengeTable {
  challenge: string;
  purpose: string;
  user_id: string | null;
  session_id: string | null;
  ceremony_id: string | null;
  expires_at: Timestamp;
  created_at: Timestamp;
}

export type MailStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'suppressed';

export interface MailOutboxTable {
  id: string;
  user_id: string | null;
  to_address: string;
  category: string;
  template: string;
  data: Json;
  attachments: Json;
  dedupe_key: string | null;
  status: MailStatus;
  attempt_count: number;
  next_attempt_at: Timestamp;
  locked_until: Timestamp | null;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  sent_at: Timestamp | null;
}

export interface MailAttemptTable {
  id: string;
  mail_id: string;
  attempt_number: number;
  outcome: 'sent' | 'retry' | 'failed';
  smtp_response: string | null;
  created_at: Timestamp;
}

export interface MailPreferenceTable {
  user_id: string;
  category: string;
  enabled: Bool;
  updated_at: Timestamp;
}

export interface KnownDeviceTable {
  user_id: string;
  /** browser family on a system, no versions ("Chrome on Windows") */
  device_key: string;
  first_seen_at: Timestamp;
  last_seen_at: Timestamp;
}

export interface Database {
  user: UserTable;
  session: SessionTable;
  audit_log: AuditLogTable;
  business: BusinessTable;
  api_key: ApiKeyTable;
  ledger_entry: LedgerEntryTable;
  enrolment: EnrolmentTable;
  backup_code: BackupCodeTable;
  totp_verification: VerificationTable;
  idempotency_record: IdempotencyRecordTable;
  webhook: WebhookTable;
  webhook_delivery: WebhookDeliveryTable;
  webhook_attempt: WebhookAttemptTable;
  account_totp: AccountTotpTable;
  account_totp_backup_code: AccountTotpBackupCodeTable;
  account_totp_attempt: AccountTotpAttemptTable;
  authenticator_account: AuthenticatorAccountTable;
  vault: VaultTable;
  vault_entry: VaultEntryTable;
  payment_reference: PaymentReferenceTable;
  payment_request: PaymentRequestTable;
  razorpay_order: RazorpayOrderTable;
  receipt: ReceiptTable;
  receipt_counter: ReceiptCounterTable;
  auto_refill: AutoRefillTable;
  auto_refill_mandate: AutoRefillMandateTable;
  notification: NotificationTable;
  admin_mfa: AdminMfaTable;
  admin_mfa_recovery_code: AdminMfaRecoveryCodeTable;
  admin_mfa_attempt: AdminMfaAttemptTable;
  admin_mfa_session: AdminMfaSessionTable;
  admin_mfa_enrolment_code: AdminMfaEnrolmentCodeTable;
  impersonation: ImpersonationTable;
  user_notice: UserNoticeTable;
  service_heartbeat: ServiceHeartbeatTable;
  contact_message: ContactMessageTable;
  passkey: PasskeyTable;
  webauthn_challenge: WebauthnChallengeTable;
  mail_outbox: MailOutboxTable;
  mail_attempt: MailAttemptTable;
  mail_preference: MailPreferenceTable;
  known_device: KnownDeviceTable;
}

export type Dialect = 'sqlite' | 'postgres';
export type { Generated };

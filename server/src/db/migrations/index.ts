import type { Migration } from 'kysely';
import * as m20261121000000 from './20261121000000_audit_log';
import * as m20261121010000 from './20261121010000_business_verify';
import * as m20261121020000 from './20261121020000_webhooks';
import * as m20261121030000 from './20261121030000_authenticator';
import * as m20261121040000 from './20261121040000_payments';
import * as m20261124100000 from './20261124100000_admin_mfa_impersonation';
import * as m20261124100100 from './20261124100100_service_heartbeat';
import * as m20261124100200 from './20261124100200_business_suspension';
import * as m20261124200000 from './20261124200000_contact';
import * as m20261125020000 from './20261125020000_webhook_fairness';
import * as m20261125030000 from './20261125030000_payment_utr_per_business';
import * as m20261125100000 from './20261125100000_admin_enrol_enrolment_code';
import * as m20261125100100 from './20261125100100_desk_impersonation_one_live';
import * as m20261125100200 from './20261125100200_second_factor_account_totp';
import * as m20261125200000 from './20261125200000_passkeys_webauthn';
import * as m20261125210000 from './20261125210000_vault_authenticator_vault';
import * as m20261125300000 from './20261125300000_api_platform_lookups';
import * as m20261125410000 from './20261125410000_webhook_endpoint_api';
import * as m20261125420000 from './20261125420000_mail_outbox';
import * as m20261125421000 from './20261125421000_test_mode';
import * as m20261125440000 from './20261125440000_auto_refill';
import * as m20261125450000 from './20261125450000_verification_index_prefix';
import * as m20261125452000 from './20261125452000_known_device';
import * as m20261125453000 from './20261125453000_receipts';
import * as m20261125460000 from './20261125460000_check_group_refusal';
import * as m20261126010000 from './20261126010000_enrolment_fillfactor';
import * as m20261126070000 from './20261126070000_check_group_functions';
import * as m20261126200000 from './20261126200000_enrolment_lookup_key';
import * as m20261127010000 from './20261127010000_group_reads';
import * as m20261127160000 from './20261127160000_throttle_history_ties';

/** Every migration, by name; names sort in the order they run. Add new ones at the end. */
export const migrations: Record<string, Migration> = {
  '20261121000000_audit_log': m20261121000000,
  '20261121010000_business_verify': m20261121010000,
  '20261121020000_webhooks': m20261121020000,
  '20261121030000_authenticator': m20261121030000,
  '20261121040000_payments': m20261121040000,
  '20261124100000_admin_mfa_impersonation': m20261124100000,
  '20261124100100_service_heartbeat': m20261124100100,
  '20261124100200_business_suspension': m20261124100200,
  '20261124200000_contact': m20261124200000,
  '20261125020000_webhook_fairness': m20261125020000,
  '20261125030000_payment_utr_per_business': m20261125030000,
  '20261125100000_admin_enrol_enrolment_code': m20261125100000,
  '20261125100100_desk_impersonation_one_live': m20261125100100,
  '20261125100200_second_factor_account_totp': m20261125100200,
  '20261125200000_passkeys_webauthn': m20261125200000,
  '20261125210000_vault_authenticator_vault': m20261125210000,
  '20261125300000_api_platform_lookups': m20261125300000,
  '20261125410000_webhook_endpoint_api': m20261125410000,
  '20261125420000_mail_outbox': m20261125420000,
  '20261125421000_test_mode': m20261125421000,
  '20261125440000_auto_refill': m20261125440000,
  '20261125450000_verification_index_prefix': m20261125450000,
  '20261125452000_known_device': m20261125452000,
  '20261125453000_receipts': m20261125453000,
  '20261125460000_check_group_refusal': m20261125460000,
  '20261126010000_enrolment_fillfactor': m20261126010000,
  '20261126070000_check_group_functions': m20261126070000,
  '20261126200000_enrolment_lookup_key': m20261126200000,
  '20261127010000_group_reads': m20261127010000,
  '20261127160000_throttle_history_ties': m20261127160000,
};

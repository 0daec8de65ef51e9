import type { operations } from './generated/openapi.js';

/** Request and answer shapes, read from the generated OpenAPI types (src/generated/openapi.ts). */

type JsonContent<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type Responses<K extends keyof operations> = operations[K]['responses'];

export type RequestBody<K extends keyof operations> = operations[K] extends { requestBody?: infer R } ? JsonContent<NonNullable<R>> : never;
export type Answer<K extends keyof operations, S extends keyof Responses<K>> = JsonContent<Responses<K>[S]>;
export type Query<K extends keyof operations> = NonNullable<operations[K]['parameters']['query']>;

export type EnrolRequest = RequestBody<'enrolUser'>;
export type Enrolment = Answer<'enrolUser', 201>;
/** Managed (`{ user_id, totp_code }` or `{ user_id, backup_code }`) or stateless (`{ secret, token }`). */
export type VerifyRequest = RequestBody<'verifyCode'>;
export type VerifyResult = Answer<'verifyCode', 200>;
export type Profile = Answer<'getProfile', 200>;
export type KeyTest = Answer<'testApiKey', 200>;
export type User = Answer<'getUser', 200>;
export type UserList = Answer<'listUsers', 200>;
export type ListUsersParams = Query<'listUsers'>;
export type Verification = Answer<'getVerification', 200>;
export type VerificationList = Answer<'listVerifications', 200>;
export type ListVerificationsParams = Query<'listVerifications'>;

/** The signed body of a webhook delivery, one shape per event type. */
export type WebhookEvent =
  | RequestBody<'webhook_verification_success'>
  | RequestBody<'webhook_verification_failed'>
  | RequestBody<'webhook_credit_low'>
  | RequestBody<'webhook_credit_depleted'>
  | RequestBody<'webhook_test_ping'>;

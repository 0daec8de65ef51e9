import type { Kysely, Transaction } from 'kysely';
import { toNumber } from '../../db/normalize';
import type { Database, PaymentRequestStatus } from '../../db/types';
import { toPaymentRequest, type PaymentRequest } from '../payments/repo';

type Executor = Kysely<Database> | Transaction<Database>;

/** A payment request with what the desk needs beside it: who paid, and where the money should be. */
export interface DeskPaymentRequest extends PaymentRequest {
  companyName: string;
  businessEmail: string | null;
  businessOwnerUserId: string;
  verificationCode: string;
  payeeUpiId: string;
  payeeName: string;
  payeeBankDetails: string;
}

function deskQuery(db: Executor) {
  return db
    .selectFrom('payment_request')
    .innerJoin('business', 'business.id', 'payment_request.business_id')
    .innerJoin('payment_reference', 'payment_reference.id', 'payment_request.reference_id')
    .leftJoin('user', 'user.id', 'business.owner_user_id')
    .selectAll('payment_request')
    .select([
      'business.company_name',
      'business.owner_user_id',
      'user.email as owner_email',
      'payment_reference.verification_code',
      'payment_reference.payee_upi_id',
      'payment_reference.payee_name',
      'payment_reference.payee_bank_details',
    ]);
}

type DeskRow = Awaited<ReturnType<ReturnType<typeof deskQuery>['executeTakeFirstOrThrow']>>;

function toDeskRequest(row: DeskRow): DeskPaymentRequest {
  const { company_name, owner_user_id, owner_email, verification_code, payee_upi_id, payee_name, payee_bank_details, ...request } = row;
  return {
    ...toPaymentRequest(request),
    companyName: company_name,
    businessEmail: owner_email,
    businessOwnerUserId: owner_user_id,
    verificationCode: verification_code,
    payeeUpiId: payee_upi_id,
    payeeName: payee_name,
    payeeBankDetails: payee_bank_details,
  };
}

/** Oldest first: the desk works the queue in the order payments arrived. */
export async function listPending(db: Executor, limit: number): Promise<DeskPaymentRequest[]> {
  const rows = await deskQuery(db)
    .where('payment_request.status', '=', 'pending')
    .orderBy('payment_request.created_at', 'asc')
    .orderBy('payment_request.id', 'asc')
    .limit(limit)
    .execute();
  return rows.map(toDeskRequest);
}

/** Most recently decided first. */
export async function listProcessed(db: Executor, limit: number): Promise<DeskPaymentRequest[]> {
  const rows = await deskQuery(db)
    .where('payment_request.status', '<>', 'pending')
    .orderBy('payment_request.processed_at', 'desc')
    .orderBy('payment_request.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toDeskRequest);
}

export async function listByStatus(db: Executor, status: PaymentRequestStatus | undefined, limit: number): Promise<DeskPaymentRequest[]> {
  let query = deskQuery(db).orderBy('payment_request.created_at', 'desc').orderBy('payment_request.id', 'desc').limit(limit);
  if (status) query = query.where('payment_request.status', '=', status);
  return (await query.execute()).map(toDeskRequest);
}

export async function findDeskRequest(db: Executor, id: string): Promise<DeskPaymentRequest | undefined> {
  const row = await deskQuery(db).where('payment_request.id', '=', id).executeTakeFirst();
  return row && toDeskRequest(row);
}

export interface DeskCounts {
  pendingCount: number;
  pendingPaise: number;
  approvedCount: number;
  approvedPaise: number;
}

export async function deskCounts(db: Executor, approvedSince: Date): Promise<DeskCounts> {
  const [pending, approved] = await Promise.all([
    db
      .selectFrom('payment_request')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum<number>('amount_paise').as('paise')])
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('payment_request')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum<number>('amount_paise').as('paise')])
      .where('status', '=', 'approved')
      .where('processed_at', '>=', approvedSince)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    pendingCount: toNumber(pending.n),
    pendingPaise: toNumber(pending.paise),
    approvedCount: toNumber(approved.n),
    approvedPaise: toNumber(approved.paise),
  };
}

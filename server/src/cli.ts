import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config';
import { createContext, migrateToLatest, type AppContext } from './context';
import { ROLES } from './features/auth/auth';
import { searchAuditEntries } from './features/audit/repo';
import { ledgerTotals, listLedger } from './features/credits/repo';
import { grantCredits, resolveBusiness } from './features/credits/service';
import { approvePayment, listForOperator, rejectPayment } from './features/financial/service';
import { adminMfaConfigured, issueEnrolmentCode } from './features/admin/mfa-enrolment';
import { reset as resetAdminMfa } from './features/admin/mfa-service';
import { operatorReset as resetAccountTotp } from './features/totp/service';
import { backupSqlite } from './features/upkeep/backup';
import { findUserByEmail, listUsers } from './features/users/repo';
import { setUserRole } from './features/users/service';
import { parseRupeesToPaise, paiseToDecimalString, verificationsForPaise } from '@common/pricing';
import type { PaymentRequestStatus } from './db/types';
import { AppError } from './lib/errors';
import { isoDate } from './lib/schemas';
import { printable as p, printableLines } from './lib/terminal';

/**
 * The operator CLI: `npm run cli -- <command>` or the `sixdigit` bin.
 * Each command is a name, a usage line and a run function; --help is built from this table.
 */
interface Command {
  usage: string;
  summary: string;
  run(ctx: AppContext, args: string[], out: Output): Promise<void>;
}

export interface Output {
  log(line: string): void;
  error(line: string): void;
}

const operator = () => ({ userId: null, label: `cli:${userInfo().username}` });

export const commands: Record<string, Command> = {
  migrate: {
    usage: 'migrate',
    summary: 'Apply all pending database migrations (the server also does this at start).',
    async run(ctx, _args, out) {
      const applied = await migrateToLatest(ctx);
      out.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
    },
  },
  'user:list': {
    usage: 'user:list [--json]',
    summary: 'List users with their role and sign-up date.',
    async run(ctx, args, out) {
      const { values } = parseArgs({ args, options: { json: { type: 'boolean' } } });
      const users = await listUsers(ctx.db);
      if (values.json) return out.log(JSON.stringify(users, null, 2));
      if (users.length === 0) return out.log('No users yet.');
      const rows = users.map((u) => [p(u.email), u.role, p(u.name), u.createdAt.toISOString().slice(0, 10), u.id]);
      const header = ['EMAIL', 'ROLE', 'NAME', 'JOINED', 'ID'];
      const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
      for (const row of [header, ...rows]) out.log(row.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd());
    },
  },
  'role:set': {
    usage: `role:set <email> <${ROLES.join('|')}>`,
    summary: 'Give a user a role (audited). The user must have signed in once.',
    async run(ctx, args, out) {
      const [email, role] = args;
      if (!email || !role) throw new UsageError(`usage: sixdigit ${commands['role:set']!.usage}`);
      const user = await setUserRole(ctx.db, ctx.config.adminEmail, { email, role }, operator());
      out.log(`${p(user.email)} is now ${user.role}.`);
    },
  },
  'admin:mfa-reset': {
    usage: 'admin:mfa-reset --yes',
    summary: "Remove the administrator's MFA (lost device): the next sign-in sets it up again (audited).",
    async run(ctx, args, out) {
      const { values } = parseArgs({ args, options: { yes: { type: 'boolean' } } });
      if (!values.yes) throw new UsageError(`This removes the MFA of ${ctx.config.adminEmail}. Run again with --yes to confirm.`);
      const admin = await findUserByEmail(ctx.db, ctx.config.adminEmail);
      if (!admin) throw new UsageError(`No account with ADMIN_EMAIL ${ctx.config.adminEmail} yet: nothing to reset.`);
      const removed = await resetAdminMfa(ctx, admin.id, operator().label);
      out.log(removed ? `MFA of ${p(admin.email)} removed. At the next visit to /admin they set it up again.` : `${p(admin.email)} had no MFA configured; nothing removed.`);
      out.log('The setup needs an enrolment code: npm run cli -- admin:mfa-enrol-code (or restart the server and read its log).');
    },
  },
  'admin:mfa-enrol-code': {
    usage: 'admin:mfa-enrol-code',
    summary: "A one-time code for the administrator's first MFA setup at /admin (valid 15 minutes; replaces older codes; audited).",
    async run(ctx, args, out) {
      if (args.length > 0) throw new UsageError(`usage: sixdigit ${commands['admin:mfa-enrol-code']!.usage}`);
      if (await adminMfaConfigured(ctx)) {
        throw new UsageError(`The MFA of ${ctx.config.adminEmail} is already configured: no enrolment code is needed. (Lost device: admin:mfa-reset --yes first.)`);
      }
      const { code, expiresAt } = await issueEnrolmentCode(ctx, operator().label);
      out.log(`Enrolment code for ${p(ctx.config.adminEmail)}: ${code}`);
      out.log(`Valid until ${expiresAt.toISOString()} (15 minutes), once. Enter it at /admin when setting up MFA; older codes no longer work.`);
    },
  },
  'user:2fa-reset': {
    usage: 'user:2fa-reset <email> --yes',
    summary: "Turn off a person's account TOTP (lost phone and backup codes) and sign out all their sessions (audited; they get a notice).",
    async run(ctx, args, out) {
      const { values, positionals } = parseArgs({ args, options: { yes: { type: 'boolean' } }, allowPositionals: true });
      const [email] = positionals;
      if (!email) throw new UsageError(`usage: sixdigit ${commands['user:2fa-reset']!.usage}`);
      const user = await findUserByEmail(ctx.db, email);
      if (!user) throw new UsageError(`No account with the e-mail ${p(email)}.`);
      // Only after checking who it is: the operator must have verified the person out of band.
      if (!values.yes) throw new UsageError(`This turns off the second factor of ${p(user.email)} and signs them out everywhere. Check it is really them, then run again with --yes.`);
      const { hadTotp, sessionsEnded } = await resetAccountTotp(ctx, user.id, operator().label);
      out.log(
        hadTotp
          ? `Account TOTP of ${p(user.email)} turned off; ${sessionsEnded} session(s) signed out. They can sign in with the first step and set it up again.`
          : `${p(user.email)} had no account TOTP; ${sessionsEnded} session(s) signed out.`,
      );
    },
  },
  'audit:list': {
    usage: 'audit:list [--actor TEXT] [--action NAME|PREFIX.] [--target ID] [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--limit N] [--json]',
    summary: 'Read the audit log (newest first), with the same filters as /admin/audit.',
    async run(ctx, args, out) {
      const { values } = parseArgs({
        args,
        options: {
          actor: { type: 'string' },
          action: { type: 'string' },
          target: { type: 'string' },
          from: { type: 'string' },
          to: { type: 'string' },
          limit: { type: 'string' },
          json: { type: 'boolean' },
        },
      });
      const day = (text: string | undefined, name: string) => {
        if (text === undefined) return undefined;
        const parsed = isoDate.safeParse(text);
        if (!parsed.success) throw new UsageError(`--${name} must be a calendar day YYYY-MM-DD (got "${text}").`);
        return new Date(`${text}T00:00:00.000Z`);
      };
      const limit = values.limit === undefined ? 100 : Number(values.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new UsageError('--limit must be a whole number from 1 to 10000.');
      const to = day(values.to, 'to');
      const { entries, total } = await searchAuditEntries(
        ctx.db,
        {
          ...(values.actor ? { actor: values.actor } : {}),
          ...(values.action ? { action: values.action } : {}),
          ...(values.target ? { target: values.target } : {}),
          ...(values.from ? { from: day(values.from, 'from') } : {}),
          ...(to ? { to: new Date(to.getTime() + 86_400_000) } : {}),
        },
        { offset: 0, limit },
      );
      if (values.json) return out.log(JSON.stringify({ total, entries }, null, 2));
      if (entries.length === 0) return out.log('No audit entries match.');
      for (const e of entries) {
        out.log([e.createdAt.toISOString(), e.action, e.actorLabel, e.subjectType ? `${e.subjectType}:${e.subjectId}` : '-', JSON.stringify(e.details)].map(p).join('  '));
      }
      out.log(`${entries.length} of ${total} entries.`);
    },
  },
  'credits:grant': {
    usage: 'credits:grant <business-id|owner-email> <rupees> --reason "…"',
    summary: 'Add credit to a business (ledger row + audit entry, one transaction).',
    async run(ctx, args, out) {
      const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { reason: { type: 'string' } } });
      const [target, rupees] = positionals;
      if (!target || !rupees || !values.reason) throw new UsageError(`usage: sixdigit ${commands['credits:grant']!.usage}`);
      const amountPaise = parseRupeesToPaise(rupees);
      if (amountPaise === null) throw new UsageError(`"${rupees}" is not an amount of rupees (e.g. 5000 or 99.50).`);
      const result = await grantCredits(ctx.db, { businessIdOrEmail: target, amountPaise, reason: values.reason }, operator());
      out.log(
        `Granted ₹${paiseToDecimalString(amountPaise)} to ${p(result.business.companyName)} (${result.business.id}). ` +
          `Balance ₹${paiseToDecimalString(result.balancePaise)} = ${verificationsForPaise(result.balancePaise)} verifications.`,
      );
    },
  },
  'credits:show': {
    usage: 'credits:show <business-id|owner-email>',
    summary: 'Balance, ledger totals (checked against the balance) and the latest ledger entries.',
    async run(ctx, args, out) {
      const [target] = args;
      if (!target) throw new UsageError(`usage: sixdigit ${commands['credits:show']!.usage}`);
      const business = await resolveBusiness(ctx.db, target);
      const totals = await ledgerTotals(ctx.db, business.id);
      const consistent = totals.balancePaise === totals.creditedPaise - totals.spentPaise;
      out.log(`${p(business.companyName)} (${business.id})`);
      out.log(`Balance:  ₹${paiseToDecimalString(totals.balancePaise)} (${verificationsForPaise(totals.balancePaise)} verifications)`);
      out.log(`Credited: ₹${paiseToDecimalString(totals.creditedPaise)}   Spent: ₹${paiseToDecimalString(totals.spentPaise)}`);
      out.log(consistent ? 'Ledger:   consistent (balance = credited − spent)' : 'Ledger:   INCONSISTENT — balance ≠ credited − spent');
      for (const entry of await listLedger(ctx.db, business.id, 10)) {
        out.log(`  ${entry.createdAt.toISOString()}  +₹${paiseToDecimalString(entry.amountPaise)}  ${entry.kind}  ${p(entry.reason ?? entry.reference ?? '')}  (${p(entry.actorLabel)})`);
      }
      if (!consistent) throw new AppError('internal_error', 'Ledger invariant violated.');
    },
  },
  'payments:list': {
    usage: 'payments:list [--status pending|approved|rejected] [--json]',
    summary: 'Bank/UPI payment requests, newest first (all statuses unless --status).',
    async run(ctx, args, out) {
      const { values } = parseArgs({ args, options: { status: { type: 'string' }, json: { type: 'boolean' } } });
      const status = values.status;
      if (status !== undefined && !PAYMENT_STATUSES.includes(status as PaymentRequestStatus)) {
        throw new UsageError(`--status must be one of ${PAYMENT_STATUSES.join(', ')}.`);
      }
      const payments = await listForOperator(ctx, status as PaymentRequestStatus | undefined);
      if (values.json) return out.log(JSON.stringify(payments, null, 2));
      if (payments.length === 0) return out.log(status ? `No ${status} payments.` : 'No payments yet.');
      const rows = payments.map((r) => [r.id, r.status, `₹${r.amount}`, r.paymentMethod, p(r.companyName), p(r.paymentReference), p(r.utr), r.createdAt.slice(0, 16).replace('T', ' ')]);
      printTable(out, ['ID', 'STATUS', 'AMOUNT', 'METHOD', 'COMPANY', 'REFERENCE', 'UTR', 'SUBMITTED (UTC)'], rows);
    },
  },
  'payments:approve': {
    usage: 'payments:approve <payment-id> [--notes "…"]',
    summary: 'Approve a pending bank/UPI payment: credit added once, audited as cli:<user>.',
    async run(ctx, args, out) {
      const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { notes: { type: 'string' } } });
      const [id] = positionals;
      if (!id || positionals.length > 1) throw new UsageError(`usage: sixdigit ${commands['payments:approve']!.usage}`);
      const approved = await approvePayment(ctx, id, { notes: values.notes }, operator());
      out.log(`Approved ${approved.id}: ₹${approved.amount} credited to ${p(approved.companyName)} (${approved.businessId}). Balance ₹${approved.balance}.`);
    },
  },
  'payments:reject': {
    usage: 'payments:reject <payment-id> --reason "…"',
    summary: 'Reject a pending bank/UPI payment with a reason the business sees (audited).',
    async run(ctx, args, out) {
      const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { reason: { type: 'string' } } });
      const [id] = positionals;
      if (!id || positionals.length > 1 || !values.reason?.trim()) throw new UsageError(`usage: sixdigit ${commands['payments:reject']!.usage}`);
      const rejected = await rejectPayment(ctx, id, { reason: values.reason }, operator());
      out.log(`Rejected ${rejected.id} (₹${rejected.amount}, ${p(rejected.companyName)}): ${p(rejected.reason ?? '')}`);
    },
  },
  backup: {
    usage: 'backup <file>',
    summary: 'Copy the SQLite database to a new file, consistently, while the server runs (PostgreSQL: use pg_dump).',
    async run(ctx, args, out) {
      const [file] = args;
      if (!file || args.length > 1) throw new UsageError(`usage: sixdigit ${commands.backup!.usage}`);
      const result = await backupSqlite(ctx.config.database, file);
      out.log(`Backed up to ${result.file} (${result.pages} pages, ${result.bytes} bytes; integrity check ok).`);
    },
  },
};

const PAYMENT_STATUSES: readonly PaymentRequestStatus[] = ['pending', 'approved', 'rejected'];

function printTable(out: Output, header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  for (const row of [header, ...rows]) out.log(row.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd());
}

class UsageError extends Error {}

export function helpText(): string {
  const width = Math.max(...Object.values(commands).map((c) => c.usage.length));
  return [
    'Sixdigit operator CLI',
    '',
    'Usage: npm run cli -- <command> [arguments]   (or: sixdigit <command>)',
    '',
    'Commands:',
    ...Object.values(commands).map((c) => `  ${c.usage.padEnd(width)}  ${c.summary}`),
    '',
    'Reads the same environment as the server (DATABASE_URL, ADMIN_EMAIL, …).',
  ].join('\n');
}

/** Runs one command; returns the process exit code. */
export async function runCli(argv: string[], env: Record<string, string | undefined>, sink: Output): Promise<number> {
  // A second net under the per-value escaping: nothing printed can carry a terminal escape.
  const out: Output = { log: (line) => sink.log(printableLines(line)), error: (line) => sink.error(printableLines(line)) };
  const [name, ...args] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    out.log(helpText());
    return name ? 0 : 64;
  }
  const command = commands[name];
  if (!command) {
    out.error(`Unknown command "${name}".\n\n${helpText()}`);
    return 64; // EX_USAGE
  }
  let ctx: AppContext | undefined;
  try {
    ctx = createContext(loadConfig(env));
    if (name !== 'migrate') await migrateToLatest(ctx);
    await command.run(ctx, args, out);
    return 0;
  } catch (err) {
    // node:util parseArgs refusing the arguments (unknown option, missing value) is a usage error too.
    const usage = err instanceof UsageError || String((err as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS_');
    if (usage || err instanceof AppError || err instanceof ConfigError) out.error((err as Error).message);
    else out.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    return usage ? 64 : 1;
  } finally {
    await ctx?.database.close();
  }
}

const invokedDirectly = process.argv[1] && /cli\.ts$/.test(process.argv[1]);
if (invokedDirectly || process.env.SIXDIGIT_CLI_BIN === '1') {
  runCli(process.argv.slice(2), process.env, { log: console.log, error: console.error }).then((code) => {
    process.exitCode = code;
  });
}

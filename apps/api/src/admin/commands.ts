import { parseArgs } from 'node:util';
import { Plan } from '@verdict/contracts';
import {
  AppError,
  type AuditContext,
  type Config,
  type Core,
  createNamedDatabase,
  OperatorError,
} from '@verdict/core';
import { auditVerifyCommand } from './audit-verify.ts';
import { USAGE } from './usage.ts';

/**
 * create-database: the database DATABASE_URL names, on its server, as its user. It runs before any
 * database is opened (the one it makes does not exist yet). The embedded database is created by the first
 * start, so it needs DATABASE_URL.
 */
export async function createDatabaseCommand(config: Config): Promise<string[]> {
  if (config.database.kind !== 'postgres') {
    throw new OperatorError(
      'create-database needs DATABASE_URL (the embedded database in DATA_DIR is created by the first npm start)',
    );
  }
  const result = await createNamedDatabase(config.database.url);
  return [
    result.created
      ? `created database "${result.name}" on PostgreSQL at ${result.address}`
      : `database "${result.name}" already exists on PostgreSQL at ${result.address}`,
  ];
}

const OPTIONS = {
  email: { type: 'string' },
  name: { type: 'string' },
  password: { type: 'string' },
  plan: { type: 'string' },
  amount: { type: 'string' },
  note: { type: 'string' },
  'rate-limit': { type: 'string' },
  'per-minute': { type: 'string' },
  workspace: { type: 'string' },
  all: { type: 'boolean' },
} as const;

type Options = { [K in Exclude<keyof typeof OPTIONS, 'all'>]?: string } & { all?: boolean };

function required(options: Options, name: Exclude<keyof Options, 'all'>): string {
  const value = options[name];
  if (!value) throw new AppError('VALIDATION_ERROR', `--${name} is required`);
  return value;
}

function positiveInt(value: string, name: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0)
    throw new AppError('VALIDATION_ERROR', `--${name} must be a positive integer`);
  return n;
}

function plan(value: string) {
  const parsed = Plan.safeParse(value);
  if (!parsed.success)
    throw new AppError('VALIDATION_ERROR', `--plan must be one of ${Plan.options.join(', ')}`);
  return parsed.data;
}

async function userIdByEmail(core: Core, email: string): Promise<string> {
  const user = await core.accounts.findUserByEmail(email);
  if (!user) throw new AppError('USER_NOT_FOUND', `No user with email ${email}`);
  return user.id;
}

/**
 * What an operator command's changes are recorded as: the operator's, named by the command, from no request.
 * Both ways a command runs (admin.ts on the database, the server's admin channel) run it in this.
 */
export const operatorContext = (argv: string[]): AuditContext => ({
  actor: { kind: 'operator', command: argv[0] ?? '' },
  origin: { ip: null, userAgent: null, requestId: null },
});

/** Runs one operator command; returns the lines to print. Throws AppError on bad input. */
export async function runAdminCommand(core: Core, argv: string[]): Promise<string[]> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({ args: rest, options: OPTIONS, strict: true }) as { values: Options };
  switch (command) {
    case 'create-user': {
      const user = await core.accounts.createUser({
        email: required(values, 'email'),
        name: required(values, 'name'),
        password: values.password,
        plan: values.plan ? plan(values.plan) : 'free',
      });
      return [
        `created user ${user.id} <${user.email}> on plan ${user.plan} with ${user.creditBalance} credits`,
      ];
    }
    case 'set-plan': {
      const userId = await userIdByEmail(core, required(values, 'email'));
      const newPlan = plan(required(values, 'plan'));
      await core.accounts.setPlan(userId, newPlan);
      return [`user ${userId} is now on plan ${newPlan}`];
    }
    case 'grant-credits': {
      const userId = await userIdByEmail(core, required(values, 'email'));
      const amount = positiveInt(required(values, 'amount'), 'amount');
      const balance = await core.billing.grantCredits(userId, amount, values.note ?? null);
      return [`granted ${amount} credits to ${userId}; balance ${balance}`];
    }
    case 'create-key': {
      const userId = await userIdByEmail(core, required(values, 'email'));
      const rateLimit = values['rate-limit'] ? positiveInt(values['rate-limit'], 'rate-limit') : null;
      const key = await core.apiKeys.create(
        userId,
        required(values, 'name'),
        rateLimit ? { rateLimit } : null,
      );
      return [
        `created key ${key.id} (${key.keyPrefix}…) for ${userId}`,
        'The key is shown once; store it now:',
        key.key,
      ];
    }
    case 'set-rate-limit': {
      const userId = await userIdByEmail(core, required(values, 'email'));
      const value = required(values, 'per-minute');
      const perMinute = value === 'plan' ? null : positiveInt(value, 'per-minute');
      await core.accounts.setRateLimit(userId, perMinute);
      return [
        perMinute === null
          ? `user ${userId} is back on the plan's rate limit`
          : `user ${userId} may send ${perMinute} requests per minute`,
      ];
    }
    case 'audit-verify':
      return auditVerifyCommand(core, values);
    default:
      throw new AppError('VALIDATION_ERROR', command ? `Unknown command "${command}"\n\n${USAGE}` : USAGE);
  }
}

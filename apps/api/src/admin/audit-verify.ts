import {
  type ChainVerification,
  type Core,
  chainOf,
  chainPages,
  OperatorError,
  verifyAuditChain,
} from '@verdict/core';

/** Which trail `audit-verify` walks: an account's (by email), a workspace's, or every chain there is. */
export type AuditVerifyTarget = { email?: string; workspace?: string; all?: boolean };

const CHAINS_PAGE = 500;

const describe = (v: ChainVerification): string => {
  const from = v.checkpoint ? ` from the retention checkpoint at entry ${v.checkpoint.seq}` : '';
  if (v.firstBroken) {
    return `${v.chain}: broken at entry ${v.firstBroken.seq}: ${v.firstBroken.problem} (${v.entries} entries before it hold${from})`;
  }
  return `${v.chain}: ${v.entries} entries verified${from}`;
};

async function chainsToVerify(
  core: Core,
  target: AuditVerifyTarget,
): Promise<Iterable<string> | AsyncIterable<string>> {
  if (target.workspace) return [chainOf({ workspaceId: target.workspace })];
  if (target.email) {
    const user = await core.accounts.findUserByEmail(target.email);
    if (!user) throw new OperatorError(`No user with email ${target.email}`);
    return [chainOf({ accountId: user.id })];
  }
  if (!target.all) throw new OperatorError('audit-verify needs --email <email>, --workspace <id> or --all');
  return everyChain(core);
}

/** Every chain's key. */
async function* everyChain(core: Core): AsyncIterable<string> {
  for await (const page of chainPages(core.db, CHAINS_PAGE)) yield* page;
}

/**
 * `audit-verify`: walks each chain asked for and prints what held; a broken chain (an entry altered,
 * missing or out of order behind the database's back) names its first broken entry and makes the command
 * fail, so a scheduled check alerts.
 */
export async function auditVerifyCommand(core: Core, target: AuditVerifyTarget): Promise<string[]> {
  const lines: string[] = [];
  let broken = 0;
  let chains = 0;
  for await (const chain of await chainsToVerify(core, target)) {
    const verification = await verifyAuditChain(core.db.em(), chain);
    chains++;
    if (!verification.verified) broken++;
    lines.push(describe(verification));
  }
  if (target.all) lines.push(`${chains} chains, ${broken} broken`);
  if (broken > 0) throw new OperatorError(lines.join('\n'));
  return lines;
}

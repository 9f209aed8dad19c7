/**
 * The stored calibration curves (calibration_curves): the only module that writes them. The score worker
 * refits an owner's curves whenever it refreshes their score (their outcomes changed), and the global curve
 * at most once an hour; the engine reads an owner's curves to calibrate a new verdict.
 */
import type { EntityManager } from '@mikro-orm/core';
import { type DebateDomain, RESOLVED_OUTCOMES, type ResolvedOutcome } from '@verdict/contracts';
import { sql } from 'kysely';
import { query } from '../../db/kysely.ts';
import type { DebateTables } from '../../debates/tables.ts';
import type { OutcomeTables } from '../tables.ts';
import {
  type CalibrationSample,
  fitGlobalCurve,
  fitOwnerCalibration,
  type OwnerCalibration,
} from './calibration-model.ts';
import { IDENTITY, type PlattParameters } from './platt.ts';

/**
 * The newest resolved outcomes a fit reads: bounds a refit's cost for any history. An outcome this many
 * outcomes back weighs little anyway once the owner resolves often (the half-life is 90 days).
 */
export const FIT_WINDOW = 5000;
/** The global curve (every owner's outcomes, the prior of each owner) is refitted when older than this. */
export const GLOBAL_REFIT_MINUTES = 60;

type Tables = OutcomeTables & DebateTables;

/** Resolved outcomes as the fit takes them, newest first, up to FIT_WINDOW; one owner's or everyone's. */
export async function resolvedSamples(em: EntityManager, ownerId?: string): Promise<CalibrationSample[]> {
  let select = query<Tables>(em)
    .selectFrom('outcomes')
    .select(['status', 'confidence', 'domain', 'recorded_at'])
    .where('status', 'in', [...RESOLVED_OUTCOMES]);
  if (ownerId) select = select.where('owner_id', '=', ownerId);
  const rows = await select.orderBy('recorded_at', 'desc').orderBy('debate_id').limit(FIT_WINDOW).execute();
  return rows.map((row) => ({
    status: row.status as ResolvedOutcome,
    confidence: row.confidence,
    domain: row.domain,
    resolvedAt: new Date(row.recorded_at ?? 0).toISOString(),
  }));
}

/** The global curve as last fitted, or the identity before the first fit. */
async function globalCurve(em: EntityManager): Promise<PlattParameters> {
  const row = await query<Tables>(em)
    .selectFrom('calibration_curves')
    .select(['a', 'b'])
    .where('scope', '=', 'global')
    .executeTakeFirst();
  return row ? { a: row.a, b: row.b } : IDENTITY;
}

/**
 * Refits the global curve when it is missing or older than GLOBAL_REFIT_MINUTES, in the caller's
 * transaction. Nodes passing at once do not fit it twice: the one that takes the lock does, the others go on
 * with the curve they find. Returns whether it refitted.
 */
export async function refitGlobalIfStale(em: EntityManager): Promise<boolean> {
  const k = query<Tables>(em);
  const locked = await sql<{
    taken: boolean;
  }>`select pg_try_advisory_xact_lock(hashtextextended('calibration:global', 0)) as taken`.execute(k);
  if (!locked.rows[0]?.taken) return false;
  const fresh = await k
    .selectFrom('calibration_curves')
    .select('id')
    .where('scope', '=', 'global')
    .where('fitted_at', '>', sql<string>`now() - make_interval(mins => ${GLOBAL_REFIT_MINUTES})`)
    .executeTakeFirst();
  if (fresh) return false;
  const samples = await resolvedSamples(em);
  const curve = fitGlobalCurve(samples);
  await k.deleteFrom('calibration_curves').where('scope', '=', 'global').execute();
  await k
    .insertInto('calibration_curves')
    .values({ scope: 'global', owner_id: null, domain: null, ...curve, based_on: samples.length })
    .execute();
  return true;
}

/**
 * Refits `ownerId`'s curves from their resolved outcomes (newest first, as resolvedSamples reads them) and
 * replaces the stored ones; below CALIBRATION_RULES.minimumForOwner it removes them, so nothing is applied.
 * The caller holds the owner's score lock (scores.ts), so two refits of one owner never interleave.
 */
export async function refitOwnerCalibration(
  em: EntityManager,
  ownerId: string,
  samples: readonly CalibrationSample[],
): Promise<OwnerCalibration | null> {
  const k = query<Tables>(em);
  const model = fitOwnerCalibration(samples, await globalCurve(em));
  await k.deleteFrom('calibration_curves').where('owner_id', '=', ownerId).execute();
  if (!model) return null;
  const domainRows = Object.entries(model.domains).map(([domain, curve]) => ({
    scope: 'domain' as const,
    owner_id: ownerId,
    domain: domain as DebateDomain,
    ...(curve as PlattParameters),
    based_on: model.basedOn.domains[domain as DebateDomain] ?? 0,
  }));
  await k
    .insertInto('calibration_curves')
    .values([
      { scope: 'owner', owner_id: ownerId, domain: null, ...model.owner, based_on: model.basedOn.owner },
      ...domainRows,
    ])
    .execute();
  return model;
}

/** An owner's stored curves as the model calibrate() takes, and when they were fitted; null when none. */
export async function ownerCalibration(
  em: EntityManager,
  ownerId: string,
): Promise<{ model: OwnerCalibration; fittedAt: string } | null> {
  const rows = await query<Tables>(em)
    .selectFrom('calibration_curves')
    .select(['scope', 'domain', 'a', 'b', 'based_on', 'fitted_at'])
    .where('owner_id', '=', ownerId)
    .execute();
  const owner = rows.find((row) => row.scope === 'owner');
  if (!owner) return null;
  const model: OwnerCalibration = {
    owner: { a: owner.a, b: owner.b },
    domains: {},
    basedOn: { owner: owner.based_on, domains: {} },
  };
  for (const row of rows) {
    if (row.scope !== 'domain' || !row.domain) continue;
    model.domains[row.domain] = { a: row.a, b: row.b };
    model.basedOn.domains[row.domain] = row.based_on;
  }
  return { model, fittedAt: new Date(owner.fitted_at).toISOString() };
}

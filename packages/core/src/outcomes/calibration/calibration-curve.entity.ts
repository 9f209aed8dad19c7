import { defineEntity, p } from '@mikro-orm/core';
import type { DebateDomain } from '@verdict/contracts';
import { User } from '../../accounts/user.entity.ts';

export type CurveScope = 'global' | 'owner' | 'domain';

/**
 * A fitted Platt curve, calibrated = σ(a·logit(raw) + b): the global one (no owner), an owner's overall one,
 * or one of an owner's domains. Written only by calibration-store.ts (the score worker's refit).
 */
export const CalibrationCurveSchema = defineEntity({
  name: 'CalibrationCurve',
  tableName: 'calibration_curves',
  indexes: [{ name: 'calibration_curves_owner_index', properties: ['owner'] }],
  checks: [{ name: 'calibration_curves_scope_check', expression: `scope in ('global', 'owner', 'domain')` }],
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    scope: p.string().length(10).$type<CurveScope>(),
    owner: () => p.manyToOne(User).nullable().deleteRule('cascade'),
    domain: p.string().length(20).$type<DebateDomain>().nullable(),
    a: p.double().$type<number>(),
    b: p.double().$type<number>(),
    basedOn: p.integer(),
    fittedAt: p.datetime().defaultRaw('now()'),
  },
});

export class CalibrationCurve extends CalibrationCurveSchema.class {}
CalibrationCurveSchema.setClass(CalibrationCurve);

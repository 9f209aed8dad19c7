import { Migration } from '@mikro-orm/migrations';

/**
 * Calibrated confidence: the Platt curves the score worker fits on resolved outcomes (one global, one per
 * owner with enough outcomes, one per domain of theirs with enough there), which the engine applies to each new
 * verdict. Written only by outcomes/calibration/calibration-store.ts, which replaces an owner's rows (or the
 * global one) whole under a lock: hence no unique key beyond the id.
 */
export class Migration0030CalibrationCurves extends Migration {
  override name = '0030-calibration-curves';

  override up(): void {
    this.addSql(`create table "calibration_curves" (
      "id" uuid not null default gen_random_uuid(),
      "scope" varchar(10) not null,
      "owner_id" uuid null,
      "domain" varchar(20) null,
      "a" double precision not null,
      "b" double precision not null,
      "based_on" int not null,
      "fitted_at" timestamptz not null default now(),
      constraint "calibration_curves_pkey" primary key ("id"),
      constraint "calibration_curves_owner_id_foreign" foreign key ("owner_id")
        references "users" ("id") on delete cascade,
      constraint "calibration_curves_scope_check" check ("scope" in ('global', 'owner', 'domain'))
    );`);
    this.addSql(`create index "calibration_curves_owner_index" on "calibration_curves" ("owner_id");`);
  }
}

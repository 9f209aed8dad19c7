import { Migration } from '@mikro-orm/migrations';

/**
 * How often a debate attempt was interrupted by something other than its node stopping or losing the lease.
 * A debate that breaks every time it runs (a corrupt snapshot, a defect) fails after a few instead of
 * cycling through the queue forever.
 */
export class Migration0007DebateInterruptions extends Migration {
  override name = '0007-debate-interruptions';

  override up(): void {
    this.addSql('alter table "debates" add column "interruptions" int not null default 0;');
  }
}

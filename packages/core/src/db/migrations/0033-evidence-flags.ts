import { Migration } from '@mikro-orm/migrations';

/**
 * The evidence engine's marks on debates and turns: whether a debate runs with it (decided at creation by
 * its owner's plan: false for every debate created before it) and the citations each turn made, as the
 * engine checked them when storing the turn (null for turns stored without the evidence engine).
 */
export class Migration0033EvidenceFlags extends Migration {
  override name = '0033-evidence-flags';

  override up(): void {
    this.addSql(`alter table "debates" add column "evidence_engine" boolean not null default false;`);
    this.addSql(`alter table "debate_turns" add column "citations" jsonb null;`);
  }
}

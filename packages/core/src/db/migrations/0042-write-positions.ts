import { Migration } from '@mikro-orm/migrations';

/**
 * Each account's last write position (the primary's WAL insert position just after the write committed),
 * which read routing compares with a replica's replay position (core/src/replica/). UNLOGGED: it is read
 * on the primary only, its upsert costs no WAL flush, and a standby has no need of it. A primary crash
 * empties it (a clean restart does not); see ARCHITECTURE.md, "Read replica".
 */
export class Migration0042WritePositions extends Migration {
  override name = '0042-write-positions';

  override up(): void {
    this.addSql(`create unlogged table "write_positions" (
      "user_id" uuid not null,
      "lsn" pg_lsn not null,
      constraint "write_positions_pkey" primary key ("user_id")
    );`);
  }

  override down(): void {
    this.addSql('drop table if exists "write_positions";');
  }
}

import { Migration } from '@mikro-orm/migrations';

/**
 * What the retention worker (webhooks/retention.ts) looks for, by age: finished deliveries, and outbox rows.
 * Without these each pruning pass ended with a scan of both tables, which grow with all traffic.
 */
export class Migration0026WebhookRetentionIndexes extends Migration {
  override name = '0026-webhook-retention-indexes';

  override up(): void {
    this.addSql(`create index "webhook_deliveries_finished_created_index" on "webhook_deliveries" ("created_at")
      where "status" in ('succeeded', 'failed');`);
    this.addSql(`create index "webhook_outbox_created_index" on "webhook_outbox" ("created_at");`);
  }
}

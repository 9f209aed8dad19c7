import { Migration } from '@mikro-orm/migrations';

/**
 * The trace context (a W3C `traceparent`) of the work that queued an outbox row, when tracing was on: the
 * webhook deliveries fanned out of it, sent later by another worker, continue that trace.
 */
export class Migration0029WebhookOutboxTrace extends Migration {
  override name = '0029-webhook-outbox-trace';

  override up(): void {
    this.addSql(`alter table "webhook_outbox" add column "trace_parent" varchar(64) null;`);
  }
}

import { Migration } from '@mikro-orm/migrations';

/**
 * The audit trail (core/audit/): entries chained by hash per workspace or account, each chain's head (the
 * row an append locks), and retention's checkpoints.
 *
 * Append-only in the database, whatever the code does: the role the service runs as can insert entries,
 * but an update or a truncate is refused, and a delete only of entries a checkpoint covers. A checkpoint
 * must name an existing entry by its hash and be older than the shortest retention (30 days), and
 * checkpoints are themselves never updated or removed: so the one way an entry leaves is retention
 * removing a whole prefix of its chain older than 30 days, and that leaves a checkpoint to verify from.
 */
export class Migration0038AuditTrail extends Migration {
  override name = '0038-audit-trail';

  override up(): void {
    this.addSql(`create table "audit_entries" (
      "chain" text not null,
      "seq" bigint not null,
      "at" timestamptz not null,
      "actor_kind" text not null,
      "actor_id" text null,
      "actor_key_id" uuid null,
      "action" text not null,
      "target_type" text not null,
      "target_id" text null,
      "ip" text null,
      "user_agent" text null,
      "request_id" text null,
      "changes" jsonb not null,
      "prev_hash" text not null,
      "hash" text not null,
      constraint "audit_entries_pkey" primary key ("chain", "seq")
    );`);
    this.addSql(`create index "audit_entries_chain_at_index" on "audit_entries" ("chain", "at");`);
    this.addSql(`create table "audit_chains" (
      "chain" text not null,
      "seq" bigint not null,
      "hash" text not null,
      constraint "audit_chains_pkey" primary key ("chain")
    );`);
    this.addSql(`create table "audit_checkpoints" (
      "chain" text not null,
      "seq" bigint not null,
      "hash" text not null,
      "at" timestamptz not null,
      "removed_at" timestamptz not null,
      "removed" bigint not null,
      constraint "audit_checkpoints_pkey" primary key ("chain", "seq")
    );`);
    this.addSql(`create function "audit_refuse_change"() returns trigger language plpgsql as $$
      begin
        raise exception 'audit % are append-only: % refused', tg_table_name, lower(tg_op)
          using errcode = 'insufficient_privilege';
      end $$;`);
    this.addSql(`create function "audit_entry_removable"() returns trigger language plpgsql as $$
      begin
        if not exists (select 1 from "audit_checkpoints" c where c.chain = old.chain and c.seq >= old.seq) then
          raise exception 'audit entry %/% is not covered by a retention checkpoint: delete refused', old.chain, old.seq
            using errcode = 'insufficient_privilege';
        end if;
        return old;
      end $$;`);
    this.addSql(`create function "audit_checkpoint_valid"() returns trigger language plpgsql as $$
      begin
        if not exists (select 1 from "audit_entries" e
            where e.chain = new.chain and e.seq = new.seq and e.hash = new.hash and e.at = new.at
              and e.at < now() - interval '30 days') then
          raise exception 'audit checkpoint %/% names no entry of that hash older than 30 days', new.chain, new.seq
            using errcode = 'insufficient_privilege';
        end if;
        return new;
      end $$;`);
    this.addSql(`create trigger "audit_entries_no_update" before update on "audit_entries"
      for each row execute function "audit_refuse_change"();`);
    this.addSql(`create trigger "audit_entries_no_truncate" before truncate on "audit_entries"
      for each statement execute function "audit_refuse_change"();`);
    this.addSql(`create trigger "audit_entries_removable" before delete on "audit_entries"
      for each row execute function "audit_entry_removable"();`);
    this.addSql(`create trigger "audit_checkpoints_valid" before insert on "audit_checkpoints"
      for each row execute function "audit_checkpoint_valid"();`);
    this.addSql(`create trigger "audit_checkpoints_no_change" before update or delete on "audit_checkpoints"
      for each row execute function "audit_refuse_change"();`);
    this.addSql(`create trigger "audit_checkpoints_no_truncate" before truncate on "audit_checkpoints"
      for each statement execute function "audit_refuse_change"();`);
  }
}

import { Migration } from '@mikro-orm/migrations';

/**
 * Decision chains: a user's trees of related debates. A debate appears once per chain (the key); the
 * root debate deleted for good takes the chain with it. Any other debate deleted for good takes only its
 * node: the trigger hangs that node's children from its parent, so no node ever points at a missing one.
 */
export class Migration0013Chains extends Migration {
  override name = '0013-chains';

  override up(): void {
    this.addSql(`create table "decision_chains" (
      "id" uuid not null default gen_random_uuid(),
      "user_id" uuid not null,
      "name" varchar(200) not null,
      "root_debate_id" uuid not null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      constraint "decision_chains_pkey" primary key ("id"),
      constraint "decision_chains_user_id_foreign" foreign key ("user_id")
        references "users" ("id") on delete cascade,
      constraint "decision_chains_root_debate_id_foreign" foreign key ("root_debate_id")
        references "debates" ("id") on delete cascade
    );`);
    this.addSql(
      `create index "decision_chains_user_created_index" on "decision_chains" ("user_id", "created_at");`,
    );
    this.addSql(
      `create index "decision_chains_root_debate_id_index" on "decision_chains" ("root_debate_id");`,
    );
    this.addSql(`create table "chain_nodes" (
      "chain_id" uuid not null,
      "debate_id" uuid not null,
      "parent_debate_id" uuid null,
      "relationship" varchar(20) null,
      "position" int not null,
      "added_at" timestamptz not null default now(),
      constraint "chain_nodes_pkey" primary key ("chain_id", "debate_id"),
      constraint "chain_nodes_chain_id_foreign" foreign key ("chain_id")
        references "decision_chains" ("id") on delete cascade,
      constraint "chain_nodes_debate_id_foreign" foreign key ("debate_id")
        references "debates" ("id") on delete cascade,
      constraint "chain_nodes_chain_id_position_unique" unique ("chain_id", "position"),
      constraint "chain_nodes_position_check" check ("position" >= 0),
      constraint "chain_nodes_relationship_check"
        check ("relationship" in ('follow_up', 'reversal', 'refinement'))
    );`);
    this.addSql(`create index "chain_nodes_debate_id_index" on "chain_nodes" ("debate_id");`);
    this.addSql(`create index "chain_nodes_chain_id_parent_debate_id_index"
      on "chain_nodes" ("chain_id", "parent_debate_id");`);
    // After, not before, the deletion: a chain deleted whole leaves no children to move, and the update
    // never touches a row the same cascade is about to delete.
    this.addSql(`create function "chain_nodes_rehang_children"() returns trigger language plpgsql as $$
      begin
        update "chain_nodes" set "parent_debate_id" = old."parent_debate_id"
          where "chain_id" = old."chain_id" and "parent_debate_id" = old."debate_id";
        return null;
      end;
    $$;`);
    this.addSql(`create trigger "chain_nodes_rehang_children" after delete on "chain_nodes"
      for each row execute function "chain_nodes_rehang_children"();`);
  }
}

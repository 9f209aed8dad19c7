import { Migration } from '@mikro-orm/migrations';

/**
 * Workspaces and their members. A debate's workspace becomes a foreign key that cascades: deleting a
 * workspace deletes its debates (and, through theirs, their events, turns, outcomes …) in the same
 * statement. Debates are listed per workspace newest first.
 */
export class Migration0018Workspaces extends Migration {
  override name = '0018-workspaces';

  override up(): void {
    this.addSql(`create table "workspaces" (
      "id" uuid not null default gen_random_uuid(),
      "owner_id" uuid not null,
      "name" varchar(100) not null,
      "slug" varchar(48) not null,
      "description" varchar(500) null,
      "allow_member_invites" boolean not null default true,
      "default_debate_mode" varchar(20) not null default 'fast',
      "require_approval_for_public_debates" boolean not null default false,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      constraint "workspaces_pkey" primary key ("id"),
      constraint "workspaces_owner_id_foreign" foreign key ("owner_id")
        references "users" ("id") on update no action on delete cascade
    );`);
    this.addSql(`create index "workspaces_owner_id_index" on "workspaces" ("owner_id");`);
    this.addSql(`alter table "workspaces" add constraint "workspaces_slug_unique" unique ("slug");`);
    this.addSql(`create table "workspace_members" (
      "workspace_id" uuid not null,
      "user_id" uuid not null,
      "role" varchar(10) not null,
      "joined_at" timestamptz not null default now(),
      constraint "workspace_members_pkey" primary key ("workspace_id", "user_id"),
      constraint "workspace_members_workspace_id_foreign" foreign key ("workspace_id")
        references "workspaces" ("id") on update no action on delete cascade,
      constraint "workspace_members_user_id_foreign" foreign key ("user_id")
        references "users" ("id") on update no action on delete cascade,
      constraint "workspace_members_role_check" check (role in ('owner', 'admin', 'member', 'viewer'))
    );`);
    this.addSql(`create index "workspace_members_user_id_index" on "workspace_members" ("user_id");`);
    this.addSql(`alter table "debates" add constraint "debates_workspace_id_foreign" foreign key ("workspace_id")
      references "workspaces" ("id") on update no action on delete cascade;`);
    this.addSql(
      `create index "debates_workspace_created_index" on "debates" ("workspace_id", "created_at");`,
    );
  }
}

import { Migration } from '@mikro-orm/migrations';

/**
 * Single sign-on (core/sso/): each workspace's connection to its identity provider, the identities it has
 * linked to accounts, the sign-ins under way, and which sessions a workspace's sign-in opened (they end
 * when the person leaves the workspace, or it is deleted: by the code that does either, as sessions belong
 * to accounts, which know nothing of workspaces).
 */
export class Migration0039SingleSignOn extends Migration {
  override name = '0039-single-sign-on';

  override up(): void {
    this.addSql(`create table "sso_connections" (
      "workspace_id" uuid not null,
      "protocol" text not null,
      "issuer" text not null,
      "client_id" text null,
      "client_secret_sealed" text null,
      "sso_url" text null,
      "certificate" text null,
      "allowed_domains" jsonb not null,
      "default_role" text not null,
      "require_sso" boolean not null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      constraint "sso_connections_pkey" primary key ("workspace_id"),
      constraint "sso_connections_workspace_id_foreign" foreign key ("workspace_id")
        references "workspaces" ("id") on update no action on delete cascade,
      constraint "sso_connections_protocol_check" check (protocol in ('oidc', 'saml'))
    );`);
    this.addSql(`create table "sso_identities" (
      "workspace_id" uuid not null,
      "issuer" text not null,
      "subject" text not null,
      "user_id" uuid not null,
      "created_at" timestamptz not null,
      "last_sign_in_at" timestamptz not null,
      constraint "sso_identities_pkey" primary key ("workspace_id", "issuer", "subject"),
      constraint "sso_identities_workspace_id_foreign" foreign key ("workspace_id")
        references "workspaces" ("id") on update no action on delete cascade,
      constraint "sso_identities_user_id_foreign" foreign key ("user_id")
        references "users" ("id") on update no action on delete cascade
    );`);
    this.addSql(`create index "sso_identities_user_id_index" on "sso_identities" ("user_id");`);
    this.addSql(
      `alter table "sso_identities" add constraint "sso_identities_workspace_user_unique" unique ("workspace_id", "user_id");`,
    );
    this.addSql(`create table "sso_requests" (
      "id" text not null,
      "workspace_id" uuid not null,
      "protocol" text not null,
      "binding_hash" text not null,
      "code_verifier" text null,
      "nonce" text null,
      "return_to" text not null,
      "linking_user_id" uuid null,
      "expires_at" timestamptz not null,
      "used_at" timestamptz null,
      constraint "sso_requests_pkey" primary key ("id"),
      constraint "sso_requests_workspace_id_foreign" foreign key ("workspace_id")
        references "workspaces" ("id") on update no action on delete cascade,
      constraint "sso_requests_linking_user_id_foreign" foreign key ("linking_user_id")
        references "users" ("id") on update no action on delete cascade
    );`);
    this.addSql(`create index "sso_requests_workspace_id_index" on "sso_requests" ("workspace_id");`);
    this.addSql(`create index "sso_requests_linking_user_id_index" on "sso_requests" ("linking_user_id");`);
    this.addSql(`create index "sso_requests_expires_at_index" on "sso_requests" ("expires_at");`);
    this.addSql(`alter table "sessions" add column "sso_workspace_id" uuid null;`);
    this.addSql(`create index "sessions_sso_workspace_id_index" on "sessions" ("sso_workspace_id");`);
  }
}

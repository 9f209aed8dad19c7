import { Migration } from '@mikro-orm/migrations';

/**
 * API processes keep the keys they have looked up (keys/key-cache.ts) and must forget one as soon as
 * anything it answered changes: the key revoked or its config changed, its owner's plan, request limit,
 * name or email. These triggers say so, on commit, to every process listening on `key_principal_changes`,
 * whichever process or operator command wrote the row. The payload is `<schema> <user id>`: channels are
 * the database's, and several schemas may share one database.
 */
export class Migration0028KeyPrincipalChanges extends Migration {
  override name = '0028-key-principal-changes';

  override up(): void {
    this.addSql(`create function "key_principal_changed"() returns trigger language plpgsql as $$
      begin
        -- The user's id is in the column the trigger names: users.id, api_keys.user_id.
        perform pg_notify('key_principal_changes', tg_table_schema || ' ' || (to_jsonb(old) ->> tg_argv[0]));
        return null;
      end;
    $$;`);
    this.addSql(`create trigger "api_keys_principal_changed" after update or delete on "api_keys"
      for each row execute function "key_principal_changed"('user_id');`);
    // Not on every update of a user: the credit balance moves with each charge and no key reads it.
    this.addSql(`create trigger "users_principal_changed"
      after update of "plan", "rate_limit_per_minute", "name", "email" on "users"
      for each row execute function "key_principal_changed"('id');`);
    this.addSql(`create trigger "users_principal_deleted" after delete on "users"
      for each row execute function "key_principal_changed"('id');`);
  }
}

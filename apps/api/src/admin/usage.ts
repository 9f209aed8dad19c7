/** What `npm run admin` prints for help or an unknown command: read before core is loaded (admin.ts). */
export const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  create-database   creates the database DATABASE_URL names (nothing else ever creates one)
  create-user     --email <email> --name <name> [--password <pw>] [--plan <plan>]
  set-plan      --email <email> --plan <free|starter|pro|byok|byok_pro|enterprise>
  grant-credits --email <email> --amount <n> [--note <text>]
  create-key    --email <email> --name <key name> [--rate-limit <per minute>]
  set-rate-limit --email <email> --per-minute <n|plan>   the account's own limit (all its keys share it)
  audit-verify  --email <email> | --workspace <id> | --all   walks audit trails; fails naming the first
                broken entry of each chain that does not hold

Works on the configured database (DATABASE_URL, or the embedded one in DATA_DIR). When an embedded
server is running on DATA_DIR, the command runs inside that server, over its admin channel.`;

import { Migration } from '@mikro-orm/migrations';

/**
 * `open_debate(request jsonb)`: the write of a new debate in one round trip, where it took eight (begin,
 * the account's lock, the count of its active debates, the balance, the ledger, the debate, the outbox,
 * commit). Each statement in a PL/pgSQL function takes its own snapshot, so the count after the lock sees
 * every debate committed while it waited, as the separate statements did; one statement (a CTE) could not.
 *
 * The rules stay in TypeScript (debates/creation/open-debate.ts): the caller sends, for each plan, what
 * paying for this debate comes to when the balance covers it or falls short (and, where it matters, when the
 * free tier has debates left or not), and the function only looks its account's case up. A refusal comes
 * back with the facts it was decided on, for the caller to raise the same error the rules do.
 *
 * Answers `{"outcome":"created","plan","fundingSource"}` or `{"outcome":"refused","reason",…}` with reason
 * USER_NOT_FOUND, CONCURRENT_LIMIT (`active`) or FUNDING (`plan`, `balance`, `freeUsed`), nothing written.
 * JSON `null`s (context, routing …) arrive as SQL nulls through `->>`; `routing` and `compareOptions` are
 * read with `->`, where a JSON null would be stored as one: the caller leaves them out instead.
 */
export class Migration0037OpenDebate extends Migration {
  override name = '0037-open-debate';

  override up(): void {
    this.addSql(`create function "open_debate"(request jsonb) returns jsonb language plpgsql as $$
      declare
        creator uuid := (request->>'ownerId')::uuid;
        payer uuid := (request->>'payerId')::uuid;
        debate uuid := (request->>'debateId')::uuid;
        stamp timestamptz := (request->>'at')::timestamptz;
        payer_plan text;
        payer_balance int;
        locked int;
        active int;
        free_used int;
        funding jsonb;
        charge int;
      begin
        -- The accounts in id order, before any debate row (ARCHITECTURE.md, "Lock order"); most debates have
        -- one, whose lock and read are one statement.
        if creator <> payer then
          select count(*)::int into locked
            from (select 1 from users u where u.id in (creator, payer) order by u.id for no key update) accounts;
          if locked < 2 then
            return jsonb_build_object('outcome', 'refused', 'reason', 'USER_NOT_FOUND');
          end if;
        end if;
        select u.plan, u.credit_balance into payer_plan, payer_balance from users u where u.id = payer
          for no key update;
        if not found then
          return jsonb_build_object('outcome', 'refused', 'reason', 'USER_NOT_FOUND');
        end if;

        select count(*)::int into active from debates d
          where d.owner_id = creator and d.status in ('pending', 'running', 'paused') and d.deleted_at is null;
        if active >= (request->>'concurrentLimit')::int then
          return jsonb_build_object('outcome', 'refused', 'reason', 'CONCURRENT_LIMIT', 'active', active);
        end if;

        funding := request->'plans'->payer_plan->(case when payer_balance >= (request->>'credits')::int
          then 'covers' else 'short' end);
        if funding is null then
          raise exception 'open_debate: no funding rule for plan %', payer_plan;
        end if;
        if funding ? 'freeLeft' then
          select count(*)::int into free_used from debates d
            where d.owner_id = payer and d.funding_source = 'free_tier'
              and d.created_at >= (request->>'monthStart')::timestamptz;
          funding := case when free_used < (request->>'freeMonthly')::int
            then funding->'freeLeft' else funding->'freeUsed' end;
        end if;
        if funding ? 'refuse' then
          return jsonb_build_object('outcome', 'refused', 'reason', 'FUNDING', 'plan', payer_plan,
            'balance', payer_balance, 'freeUsed', free_used);
        end if;

        charge := (funding->>'charge')::int;
        if charge > 0 then
          update users set credit_balance = credit_balance - charge where id = payer;
          insert into credit_ledger (id, user_id, delta, reason, note, debate_id, reference, created_at)
            values (gen_random_uuid(), payer, -charge, 'debate', request->>'ledgerNote', debate, null, stamp);
        end if;

        insert into debates (id, owner_id, question, context, mode, status, funding_source, is_public,
            requested_agents, requested_rounds, preset, routing, early_stop_threshold, compare_options,
            evidence_engine, attempt, forked_from_id, workspace_id, created_at)
          values (debate, creator, request->>'question', request->>'context', request->>'mode', 'pending',
            funding->>'source', false, (request->>'agents')::int, (request->>'rounds')::int,
            funding->>'preset', request->'routing', (request->>'earlyStopThreshold')::double precision,
            request->'compareOptions', (request->'plans'->payer_plan->>'evidence')::boolean, 1,
            (request->>'forkedFromId')::uuid, (request->>'workspaceId')::uuid, stamp);

        insert into webhook_outbox (user_id, event, debate_id, dedupe_key, payload, trace_parent)
          values (creator, 'debate.created', debate, 'debate.created:' || debate, request->'created',
            request->>'traceParent')
          on conflict (dedupe_key) do nothing;

        return jsonb_build_object('outcome', 'created', 'plan', payer_plan, 'fundingSource', funding->>'source');
      end;
    $$;`);
  }
}

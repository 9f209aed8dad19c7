/**
 * GENERATED FILE: do not edit; `npm run gen:clients` writes it from apps/api/src/router.ts.
 * The tRPC router's type as a client sees it: every procedure with its input and its output as JSON carries
 * it, and the error shape. The server's context (database, services) is erased, so the declarations need
 * nothing but @trpc/server's types. A test fails while this file differs from what the router gives.
 */

import type {
  TRPCBuiltRouter,
  TRPCMutationProcedure,
  TRPCQueryProcedure,
  TRPCSubscriptionProcedure,
} from '@trpc/server';

/** What a failed tRPC call carries (the formatted error): `data.appCode` is the envelope's error code. */
export type AppRouterErrorShape = {
  code: -32700 | -32600 | -32603 | -32001 | -32002 | -32003 | -32004 | -32005 | -32008 | -32009 | -32012 | -32013 | -32015 | -32022 | -32028 | -32029 | -32099;
  message: string;
  data: {
    code: "PARSE_ERROR" | "BAD_REQUEST" | "INTERNAL_SERVER_ERROR" | "NOT_IMPLEMENTED" | "BAD_GATEWAY" | "SERVICE_UNAVAILABLE" | "GATEWAY_TIMEOUT" | "UNAUTHORIZED" | "PAYMENT_REQUIRED" | "FORBIDDEN" | "NOT_FOUND" | "METHOD_NOT_SUPPORTED" | "TIMEOUT" | "CONFLICT" | "PRECONDITION_FAILED" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "UNPROCESSABLE_CONTENT" | "PRECONDITION_REQUIRED" | "TOO_MANY_REQUESTS" | "CLIENT_CLOSED_REQUEST";
    httpStatus: number;
    path: undefined | string;
    appCode: "SERVICE_UNAVAILABLE" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "VALIDATION_ERROR" | "MISSING_QUERY" | "NO_PAYMENT_CUSTOMER" | "API_KEY_REQUIRED" | "INSUFFICIENT_CREDITS" | "BYOK_REQUIRED" | "SEAT_LIMIT_REACHED" | "USER_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "DEBATE_NOT_RUNNING" | "DEBATE_NOT_FAILED" | "DEBATE_ALREADY_RUNNING" | "POLL_CLOSED" | "REQUEST_TIMEOUT" | "MONTHLY_LIMIT_REACHED" | "CONCURRENT_LIMIT" | "QUOTA_EXCEEDED" | "RATE_LIMITED" | "REQUEST_HEADER_FIELDS_TOO_LARGE" | "INTERNAL_ERROR" | "STREAKS_ERROR" | "SIMILAR_SEARCH_FAILED" | "RECOMMENDATIONS_FAILED" | "PROVIDER_ERROR" | "BILLING_NOT_CONFIGURED" | "PROVIDER_TIMEOUT";
    appMessage: string;
    details: undefined | Array<{
      path: string;
      message: string;
      code: string;
    }>;
    extra: {
      [key: string]: unknown;
    };
  };
};

/** Every procedure of the API's tRPC router, for `createTRPCClient<AppRouter>`. */
export type AppRouterRecord = {
  auth: {
    register: TRPCMutationProcedure<{
      input: {
        email: string;
        password: string;
        name: string;
      };
      output: {
        user: {
          id: string;
          name: string;
          email: string;
          plan: "free" | "starter" | "pro" | "byok" | "byok_pro" | "enterprise";
          credits: number;
          createdAt: string;
        };
        expiresAt: string;
      };
      meta: object;
    }>;
    login: TRPCMutationProcedure<{
      input: {
        email: string;
        password: string;
      };
      output: {
        user: {
          id: string;
          name: string;
          email: string;
          plan: "free" | "starter" | "pro" | "byok" | "byok_pro" | "enterprise";
          credits: number;
          createdAt: string;
        };
        expiresAt: string;
      };
      meta: object;
    }>;
    logout: TRPCMutationProcedure<{
      input: void;
      output: never;
      meta: object;
    }>;
    session: TRPCQueryProcedure<{
      input: void;
      output: {
        user: {
          id: string;
          name: string;
          email: string;
          plan: "free" | "starter" | "pro" | "byok" | "byok_pro" | "enterprise";
          credits: number;
          createdAt: string;
        };
        expiresAt: string;
      };
      meta: object;
    }>;
  };
  keys: {
    create: TRPCMutationProcedure<{
      input: {
        name: string;
        config?: undefined | null | {
          preset?: undefined | null | "balanced" | "economy" | "hackathon" | "local" | "custom";
          routingOverrides?: undefined | null | {
            orchestrator?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
            synthesizer?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
            debater?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
            classifier?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
            search_planner?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
            mid_debate_analyst?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
            fact_checker?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
            controversy_scorer?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
          };
          allowedProviders?: undefined | null | Array<"anthropic" | "openai" | "google" | "ollama" | "openrouter">;
          rateLimit?: undefined | null | number;
          description?: undefined | null | string;
        };
      };
      output: {
        id: string;
        name: string;
        keyPrefix: string;
        config: null | {
          preset: null | "balanced" | "economy" | "hackathon" | "local" | "custom";
          routingOverrides: null | {
            orchestrator?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
            synthesizer?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
            debater?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
            classifier?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
            search_planner?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
            mid_debate_analyst?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
            fact_checker?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
            controversy_scorer?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
          };
          allowedProviders: null | Array<"anthropic" | "openai" | "google" | "ollama" | "openrouter">;
          rateLimit: null | number;
          description: null | string;
        };
        createdAt: string;
        key: string;
      };
      meta: object;
    }>;
    list: TRPCQueryProcedure<{
      input: void;
      output: {
        keys: Array<{
          id: string;
          name: string;
          keyPrefix: string;
          config: null | {
            preset: null | "balanced" | "economy" | "hackathon" | "local" | "custom";
            routingOverrides: null | {
              orchestrator?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
              synthesizer?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
              debater?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
              classifier?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
              search_planner?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
              mid_debate_analyst?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
              fact_checker?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
              controversy_scorer?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
            };
            allowedProviders: null | Array<"anthropic" | "openai" | "google" | "ollama" | "openrouter">;
            rateLimit: null | number;
            description: null | string;
          };
          createdAt: string;
        }>;
      };
      meta: object;
    }>;
    update: TRPCMutationProcedure<{
      input: {
        id: string;
        name?: undefined | string;
        config?: undefined | null | {
          preset?: undefined | null | "balanced" | "economy" | "hackathon" | "local" | "custom";
          routingOverrides?: undefined | null | {
            orchestrator?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
            synthesizer?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
            debater?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
            classifier?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
            search_planner?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
            mid_debate_analyst?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
            fact_checker?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
            controversy_scorer?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
          };
          allowedProviders?: undefined | null | Array<"anthropic" | "openai" | "google" | "ollama" | "openrouter">;
          rateLimit?: undefined | null | number;
          description?: undefined | null | string;
        };
      };
      output: {
        id: string;
        name: string;
        keyPrefix: string;
        config: null | {
          preset: null | "balanced" | "economy" | "hackathon" | "local" | "custom";
          routingOverrides: null | {
            orchestrator?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
            synthesizer?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
            debater?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
            classifier?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
            search_planner?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
            mid_debate_analyst?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
            fact_checker?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
            controversy_scorer?: undefined | null | "local" | "opus" | "sonnet" | "haiku";
          };
          allowedProviders: null | Array<"anthropic" | "openai" | "google" | "ollama" | "openrouter">;
          rateLimit: null | number;
          description: null | string;
        };
        createdAt: string;
      };
      meta: object;
    }>;
    revoke: TRPCMutationProcedure<{
      input: {
        id: string;
      };
      output: never;
      meta: object;
    }>;
  };
  debates: {
    create: TRPCMutationProcedure<{
      input: {
        question: string;
        mode?: undefined | "balanced" | "fast" | "thorough";
        context?: undefined | string;
        agentCount?: undefined | number;
        maxRounds?: undefined | number;
        enableSearch?: undefined | boolean;
        attachmentIds?: undefined | Array<string>;
        workspaceId?: undefined | string;
        preset?: undefined | "balanced" | "economy" | "hackathon" | "mixed" | "deepseek" | "groq";
        skipCache?: undefined | boolean;
      };
      output: {
        debateId: string;
        streamUrl: string;
        cached: boolean;
        judgeModel?: undefined | string;
      };
      meta: object;
    }>;
    list: TRPCQueryProcedure<{
      input: {
        page?: unknown;
        limit?: unknown;
        status?: undefined | "completed" | "pending" | "running" | "paused" | "failed";
        sortBy?: undefined | "createdAt" | "completedAt";
        sortOrder?: undefined | "asc" | "desc";
        workspaceId?: undefined | string;
      };
      output: {
        debates: Array<{
          id: string;
          question: string;
          status: "completed" | "pending" | "running" | "paused" | "failed";
          mode: null | "balanced" | "fast" | "thorough";
          fundingSource: "byok" | "free_tier" | "user_credits";
          isPublic: boolean;
          agentCount: null | number;
          roundCount: null | number;
          createdAt: string;
          completedAt: null | string;
          ownerId: string;
          workspaceId: null | string;
          verdict: null | {
            recommendation: "PROCEED" | "RECONSIDER" | "REJECT" | "DEFER" | "MORE_INFO_NEEDED" | "SPLIT_DECISION";
            confidence: number;
            summary: string;
            agentsUsed: Array<string>;
            totalRounds: number;
          };
          cost: null | {
            inputTokens: number;
            outputTokens: number;
            estimatedUsd: number;
            credits: number;
            llmCalls: number;
          };
        }>;
        page: number;
        limit: number;
        total: number;
        totalPages: number;
      };
      meta: object;
    }>;
    get: TRPCQueryProcedure<{
      input: {
        id: string;
      };
      output: {
        id: string;
        question: string;
        status: "completed" | "pending" | "running" | "paused" | "failed";
        mode: null | "balanced" | "fast" | "thorough";
        fundingSource: "byok" | "free_tier" | "user_credits";
        isPublic: boolean;
        agentCount: null | number;
        roundCount: null | number;
        createdAt: string;
        completedAt: null | string;
        ownerId: string;
        workspaceId: null | string;
        verdict: null | {
          recommendation: "PROCEED" | "RECONSIDER" | "REJECT" | "DEFER" | "MORE_INFO_NEEDED" | "SPLIT_DECISION";
          confidence: number;
          summary: string;
          agentsUsed: Array<string>;
          totalRounds: number;
        };
        cost: null | {
          inputTokens: number;
          outputTokens: number;
          estimatedUsd: number;
          credits: number;
          llmCalls: number;
        };
      };
      meta: object;
    }>;
    verdict: TRPCQueryProcedure<{
      input: {
        id: string;
      };
      output: {
        debate: {
          id: string;
          question: string;
          status: "completed" | "pending" | "running" | "paused" | "failed";
          mode: null | "balanced" | "fast" | "thorough";
          fundingSource: "byok" | "free_tier" | "user_credits";
          isPublic: boolean;
          agentCount: null | number;
          roundCount: null | number;
          createdAt: string;
          completedAt: null | string;
          ownerId: string;
          workspaceId: null | string;
          verdict: null | {
            recommendation: "PROCEED" | "RECONSIDER" | "REJECT" | "DEFER" | "MORE_INFO_NEEDED" | "SPLIT_DECISION";
            confidence: number;
            summary: string;
            agentsUsed: Array<string>;
            totalRounds: number;
          };
          cost: null | {
            inputTokens: number;
            outputTokens: number;
            estimatedUsd: number;
            credits: number;
            llmCalls: number;
          };
        };
        verdict: null | {
          recommendation: "PROCEED" | "RECONSIDER" | "REJECT" | "DEFER" | "MORE_INFO_NEEDED" | "SPLIT_DECISION";
          oneLiner: string;
          narrative: string;
          arguments: Array<{
            agent: string;
            stance: string;
            keyPoints: Array<string>;
          }>;
          keyEvidence: Array<{
            claim: string;
            source: string;
            supports: "for" | "against" | "mixed";
            weight: "low" | "medium" | "high";
          }>;
          decisionMatrix: Array<{
            option: string;
            criterion: string;
            score: number;
            rationale: string;
          }>;
          nextSteps: Array<string>;
          revisitTriggers: Array<string>;
          missingAgents: Array<string>;
          confidence: number;
        };
      };
      meta: object;
    }>;
    delete: TRPCMutationProcedure<{
      input: {
        id: string;
      };
      output: never;
      meta: object;
    }>;
    command: TRPCMutationProcedure<{
      input: {
        id: string;
        type: "pause" | "resume" | "skip" | "inject";
        payload?: undefined | {
          content: string;
        };
      };
      output: {
        accepted: boolean;
        state: string;
        message?: undefined | string;
      };
      meta: object;
    }>;
    statechart: TRPCQueryProcedure<{
      input: {
        id: string;
      };
      output: {
        history: Array<{
          at: string;
          event: string;
          state: string;
          node?: undefined | string;
        }>;
        chart: {
          id: string;
          initial: null | string;
          events: Array<string>;
          states: Array<{
            path: string;
            type: "history" | "atomic" | "compound" | "parallel" | "final";
            initial: null | string;
            invokes: Array<string>;
            transitions: Array<{
              event: string;
              targets: Array<string>;
              guard: null | string;
            }>;
          }>;
        };
        current: {
          state: string;
          live: boolean;
        };
        attempt?: undefined | number;
        events?: undefined | Array<{
          type: string;
          seq: number;
          data: {
            [key: string]: unknown;
          };
          at: string;
        }>;
      };
      meta: object;
    }>;
    retry: TRPCMutationProcedure<{
      input: {
        id: string;
      };
      output: {
        debateId: string;
        attempt: number;
        status: "pending";
      };
      meta: object;
    }>;
    fork: TRPCMutationProcedure<{
      input: {
        id: string;
        modifiedQuestion?: undefined | string;
      };
      output: {
        debateId: string;
        streamUrl: string;
        cached: boolean;
        judgeModel?: undefined | string;
      };
      meta: object;
    }>;
    analytics: TRPCQueryProcedure<{
      input: {
        id: string;
      };
      output: {
        debateId: string;
        status: "completed" | "pending" | "running" | "paused" | "failed";
        durationMs: null | number;
        rounds: null | number;
        agents: Array<{
          agent: string;
          model: string;
          turns: number;
          inputTokens: number;
          outputTokens: number;
        }>;
        cost: null | {
          inputTokens: number;
          outputTokens: number;
          estimatedUsd: number;
          credits: number;
          llmCalls: number;
        };
        averages: {
          debates: number;
          durationMs: null | number;
          rounds: null | number;
          inputTokens: null | number;
          outputTokens: null | number;
        };
      };
      meta: object;
    }>;
    setVisibility: TRPCMutationProcedure<{
      input: {
        id: string;
        isPublic: boolean;
      };
      output: {
        id: string;
        isPublic: boolean;
      };
      meta: object;
    }>;
    moveToWorkspace: TRPCMutationProcedure<{
      input: {
        id: string;
        workspaceId: null | string;
      };
      output: {
        id: string;
        workspaceId: null | string;
      };
      meta: object;
    }>;
  };
  outcomes: {
    record: TRPCMutationProcedure<{
      input: {
        id: string;
        outcomeStatus: "correct" | "partially_correct" | "wrong" | "too_early";
        outcomeNotes?: undefined | string;
        satisfactionScore?: undefined | number;
      };
      output: {
        debateId: string;
        question: string;
        domain: "business" | "technology" | "health" | "legal" | "personal" | "finance" | "education" | "other";
        confidence: number;
        recommendation: string;
        outcomeStatus: "skipped" | "pending" | "correct" | "partially_correct" | "wrong" | "too_early";
        outcomeNotes: null | string;
        satisfactionScore: null | number;
        reminderAt: null | string;
        createdAt: string;
        recordedAt: null | string;
      };
      meta: object;
    }>;
    skip: TRPCMutationProcedure<{
      input: {
        id: string;
      };
      output: {
        debateId: string;
        question: string;
        domain: "business" | "technology" | "health" | "legal" | "personal" | "finance" | "education" | "other";
        confidence: number;
        recommendation: string;
        outcomeStatus: "skipped" | "pending" | "correct" | "partially_correct" | "wrong" | "too_early";
        outcomeNotes: null | string;
        satisfactionScore: null | number;
        reminderAt: null | string;
        createdAt: string;
        recordedAt: null | string;
      };
      meta: object;
    }>;
    setReminder: TRPCMutationProcedure<{
      input: {
        id: string;
        reminderAt: string;
      };
      output: {
        debateId: string;
        question: string;
        domain: "business" | "technology" | "health" | "legal" | "personal" | "finance" | "education" | "other";
        confidence: number;
        recommendation: string;
        outcomeStatus: "skipped" | "pending" | "correct" | "partially_correct" | "wrong" | "too_early";
        outcomeNotes: null | string;
        satisfactionScore: null | number;
        reminderAt: null | string;
        createdAt: string;
        recordedAt: null | string;
      };
      meta: object;
    }>;
    get: TRPCQueryProcedure<{
      input: {
        id: string;
      };
      output: {
        debateId: string;
        question: string;
        domain: "business" | "technology" | "health" | "legal" | "personal" | "finance" | "education" | "other";
        confidence: number;
        recommendation: string;
        outcomeStatus: "skipped" | "pending" | "correct" | "partially_correct" | "wrong" | "too_early";
        outcomeNotes: null | string;
        satisfactionScore: null | number;
        reminderAt: null | string;
        createdAt: string;
        recordedAt: null | string;
      };
      meta: object;
    }>;
    pending: TRPCQueryProcedure<{
      input: void;
      output: {
        outcomes: Array<{
          debateId: string;
          question: string;
          domain: "business" | "technology" | "health" | "legal" | "personal" | "finance" | "education" | "other";
          confidence: number;
          recommendation: string;
          outcomeStatus: "skipped" | "pending" | "correct" | "partially_correct" | "wrong" | "too_early";
          outcomeNotes: null | string;
          satisfactionScore: null | number;
          reminderAt: null | string;
          createdAt: string;
          recordedAt: null | string;
        }>;
      };
      meta: object;
    }>;
    history: TRPCQueryProcedure<{
      input: {
        limit?: unknown;
        offset?: unknown;
        domain?: undefined | "business" | "technology" | "health" | "legal" | "personal" | "finance" | "education" | "other";
      };
      output: {
        outcomes: Array<{
          debateId: string;
          question: string;
          domain: "business" | "technology" | "health" | "legal" | "personal" | "finance" | "education" | "other";
          confidence: number;
          recommendation: string;
          outcomeStatus: "skipped" | "pending" | "correct" | "partially_correct" | "wrong" | "too_early";
          outcomeNotes: null | string;
          satisfactionScore: null | number;
          reminderAt: null | string;
          createdAt: string;
          recordedAt: null | string;
        }>;
        limit: number;
        offset: number;
        total: number;
      };
      meta: object;
    }>;
  };
  votes: {
    list: TRPCQueryProcedure<{
      input: {
        debateId: string;
      };
      output: {
        votes: {
          [key: string]: {
            agree: number;
            disagree: number;
            userVote: null | "agree" | "disagree";
          };
        };
      };
      meta: object;
    }>;
    cast: TRPCMutationProcedure<{
      input: {
        debateId: string;
        claimId: string;
        vote: "agree" | "disagree" | "neutral";
      };
      output: {
        agree: number;
        disagree: number;
        userVote: null | "agree" | "disagree";
        claimId: string;
      };
      meta: object;
    }>;
    remove: TRPCMutationProcedure<{
      input: {
        debateId: string;
        claimId: string;
      };
      output: never;
      meta: object;
    }>;
  };
  polls: {
    list: TRPCQueryProcedure<{
      input: {
        debateId: string;
      };
      output: {
        polls: Array<{
          id: string;
          debateId: string;
          question: string;
          options: Array<{
            id: string;
            label: string;
          }>;
          status: "open" | "closed";
          createdAt: string;
          closedAt: null | string;
          tallies: {
            [key: string]: number;
          };
          totalVotes: number;
          userVote: null | string;
        }>;
      };
      meta: object;
    }>;
    create: TRPCMutationProcedure<{
      input: {
        debateId: string;
        question: string;
        options: Array<string>;
      };
      output: {
        id: string;
        debateId: string;
        question: string;
        options: Array<{
          id: string;
          label: string;
        }>;
        status: "open" | "closed";
        createdAt: string;
        closedAt: null | string;
        tallies: {
          [key: string]: number;
        };
        totalVotes: number;
        userVote: null | string;
      };
      meta: object;
    }>;
    vote: TRPCMutationProcedure<{
      input: {
        debateId: string;
        pollId: string;
        optionId: string;
      };
      output: {
        id: string;
        debateId: string;
        question: string;
        options: Array<{
          id: string;
          label: string;
        }>;
        status: "open" | "closed";
        createdAt: string;
        closedAt: null | string;
        tallies: {
          [key: string]: number;
        };
        totalVotes: number;
        userVote: null | string;
      };
      meta: object;
    }>;
    close: TRPCMutationProcedure<{
      input: {
        debateId: string;
        pollId: string;
      };
      output: {
        id: string;
        debateId: string;
        question: string;
        options: Array<{
          id: string;
          label: string;
        }>;
        status: "open" | "closed";
        createdAt: string;
        closedAt: null | string;
        tallies: {
          [key: string]: number;
        };
        totalVotes: number;
        userVote: null | string;
      };
      meta: object;
    }>;
    delete: TRPCMutationProcedure<{
      input: {
        debateId: string;
        pollId: string;
      };
      output: never;
      meta: object;
    }>;
  };
  scores: {
    me: TRPCQueryProcedure<{
      input: void;
      output: {
        brierScore: number;
        totalTracked: number;
        totalResolved: number;
        domainScores: {
          [key: string]: number;
        };
        accuracyPercentage: number;
        streak: number;
      };
      meta: object;
    }>;
    trend: TRPCQueryProcedure<{
      input: {
        days?: unknown;
      };
      output: Array<{
        date: string;
        brierScore: number;
        rollingAccuracy: number;
        sampleSize: number;
      }>;
      meta: object;
    }>;
    calibration: TRPCQueryProcedure<{
      input: void;
      output: Array<{
        predictedRange: Array<number>;
        actualRate: number;
        count: number;
      }>;
      meta: object;
    }>;
    domains: TRPCQueryProcedure<{
      input: void;
      output: Array<{
        domain: "business" | "technology" | "health" | "legal" | "personal" | "finance" | "education" | "other";
        brierScore: number;
        sampleSize: number;
        trend: "improving" | "stable" | "declining";
      }>;
      meta: object;
    }>;
    streaks: TRPCQueryProcedure<{
      input: void;
      output: {
        currentStreak: number;
        longestStreak: number;
        totalDebates: number;
        milestones: Array<{
          count: number;
          reached: boolean;
          reachedAt?: undefined | string;
        }>;
      };
      meta: object;
    }>;
  };
  collections: {
    create: TRPCMutationProcedure<{
      input: {
        name: string;
        description?: undefined | null | string;
        isPublic?: undefined | boolean;
      };
      output: {
        id: string;
        name: string;
        description: null | string;
        isPublic: boolean;
        userId: string;
        createdAt: string;
        updatedAt: string;
      };
      meta: object;
    }>;
    list: TRPCQueryProcedure<{
      input: void;
      output: {
        collections: Array<{
          id: string;
          name: string;
          description: null | string;
          isPublic: boolean;
          userId: string;
          createdAt: string;
          updatedAt: string;
        }>;
      };
      meta: object;
    }>;
    get: TRPCQueryProcedure<{
      input: {
        id: string;
      };
      output: {
        id: string;
        name: string;
        description: null | string;
        isPublic: boolean;
        userId: string;
        createdAt: string;
        updatedAt: string;
        items: Array<{
          debateId: string;
          order: number;
          addedAt: string;
          debate: {
            id: string;
            question: string;
            status: "completed" | "pending" | "running" | "paused" | "failed";
            mode: null | "balanced" | "fast" | "thorough";
            createdAt: string;
          };
        }>;
      };
      meta: object;
    }>;
    update: TRPCMutationProcedure<{
      input: {
        id: string;
        name?: undefined | string;
        description?: undefined | null | string;
        isPublic?: undefined | boolean;
      };
      output: {
        id: string;
        name: string;
        description: null | string;
        isPublic: boolean;
        userId: string;
        createdAt: string;
        updatedAt: string;
      };
      meta: object;
    }>;
    delete: TRPCMutationProcedure<{
      input: {
        id: string;
      };
      output: never;
      meta: object;
    }>;
    addItem: TRPCMutationProcedure<{
      input: {
        id: string;
        debateId: string;
      };
      output: {
        debateId: string;
        order: number;
        addedAt: string;
        debate: {
          id: string;
          question: string;
          status: "completed" | "pending" | "running" | "paused" | "failed";
          mode: null | "balanced" | "fast" | "thorough";
          createdAt: string;
        };
      };
      meta: object;
    }>;
    removeItem: TRPCMutationProcedure<{
      input: {
        id: string;
        debateId: string;
      };
      output: never;
      meta: object;
    }>;
    reorderItems: TRPCMutationProcedure<{
      input: {
        id: string;
        items: Array<{
          debateId: string;
          order: number;
        }>;
      };
      output: {
        id: string;
        name: string;
        description: null | string;
        isPublic: boolean;
        userId: string;
        createdAt: string;
        updatedAt: string;
        items: Array<{
          debateId: string;
          order: number;
          addedAt: string;
          debate: {
            id: string;
            question: string;
            status: "completed" | "pending" | "running" | "paused" | "failed";
            mode: null | "balanced" | "fast" | "thorough";
            createdAt: string;
          };
        }>;
      };
      meta: object;
    }>;
  };
  chains: {
    create: TRPCMutationProcedure<{
      input: {
        name: string;
        rootDebateId: string;
      };
      output: {
        id: string;
        name: string;
        userId: string;
        rootDebateId: string;
        debateCount: number;
        createdAt: string;
        updatedAt: string;
      };
      meta: object;
    }>;
    list: TRPCQueryProcedure<{
      input: void;
      output: {
        chains: Array<{
          id: string;
          name: string;
          userId: string;
          rootDebateId: string;
          debateCount: number;
          createdAt: string;
          updatedAt: string;
        }>;
      };
      meta: object;
    }>;
    get: TRPCQueryProcedure<{
      input: {
        id: string;
      };
      output: {
        id: string;
        name: string;
        userId: string;
        rootDebateId: string;
        debateCount: number;
        createdAt: string;
        updatedAt: string;
        nodes: Array<{
          debateId: string;
          parentDebateId: null | string;
          relationship: null | "follow_up" | "reversal" | "refinement";
          order: number;
          depth: number;
          childDebateIds: Array<string>;
          addedAt: string;
          debate: null | {
            id: string;
            question: string;
            status: "completed" | "pending" | "running" | "paused" | "failed";
            mode: null | "balanced" | "fast" | "thorough";
            createdAt: string;
            recommendation: null | "PROCEED" | "RECONSIDER" | "REJECT" | "DEFER" | "MORE_INFO_NEEDED" | "SPLIT_DECISION";
            confidence: null | number;
            oneLiner: null | string;
          };
        }>;
      };
      meta: object;
    }>;
    addDebate: TRPCMutationProcedure<{
      input: {
        id: string;
        debateId: string;
        parentDebateId: string;
        relationship: "follow_up" | "reversal" | "refinement";
      };
      output: {
        id: string;
        name: string;
        userId: string;
        rootDebateId: string;
        debateCount: number;
        createdAt: string;
        updatedAt: string;
        nodes: Array<{
          debateId: string;
          parentDebateId: null | string;
          relationship: null | "follow_up" | "reversal" | "refinement";
          order: number;
          depth: number;
          childDebateIds: Array<string>;
          addedAt: string;
          debate: null | {
            id: string;
            question: string;
            status: "completed" | "pending" | "running" | "paused" | "failed";
            mode: null | "balanced" | "fast" | "thorough";
            createdAt: string;
            recommendation: null | "PROCEED" | "RECONSIDER" | "REJECT" | "DEFER" | "MORE_INFO_NEEDED" | "SPLIT_DECISION";
            confidence: null | number;
            oneLiner: null | string;
          };
        }>;
      };
      meta: object;
    }>;
    delete: TRPCMutationProcedure<{
      input: {
        id: string;
      };
      output: never;
      meta: object;
    }>;
    context: TRPCQueryProcedure<{
      input: {
        id: string;
      };
      output: {
        chainId: string;
        context: string;
        nodes: number;
        truncated: boolean;
      };
      meta: object;
    }>;
  };
  sharing: {
    share: TRPCMutationProcedure<{
      input: {
        debateId: string;
      };
      output: {
        debateId: string;
        shareUrl: string;
        token: string;
        settings: {
          allowComments: boolean;
          allowFork: boolean;
          showCost: boolean;
          requireSignIn: boolean;
        };
        createdAt: string;
        updatedAt: string;
      };
      meta: object;
    }>;
    updateSettings: TRPCMutationProcedure<{
      input: {
        debateId: string;
        settings: {
          allowComments?: undefined | boolean;
          allowFork?: undefined | boolean;
          showCost?: undefined | boolean;
          requireSignIn?: undefined | boolean;
        };
      };
      output: {
        debateId: string;
        settings: {
          allowComments: boolean;
          allowFork: boolean;
          showCost: boolean;
          requireSignIn: boolean;
        };
        updatedAt: string;
      };
      meta: object;
    }>;
    revoke: TRPCMutationProcedure<{
      input: {
        debateId: string;
      };
      output: {
        debateId: string;
        revoked: true;
      };
      meta: object;
    }>;
    publicDebate: TRPCQueryProcedure<{
      input: {
        token: string;
      };
      output: {
        id: string;
        createdAt: string;
        status: "completed" | "pending" | "running" | "paused" | "failed";
        settings: {
          allowComments: boolean;
          allowFork: boolean;
        };
        mode: null | "balanced" | "fast" | "thorough";
        panel: Array<{
          name: string;
          role: string;
          model: string;
        }>;
        verdict: null | {
          recommendation: "PROCEED" | "RECONSIDER" | "REJECT" | "DEFER" | "MORE_INFO_NEEDED" | "SPLIT_DECISION";
          oneLiner: string;
          confidence: number;
          narrative: string;
          arguments: Array<{
            agent: string;
            stance: string;
            keyPoints: Array<string>;
          }>;
          keyEvidence: Array<{
            claim: string;
            source: string;
            supports: "for" | "against" | "mixed";
            weight: "low" | "medium" | "high";
          }>;
          decisionMatrix: Array<{
            option: string;
            criterion: string;
            score: number;
            rationale: string;
          }>;
          nextSteps: Array<string>;
          revisitTriggers: Array<string>;
          missingAgents: Array<string>;
        };
        isPublic: boolean;
        question: string;
        cost: null | {
          inputTokens: number;
          outputTokens: number;
          estimatedUsd: number;
          credits: number;
          llmCalls: number;
        };
        context: null | string;
        viewCount: number;
        completedAt: null | string;
        events: Array<{
          seq: number;
          data: {
            [key: string]: unknown;
          };
          event: string;
        }>;
        transcript: Array<{
          claimId: string;
          type: "argument" | "rebuttal";
          agent: string;
          round: number;
          targetAgent: null | string;
          content: string;
        }>;
      };
      meta: object;
    }>;
  };
  comments: {
    list: TRPCQueryProcedure<{
      input: {
        id: string;
        cursor?: undefined | string;
        limit?: unknown;
      };
      output: {
        comments: Array<{
          id: string;
          debateId: string;
          authorName: string;
          mine: boolean;
          content: string;
          createdAt: string;
        }>;
        nextCursor: null | string;
      };
      meta: object;
    }>;
    create: TRPCMutationProcedure<{
      input: {
        id: string;
        content: string;
      };
      output: {
        id: string;
        debateId: string;
        authorName: string;
        mine: boolean;
        content: string;
        createdAt: string;
      };
      meta: object;
    }>;
    delete: TRPCMutationProcedure<{
      input: {
        id: string;
        commentId: string;
      };
      output: never;
      meta: object;
    }>;
  };
  notifications: {
    list: TRPCQueryProcedure<{
      input: {
        cursor?: undefined | string;
        limit?: unknown;
      };
      output: {
        notifications: Array<{
          id: string;
          type: "comment" | "fork";
          message: string;
          debateId: null | string;
          actorId: null | string;
          actorName: null | string;
          read: boolean;
          createdAt: string;
        }>;
        unreadCount: number;
        nextCursor: null | string;
      };
      meta: object;
    }>;
    unreadCount: TRPCQueryProcedure<{
      input: {
        [key: string]: never;
      };
      output: {
        unreadCount: number;
      };
      meta: object;
    }>;
    markRead: TRPCMutationProcedure<{
      input: {
        ids?: undefined | Array<string>;
        all?: undefined | true;
      };
      output: {
        updated: number;
        unreadCount: number;
      };
      meta: object;
    }>;
    preferences: TRPCQueryProcedure<{
      input: {
        [key: string]: never;
      };
      output: {
        emailComments: boolean;
        emailForks: boolean;
      };
      meta: object;
    }>;
    updatePreferences: TRPCMutationProcedure<{
      input: {
        emailComments?: undefined | boolean;
        emailForks?: undefined | boolean;
      };
      output: {
        emailComments: boolean;
        emailForks: boolean;
      };
      meta: object;
    }>;
  };
  recommendations: TRPCQueryProcedure<{
    input: {
      limit?: unknown;
    };
    output: {
      recommendations: Array<{
        id: string;
        question: string;
        mode: null | "balanced" | "fast" | "thorough";
        status: string;
        createdAt: string;
        completedAt: null | string;
        recommendation: null | "PROCEED" | "RECONSIDER" | "REJECT" | "DEFER" | "MORE_INFO_NEEDED" | "SPLIT_DECISION";
        oneLiner: null | string;
        confidence: null | number;
        viewCount: number;
        recommendationReason: "Based on your interests" | "Trending on Verdict";
      }>;
    };
    meta: object;
  }>;
  similar: TRPCQueryProcedure<{
    input: {
      q?: undefined | string;
      limit?: unknown;
    };
    output: {
      results: Array<{
        id: string;
        question: string;
        status: string;
        createdAt: string;
        recommendation: null | "PROCEED" | "RECONSIDER" | "REJECT" | "DEFER" | "MORE_INFO_NEEDED" | "SPLIT_DECISION";
        oneLiner: null | string;
        confidence: null | number;
        similarity: number;
      }>;
    };
    meta: object;
  }>;
  search: {
    search: TRPCQueryProcedure<{
      input: {
        q: string;
        type?: undefined | "debates" | "verdicts";
        sort?: undefined | "date" | "relevance" | "popularity";
        page?: unknown;
        limit?: unknown;
        status?: undefined | string;
        mode?: undefined | string;
        dateFrom?: undefined | string;
        dateTo?: undefined | string;
        minConfidence?: unknown;
        hasVerdict?: undefined | "true" | "false";
      };
      output: {
        results: Array<{
          id: string;
          question: string;
          status: "completed" | "pending" | "running" | "paused" | "failed";
          mode: null | "balanced" | "fast" | "thorough";
          createdAt: string;
          completedAt: null | string;
          recommendation: null | "PROCEED" | "RECONSIDER" | "REJECT" | "DEFER" | "MORE_INFO_NEEDED" | "SPLIT_DECISION";
          oneLiner: null | string;
          confidence: null | number;
          relevanceScore: null | number;
        }>;
        total: number;
        totalPages: number;
        page: number;
        limit: number;
      };
      meta: object;
    }>;
    suggestions: TRPCQueryProcedure<{
      input: {
        q?: undefined | string;
      };
      output: {
        suggestions: Array<{
          text: string;
          source: "debate" | "history";
        }>;
      };
      meta: object;
    }>;
    clearHistory: TRPCMutationProcedure<{
      input: void;
      output: never;
      meta: object;
    }>;
  };
  workspaces: {
    create: TRPCMutationProcedure<{
      input: {
        name: string;
        slug: string;
        description?: undefined | null | string;
        settings?: undefined | {
          allowMemberInvites?: undefined | boolean;
          defaultDebateMode?: undefined | "balanced" | "fast" | "thorough";
          requireApprovalForPublicDebates?: undefined | boolean;
        };
      };
      output: {
        id: string;
        name: string;
        slug: string;
        description: null | string;
        ownerId: string;
        settings: {
          allowMemberInvites: boolean;
          defaultDebateMode: "balanced" | "fast" | "thorough";
          requireApprovalForPublicDebates: boolean;
        };
        role: "owner" | "admin" | "member" | "viewer";
        memberCount: number;
        seats: null | number;
        createdAt: string;
        updatedAt: string;
      };
      meta: object;
    }>;
    list: TRPCQueryProcedure<{
      input: void;
      output: {
        workspaces: Array<{
          id: string;
          name: string;
          slug: string;
          description: null | string;
          ownerId: string;
          settings: {
            allowMemberInvites: boolean;
            defaultDebateMode: "balanced" | "fast" | "thorough";
            requireApprovalForPublicDebates: boolean;
          };
          role: "owner" | "admin" | "member" | "viewer";
          memberCount: number;
          seats: null | number;
          createdAt: string;
          updatedAt: string;
        }>;
      };
      meta: object;
    }>;
    get: TRPCQueryProcedure<{
      input: {
        id: string;
      };
      output: {
        id: string;
        name: string;
        slug: string;
        description: null | string;
        ownerId: string;
        settings: {
          allowMemberInvites: boolean;
          defaultDebateMode: "balanced" | "fast" | "thorough";
          requireApprovalForPublicDebates: boolean;
        };
        role: "owner" | "admin" | "member" | "viewer";
        memberCount: number;
        seats: null | number;
        createdAt: string;
        updatedAt: string;
      };
      meta: object;
    }>;
    update: TRPCMutationProcedure<{
      input: {
        id: string;
        name?: undefined | string;
        description?: undefined | null | string;
        settings?: undefined | {
          allowMemberInvites?: undefined | boolean;
          defaultDebateMode?: undefined | "balanced" | "fast" | "thorough";
          requireApprovalForPublicDebates?: undefined | boolean;
        };
      };
      output: {
        id: string;
        name: string;
        slug: string;
        description: null | string;
        ownerId: string;
        settings: {
          allowMemberInvites: boolean;
          defaultDebateMode: "balanced" | "fast" | "thorough";
          requireApprovalForPublicDebates: boolean;
        };
        role: "owner" | "admin" | "member" | "viewer";
        memberCount: number;
        seats: null | number;
        createdAt: string;
        updatedAt: string;
      };
      meta: object;
    }>;
    delete: TRPCMutationProcedure<{
      input: {
        id: string;
      };
      output: never;
      meta: object;
    }>;
    members: TRPCQueryProcedure<{
      input: {
        id: string;
      };
      output: {
        members: Array<{
          userId: string;
          name: string;
          email: string;
          role: "owner" | "admin" | "member" | "viewer";
          joinedAt: string;
        }>;
        seats: null | number;
      };
      meta: object;
    }>;
    invite: TRPCMutationProcedure<{
      input: {
        id: string;
        email: string;
        role: "admin" | "member" | "viewer";
      };
      output: {
        userId: string;
        name: string;
        email: string;
        role: "owner" | "admin" | "member" | "viewer";
        joinedAt: string;
      };
      meta: object;
    }>;
    removeMember: TRPCMutationProcedure<{
      input: {
        id: string;
        userId: string;
      };
      output: never;
      meta: object;
    }>;
    changeRole: TRPCMutationProcedure<{
      input: {
        id: string;
        userId: string;
        role: "admin" | "member" | "viewer";
      };
      output: {
        userId: string;
        name: string;
        email: string;
        role: "owner" | "admin" | "member" | "viewer";
        joinedAt: string;
      };
      meta: object;
    }>;
    debates: TRPCQueryProcedure<{
      input: {
        id: string;
        page?: unknown;
        limit?: unknown;
      };
      output: {
        debates: Array<{
          id: string;
          question: string;
          status: "completed" | "pending" | "running" | "paused" | "failed";
          mode: null | "balanced" | "fast" | "thorough";
          fundingSource: "byok" | "free_tier" | "user_credits";
          isPublic: boolean;
          agentCount: null | number;
          roundCount: null | number;
          createdAt: string;
          completedAt: null | string;
          ownerId: string;
          workspaceId: null | string;
          verdict: null | {
            recommendation: "PROCEED" | "RECONSIDER" | "REJECT" | "DEFER" | "MORE_INFO_NEEDED" | "SPLIT_DECISION";
            confidence: number;
            summary: string;
            agentsUsed: Array<string>;
            totalRounds: number;
          };
          cost: null | {
            inputTokens: number;
            outputTokens: number;
            estimatedUsd: number;
            credits: number;
            llmCalls: number;
          };
        }>;
        page: number;
        limit: number;
        total: number;
        totalPages: number;
      };
      meta: object;
    }>;
  };
  billing: {
    checkoutSession: TRPCMutationProcedure<{
      input: {
        interval: "monthly";
      };
      output: {
        url: string;
      };
      meta: object;
    }>;
    checkoutSessionPro: TRPCMutationProcedure<{
      input: {
        interval: "monthly";
        workspaceId?: undefined | string;
      };
      output: {
        url: string;
      };
      meta: object;
    }>;
    creditCheckout: TRPCMutationProcedure<{
      input: {
        pack: "credits_100" | "credits_500" | "credits_2000";
        workspaceId?: undefined | string;
      };
      output: {
        url: string;
      };
      meta: object;
    }>;
    portalSession: TRPCMutationProcedure<{
      input: void;
      output: {
        url: string;
      };
      meta: object;
    }>;
    balance: TRPCQueryProcedure<{
      input: void;
      output: {
        balance: number;
        plan: "free" | "starter" | "pro" | "byok" | "byok_pro" | "enterprise";
      };
      meta: object;
    }>;
    listInvoices: TRPCQueryProcedure<{
      input: {
        page?: unknown;
        limit?: unknown;
        workspaceId?: undefined | string;
      };
      output: {
        invoices: Array<{
          id: string;
          type: "subscription" | "credit_pack";
          description: string;
          amountCents: number;
          currency: string;
          status: "void" | "paid" | "open" | "uncollectible";
          workspaceId: null | string;
          stripeInvoiceUrl: null | string;
          stripeReceiptUrl: null | string;
          metadata: {
            [key: string]: string | number;
          };
          createdAt: string;
        }>;
        page: number;
        limit: number;
        total: number;
        totalPages: number;
      };
      meta: object;
    }>;
    getInvoice: TRPCQueryProcedure<{
      input: {
        id: string;
      };
      output: {
        id: string;
        type: "subscription" | "credit_pack";
        description: string;
        amountCents: number;
        currency: string;
        status: "void" | "paid" | "open" | "uncollectible";
        workspaceId: null | string;
        stripeInvoiceUrl: null | string;
        stripeReceiptUrl: null | string;
        metadata: {
          [key: string]: string | number;
        };
        createdAt: string;
        stripePaymentIntentId: null | string;
        stripeSessionId: null | string;
        stripeInvoiceId: null | string;
      };
      meta: object;
    }>;
  };
  v1: {
    me: TRPCQueryProcedure<{
      input: void;
      output: {
        id: string;
        name: string;
        email: string;
        plan: "free" | "starter" | "pro" | "byok" | "byok_pro" | "enterprise";
        createdAt: string;
      };
      meta: object;
    }>;
    health: TRPCQueryProcedure<{
      input: void;
      output: {
        status: "ok";
        checks?: undefined | {
          [key: string]: "ok";
        };
      };
      meta: object;
    }>;
    createVerdict: TRPCMutationProcedure<{
      input: {
        question: string;
        mode?: undefined | "balanced" | "fast" | "thorough";
        context?: undefined | string;
        options?: undefined | Array<string>;
        tags?: undefined | Array<string>;
      };
      output: {
        debateId: string;
        streamUrl: string;
        cached: boolean;
        judgeModel?: undefined | string;
      };
      meta: object;
    }>;
    listVerdicts: TRPCQueryProcedure<{
      input: {
        page?: unknown;
        limit?: unknown;
        status?: undefined | "completed" | "pending" | "running" | "failed";
        mode?: undefined | "balanced" | "fast" | "thorough";
        sortBy?: undefined | "createdAt" | "completedAt";
        sortOrder?: undefined | "asc" | "desc";
        search?: undefined | string;
      };
      output: {
        debates: Array<{
          id: string;
          question: string;
          status: "completed" | "pending" | "running" | "paused" | "failed";
          mode: null | "balanced" | "fast" | "thorough";
          fundingSource: "byok" | "free_tier" | "user_credits";
          isPublic: boolean;
          agentCount: null | number;
          roundCount: null | number;
          createdAt: string;
          completedAt: null | string;
          ownerId: string;
          workspaceId: null | string;
          verdict: null | {
            recommendation: "PROCEED" | "RECONSIDER" | "REJECT" | "DEFER" | "MORE_INFO_NEEDED" | "SPLIT_DECISION";
            confidence: number;
            summary: string;
            agentsUsed: Array<string>;
            totalRounds: number;
          };
          cost: null | {
            inputTokens: number;
            outputTokens: number;
            estimatedUsd: number;
            credits: number;
            llmCalls: number;
          };
        }>;
        page: number;
        limit: number;
        total: number;
        totalPages: number;
      };
      meta: object;
    }>;
    getVerdict: TRPCQueryProcedure<{
      input: {
        id: string;
      };
      output: {
        debate: {
          id: string;
          question: string;
          status: "completed" | "pending" | "running" | "paused" | "failed";
          mode: null | "balanced" | "fast" | "thorough";
          fundingSource: "byok" | "free_tier" | "user_credits";
          isPublic: boolean;
          agentCount: null | number;
          roundCount: null | number;
          createdAt: string;
          completedAt: null | string;
          ownerId: string;
          workspaceId: null | string;
          verdict: null | {
            recommendation: "PROCEED" | "RECONSIDER" | "REJECT" | "DEFER" | "MORE_INFO_NEEDED" | "SPLIT_DECISION";
            confidence: number;
            summary: string;
            agentsUsed: Array<string>;
            totalRounds: number;
          };
          cost: null | {
            inputTokens: number;
            outputTokens: number;
            estimatedUsd: number;
            credits: number;
            llmCalls: number;
          };
        };
        verdict: null | {
          recommendation: "PROCEED" | "RECONSIDER" | "REJECT" | "DEFER" | "MORE_INFO_NEEDED" | "SPLIT_DECISION";
          oneLiner: string;
          narrative: string;
          arguments: Array<{
            agent: string;
            stance: string;
            keyPoints: Array<string>;
          }>;
          keyEvidence: Array<{
            claim: string;
            source: string;
            supports: "for" | "against" | "mixed";
            weight: "low" | "medium" | "high";
          }>;
          decisionMatrix: Array<{
            option: string;
            criterion: string;
            score: number;
            rationale: string;
          }>;
          nextSteps: Array<string>;
          revisitTriggers: Array<string>;
          missingAgents: Array<string>;
          confidence: number;
        };
      };
      meta: object;
    }>;
    deleteVerdict: TRPCMutationProcedure<{
      input: {
        id: string;
      };
      output: {
        id: string;
        deleted: true;
      };
      meta: object;
    }>;
    usage: TRPCQueryProcedure<{
      input: void;
      output: {
        keyId: string;
        period: string;
        totalRequests: number;
        byEndpoint: {
          [key: string]: number;
        };
        rateLimit: number;
      };
      meta: object;
    }>;
  };
  scheduledDebates: {
    create: TRPCMutationProcedure<{
      input: {
        question: string;
        frequency: "daily" | "weekly" | "monthly";
        dayOfWeek?: undefined | number;
        dayOfMonth?: undefined | number;
        timeOfDay?: undefined | string;
        timezone?: undefined | string;
        mode?: undefined | "balanced" | "fast" | "thorough";
        context?: undefined | string;
        maxRuns?: undefined | number;
      };
      output: {
        id: string;
        userId: string;
        question: string;
        mode: null | "balanced" | "fast" | "thorough";
        context: null | string;
        frequency: "daily" | "weekly" | "monthly";
        dayOfWeek: null | number;
        dayOfMonth: null | number;
        timeOfDay: string;
        timezone: string;
        active: boolean;
        maxRuns: null | number;
        runCount: number;
        nextRunAt: string;
        lastRunAt: null | string;
        lastFailure: null | {
          code: "SERVICE_UNAVAILABLE" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "VALIDATION_ERROR" | "MISSING_QUERY" | "NO_PAYMENT_CUSTOMER" | "API_KEY_REQUIRED" | "INSUFFICIENT_CREDITS" | "BYOK_REQUIRED" | "SEAT_LIMIT_REACHED" | "USER_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "DEBATE_NOT_RUNNING" | "DEBATE_NOT_FAILED" | "DEBATE_ALREADY_RUNNING" | "POLL_CLOSED" | "REQUEST_TIMEOUT" | "MONTHLY_LIMIT_REACHED" | "CONCURRENT_LIMIT" | "QUOTA_EXCEEDED" | "RATE_LIMITED" | "REQUEST_HEADER_FIELDS_TOO_LARGE" | "INTERNAL_ERROR" | "STREAKS_ERROR" | "SIMILAR_SEARCH_FAILED" | "RECOMMENDATIONS_FAILED" | "PROVIDER_ERROR" | "BILLING_NOT_CONFIGURED" | "PROVIDER_TIMEOUT";
          message: string;
          at: string;
        };
        createdAt: string;
        updatedAt: string;
      };
      meta: object;
    }>;
    list: TRPCQueryProcedure<{
      input: {
        page?: unknown;
        limit?: unknown;
        active?: undefined | "true" | "false";
      };
      output: {
        schedules: Array<{
          id: string;
          userId: string;
          question: string;
          mode: null | "balanced" | "fast" | "thorough";
          context: null | string;
          frequency: "daily" | "weekly" | "monthly";
          dayOfWeek: null | number;
          dayOfMonth: null | number;
          timeOfDay: string;
          timezone: string;
          active: boolean;
          maxRuns: null | number;
          runCount: number;
          nextRunAt: string;
          lastRunAt: null | string;
          lastFailure: null | {
            code: "SERVICE_UNAVAILABLE" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "VALIDATION_ERROR" | "MISSING_QUERY" | "NO_PAYMENT_CUSTOMER" | "API_KEY_REQUIRED" | "INSUFFICIENT_CREDITS" | "BYOK_REQUIRED" | "SEAT_LIMIT_REACHED" | "USER_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "DEBATE_NOT_RUNNING" | "DEBATE_NOT_FAILED" | "DEBATE_ALREADY_RUNNING" | "POLL_CLOSED" | "REQUEST_TIMEOUT" | "MONTHLY_LIMIT_REACHED" | "CONCURRENT_LIMIT" | "QUOTA_EXCEEDED" | "RATE_LIMITED" | "REQUEST_HEADER_FIELDS_TOO_LARGE" | "INTERNAL_ERROR" | "STREAKS_ERROR" | "SIMILAR_SEARCH_FAILED" | "RECOMMENDATIONS_FAILED" | "PROVIDER_ERROR" | "BILLING_NOT_CONFIGURED" | "PROVIDER_TIMEOUT";
            message: string;
            at: string;
          };
          createdAt: string;
          updatedAt: string;
        }>;
        page: number;
        limit: number;
        total: number;
        totalPages: number;
      };
      meta: object;
    }>;
    get: TRPCQueryProcedure<{
      input: {
        id: string;
      };
      output: {
        id: string;
        userId: string;
        question: string;
        mode: null | "balanced" | "fast" | "thorough";
        context: null | string;
        frequency: "daily" | "weekly" | "monthly";
        dayOfWeek: null | number;
        dayOfMonth: null | number;
        timeOfDay: string;
        timezone: string;
        active: boolean;
        maxRuns: null | number;
        runCount: number;
        nextRunAt: string;
        lastRunAt: null | string;
        lastFailure: null | {
          code: "SERVICE_UNAVAILABLE" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "VALIDATION_ERROR" | "MISSING_QUERY" | "NO_PAYMENT_CUSTOMER" | "API_KEY_REQUIRED" | "INSUFFICIENT_CREDITS" | "BYOK_REQUIRED" | "SEAT_LIMIT_REACHED" | "USER_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "DEBATE_NOT_RUNNING" | "DEBATE_NOT_FAILED" | "DEBATE_ALREADY_RUNNING" | "POLL_CLOSED" | "REQUEST_TIMEOUT" | "MONTHLY_LIMIT_REACHED" | "CONCURRENT_LIMIT" | "QUOTA_EXCEEDED" | "RATE_LIMITED" | "REQUEST_HEADER_FIELDS_TOO_LARGE" | "INTERNAL_ERROR" | "STREAKS_ERROR" | "SIMILAR_SEARCH_FAILED" | "RECOMMENDATIONS_FAILED" | "PROVIDER_ERROR" | "BILLING_NOT_CONFIGURED" | "PROVIDER_TIMEOUT";
          message: string;
          at: string;
        };
        createdAt: string;
        updatedAt: string;
      };
      meta: object;
    }>;
    update: TRPCMutationProcedure<{
      input: {
        id: string;
        question?: undefined | string;
        mode?: undefined | null | "balanced" | "fast" | "thorough";
        context?: undefined | null | string;
        frequency?: undefined | "daily" | "weekly" | "monthly";
        dayOfWeek?: undefined | null | number;
        dayOfMonth?: undefined | null | number;
        timeOfDay?: undefined | string;
        timezone?: undefined | string;
        active?: undefined | boolean;
        maxRuns?: undefined | null | number;
      };
      output: {
        id: string;
        userId: string;
        question: string;
        mode: null | "balanced" | "fast" | "thorough";
        context: null | string;
        frequency: "daily" | "weekly" | "monthly";
        dayOfWeek: null | number;
        dayOfMonth: null | number;
        timeOfDay: string;
        timezone: string;
        active: boolean;
        maxRuns: null | number;
        runCount: number;
        nextRunAt: string;
        lastRunAt: null | string;
        lastFailure: null | {
          code: "SERVICE_UNAVAILABLE" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "VALIDATION_ERROR" | "MISSING_QUERY" | "NO_PAYMENT_CUSTOMER" | "API_KEY_REQUIRED" | "INSUFFICIENT_CREDITS" | "BYOK_REQUIRED" | "SEAT_LIMIT_REACHED" | "USER_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "DEBATE_NOT_RUNNING" | "DEBATE_NOT_FAILED" | "DEBATE_ALREADY_RUNNING" | "POLL_CLOSED" | "REQUEST_TIMEOUT" | "MONTHLY_LIMIT_REACHED" | "CONCURRENT_LIMIT" | "QUOTA_EXCEEDED" | "RATE_LIMITED" | "REQUEST_HEADER_FIELDS_TOO_LARGE" | "INTERNAL_ERROR" | "STREAKS_ERROR" | "SIMILAR_SEARCH_FAILED" | "RECOMMENDATIONS_FAILED" | "PROVIDER_ERROR" | "BILLING_NOT_CONFIGURED" | "PROVIDER_TIMEOUT";
          message: string;
          at: string;
        };
        createdAt: string;
        updatedAt: string;
      };
      meta: object;
    }>;
    delete: TRPCMutationProcedure<{
      input: {
        id: string;
      };
      output: never;
      meta: object;
    }>;
  };
  webhooks: {
    list: TRPCQueryProcedure<{
      input: void;
      output: {
        webhooks: Array<{
          id: string;
          url: string;
          events: Array<"debate.completed" | "debate.failed" | "debate.created" | "outcome.recorded" | "outcome.updated" | "chain.created" | "chain.updated">;
          active: boolean;
          description: null | string;
          createdAt: string;
          updatedAt: string;
        }>;
        supportedEvents: Array<"debate.completed" | "debate.failed" | "debate.created" | "outcome.recorded" | "outcome.updated" | "chain.created" | "chain.updated">;
      };
      meta: object;
    }>;
    create: TRPCMutationProcedure<{
      input: {
        url: string;
        events: Array<"debate.completed" | "debate.failed" | "debate.created" | "outcome.recorded" | "outcome.updated" | "chain.created" | "chain.updated">;
        description?: undefined | null | string;
        active?: undefined | boolean;
      };
      output: {
        id: string;
        url: string;
        events: Array<"debate.completed" | "debate.failed" | "debate.created" | "outcome.recorded" | "outcome.updated" | "chain.created" | "chain.updated">;
        active: boolean;
        description: null | string;
        createdAt: string;
        updatedAt: string;
        secret: string;
      };
      meta: object;
    }>;
    update: TRPCMutationProcedure<{
      input: {
        id: string;
        url?: undefined | string;
        events?: undefined | Array<"debate.completed" | "debate.failed" | "debate.created" | "outcome.recorded" | "outcome.updated" | "chain.created" | "chain.updated">;
        active?: undefined | boolean;
        description?: undefined | null | string;
      };
      output: {
        id: string;
        url: string;
        events: Array<"debate.completed" | "debate.failed" | "debate.created" | "outcome.recorded" | "outcome.updated" | "chain.created" | "chain.updated">;
        active: boolean;
        description: null | string;
        createdAt: string;
        updatedAt: string;
      };
      meta: object;
    }>;
    delete: TRPCMutationProcedure<{
      input: {
        id: string;
      };
      output: never;
      meta: object;
    }>;
    deliveries: TRPCQueryProcedure<{
      input: {
        id: string;
        limit?: unknown;
        offset?: unknown;
      };
      output: {
        deliveries: Array<{
          deliveryId: string;
          event: "debate.completed" | "debate.failed" | "debate.created" | "outcome.recorded" | "outcome.updated" | "chain.created" | "chain.updated" | "ping";
          status: "pending" | "failed" | "delivering" | "succeeded";
          attempts: number;
          nextAttemptAt: null | string;
          lastStatusCode: null | number;
          redeliveryOf: null | string;
          payload: string;
          createdAt: string;
          attemptLog: Array<{
            attempt: number;
            at: string;
            statusCode: null | number;
            durationMs: number;
            responseBody: null | string;
            error: null | string;
          }>;
        }>;
        total: number;
        limit: number;
        offset: number;
      };
      meta: object;
    }>;
    redeliver: TRPCMutationProcedure<{
      input: {
        id: string;
        deliveryId: string;
      };
      output: {
        deliveryId: string;
        status: "pending" | "failed" | "delivering" | "succeeded";
      };
      meta: object;
    }>;
    test: TRPCMutationProcedure<{
      input: {
        id: string;
      };
      output: {
        deliveryId: string;
        status: "pending" | "failed" | "delivering" | "succeeded";
      };
      meta: object;
    }>;
  };
  attachments: {
    list: TRPCQueryProcedure<{
      input: {
        id: string;
      };
      output: {
        attachments: Array<{
          id: string;
          debateId: string;
          kind: "file" | "url";
          filename: string;
          contentType: string;
          size: number;
          status: "pending" | "failed" | "ready";
          failureReason: null | string;
          url: null | string;
          textLength: null | number;
          createdAt: string;
        }>;
      };
      meta: object;
    }>;
    delete: TRPCMutationProcedure<{
      input: {
        id: string;
        attachmentId: string;
      };
      output: never;
      meta: object;
    }>;
    fetchUrl: TRPCMutationProcedure<{
      input: {
        debateId: string;
        url: string;
      };
      output: {
        id: string;
        debateId: string;
        kind: "file" | "url";
        filename: string;
        contentType: string;
        size: number;
        status: "pending" | "failed" | "ready";
        failureReason: null | string;
        url: null | string;
        textLength: null | number;
        createdAt: string;
      };
      meta: object;
    }>;
  };
};

export type AppRouter = TRPCBuiltRouter<
  { ctx: object; meta: object; errorShape: AppRouterErrorShape; transformer: false },
  AppRouterRecord
>;

/** The `data` of each debate stream event, by event name (confidence in whole-number percent). */
export type DebateStreamEventData = {
  verdict: {
    recommendation: "PROCEED" | "RECONSIDER" | "REJECT" | "DEFER" | "MORE_INFO_NEEDED" | "SPLIT_DECISION";
    oneLiner: string;
    reasoning: string;
    confidence: number;
  };
  "debate.started": {
    debateId: string;
    mode: "balanced" | "fast" | "thorough";
    panel: Array<{
      name: string;
      role: string;
      model: string;
    }>;
    rounds: number;
  };
  "round.started": {
    round: number;
    injected: Array<string>;
  };
  "agent.thinking": {
    agent: string;
    round: number;
  };
  argument: {
    agent: string;
    round: number;
    claimId: string;
    content: string;
    model: string;
  };
  rebuttal: {
    agent: string;
    round: number;
    claimId: string;
    content: string;
    model: string;
    targetAgent: string;
  };
  "agent.failed": {
    agent: string;
    round: number;
    reason: string;
  };
  "debate.paused": {
    afterRound: number;
  };
  "debate.resumed": {
    [key: string]: never;
  };
  "content.injected": {
    content: string;
    forRound: number;
  };
  "synthesis.started": {
    skipped: boolean;
  };
  "debate.completed": {
    debateId: string;
    status: "completed";
  };
  "debate.failed": {
    debateId: string;
    error: string;
    code: string;
  };
};

/** A notification of the notification stream. */
export type NotificationData = {
  id: string;
  type: "comment" | "fork";
  message: string;
  debateId: null | string;
  actorId: null | string;
  actorName: null | string;
  read: boolean;
  createdAt: string;
};

// Keeps the import used when the router has no subscription.
export type _Subscription = TRPCSubscriptionProcedure<{ input: unknown; output: unknown; meta: object }>;

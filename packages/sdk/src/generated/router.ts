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
  code: -32001 | -32002 | -32003 | -32004 | -32005 | -32008 | -32009 | -32012 | -32013 | -32015 | -32022 | -32028 | -32029 | -32099 | -32600 | -32603 | -32700;
  message: string;
  data: {
    code: "BAD_GATEWAY" | "BAD_REQUEST" | "CLIENT_CLOSED_REQUEST" | "CONFLICT" | "FORBIDDEN" | "GATEWAY_TIMEOUT" | "INTERNAL_SERVER_ERROR" | "METHOD_NOT_SUPPORTED" | "NOT_FOUND" | "NOT_IMPLEMENTED" | "PARSE_ERROR" | "PAYLOAD_TOO_LARGE" | "PAYMENT_REQUIRED" | "PRECONDITION_FAILED" | "PRECONDITION_REQUIRED" | "SERVICE_UNAVAILABLE" | "TIMEOUT" | "TOO_MANY_REQUESTS" | "UNAUTHORIZED" | "UNPROCESSABLE_CONTENT" | "UNSUPPORTED_MEDIA_TYPE";
    httpStatus: number;
    path: undefined | string;
    appCode: "API_KEY_REQUIRED" | "BILLING_NOT_CONFIGURED" | "BYOK_REQUIRED" | "CONCURRENT_LIMIT" | "CONFLICT" | "DEBATE_ALREADY_RUNNING" | "DEBATE_NOT_FAILED" | "DEBATE_NOT_RUNNING" | "FORBIDDEN" | "INSUFFICIENT_CREDITS" | "INTERNAL_ERROR" | "METHOD_NOT_ALLOWED" | "MISSING_QUERY" | "MONTHLY_LIMIT_REACHED" | "NOT_FOUND" | "NO_PAYMENT_CUSTOMER" | "PAYLOAD_TOO_LARGE" | "POLL_CLOSED" | "PROVIDER_ERROR" | "PROVIDER_TIMEOUT" | "QUOTA_EXCEEDED" | "RATE_LIMITED" | "RECOMMENDATIONS_FAILED" | "REQUEST_HEADER_FIELDS_TOO_LARGE" | "REQUEST_TIMEOUT" | "SEAT_LIMIT_REACHED" | "SERVICE_UNAVAILABLE" | "SIMILAR_SEARCH_FAILED" | "STREAKS_ERROR" | "UNAUTHORIZED" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "VALIDATION_ERROR";
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
          plan: "byok" | "byok_pro" | "enterprise" | "free" | "pro" | "starter";
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
          plan: "byok" | "byok_pro" | "enterprise" | "free" | "pro" | "starter";
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
          plan: "byok" | "byok_pro" | "enterprise" | "free" | "pro" | "starter";
          credits: number;
          createdAt: string;
        };
        expiresAt: string;
      };
      meta: object;
    }>;
    state: TRPCQueryProcedure<{
      input: void;
      output: {
        signedIn: false;
      } | {
        user: {
          id: string;
          name: string;
          email: string;
          plan: "byok" | "byok_pro" | "enterprise" | "free" | "pro" | "starter";
          credits: number;
          createdAt: string;
        };
        expiresAt: string;
        signedIn: true;
      };
      meta: object;
    }>;
  };
  keys: {
    create: TRPCMutationProcedure<{
      input: {
        name: string;
        config?: undefined | null | {
          preset?: undefined | null | "balanced" | "custom" | "economy" | "hackathon" | "local";
          routingOverrides?: undefined | null | {
            classifier?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
            controversy_scorer?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
            debater?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
            fact_checker?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
            mid_debate_analyst?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
            orchestrator?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
            search_planner?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
            synthesizer?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
          };
          allowedProviders?: undefined | null | Array<"anthropic" | "google" | "ollama" | "openai" | "openrouter">;
          rateLimit?: undefined | null | number;
          description?: undefined | null | string;
        };
      };
      output: {
        id: string;
        name: string;
        keyPrefix: string;
        config: null | {
          preset: null | "balanced" | "custom" | "economy" | "hackathon" | "local";
          routingOverrides: null | {
            classifier?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
            controversy_scorer?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
            debater?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
            fact_checker?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
            mid_debate_analyst?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
            orchestrator?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
            search_planner?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
            synthesizer?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
          };
          allowedProviders: null | Array<"anthropic" | "google" | "ollama" | "openai" | "openrouter">;
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
            preset: null | "balanced" | "custom" | "economy" | "hackathon" | "local";
            routingOverrides: null | {
              classifier?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
              controversy_scorer?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
              debater?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
              fact_checker?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
              mid_debate_analyst?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
              orchestrator?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
              search_planner?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
              synthesizer?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
            };
            allowedProviders: null | Array<"anthropic" | "google" | "ollama" | "openai" | "openrouter">;
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
          preset?: undefined | null | "balanced" | "custom" | "economy" | "hackathon" | "local";
          routingOverrides?: undefined | null | {
            classifier?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
            controversy_scorer?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
            debater?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
            fact_checker?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
            mid_debate_analyst?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
            orchestrator?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
            search_planner?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
            synthesizer?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
          };
          allowedProviders?: undefined | null | Array<"anthropic" | "google" | "ollama" | "openai" | "openrouter">;
          rateLimit?: undefined | null | number;
          description?: undefined | null | string;
        };
      };
      output: {
        id: string;
        name: string;
        keyPrefix: string;
        config: null | {
          preset: null | "balanced" | "custom" | "economy" | "hackathon" | "local";
          routingOverrides: null | {
            classifier?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
            controversy_scorer?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
            debater?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
            fact_checker?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
            mid_debate_analyst?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
            orchestrator?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
            search_planner?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
            synthesizer?: undefined | null | "haiku" | "local" | "opus" | "sonnet";
          };
          allowedProviders: null | Array<"anthropic" | "google" | "ollama" | "openai" | "openrouter">;
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
        stopWhenConverged?: undefined | boolean;
        convergenceThreshold?: undefined | number;
        agentCount?: undefined | number;
        maxRounds?: undefined | number;
        skipCache?: undefined | boolean;
        question: string;
        mode?: undefined | "balanced" | "fast" | "thorough";
        context?: undefined | string;
        enableSearch?: undefined | boolean;
        attachmentIds?: undefined | Array<string>;
        workspaceId?: undefined | string;
        preset?: undefined | "balanced" | "deepseek" | "economy" | "groq" | "hackathon" | "mixed";
      };
      output: {
        debateId: string;
        streamUrl: string;
        judgeModel?: undefined | string;
        cached: boolean;
      };
      meta: object;
    }>;
    estimate: TRPCMutationProcedure<{
      input: {
        stopWhenConverged?: undefined | boolean;
        convergenceThreshold?: undefined | number;
        agentCount?: undefined | number;
        maxRounds?: undefined | number;
        skipCache?: undefined | boolean;
        question: string;
        mode?: undefined | "balanced" | "fast" | "thorough";
        context?: undefined | string;
        enableSearch?: undefined | boolean;
        attachmentIds?: undefined | Array<string>;
        workspaceId?: undefined | string;
        preset?: undefined | "balanced" | "deepseek" | "economy" | "groq" | "hackathon" | "mixed";
      };
      output: {
        mode: "balanced" | "fast" | "thorough";
        agents: number;
        rounds: number;
        credits: number;
        charge: number;
        fundingSource: null | "byok" | "free_tier" | "user_credits";
        refusal: null | {
          code: string;
          message: string;
        };
        cached: boolean;
        simulated: boolean;
        models: Array<{
          provider: string;
          model: string;
          roles: Array<"classifier" | "debater" | "judge">;
          calls: {
            low: number;
            expected: number;
            high: number;
          };
          inputTokens: {
            low: number;
            expected: number;
            high: number;
          };
          outputTokens: {
            low: number;
            expected: number;
            high: number;
          };
          usd: {
            low: number;
            expected: number;
            high: number;
          };
          priced: boolean;
        }>;
        inputTokens: {
          low: number;
          expected: number;
          high: number;
        };
        outputTokens: {
          low: number;
          expected: number;
          high: number;
        };
        usd: {
          low: number;
          expected: number;
          high: number;
        };
        note: string;
      };
      meta: object;
    }>;
    list: TRPCQueryProcedure<{
      input: {
        page?: unknown;
        limit?: unknown;
        status?: undefined | "completed" | "failed" | "paused" | "pending" | "running";
        sortBy?: undefined | "completedAt" | "createdAt";
        sortOrder?: undefined | "asc" | "desc";
        workspaceId?: undefined | string;
      };
      output: {
        debates: Array<{
          id: string;
          question: string;
          status: "completed" | "failed" | "paused" | "pending" | "running";
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
            recommendation: "DEFER" | "MORE_INFO_NEEDED" | "PROCEED" | "RECONSIDER" | "REJECT" | "SPLIT_DECISION";
            confidence: number;
            calibratedConfidence?: undefined | number;
            calibration?: undefined | {
              method: "platt-shrinkage";
              basedOn: number;
              scope: "domain" | "owner";
            };
            summary: string;
            agentsUsed: Array<string>;
            totalRounds: number;
            convergence?: undefined | Array<{
              round: number;
              score: number;
            }>;
            stoppedEarly?: undefined | {
              afterRound: number;
              plannedRounds: number;
              convergence: number;
              threshold: number;
            };
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
        status: "completed" | "failed" | "paused" | "pending" | "running";
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
          recommendation: "DEFER" | "MORE_INFO_NEEDED" | "PROCEED" | "RECONSIDER" | "REJECT" | "SPLIT_DECISION";
          confidence: number;
          calibratedConfidence?: undefined | number;
          calibration?: undefined | {
            method: "platt-shrinkage";
            basedOn: number;
            scope: "domain" | "owner";
          };
          summary: string;
          agentsUsed: Array<string>;
          totalRounds: number;
          convergence?: undefined | Array<{
            round: number;
            score: number;
          }>;
          stoppedEarly?: undefined | {
            afterRound: number;
            plannedRounds: number;
            convergence: number;
            threshold: number;
          };
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
          status: "completed" | "failed" | "paused" | "pending" | "running";
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
            recommendation: "DEFER" | "MORE_INFO_NEEDED" | "PROCEED" | "RECONSIDER" | "REJECT" | "SPLIT_DECISION";
            confidence: number;
            calibratedConfidence?: undefined | number;
            calibration?: undefined | {
              method: "platt-shrinkage";
              basedOn: number;
              scope: "domain" | "owner";
            };
            summary: string;
            agentsUsed: Array<string>;
            totalRounds: number;
            convergence?: undefined | Array<{
              round: number;
              score: number;
            }>;
            stoppedEarly?: undefined | {
              afterRound: number;
              plannedRounds: number;
              convergence: number;
              threshold: number;
            };
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
          confidence: number;
          calibratedConfidence?: undefined | number;
          recommendation: "DEFER" | "MORE_INFO_NEEDED" | "PROCEED" | "RECONSIDER" | "REJECT" | "SPLIT_DECISION";
          oneLiner: string;
          calibration?: undefined | {
            method: "platt-shrinkage";
            basedOn: number;
            scope: "domain" | "owner";
          };
          narrative: string;
          arguments: Array<{
            agent: string;
            stance: string;
            keyPoints: Array<string>;
          }>;
          keyEvidence: Array<{
            claim: string;
            source: string;
            supports: "against" | "for" | "mixed";
            weight: "high" | "low" | "medium";
          } | {
            evidenceId: string;
            source: {
              kind: "attachment" | "context" | "page";
              attachmentId?: undefined | string;
              url?: undefined | string;
              title: string;
            };
            quote: string;
            offset: number;
            supports: Array<string>;
            verified: boolean;
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
          convergence?: undefined | Array<{
            round: number;
            score: number;
          }>;
          stoppedEarly?: undefined | {
            afterRound: number;
            plannedRounds: number;
            convergence: number;
            threshold: number;
          };
          evidence?: undefined | "off" | "on";
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
        type: "inject" | "pause" | "resume" | "skip";
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
        chart: {
          id: string;
          initial: null | string;
          events: Array<string>;
          states: Array<{
            path: string;
            type: "atomic" | "compound" | "final" | "history" | "parallel";
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
        history: Array<{
          at: string;
          event: string;
          state: string;
          node?: undefined | string;
        }>;
        attempt?: undefined | number;
        events?: undefined | Array<{
          seq: number;
          type: string;
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
        judgeModel?: undefined | string;
        cached: boolean;
      };
      meta: object;
    }>;
    analytics: TRPCQueryProcedure<{
      input: {
        id: string;
      };
      output: {
        debateId: string;
        status: "completed" | "failed" | "paused" | "pending" | "running";
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
    argumentGraph: TRPCQueryProcedure<{
      input: {
        id: string;
      };
      output: {
        debateId: string;
        status: "completed" | "failed" | "paused" | "pending" | "running";
        attempt: number;
        claims: Array<{
          claimId: string;
          agent: string;
          round: number;
          kind: "argument" | "rebuttal";
          targetAgent: null | string;
          content: string;
          weight: {
            agree: number;
            disagree: number;
            net: number;
          };
        }>;
        edges: Array<{
          from: string;
          to: string;
          kind: "rebuts" | "supports";
        }>;
      };
      meta: object;
    }>;
    evidence: TRPCQueryProcedure<{
      input: {
        id: string;
      };
      output: {
        debateId: string;
        status: "completed" | "failed" | "paused" | "pending" | "running";
        attempt: number;
        evidence: "off" | "on";
        passages: Array<{
          evidenceId: string;
          source: {
            kind: "attachment" | "context" | "page";
            attachmentId?: undefined | string;
            url?: undefined | string;
            title: string;
          };
          text: string;
          start: number;
          end: number;
          citations: Array<{
            claimId: string;
            agent: string;
            round: number;
            quote: null | string;
            verified: boolean;
          }>;
          supports: Array<string>;
          undercuts: Array<string>;
        }>;
      };
      meta: object;
    }>;
    cost: TRPCQueryProcedure<{
      input: {
        id: string;
      };
      output: {
        debateId: string;
        attempt: number;
        status: string;
        calls: Array<{
          kind: "classifier" | "judge" | "turn";
          round: null | number;
          agent: null | string;
          model: string;
          inputTokens: number;
          outputTokens: number;
          costUsd: null | number;
        }>;
        byModel: Array<{
          provider: string;
          model: string;
          calls: number;
          inputTokens: number;
          outputTokens: number;
          costUsd: number;
        }>;
        inputTokens: number;
        outputTokens: number;
        totalUsd: number;
        credits: null | number;
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
    stream: TRPCSubscriptionProcedure<{
      input: {
        id: string;
        lastEventId?: undefined | null | string;
      };
      output: AsyncIterable<{
        id: string;
        data: {
          type: "agent.failed";
          data: {
            agent: string;
            round: number;
            reason: string;
          };
        } | {
          type: "agent.thinking";
          data: {
            agent: string;
            round: number;
          };
        } | {
          type: "argument";
          data: {
            agent: string;
            round: number;
            claimId: string;
            content: string;
            model: string;
            position?: undefined | null | {
              recommendation?: undefined | "DEFER" | "MORE_INFO_NEEDED" | "PROCEED" | "RECONSIDER" | "REJECT" | "SPLIT_DECISION";
              stance?: undefined | "against" | "for" | "mixed";
              confidence?: undefined | number;
              ranking?: undefined | Array<string>;
            };
            citations?: undefined | Array<{
              evidenceId: string;
              quote: null | string;
              verified: boolean;
            }>;
          };
        } | {
          type: "content.injected";
          data: {
            content: string;
            forRound: number;
          };
        } | {
          type: "debate.completed";
          data: {
            debateId: string;
            status: "completed";
          };
        } | {
          type: "debate.failed";
          data: {
            debateId: string;
            error: string;
            code: string;
          };
        } | {
          type: "debate.paused";
          data: {
            afterRound: number;
          };
        } | {
          type: "debate.resumed";
          data: {
            [key: string]: never;
          };
        } | {
          type: "debate.started";
          data: {
            debateId: string;
            mode: "balanced" | "fast" | "thorough";
            panel: Array<{
              name: string;
              role: string;
              model: string;
            }>;
            rounds: number;
          };
        } | {
          type: "rebuttal";
          data: {
            agent: string;
            round: number;
            claimId: string;
            content: string;
            model: string;
            targetAgent: string;
            position?: undefined | null | {
              recommendation?: undefined | "DEFER" | "MORE_INFO_NEEDED" | "PROCEED" | "RECONSIDER" | "REJECT" | "SPLIT_DECISION";
              stance?: undefined | "against" | "for" | "mixed";
              confidence?: undefined | number;
              ranking?: undefined | Array<string>;
            };
            citations?: undefined | Array<{
              evidenceId: string;
              quote: null | string;
              verified: boolean;
            }>;
          };
        } | {
          type: "round.converged";
          data: {
            round: number;
            score: number;
            threshold: null | number;
            stopping: boolean;
          };
        } | {
          type: "round.started";
          data: {
            round: number;
            injected: Array<string>;
          };
        } | {
          type: "synthesis.started";
          data: {
            skipped: boolean;
          };
        } | {
          type: "verdict";
          data: {
            recommendation: "DEFER" | "MORE_INFO_NEEDED" | "PROCEED" | "RECONSIDER" | "REJECT" | "SPLIT_DECISION";
            oneLiner: string;
            calibration?: undefined | {
              method: "platt-shrinkage";
              basedOn: number;
              scope: "domain" | "owner";
            };
            reasoning: string;
            confidence: number;
            calibratedConfidence?: undefined | number;
          };
        };
      }>;
      meta: object;
    }>;
  };
  outcomes: {
    record: TRPCMutationProcedure<{
      input: {
        id: string;
        outcomeStatus: "correct" | "partially_correct" | "too_early" | "wrong";
        outcomeNotes?: undefined | string;
        satisfactionScore?: undefined | number;
      };
      output: {
        debateId: string;
        question: string;
        domain: "business" | "education" | "finance" | "health" | "legal" | "other" | "personal" | "technology";
        confidence: number;
        recommendation: string;
        outcomeStatus: "correct" | "partially_correct" | "pending" | "skipped" | "too_early" | "wrong";
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
        domain: "business" | "education" | "finance" | "health" | "legal" | "other" | "personal" | "technology";
        confidence: number;
        recommendation: string;
        outcomeStatus: "correct" | "partially_correct" | "pending" | "skipped" | "too_early" | "wrong";
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
        domain: "business" | "education" | "finance" | "health" | "legal" | "other" | "personal" | "technology";
        confidence: number;
        recommendation: string;
        outcomeStatus: "correct" | "partially_correct" | "pending" | "skipped" | "too_early" | "wrong";
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
        domain: "business" | "education" | "finance" | "health" | "legal" | "other" | "personal" | "technology";
        confidence: number;
        recommendation: string;
        outcomeStatus: "correct" | "partially_correct" | "pending" | "skipped" | "too_early" | "wrong";
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
          domain: "business" | "education" | "finance" | "health" | "legal" | "other" | "personal" | "technology";
          confidence: number;
          recommendation: string;
          outcomeStatus: "correct" | "partially_correct" | "pending" | "skipped" | "too_early" | "wrong";
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
        domain?: undefined | "business" | "education" | "finance" | "health" | "legal" | "other" | "personal" | "technology";
      };
      output: {
        outcomes: Array<{
          debateId: string;
          question: string;
          domain: "business" | "education" | "finance" | "health" | "legal" | "other" | "personal" | "technology";
          confidence: number;
          recommendation: string;
          outcomeStatus: "correct" | "partially_correct" | "pending" | "skipped" | "too_early" | "wrong";
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
          status: "closed" | "open";
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
        status: "closed" | "open";
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
        status: "closed" | "open";
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
        status: "closed" | "open";
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
    calibrationComparison: TRPCQueryProcedure<{
      input: void;
      output: {
        resolved: number;
        raw: Array<{
          predictedRange: Array<number>;
          count: number;
          meanPredicted: number;
          actualRate: number;
        }>;
        calibrated: Array<{
          predictedRange: Array<number>;
          count: number;
          meanPredicted: number;
          actualRate: number;
        }>;
        brier: {
          raw: null | number;
          calibrated: null | number;
        };
        curve: {
          applied: boolean;
          method: "platt-shrinkage";
          minimum: number;
          basedOn: number;
          domains: Array<{
            domain: "business" | "education" | "finance" | "health" | "legal" | "other" | "personal" | "technology";
            basedOn: number;
          }>;
          fittedAt: null | string;
        };
      };
      meta: object;
    }>;
    domains: TRPCQueryProcedure<{
      input: void;
      output: Array<{
        domain: "business" | "education" | "finance" | "health" | "legal" | "other" | "personal" | "technology";
        brierScore: number;
        sampleSize: number;
        trend: "declining" | "improving" | "stable";
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
            status: "completed" | "failed" | "paused" | "pending" | "running";
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
          status: "completed" | "failed" | "paused" | "pending" | "running";
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
            status: "completed" | "failed" | "paused" | "pending" | "running";
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
          relationship: null | "follow_up" | "refinement" | "reversal";
          order: number;
          depth: number;
          childDebateIds: Array<string>;
          addedAt: string;
          debate: null | {
            recommendation: null | "DEFER" | "MORE_INFO_NEEDED" | "PROCEED" | "RECONSIDER" | "REJECT" | "SPLIT_DECISION";
            confidence: null | number;
            oneLiner: null | string;
            id: string;
            question: string;
            status: "completed" | "failed" | "paused" | "pending" | "running";
            mode: null | "balanced" | "fast" | "thorough";
            createdAt: string;
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
        relationship: "follow_up" | "refinement" | "reversal";
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
          relationship: null | "follow_up" | "refinement" | "reversal";
          order: number;
          depth: number;
          childDebateIds: Array<string>;
          addedAt: string;
          debate: null | {
            recommendation: null | "DEFER" | "MORE_INFO_NEEDED" | "PROCEED" | "RECONSIDER" | "REJECT" | "SPLIT_DECISION";
            confidence: null | number;
            oneLiner: null | string;
            id: string;
            question: string;
            status: "completed" | "failed" | "paused" | "pending" | "running";
            mode: null | "balanced" | "fast" | "thorough";
            createdAt: string;
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
        question: string;
        context: null | string;
        status: "completed" | "failed" | "paused" | "pending" | "running";
        mode: null | "balanced" | "fast" | "thorough";
        isPublic: boolean;
        createdAt: string;
        completedAt: null | string;
        panel: Array<{
          name: string;
          role: string;
          model: string;
        }>;
        verdict: null | {
          recommendation: "DEFER" | "MORE_INFO_NEEDED" | "PROCEED" | "RECONSIDER" | "REJECT" | "SPLIT_DECISION";
          oneLiner: string;
          confidence: number;
          calibratedConfidence?: undefined | number;
          calibration?: undefined | {
            method: "platt-shrinkage";
            basedOn: number;
            scope: "domain" | "owner";
          };
          narrative: string;
          arguments: Array<{
            agent: string;
            stance: string;
            keyPoints: Array<string>;
          }>;
          keyEvidence: Array<{
            claim: string;
            source: string;
            supports: "against" | "for" | "mixed";
            weight: "high" | "low" | "medium";
          } | {
            evidenceId: string;
            source: {
              kind: "attachment" | "context" | "page";
              attachmentId?: undefined | string;
              url?: undefined | string;
              title: string;
            };
            quote: string;
            offset: number;
            supports: Array<string>;
            verified: boolean;
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
          convergence?: undefined | Array<{
            round: number;
            score: number;
          }>;
          stoppedEarly?: undefined | {
            afterRound: number;
            plannedRounds: number;
            convergence: number;
            threshold: number;
          };
          evidence?: undefined | "off" | "on";
        };
        transcript: Array<{
          claimId: string;
          type: "argument" | "rebuttal";
          agent: string;
          round: number;
          targetAgent: null | string;
          content: string;
          citations?: undefined | Array<{
            evidenceId: string;
            quote: null | string;
            verified: boolean;
          }>;
          usage: null | {
            inputTokens: number;
            outputTokens: number;
            costUsd: null | number;
          };
        }>;
        events: Array<{
          seq: number;
          event: string;
          data: {
            [key: string]: unknown;
          };
        }>;
        cost: null | {
          inputTokens: number;
          outputTokens: number;
          estimatedUsd: number;
          credits: number;
          llmCalls: number;
        };
        citedPassages: Array<{
          evidenceId: string;
          source: {
            kind: "attachment" | "context" | "page";
            attachmentId?: undefined | string;
            url?: undefined | string;
            title: string;
          };
          text: string;
          start: number;
          end: number;
          citations: Array<{
            claimId: string;
            agent: string;
            round: number;
            quote: null | string;
            verified: boolean;
          }>;
          supports: Array<string>;
          undercuts: Array<string>;
        }>;
        settings: {
          allowComments: boolean;
          allowFork: boolean;
        };
        viewCount: number;
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
    stream: TRPCSubscriptionProcedure<{
      input: {
        lastEventId?: undefined | null | string;
      };
      output: AsyncIterable<{
        id: string;
        data: {
          id: string;
          type: "comment" | "fork";
          message: string;
          debateId: null | string;
          actorId: null | string;
          actorName: null | string;
          read: boolean;
          createdAt: string;
        };
      }>;
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
        recommendation: null | "DEFER" | "MORE_INFO_NEEDED" | "PROCEED" | "RECONSIDER" | "REJECT" | "SPLIT_DECISION";
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
        recommendation: null | "DEFER" | "MORE_INFO_NEEDED" | "PROCEED" | "RECONSIDER" | "REJECT" | "SPLIT_DECISION";
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
        sort?: undefined | "date" | "popularity" | "relevance";
        page?: unknown;
        limit?: unknown;
        status?: undefined | string;
        mode?: undefined | string;
        dateFrom?: undefined | string;
        dateTo?: undefined | string;
        minConfidence?: unknown;
        hasVerdict?: undefined | "false" | "true";
      };
      output: {
        results: Array<{
          id: string;
          question: string;
          status: "completed" | "failed" | "paused" | "pending" | "running";
          mode: null | "balanced" | "fast" | "thorough";
          createdAt: string;
          completedAt: null | string;
          recommendation: null | "DEFER" | "MORE_INFO_NEEDED" | "PROCEED" | "RECONSIDER" | "REJECT" | "SPLIT_DECISION";
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
        role: "admin" | "member" | "owner" | "viewer";
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
          role: "admin" | "member" | "owner" | "viewer";
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
        role: "admin" | "member" | "owner" | "viewer";
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
        role: "admin" | "member" | "owner" | "viewer";
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
          role: "admin" | "member" | "owner" | "viewer";
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
        role: "admin" | "member" | "owner" | "viewer";
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
        role: "admin" | "member" | "owner" | "viewer";
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
          status: "completed" | "failed" | "paused" | "pending" | "running";
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
            recommendation: "DEFER" | "MORE_INFO_NEEDED" | "PROCEED" | "RECONSIDER" | "REJECT" | "SPLIT_DECISION";
            confidence: number;
            calibratedConfidence?: undefined | number;
            calibration?: undefined | {
              method: "platt-shrinkage";
              basedOn: number;
              scope: "domain" | "owner";
            };
            summary: string;
            agentsUsed: Array<string>;
            totalRounds: number;
            convergence?: undefined | Array<{
              round: number;
              score: number;
            }>;
            stoppedEarly?: undefined | {
              afterRound: number;
              plannedRounds: number;
              convergence: number;
              threshold: number;
            };
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
        pack: "credits_100" | "credits_2000" | "credits_500";
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
        plan: "byok" | "byok_pro" | "enterprise" | "free" | "pro" | "starter";
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
          type: "credit_pack" | "subscription";
          description: string;
          amountCents: number;
          currency: string;
          status: "open" | "paid" | "uncollectible" | "void";
          workspaceId: null | string;
          stripeInvoiceUrl: null | string;
          stripeReceiptUrl: null | string;
          metadata: {
            [key: string]: number | string;
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
        type: "credit_pack" | "subscription";
        description: string;
        amountCents: number;
        currency: string;
        status: "open" | "paid" | "uncollectible" | "void";
        workspaceId: null | string;
        stripeInvoiceUrl: null | string;
        stripeReceiptUrl: null | string;
        metadata: {
          [key: string]: number | string;
        };
        createdAt: string;
        stripePaymentIntentId: null | string;
        stripeSessionId: null | string;
        stripeInvoiceId: null | string;
      };
      meta: object;
    }>;
  };
  audit: {
    list: TRPCQueryProcedure<{
      input: {
        workspaceId?: undefined | string;
        actor?: undefined | string;
        action?: undefined | string;
        targetType?: undefined | string;
        targetId?: undefined | string;
        from?: undefined | string;
        to?: undefined | string;
        cursor?: undefined | string;
        limit?: unknown;
      };
      output: {
        entries: Array<{
          chain: string;
          seq: number;
          at: string;
          actor: {
            kind: "key" | "operator" | "system" | "user";
            id: null | string;
            keyId: null | string;
          };
          action: string;
          target: {
            type: string;
            id: null | string;
          };
          origin: {
            ip: null | string;
            userAgent: null | string;
            requestId: null | string;
          };
          changes: {
            [key: string]: unknown;
          };
          prevHash: string;
          hash: string;
        }>;
        nextCursor: null | string;
      };
      meta: object;
    }>;
    verify: TRPCQueryProcedure<{
      input: {
        workspaceId?: undefined | string;
      };
      output: {
        chain: string;
        verified: boolean;
        entries: number;
        firstBroken: null | {
          seq: number;
          problem: string;
        };
        checkpoint: null | {
          seq: number;
          at: string;
        };
      };
      meta: object;
    }>;
  };
  sso: {
    get: TRPCQueryProcedure<{
      input: {
        id: string;
      };
      output: {
        workspaceId: string;
        protocol: "oidc" | "saml";
        issuer: string;
        clientId: null | string;
        hasClientSecret: boolean;
        ssoUrl: null | string;
        certificateFingerprint: null | string;
        allowedDomains: Array<string>;
        defaultRole: "admin" | "member" | "viewer";
        requireSso: boolean;
        serviceProvider: {
          signInUrl: string;
          redirectUri: string;
          acsUrl: string;
          entityId: string;
          metadataUrl: string;
        };
        createdAt: string;
        updatedAt: string;
      };
      meta: object;
    }>;
    put: TRPCMutationProcedure<{
      input: {
        allowedDomains: Array<string>;
        defaultRole?: undefined | "admin" | "member" | "viewer";
        requireSso?: undefined | boolean;
        protocol: "oidc" | "saml";
        issuer?: undefined | string;
        clientId?: undefined | string;
        clientSecret?: undefined | string;
        metadataXml?: undefined | string;
        entityId?: undefined | string;
        ssoUrl?: undefined | string;
        certificate?: undefined | string;
        id: string;
      };
      output: {
        workspaceId: string;
        protocol: "oidc" | "saml";
        issuer: string;
        clientId: null | string;
        hasClientSecret: boolean;
        ssoUrl: null | string;
        certificateFingerprint: null | string;
        allowedDomains: Array<string>;
        defaultRole: "admin" | "member" | "viewer";
        requireSso: boolean;
        serviceProvider: {
          signInUrl: string;
          redirectUri: string;
          acsUrl: string;
          entityId: string;
          metadataUrl: string;
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
    deprovision: TRPCMutationProcedure<{
      input: {
        id: string;
        email: string;
      };
      output: {
        userId: null | string;
        removedFromWorkspace: boolean;
        sessionsEnded: number;
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
        plan: "byok" | "byok_pro" | "enterprise" | "free" | "pro" | "starter";
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
        stopWhenConverged?: undefined | boolean;
        convergenceThreshold?: undefined | number;
        agentCount?: undefined | number;
        maxRounds?: undefined | number;
        skipCache?: undefined | boolean;
        question: string;
        mode?: undefined | "balanced" | "fast" | "thorough";
        context?: undefined | string;
        options?: undefined | Array<string>;
        tags?: undefined | Array<string>;
      };
      output: {
        debateId: string;
        streamUrl: string;
        judgeModel?: undefined | string;
        cached: boolean;
      };
      meta: object;
    }>;
    estimateVerdict: TRPCMutationProcedure<{
      input: {
        stopWhenConverged?: undefined | boolean;
        convergenceThreshold?: undefined | number;
        agentCount?: undefined | number;
        maxRounds?: undefined | number;
        skipCache?: undefined | boolean;
        question: string;
        mode?: undefined | "balanced" | "fast" | "thorough";
        context?: undefined | string;
        options?: undefined | Array<string>;
        tags?: undefined | Array<string>;
      };
      output: {
        mode: "balanced" | "fast" | "thorough";
        agents: number;
        rounds: number;
        credits: number;
        charge: number;
        fundingSource: null | "byok" | "free_tier" | "user_credits";
        refusal: null | {
          code: string;
          message: string;
        };
        cached: boolean;
        simulated: boolean;
        models: Array<{
          provider: string;
          model: string;
          roles: Array<"classifier" | "debater" | "judge">;
          calls: {
            low: number;
            expected: number;
            high: number;
          };
          inputTokens: {
            low: number;
            expected: number;
            high: number;
          };
          outputTokens: {
            low: number;
            expected: number;
            high: number;
          };
          usd: {
            low: number;
            expected: number;
            high: number;
          };
          priced: boolean;
        }>;
        inputTokens: {
          low: number;
          expected: number;
          high: number;
        };
        outputTokens: {
          low: number;
          expected: number;
          high: number;
        };
        usd: {
          low: number;
          expected: number;
          high: number;
        };
        note: string;
      };
      meta: object;
    }>;
    listVerdicts: TRPCQueryProcedure<{
      input: {
        page?: unknown;
        limit?: unknown;
        status?: undefined | "completed" | "failed" | "pending" | "running";
        mode?: undefined | "balanced" | "fast" | "thorough";
        sortBy?: undefined | "completedAt" | "createdAt";
        sortOrder?: undefined | "asc" | "desc";
        search?: undefined | string;
      };
      output: {
        debates: Array<{
          id: string;
          question: string;
          status: "completed" | "failed" | "paused" | "pending" | "running";
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
            recommendation: "DEFER" | "MORE_INFO_NEEDED" | "PROCEED" | "RECONSIDER" | "REJECT" | "SPLIT_DECISION";
            confidence: number;
            calibratedConfidence?: undefined | number;
            calibration?: undefined | {
              method: "platt-shrinkage";
              basedOn: number;
              scope: "domain" | "owner";
            };
            summary: string;
            agentsUsed: Array<string>;
            totalRounds: number;
            convergence?: undefined | Array<{
              round: number;
              score: number;
            }>;
            stoppedEarly?: undefined | {
              afterRound: number;
              plannedRounds: number;
              convergence: number;
              threshold: number;
            };
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
          status: "completed" | "failed" | "paused" | "pending" | "running";
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
            recommendation: "DEFER" | "MORE_INFO_NEEDED" | "PROCEED" | "RECONSIDER" | "REJECT" | "SPLIT_DECISION";
            confidence: number;
            calibratedConfidence?: undefined | number;
            calibration?: undefined | {
              method: "platt-shrinkage";
              basedOn: number;
              scope: "domain" | "owner";
            };
            summary: string;
            agentsUsed: Array<string>;
            totalRounds: number;
            convergence?: undefined | Array<{
              round: number;
              score: number;
            }>;
            stoppedEarly?: undefined | {
              afterRound: number;
              plannedRounds: number;
              convergence: number;
              threshold: number;
            };
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
          confidence: number;
          calibratedConfidence?: undefined | number;
          recommendation: "DEFER" | "MORE_INFO_NEEDED" | "PROCEED" | "RECONSIDER" | "REJECT" | "SPLIT_DECISION";
          oneLiner: string;
          calibration?: undefined | {
            method: "platt-shrinkage";
            basedOn: number;
            scope: "domain" | "owner";
          };
          narrative: string;
          arguments: Array<{
            agent: string;
            stance: string;
            keyPoints: Array<string>;
          }>;
          keyEvidence: Array<{
            claim: string;
            source: string;
            supports: "against" | "for" | "mixed";
            weight: "high" | "low" | "medium";
          } | {
            evidenceId: string;
            source: {
              kind: "attachment" | "context" | "page";
              attachmentId?: undefined | string;
              url?: undefined | string;
              title: string;
            };
            quote: string;
            offset: number;
            supports: Array<string>;
            verified: boolean;
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
          convergence?: undefined | Array<{
            round: number;
            score: number;
          }>;
          stoppedEarly?: undefined | {
            afterRound: number;
            plannedRounds: number;
            convergence: number;
            threshold: number;
          };
          evidence?: undefined | "off" | "on";
        };
      };
      meta: object;
    }>;
    getVerdictEvidence: TRPCQueryProcedure<{
      input: {
        id: string;
      };
      output: {
        debateId: string;
        status: "completed" | "failed" | "paused" | "pending" | "running";
        attempt: number;
        evidence: "off" | "on";
        passages: Array<{
          evidenceId: string;
          source: {
            kind: "attachment" | "context" | "page";
            attachmentId?: undefined | string;
            url?: undefined | string;
            title: string;
          };
          text: string;
          start: number;
          end: number;
          citations: Array<{
            claimId: string;
            agent: string;
            round: number;
            quote: null | string;
            verified: boolean;
          }>;
          supports: Array<string>;
          undercuts: Array<string>;
        }>;
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
        frequency: "daily" | "monthly" | "weekly";
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
        frequency: "daily" | "monthly" | "weekly";
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
          code: "API_KEY_REQUIRED" | "BILLING_NOT_CONFIGURED" | "BYOK_REQUIRED" | "CONCURRENT_LIMIT" | "CONFLICT" | "DEBATE_ALREADY_RUNNING" | "DEBATE_NOT_FAILED" | "DEBATE_NOT_RUNNING" | "FORBIDDEN" | "INSUFFICIENT_CREDITS" | "INTERNAL_ERROR" | "METHOD_NOT_ALLOWED" | "MISSING_QUERY" | "MONTHLY_LIMIT_REACHED" | "NOT_FOUND" | "NO_PAYMENT_CUSTOMER" | "PAYLOAD_TOO_LARGE" | "POLL_CLOSED" | "PROVIDER_ERROR" | "PROVIDER_TIMEOUT" | "QUOTA_EXCEEDED" | "RATE_LIMITED" | "RECOMMENDATIONS_FAILED" | "REQUEST_HEADER_FIELDS_TOO_LARGE" | "REQUEST_TIMEOUT" | "SEAT_LIMIT_REACHED" | "SERVICE_UNAVAILABLE" | "SIMILAR_SEARCH_FAILED" | "STREAKS_ERROR" | "UNAUTHORIZED" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "VALIDATION_ERROR";
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
        active?: undefined | "false" | "true";
      };
      output: {
        schedules: Array<{
          id: string;
          userId: string;
          question: string;
          mode: null | "balanced" | "fast" | "thorough";
          context: null | string;
          frequency: "daily" | "monthly" | "weekly";
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
            code: "API_KEY_REQUIRED" | "BILLING_NOT_CONFIGURED" | "BYOK_REQUIRED" | "CONCURRENT_LIMIT" | "CONFLICT" | "DEBATE_ALREADY_RUNNING" | "DEBATE_NOT_FAILED" | "DEBATE_NOT_RUNNING" | "FORBIDDEN" | "INSUFFICIENT_CREDITS" | "INTERNAL_ERROR" | "METHOD_NOT_ALLOWED" | "MISSING_QUERY" | "MONTHLY_LIMIT_REACHED" | "NOT_FOUND" | "NO_PAYMENT_CUSTOMER" | "PAYLOAD_TOO_LARGE" | "POLL_CLOSED" | "PROVIDER_ERROR" | "PROVIDER_TIMEOUT" | "QUOTA_EXCEEDED" | "RATE_LIMITED" | "RECOMMENDATIONS_FAILED" | "REQUEST_HEADER_FIELDS_TOO_LARGE" | "REQUEST_TIMEOUT" | "SEAT_LIMIT_REACHED" | "SERVICE_UNAVAILABLE" | "SIMILAR_SEARCH_FAILED" | "STREAKS_ERROR" | "UNAUTHORIZED" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "VALIDATION_ERROR";
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
        frequency: "daily" | "monthly" | "weekly";
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
          code: "API_KEY_REQUIRED" | "BILLING_NOT_CONFIGURED" | "BYOK_REQUIRED" | "CONCURRENT_LIMIT" | "CONFLICT" | "DEBATE_ALREADY_RUNNING" | "DEBATE_NOT_FAILED" | "DEBATE_NOT_RUNNING" | "FORBIDDEN" | "INSUFFICIENT_CREDITS" | "INTERNAL_ERROR" | "METHOD_NOT_ALLOWED" | "MISSING_QUERY" | "MONTHLY_LIMIT_REACHED" | "NOT_FOUND" | "NO_PAYMENT_CUSTOMER" | "PAYLOAD_TOO_LARGE" | "POLL_CLOSED" | "PROVIDER_ERROR" | "PROVIDER_TIMEOUT" | "QUOTA_EXCEEDED" | "RATE_LIMITED" | "RECOMMENDATIONS_FAILED" | "REQUEST_HEADER_FIELDS_TOO_LARGE" | "REQUEST_TIMEOUT" | "SEAT_LIMIT_REACHED" | "SERVICE_UNAVAILABLE" | "SIMILAR_SEARCH_FAILED" | "STREAKS_ERROR" | "UNAUTHORIZED" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "VALIDATION_ERROR";
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
        frequency?: undefined | "daily" | "monthly" | "weekly";
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
        frequency: "daily" | "monthly" | "weekly";
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
          code: "API_KEY_REQUIRED" | "BILLING_NOT_CONFIGURED" | "BYOK_REQUIRED" | "CONCURRENT_LIMIT" | "CONFLICT" | "DEBATE_ALREADY_RUNNING" | "DEBATE_NOT_FAILED" | "DEBATE_NOT_RUNNING" | "FORBIDDEN" | "INSUFFICIENT_CREDITS" | "INTERNAL_ERROR" | "METHOD_NOT_ALLOWED" | "MISSING_QUERY" | "MONTHLY_LIMIT_REACHED" | "NOT_FOUND" | "NO_PAYMENT_CUSTOMER" | "PAYLOAD_TOO_LARGE" | "POLL_CLOSED" | "PROVIDER_ERROR" | "PROVIDER_TIMEOUT" | "QUOTA_EXCEEDED" | "RATE_LIMITED" | "RECOMMENDATIONS_FAILED" | "REQUEST_HEADER_FIELDS_TOO_LARGE" | "REQUEST_TIMEOUT" | "SEAT_LIMIT_REACHED" | "SERVICE_UNAVAILABLE" | "SIMILAR_SEARCH_FAILED" | "STREAKS_ERROR" | "UNAUTHORIZED" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "VALIDATION_ERROR";
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
          events: Array<"chain.created" | "chain.updated" | "debate.completed" | "debate.created" | "debate.failed" | "outcome.recorded" | "outcome.updated">;
          active: boolean;
          description: null | string;
          createdAt: string;
          updatedAt: string;
        }>;
        supportedEvents: Array<"chain.created" | "chain.updated" | "debate.completed" | "debate.created" | "debate.failed" | "outcome.recorded" | "outcome.updated">;
      };
      meta: object;
    }>;
    create: TRPCMutationProcedure<{
      input: {
        url: string;
        events: Array<"chain.created" | "chain.updated" | "debate.completed" | "debate.created" | "debate.failed" | "outcome.recorded" | "outcome.updated">;
        description?: undefined | null | string;
        active?: undefined | boolean;
      };
      output: {
        id: string;
        url: string;
        events: Array<"chain.created" | "chain.updated" | "debate.completed" | "debate.created" | "debate.failed" | "outcome.recorded" | "outcome.updated">;
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
        events?: undefined | Array<"chain.created" | "chain.updated" | "debate.completed" | "debate.created" | "debate.failed" | "outcome.recorded" | "outcome.updated">;
        active?: undefined | boolean;
        description?: undefined | null | string;
      };
      output: {
        id: string;
        url: string;
        events: Array<"chain.created" | "chain.updated" | "debate.completed" | "debate.created" | "debate.failed" | "outcome.recorded" | "outcome.updated">;
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
          event: "chain.created" | "chain.updated" | "debate.completed" | "debate.created" | "debate.failed" | "outcome.recorded" | "outcome.updated" | "ping";
          status: "delivering" | "failed" | "pending" | "succeeded";
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
        status: "delivering" | "failed" | "pending" | "succeeded";
      };
      meta: object;
    }>;
    test: TRPCMutationProcedure<{
      input: {
        id: string;
      };
      output: {
        deliveryId: string;
        status: "delivering" | "failed" | "pending" | "succeeded";
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
          status: "failed" | "pending" | "ready";
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
        status: "failed" | "pending" | "ready";
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
    position?: undefined | null | {
      recommendation?: undefined | "DEFER" | "MORE_INFO_NEEDED" | "PROCEED" | "RECONSIDER" | "REJECT" | "SPLIT_DECISION";
      stance?: undefined | "against" | "for" | "mixed";
      confidence?: undefined | number;
      ranking?: undefined | Array<string>;
    };
    citations?: undefined | Array<{
      evidenceId: string;
      quote: null | string;
      verified: boolean;
    }>;
  };
  rebuttal: {
    agent: string;
    round: number;
    claimId: string;
    content: string;
    model: string;
    targetAgent: string;
    position?: undefined | null | {
      recommendation?: undefined | "DEFER" | "MORE_INFO_NEEDED" | "PROCEED" | "RECONSIDER" | "REJECT" | "SPLIT_DECISION";
      stance?: undefined | "against" | "for" | "mixed";
      confidence?: undefined | number;
      ranking?: undefined | Array<string>;
    };
    citations?: undefined | Array<{
      evidenceId: string;
      quote: null | string;
      verified: boolean;
    }>;
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
  "round.converged": {
    round: number;
    score: number;
    threshold: null | number;
    stopping: boolean;
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
  verdict: {
    recommendation: "DEFER" | "MORE_INFO_NEEDED" | "PROCEED" | "RECONSIDER" | "REJECT" | "SPLIT_DECISION";
    oneLiner: string;
    calibration?: undefined | {
      method: "platt-shrinkage";
      basedOn: number;
      scope: "domain" | "owner";
    };
    reasoning: string;
    confidence: number;
    calibratedConfidence?: undefined | number;
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

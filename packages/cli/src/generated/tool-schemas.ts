/**
 * GENERATED FILE: do not edit; `npm run gen:clients` writes it. The input schemas of the MCP server's tools,
 * as JSON Schema from the API's contracts (packages/contracts), so a tool takes what the route takes.
 */

export const TOOL_INPUT_SCHEMAS = {
  "ask_debate": {
    "type": "object",
    "properties": {
      "question": {
        "type": "string",
        "minLength": 10,
        "maxLength": 2000
      },
      "mode": {
        "description": "Default fast; in a workspace, the workspace's defaultDebateMode",
        "type": "string",
        "enum": [
          "fast",
          "balanced",
          "thorough"
        ]
      },
      "context": {
        "type": "string",
        "minLength": 1,
        "maxLength": 5000
      },
      "agentCount": {
        "description": "Agents instead of the mode's (fast 3, balanced 5, thorough 8). Never cheaper than the mode; a panel larger than the mode's costs ⌊agents × rounds ÷ 3⌋ credits",
        "type": "integer",
        "minimum": 2,
        "maximum": 7
      },
      "maxRounds": {
        "description": "Rounds instead of the mode's (fast 1, balanced 2, thorough 3); priced as agentCount says",
        "type": "integer",
        "minimum": 1,
        "maximum": 5
      },
      "skipCache": {
        "description": "Run afresh even when an identical debate of yours completed recently (a cached answer is free)",
        "type": "boolean"
      },
      "enableSearch": {
        "type": "boolean"
      },
      "preset": {
        "type": "string",
        "enum": [
          "hackathon",
          "balanced",
          "economy",
          "deepseek",
          "groq",
          "mixed"
        ]
      },
      "stopWhenConverged": {
        "description": "Skip the remaining rounds once the agents’ positions converge (score ≥ convergenceThreshold after a round); the judge then runs at once and the skipped rounds’ share of the credits is refunded",
        "type": "boolean"
      },
      "convergenceThreshold": {
        "description": "With stopWhenConverged: the score that stops (default 0.8)",
        "type": "number",
        "minimum": 0.5,
        "maximum": 1
      },
      "wait": {
        "description": "Wait for the verdict (default true); false answers the debate id at once",
        "type": "boolean"
      }
    },
    "required": [
      "question"
    ],
    "additionalProperties": false
  },
  "get_debate": {
    "type": "object",
    "properties": {
      "id": {
        "type": "string",
        "format": "uuid",
        "pattern": "^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$",
        "description": "The debate id"
      }
    },
    "required": [
      "id"
    ]
  },
  "get_evidence": {
    "type": "object",
    "properties": {
      "id": {
        "type": "string",
        "format": "uuid",
        "pattern": "^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$",
        "description": "The debate id"
      }
    },
    "required": [
      "id"
    ]
  },
  "list_debates": {
    "type": "object",
    "properties": {
      "page": {
        "default": 1,
        "type": "integer",
        "minimum": 1,
        "maximum": 9007199254740991
      },
      "limit": {
        "default": 20,
        "type": "integer",
        "minimum": 1,
        "maximum": 100
      },
      "status": {
        "type": "string",
        "enum": [
          "pending",
          "running",
          "paused",
          "completed",
          "failed"
        ]
      },
      "sortBy": {
        "default": "createdAt",
        "type": "string",
        "enum": [
          "createdAt",
          "completedAt"
        ]
      },
      "sortOrder": {
        "default": "desc",
        "type": "string",
        "enum": [
          "asc",
          "desc"
        ]
      }
    }
  },
  "record_outcome": {
    "type": "object",
    "properties": {
      "id": {
        "type": "string",
        "format": "uuid",
        "pattern": "^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$",
        "description": "The debate id"
      },
      "outcomeStatus": {
        "type": "string",
        "enum": [
          "correct",
          "partially_correct",
          "wrong",
          "too_early"
        ]
      },
      "outcomeNotes": {
        "type": "string",
        "maxLength": 500
      },
      "satisfactionScore": {
        "type": "integer",
        "minimum": 1,
        "maximum": 5
      }
    },
    "required": [
      "id",
      "outcomeStatus"
    ]
  },
  "search_debates": {
    "type": "object",
    "properties": {
      "q": {
        "description": "Text to find in the question or context (1–200 characters)",
        "type": "string",
        "minLength": 1,
        "maxLength": 200
      },
      "type": {
        "default": "debates",
        "description": "verdicts: only completed debates with a verdict",
        "type": "string",
        "enum": [
          "debates",
          "verdicts"
        ]
      },
      "sort": {
        "default": "date",
        "description": "date: newest first; relevance: full-text rank, keyword-only matches after the ranked ones; popularity: most viewed first",
        "type": "string",
        "enum": [
          "date",
          "relevance",
          "popularity"
        ]
      },
      "page": {
        "default": 1,
        "type": "integer",
        "minimum": 1,
        "maximum": 9007199254740991
      },
      "limit": {
        "default": 10,
        "type": "integer",
        "minimum": 1,
        "maximum": 50
      },
      "status": {
        "description": "Comma-separated statuses, e.g. `completed,failed`",
        "type": "string",
        "pattern": "^(pending|running|paused|completed|failed)(,(pending|running|paused|completed|failed))*$"
      },
      "mode": {
        "description": "Comma-separated modes, e.g. `fast,thorough`",
        "type": "string",
        "pattern": "^(fast|balanced|thorough)(,(fast|balanced|thorough))*$"
      },
      "dateFrom": {
        "description": "Created at or after: a date (from the start of that UTC day) or a datetime",
        "anyOf": [
          {
            "type": "string",
            "format": "date",
            "pattern": "^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))$"
          },
          {
            "type": "string",
            "format": "date-time",
            "pattern": "^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))T(?:(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z|([+-](?:[01]\\d|2[0-3]):[0-5]\\d)))$"
          }
        ]
      },
      "dateTo": {
        "description": "Created on or before the end of this UTC day: `2026-01-31` and `2026-01-31T08:00:00Z` both mean through 2026-01-31T23:59:59.999Z",
        "anyOf": [
          {
            "type": "string",
            "format": "date",
            "pattern": "^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))$"
          },
          {
            "type": "string",
            "format": "date-time",
            "pattern": "^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))T(?:(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z|([+-](?:[01]\\d|2[0-3]):[0-5]\\d)))$"
          }
        ]
      },
      "minConfidence": {
        "description": "Verdict confidence in percent, 0–100: 70 keeps confidence >= 0.70",
        "type": "number",
        "minimum": 0,
        "maximum": 100
      },
      "hasVerdict": {
        "description": "`true` or `false`",
        "type": "string",
        "enum": [
          "true",
          "false"
        ]
      }
    },
    "required": [
      "q"
    ]
  },
  "similar_debates": {
    "type": "object",
    "properties": {
      "q": {
        "description": "The text to find similar debates to (required)",
        "type": "string",
        "maxLength": 2000
      },
      "limit": {
        "description": "Clamped to 1–20; default 5",
        "default": 5,
        "type": "integer",
        "minimum": -9007199254740991,
        "maximum": 9007199254740991
      }
    }
  }
} as const;

import type { components, paths } from './generated/openapi.ts';

type Operation<P extends keyof paths, M extends keyof paths[P]> = NonNullable<paths[P][M]>;

/** The JSON body a route takes. */
export type BodyOf<P extends keyof paths, M extends keyof paths[P]> =
  Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** The query parameters a route takes. */
export type QueryOf<P extends keyof paths, M extends keyof paths[P]> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** The JSON body of a route's success answer (200 or 201). */
export type DataOf<P extends keyof paths, M extends keyof paths[P]> =
  Operation<P, M> extends { responses: infer R }
    ? {
        [S in keyof R]: S extends 200 | 201
          ? R[S] extends { content: { 'application/json': infer D } }
            ? D
            : never
          : never;
      }[keyof R]
    : never;

export type Schemas = components['schemas'];
export type Debate = Schemas['Debate'];
export type DebatePage = Schemas['DebatePage'];
export type CreatedDebate = Schemas['CreatedDebate'];
export type VerdictDetail = Schemas['VerdictDetail'];
export type DecisionScore = Schemas['DecisionScore'];
export type OutcomeRecord = Schemas['OutcomeRecord'];
export type ApiKey = Schemas['ApiKey'];
export type CreatedApiKey = Schemas['CreatedApiKey'];
export type Usage = Schemas['Usage'];
export type Profile = Schemas['Profile'];
export type ShareLink = Schemas['ShareLink'];
export type SearchResults = Schemas['SearchResults'];
export type SimilarDebates = Schemas['SimilarDebates'];
export type Notification = Schemas['Notification'];
/** A debate's corpus and its citations: what `debates.evidence` and `verdicts.evidence` answer. */
export type DebateEvidence = Schemas['DebateEvidence'];
export type EvidencePassage = Schemas['EvidencePassage'];
export type PassageCitation = Schemas['PassageCitation'];
export type EvidenceSource = Schemas['EvidenceSource'];
/** A turn's citation of a passage, as the engine checked it. */
export type Citation = Schemas['Citation'];
/** One entry of a verdict's `keyEvidence`: CitedEvidence (evidence engine on) or JudgedEvidence (off). */
export type KeyEvidence = Schemas['KeyEvidence'];
export type CitedEvidence = Schemas['CitedEvidence'];
export type JudgedEvidence = Schemas['JudgedEvidence'];
export type CreateDebateInput = BodyOf<'/api/debates', 'post'>;
export type CreateVerdictInput = BodyOf<'/v1/verdicts', 'post'>;
export type DebateListQuery = QueryOf<'/api/debates', 'get'>;
export type VerdictListQuery = QueryOf<'/v1/verdicts', 'get'>;
export type RecordOutcomeInput = BodyOf<'/api/debates/{id}/outcome', 'post'>;
export type DebateCommand = BodyOf<'/api/debates/{id}/commands', 'post'>;
export type SearchQuery = QueryOf<'/api/search', 'get'>;
export type SimilarQuery = QueryOf<'/api/similar', 'get'>;
export type CreateKeyInput = BodyOf<'/api/keys', 'post'>;
export type AuditEntry = Schemas['AuditEntry'];
export type AuditPage = Schemas['AuditPage'];
export type AuditVerification = Schemas['AuditVerification'];
export type AuditListQuery = QueryOf<'/api/audit', 'get'>;
export type AuditVerifyQuery = QueryOf<'/api/audit/verify', 'get'>;
export type AuditExportQuery = QueryOf<'/api/audit/export', 'get'>;
export type SsoConnection = Schemas['SsoConnection'];
export type SsoConnectionBody = BodyOf<'/api/workspaces/{id}/sso', 'put'>;
export type DeprovisionResult = Schemas['DeprovisionResult'];

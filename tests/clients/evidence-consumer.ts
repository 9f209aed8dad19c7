// An outside project's use of the SDK's evidence reads, type-checked with `tsc --strict` and run by
// tests/clients-sdk.test.ts with two keys the test made: a Free account's (plan refusals, typed) and a Pro
// account's (the evidence engine on: the corpus read and the verdict's cited key evidence).
import {
  type CitedEvidence,
  citedEvidenceOf,
  createVerdictTRPCClient,
  type DebateEvidence,
  isCitedEvidence,
  PlanRequiredError,
  type PlanRequirement,
  planRequiredOf,
  Verdict,
  VerdictError,
} from '@verdict/sdk';

const [baseUrl = '', freeKey = '', proKey = ''] = process.argv.slice(2);
const say = (record: object) => process.stdout.write(`${JSON.stringify(record)}\n`);

const CONTEXT = [
  'Our annual plan costs customers 20 percent less than paying monthly, and most renewals happen in January.',
  '',
  'Churn among monthly customers doubled after the last price rise, while annual customers barely moved.',
].join('\n');

async function finishedDebate(client: Verdict, context?: string) {
  const { debateId } = await client.debates.create({
    question: 'Should we raise the price of the monthly plan by ten percent?',
    maxRounds: 2,
    ...(context ? { context } : {}),
  });
  await client.debates.waitUntilFinished(debateId);
  return debateId;
}

// A Free account: the read is refused with a PlanRequiredError (still a VerdictError), and the same refusal
// over tRPC reads the same through planRequiredOf.
const free = new Verdict({ baseUrl, apiKey: freeKey });
const freeDebate = await finishedDebate(free);
let refusal: PlanRequiredError | null = null;
try {
  await free.verdicts.evidence(freeDebate);
} catch (error) {
  if (!(error instanceof PlanRequiredError)) throw error;
  refusal = error;
}
const viaTrpc: PlanRequirement | null = await createVerdictTRPCClient(baseUrl, freeKey)
  .debates.evidence.query({ id: freeDebate })
  .then(() => null, planRequiredOf);
const freeVerdict = (await free.verdicts.retrieve(freeDebate)).verdict;
say({
  step: 'plan-required',
  isVerdictError: refusal instanceof VerdictError,
  status: refusal?.status,
  code: refusal?.code,
  requiredPlan: refusal?.requiredPlan,
  upgradeUrl: refusal?.upgradeUrl,
  viaTrpc,
  verdictEvidence: freeVerdict?.evidence,
  citedKeyEvidence: citedEvidenceOf(freeVerdict).length,
  judgedKeyEvidence: freeVerdict?.keyEvidence.filter((entry) => !isCitedEvidence(entry)).length,
});

// A Pro account: the corpus read on /v1 and on /api agree, and each cited key evidence of the verdict (over
// REST and tRPC alike) names a passage a claim cited verifiably, and quotes words of it.
const pro = new Verdict({ baseUrl, apiKey: proKey });
const proDebate = await finishedDebate(pro, CONTEXT);
const evidence: DebateEvidence = await pro.verdicts.evidence(proDebate);
const sameOnApi = JSON.stringify(await pro.debates.evidence(proDebate)) === JSON.stringify(evidence);
const cited: CitedEvidence[] = citedEvidenceOf((await pro.verdicts.retrieve(proDebate)).verdict);
const trpc = createVerdictTRPCClient(baseUrl, proKey);
const citedOverTrpc = citedEvidenceOf((await trpc.v1.getVerdict.query({ id: proDebate })).verdict);
const flat = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();
const quotesInPassages = cited.every((entry) => {
  const passage = evidence.passages.find((p) => p.evidenceId === entry.evidenceId);
  return !!passage?.citations.some((c) => c.verified) && flat(passage.text).includes(flat(entry.quote));
});
say({
  step: 'evidence',
  evidence: evidence.evidence,
  passages: evidence.passages.length,
  sources: [...new Set(evidence.passages.map((passage) => passage.source.kind))],
  unverifiedCitations: evidence.passages.flatMap((p) => p.citations).filter((c) => !c.verified).length,
  sameOnApi,
  cited: cited.length,
  citedOverTrpc: citedOverTrpc.map((entry) => entry.evidenceId),
  citedIds: cited.map((entry) => entry.evidenceId),
  allVerified: cited.every((entry) => entry.verified),
  quotesInPassages,
});

// @ts-expect-error the evidence read takes a debate id, not an object
void (() => pro.verdicts.evidence({ id: proDebate }));
type KeyEvidenceEntry = NonNullable<typeof freeVerdict>['keyEvidence'][number];
// @ts-expect-error a judged entry has no evidenceId: isCitedEvidence tells the two shapes apart first
void ((entry: KeyEvidenceEntry) => entry.evidenceId);
void ((entry: KeyEvidenceEntry) => (isCitedEvidence(entry) ? entry.evidenceId : entry.claim));

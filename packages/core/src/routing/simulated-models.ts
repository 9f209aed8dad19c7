/**
 * The model names of the SIMULATED provider, which debates run on when no provider key is configured: every
 * name says "simulated", as every text it writes does.
 */
export const SIMULATED_MODELS = {
  panel: ['simulated/sonnet', 'simulated/haiku'],
  judge: 'simulated/opus',
  classifier: 'simulated/haiku',
};
/** The free tier's lighter judge, on the simulated provider. */
export const SIMULATED_FREE_JUDGE = 'simulated/haiku';

import type { Proofs } from './spec.js';

export const externalEventsProofs: Proofs = {};

import type { Proofs } from './spec.js';

export const bridgeProofs: Proofs = {};

import type { Proofs } from './spec.js';

export const conversationsProofs: Proofs = {};

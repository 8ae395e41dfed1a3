import type { Proofs } from './spec.js';

export const agentsProofs: Proofs = {};

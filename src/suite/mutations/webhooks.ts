import type { Proofs } from './spec.js';

export const webhooksProofs: Proofs = {};

import type { Proofs } from './spec.js';

export const audioProofs: Proofs = {};

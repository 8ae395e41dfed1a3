import type { RuleId } from '../contract/index.js';
import type { Surface } from '../contract/rule.js';

/** A deliberate break of documented behaviour, to prove the suite catches it. */
export interface Defect {
  readonly surface: Surface;
  /** The rules whose cases must fail with this defect on, and no others. */
  readonly breaks: readonly RuleId[];
  readonly description: string;
  /** Shows only while the target is under load: the idle self-test leaves it out; `conformance --under-load` proves it. */
  readonly onlyUnderLoad?: boolean;
}

/** Declares a surface's defects; ids are kebab-case and start with the surface's short name. */
export function defineDefects<const T extends Record<string, Defect>>(d: T): T {
  return d;
}

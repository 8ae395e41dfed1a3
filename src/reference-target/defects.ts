import { AgentsDefects } from './agents/defects.js';
import { AlertsDefects, WebhooksDefects } from './alerts/defects.js';
import { CallsDefects } from './calls/defects.js';
import { ChatDefects } from './chat/defects.js';
import { MessagingDefects } from './messaging/defects.js';
import { RecordsDefects } from './records/defects.js';
import { VoiceDefects } from './voice/defects.js';

/**
 * Named defects of the reference target (`dialtone target --defect ID`), one table per surface.
 * The defect self-test starts the target with each and checks the suite fails exactly `breaks`.
 */
export const Defects = {
  ...ChatDefects,
  ...AgentsDefects,
  ...AlertsDefects,
  ...WebhooksDefects,
  ...MessagingDefects,
  ...VoiceDefects,
  ...RecordsDefects,
  ...CallsDefects,
} as const;
export type DefectId = keyof typeof Defects;

/** Whether `id` names a known defect. */
export function isDefectId(id: string): id is DefectId {
  return Object.hasOwn(Defects, id);
}

/** The set of defects a target runs with; `has` is the one question target code asks. */
export class DefectSet {
  readonly #ids: ReadonlySet<DefectId>;
  constructor(ids: Iterable<DefectId> = []) {
    this.#ids = new Set(ids);
  }
  has(id: DefectId): boolean {
    return this.#ids.has(id);
  }
  get ids(): DefectId[] {
    return [...this.#ids];
  }
}

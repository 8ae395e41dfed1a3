// k6/x/dialtone-voice: dialtone's own module, voice calls on werift (module.ts).
import { describeModule, type ModuleCode } from '../module-description.js';

/** k6/x/dialtone-voice, as the engine provides it. */
export const description = describeModule({
  names: ['k6/x/dialtone-voice'],
  own: 'k6 has no WebRTC module',
  code: async () => (await import('./module.js')).voiceModule as ModuleCode,
});

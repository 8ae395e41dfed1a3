import type { SurfaceModule } from '../surface.js';
import { registerAudio } from './audio.js';
import { registerConcurrency } from './concurrency.js';
import { registerRecordsControl } from './control-routes.js';
import { registerList } from './list.js';
import { recordsOf } from './store.js';

/**
 * Conversation records (document 2): the conversations list (v1, v2, v3), the concurrency series
 * and audio, on the runtime host beside the chat routes. Records are the seeded history plus the
 * conversations the target served, read at request time.
 */
export const recordsSurface: SurfaceModule = {
  host: 'base_url',
  create: (ctx) => {
    const store = recordsOf(ctx);
    return {
      register: (app) => {
        registerList(app, ctx, store);
        registerConcurrency(app, ctx, store);
        registerAudio(app, ctx, store);
      },
      control: (app) => registerRecordsControl(app, store),
    };
  },
};

import type { FastifyInstance } from 'fastify';
import { isRecord } from '../http.js';
import { applySettings, defaultSettings, type Project } from './projects.js';
import type { RecordsStore } from './store.js';

type ProjectParams = { projectId: string };

const settingsView = (p: Project) => ({
  transcript: p.settings.transcript,
  streaming: p.settings.streaming,
  translation: p.settings.translation,
  bridge: p.settings.bridge,
  internal_error: p.settings.internalError,
  enable_whitelist: p.settings.whitelist.enabled,
  whitelist_fields: p.settings.whitelist.fields,
  metrics: p.settings.metrics,
});

/**
 * Test-only records endpoints under `/records/…` of the control surface: mint a project with its
 * own settings and keys (so cases that turn transcript visibility, streaming, whitelisting,
 * translation or metrics on and off never disturb the reference project), change its settings, and
 * read a record's state as the target holds it.
 */
export function registerRecordsControl(app: FastifyInstance, store: RecordsStore): void {
  app.post('/records/projects', async (req, reply) => {
    const settings = defaultSettings();
    const bad = applySettings(settings, isRecord(req.body) ? req.body : {});
    if (bad) return reply.code(400).send({ error_message: `bad setting: ${bad}` });
    const m = store.mint(settings);
    return reply.code(201).send({
      account_id: m.project.accountId,
      project_id: m.project.projectId,
      project_slug: m.project.projectSlug,
      api_key: m.apiKey,
      api_key_no_pii: m.apiKeyNoPii,
      settings: settingsView(m.project),
    });
  });

  const projectOr404 = (id: string) => store.project(store.byKey('main')?.accountId ?? '', id);

  app.get<{ Params: ProjectParams }>('/records/projects/:projectId/settings', async (req, reply) => {
    const p = projectOr404(req.params.projectId);
    return p ? settingsView(p) : reply.code(404).send({ error_message: 'no such project' });
  });

  app.put<{ Params: ProjectParams }>('/records/projects/:projectId/settings', async (req, reply) => {
    const p = projectOr404(req.params.projectId);
    if (!p) return reply.code(404).send({ error_message: 'no such project' });
    if (p.key === 'main') return reply.code(409).send({ error_message: 'the reference project is shared by every case: mint a project instead' });
    const bad = applySettings(p.settings, isRecord(req.body) ? req.body : {});
    return bad ? reply.code(400).send({ error_message: `bad setting: ${bad}` }) : settingsView(p);
  });

  app.get<{ Params: { id: string } }>('/records/conversations/:id', async (req, reply) => {
    const found = store.find(req.params.id);
    if (!found) return reply.code(404).send({ error_message: 'no such conversation' });
    return { id: found.record.id, project_id: found.project.projectId, in_progress: found.record.inProgress, state: store.stateOf(found.record) };
  });
}

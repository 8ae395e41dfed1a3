import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorEntry } from '../../contract/rule.js';
import { sendError } from '../http.js';
import type { KeyGrant, Project } from './projects.js';
import type { RecordsStore } from './store.js';

/** The four auth and tenancy errors each records API defines in its own catalogue. */
export interface AuthErrors {
  readonly MISSING_KEY: ErrorEntry;
  readonly INVALID_KEY: ErrorEntry;
  readonly FORBIDDEN: ErrorEntry;
  readonly NOT_FOUND: ErrorEntry;
}

/** An authorised request: the project of the path and what its key may do. */
export interface Authorised {
  readonly project: Project;
  readonly grant: KeyGrant;
}

/**
 * Checks the `x-api-key` of a records request (conversations, concurrency, audio) in the documented
 * order: a missing or unknown key is 401, an unknown account or project 404, and a valid key
 * issued for another project 403 (it is not authorised for this project's data). Header names
 * match in any case, as HTTP has them.
 */
export function authorise(
  store: RecordsStore,
  req: FastifyRequest,
  reply: FastifyReply,
  errors: AuthErrors,
  path: { account: string; project: string },
  options: { allowOtherProject?: boolean } = {},
): Authorised | undefined {
  const raw = req.headers['x-api-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined || key === '') {
    sendError(reply, errors.MISSING_KEY);
    return undefined;
  }
  const grant = store.grant(key);
  if (!grant) {
    sendError(reply, errors.INVALID_KEY);
    return undefined;
  }
  const project = store.project(path.account, path.project);
  if (!project) {
    sendError(reply, errors.NOT_FOUND);
    return undefined;
  }
  if (grant.projectKey !== project.key && !options.allowOtherProject) {
    sendError(reply, errors.FORBIDDEN);
    return undefined;
  }
  return { project, grant };
}

import { describe, expect, it } from 'vitest';
import type { LoadedProfile } from '../profile/load.js';
import { parseProfile } from '../profile/load.js';
import { missingFor } from './surfaces.js';

const loaded = (hosts: Record<string, string>, secrets: LoadedProfile['secrets']): LoadedProfile => ({
  profile: parseProfile({ name: 'p', environment: 'sandbox', region: 'us-1', hosts, account_id: 'a', project_id: 'p' }, 'p.json'),
  path: 'p.json',
  secrets,
});

describe('missingFor', () => {
  it('lets a surface run when its host and credentials are named', () => {
    expect(missingFor('chat', loaded({ base_url: 'http://h' }, { chat_api_key: 'k', chat_connector_token: 't' }))).toBeUndefined();
  });

  it('names the missing host so the skip reason says what to add', () => {
    expect(missingFor('messaging', loaded({ base_url: 'http://h' }, { messaging_connector_token: 't' }))).toBe('the profile names no hosts.messaging_url');
  });

  it('names the missing credential when the host is there', () => {
    expect(missingFor('chat', loaded({ base_url: 'http://h' }, { chat_api_key: 'k' }))).toBe('the profile names no credentials.chat_connector_token');
  });
});

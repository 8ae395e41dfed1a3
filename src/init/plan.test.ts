import { describe, expect, it } from 'vitest';
import { ciSecrets, initFiles, nextSteps } from './plan.js';
import { credentialVariables, profileText } from './profile-template.js';
import { gateWorkflow } from './workflows.js';

const o = { environments: ['staging', 'pre-release'], engine: 'builtin' as const, scenarios: ['chat-turns'] };

describe('the plan of dialtone init', () => {
  it('writes a profile per environment, then the gate and the nightly', () => {
    const files = initFiles(o);
    expect(files.map((f) => f.path)).toEqual([
      'dialtone/profiles/staging.json',
      'dialtone/profiles/pre-release.json',
      '.github/workflows/dialtone-gate.yml',
      '.github/workflows/dialtone-nightly.yml',
    ]);
    expect(files[0]?.text).toBe(profileText('staging'));
    expect(files[2]?.text).toBe(gateWorkflow(o));
  });

  it("asks for the secrets of the gate's and the nightly's environments, each once", () => {
    expect(ciSecrets(['staging', 'pre-release'])).toEqual([...credentialVariables('pre-release'), ...credentialVariables('staging')]);
    expect(ciSecrets(['qa'])).toEqual(credentialVariables('qa'));
  });

  it('ends with two lines: what to fill in and which secrets to add, then the first run', () => {
    const [next, then] = nextSteps(['staging', 'pre-release']);
    expect(next).toMatch(/^next: fill in the hosts, ids and chat_script of dialtone\/profiles\/staging\.json, dialtone\/profiles\/pre-release\.json/);
    expect(next).toMatch(/secrets the workflows' headers list \(PRE_RELEASE_\*, STAGING_\*, one per credential\)$/);
    expect(then).toBe('then: npx dialtone conformance --target dialtone/profiles/pre-release.json, with PRE_RELEASE_* set');
  });
});

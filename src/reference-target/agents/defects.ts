import { defineDefects } from '../defect.js';

/** Defects of the agent build-and-deploy interface (document 3). Each breaks documented rules the way a real regression would. */
export const AgentsDefects = defineDefects({
  'agents-regionless-served': {
    surface: 'agents',
    breaks: ['agents.host.region-required'],
    description: 'The host without a region serves the agent API as if it were regional.',
  },
  'agents-name-129-accepted': {
    surface: 'agents',
    breaks: ['agents.agent.name-max-128'],
    description: 'Off by one: an agent name of 129 characters is accepted.',
  },
  'agents-other-workspace-allowed': {
    surface: 'agents',
    breaks: ['agents.auth.permission-403'],
    description: "A key of another workspace may edit this workspace's agents.",
  },
  'agents-merge-diverged-accepted': {
    surface: 'agents',
    breaks: ['agents.merge.diverged-409', 'agents.errors.409-conflict'],
    description: 'A diverged branch is merged (200), overwriting the changes made on main.',
  },
  'agents-deployments-oldest-first': {
    surface: 'agents',
    breaks: ['agents.deployments.newest-first', 'agents.deployments.limit-caps-count'],
    description: 'The deployments list is ordered oldest first, so limit keeps the oldest ones.',
  },
  'agents-environment-optional': {
    surface: 'agents',
    breaks: ['agents.deployments.environment-required'],
    description: 'The deployments list without environment answers 200 with every environment.',
  },
  'agents-promote-created-at-renamed': {
    surface: 'agents',
    breaks: ['agents.deployments.record-fields'],
    description:
      "Promote answers its deployment through a serializer of its own that lower-cases the timestamp's name (createdat); publish and the list " +
      'still say createdAt.',
  },
  'agents-name-counted-in-bytes': {
    surface: 'agents',
    breaks: ['agents.agent.name-max-128'],
    description:
      'The 1 to 128 name length is counted in UTF-8 bytes (a VARCHAR(128) in a byte-counting column), so a 128-character Cyrillic or CJK name is ' +
      'refused while an ASCII one passes.',
  },
  'agents-realtime-requires-publish': {
    surface: 'agents',
    breaks: ['agents.realtime.immediate-no-publish'],
    description: 'Real-time config variables are stored but only take effect at the next publish.',
  },
});

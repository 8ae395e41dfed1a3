// `k6/execution` (/javascript-api/k6-execution/): what the VU, its scenario and the run are doing now.
import type { VuHost } from '../../types.js';

/** The `k6/execution` module for one VU: getters, so every read is current. */
export function executionModule(vu: VuHost & { vuTags: Record<string, string> }) {
  const x = vu.exec;
  const exec = {
    instance: {
      get iterationsInterrupted() {
        return x.iterationsInterrupted();
      },
      get iterationsCompleted() {
        return x.iterationsCompleted();
      },
      get vusActive() {
        return x.vusActive();
      },
      get vusInitialized() {
        return x.vusInitialized();
      },
      get currentTestRunDuration() {
        return x.currentTestRunDuration();
      },
    },
    scenario: {
      get name() {
        return x.scenarioName;
      },
      get executor() {
        return x.executor;
      },
      get startTime() {
        return x.scenarioStartTime;
      },
      get progress() {
        return x.progress();
      },
      get iterationInInstance() {
        return x.iterationInInstance;
      },
      get iterationInTest() {
        return x.iterationInTest;
      },
    },
    vu: {
      get idInInstance() {
        return vu.idInInstance;
      },
      get idInTest() {
        return vu.id;
      },
      get iterationInInstance() {
        return x.vuIterationInInstance;
      },
      get iterationInScenario() {
        return x.vuIterationInScenario;
      },
      metrics: {
        tags: vu.vuTags,
        metadata: {} as Record<string, string>,
      },
      get tags() {
        return vu.vuTags;
      },
    },
    test: {
      abort: (message?: string) => x.abort(message),
      fail: (message?: string) => x.fail(message),
      get options() {
        return vu.options;
      },
    },
  };
  return { default: exec, ...exec };
}

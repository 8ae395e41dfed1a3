// Shared by the Node side (which writes it) and the k6 side (which reads it): types and data only.
import type { PlatformNames } from '../spec/names.js';

/** How hard a run pushes (the workload, `--workload`): a short check, the nightly SLO run, or a ramp to find the knee. */
export type WorkloadName = 'smoke' | 'nightly' | 'capacity';
export const WORKLOADS: readonly WorkloadName[] = ['smoke', 'nightly', 'capacity'];

/** Everything a scenario needs, handed to k6 as JSON in DIALTONE_LOAD. Holds no secret values. */
export interface LoadConfig {
  readonly scenario: string;
  readonly profile: WorkloadName;
  readonly target: {
    readonly name: string;
    /** `reference` for the embedded target (it serves the browser voice client page), `real` otherwise. */
    readonly kind?: 'reference' | 'real' | undefined;
    readonly hosts: Readonly<Record<string, string>>;
    readonly api_version: string;
    readonly account_id: string;
    readonly project_id: string;
    readonly variant_id?: string | undefined;
    readonly chat_script: { readonly handoff_message: string; readonly goodbye_message: string };
    /** X-Host of the messaging access-token request (the profile's `messaging_host`); absent: the reference's domain. */
    readonly messaging_host?: string | undefined;
    /** The names the documents leave out, as the platform spells them (the profile's `names`). */
    readonly names?: PlatformNames | undefined;
    /** The conversation-records window conversations-paging walks: the reference's seeded history, or the day before yesterday. */
    readonly records_window?: { readonly start_time: string; readonly end_time: string } | undefined;
  };
  /** Credential name to the environment variable holding it; VUs read the value from __ENV. */
  readonly secretEnv: Readonly<Record<string, string>>;
  /** Absolute path of the data file made in Node before the run (faker texts). */
  readonly dataFile: string;
  /** Browser scenarios: the voice client page (HTML) the scenario serves to its own pages with page.route. */
  readonly voiceClientFile?: string;
  /** From --rate, --duration and --max-vus: replace the profile's arrival rate (per second), length and VU cap. */
  readonly overrides?: { readonly rate?: number | undefined; readonly duration?: string | undefined; readonly maxVUs?: number | undefined } | undefined;
}

/** The environment variable that carries the LoadConfig JSON into k6. */
export const LOAD_ENV = 'DIALTONE_LOAD';

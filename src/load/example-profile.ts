// The example profile of docs/real-environment.md (staging-us), for the tests of what is written from a real
// environment's profile (the k6-operator and k8s-job manifests). Credentials are references to variables, never values.

/** The staging-us profile of docs/real-environment.md. */
export const EXAMPLE_PROFILE = {
  name: 'staging-us',
  environment: 'pre-release',
  region: 'us-1',
  api_version: 'v1',
  hosts: { base_url: 'https://runtime.us-1.example.com' },
  account_id: 'acme',
  account_id_alt: 'ACCOUNT-1234',
  project_id: 'support',
  project_id_alt: 'PROJECT-5678',
  credentials: { chat_api_key: { env: 'ACME_CHAT_API_KEY' }, chat_connector_token: { env: 'ACME_CHAT_TOKEN' } },
  chat_script: { handoff_message: 'I want to talk to a human', goodbye_message: 'Goodbye' },
} as const;

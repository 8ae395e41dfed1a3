// HTTP Digest authentication, as k6's "HTTP Authentication" examples do it
// (https://grafana.com/docs/k6/latest/examples/http-authentication/): the credentials in the URL and `auth: 'digest'`.
// Params (https://grafana.com/docs/k6/latest/javascript-api/k6-http/params/): "auth: The authentication method used
// for the request. It currently supports digest, ntlm, and basic authentication methods."
import { check } from 'k6';
import http from 'k6/http';

export const options = { vus: 1, iterations: 2 };

const username = 'user';
const password = 'passwd';

export default function () {
  const host = __ENV.BASE_URL.replace('http://', '');
  const res = http.get(`http://${username}:${password}@${host}/digest-auth/auth/${username}/${password}`, { auth: 'digest' });
  check(res, {
    'status is 200': (r) => r.status === 200,
    'is authenticated': (r) => r.json().authenticated === true,
    'is correct user': (r) => r.json().user === username,
  });
}

// Follows k6/secrets (https://grafana.com/docs/k6/latest/javascript-api/k6-secrets/) and the secret source pages
// (https://grafana.com/docs/k6/latest/using-k6/secret-source/): secrets read from the default source and from named
// ones, sent on the wire, and logged, which k6 shows as ***SECRET_REDACTED***. Run with
//   --secret-source=file=name=files,filename=data/secrets.txt,default --secret-source=mock=name=other,cool="not cool secret"
// and K6_SECRET_SOURCE=mock=name=fromenv,key=env-secret-value.
import { check } from 'k6';
import http from 'k6/http';
import secrets from 'k6/secrets';

export const options = { iterations: 2 };

export default async () => {
  const token = await secrets.get('token'); // from the default source
  const signing = await secrets.get('signing');
  const other = await secrets.source('other').get('cool');
  const fromEnv = await secrets.source('fromenv').get('key');
  console.log(`token=${token} signing=${signing} other=${other} env=${fromEnv}`);
  let missing = 'none';
  try {
    await secrets.get('no-such-secret');
  } catch (e) {
    missing = String(e);
  }
  const res = http.get(`${__ENV.BASE_URL}/anything/secret`, {
    headers: { Authorization: `Bearer ${token}`, 'X-Other': other, 'X-Env': fromEnv, 'X-Missing': missing.slice(0, 80) },
  });
  check(res, { [`accepted ${token}`]: (r) => r.status === 200 });
  if (__ITER === 1) throw new Error(`refused with ${token}`);
};

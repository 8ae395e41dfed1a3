// Follows k6's open() reference (https://grafana.com/docs/k6/latest/javascript-api/init-context/open/) and http.post's
// (https://grafana.com/docs/k6/latest/javascript-api/k6-http/post/): a text file and a binary file ('b') read in the
// init context and posted as bodies.
import http from 'k6/http';

const text = open('./data/payload.txt');
const logoBin = open('./data/logo.bin', 'b');

export const options = {
  iterations: 2,
};

export default function () {
  http.post(`${__ENV.BASE_URL}/anything/text`, text, { headers: { 'Content-Type': 'text/plain' } });
  // Using a binary array as body. Make sure to open() the file as binary
  // (with the 'b' argument).
  http.post(`${__ENV.BASE_URL}/anything/binary`, logoBin, { headers: { 'Content-Type': 'image/png' } });
}

// A form whose field holds several values, as an HTML form's multi-select sends it. http.post()
// (https://grafana.com/docs/k6/latest/javascript-api/k6-http/post/): "Request body; objects will be
// `x-www-form-urlencoded`." The docs say nothing of arrays; k6 adds each element under the key, so the key repeats
// (`tag=a&tag=b`), as a browser's form does.
import http from 'k6/http';

export const options = { vus: 1, iterations: 1 };

export default function () {
  http.post(`${__ENV.BASE_URL}/anything/form`, { tag: ['a', 'b c'], name: 'corpus', n: [1, 2] });
}

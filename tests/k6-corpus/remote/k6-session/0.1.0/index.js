// A session module of dialtone's own, shaped like the HTTP wrappers k6 scripts import from a CDN: a base URL and
// headers kept for every request, k6/http underneath (a remote module importing a k6 module).
import http from 'k6/http';

export class Session {
  constructor(baseURL, headers = {}) {
    this.baseURL = baseURL;
    this.headers = headers;
  }

  request(method, path, body) {
    return http.request(method, `${this.baseURL}${path}`, body, { headers: this.headers });
  }

  get(path) {
    return this.request('GET', path, null);
  }

  post(path, body) {
    return this.request('POST', path, body);
  }
}

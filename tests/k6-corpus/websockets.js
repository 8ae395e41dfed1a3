// Follows k6's k6/websockets reference, WebSocket.onmessage (https://grafana.com/docs/k6/latest/javascript-api/k6-websockets/websocket/websocket-onmessage/)
// and WebSocket.onopen: a message sent on open, its echo checked, the socket closed.

import { check } from 'k6';
import { WebSocket } from 'k6/websockets';

export const options = {
  scenarios: {
    sockets: {
      executor: 'per-vu-iterations',
      vus: 2,
      iterations: 2,
    },
  },
};

export default function () {
  const ws = new WebSocket(`${__ENV.BASE_URL.replace('http', 'ws')}/ws`);
  ws.onopen = () => {
    ws.send(`hello from VU ${__VU}`);
  };
  ws.onmessage = (e) => {
    check(e, { echoed: (m) => m.data === `hello from VU ${__VU}` });
    ws.close();
  };
}

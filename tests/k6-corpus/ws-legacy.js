// Follows k6's WebSockets page, "Timeouts" (https://grafana.com/docs/k6/latest/using-k6/protocols/websockets/#timeouts)
// and ws.connect() (https://grafana.com/docs/k6/latest/javascript-api/k6-ws/connect/): the legacy k6/ws module, its
// callback setting the handlers, a message echoed, the socket closed from socket.setTimeout, the 101 checked.

import { check } from 'k6';
import ws from 'k6/ws';

export const options = {
  vus: 3,
  iterations: 3,
};

export default function () {
  const url = `${__ENV.BASE_URL.replace('http', 'ws')}/ws`;
  const params = { tags: { my_tag: 'hello' } };
  const res = ws.connect(url, params, (socket) => {
    socket.on('open', () => {
      socket.send('hello');
    });
    socket.on('message', (data) => {
      check(data, { 'echoed hello': (d) => d === 'hello' });
    });
    socket.setTimeout(() => {
      socket.close();
    }, 1000);
  });
  check(res, { 'status is 101': (r) => r && r.status === 101 });
}

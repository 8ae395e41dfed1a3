// k6/experimental/websockets: the module's earlier name (https://grafana.com/docs/k6/latest/javascript-api/k6-experimental/websockets/),
// which k6/websockets graduated from. The same browser-style socket: open, send, the echo back, close.
import { WebSocket } from 'k6/experimental/websockets';

export const options = { iterations: 2 };

export default function () {
  const ws = new WebSocket(`${__ENV.BASE_URL.replace('http', 'ws')}/ws`);
  ws.onopen = () => ws.send('hello');
  ws.onmessage = () => ws.close();
}

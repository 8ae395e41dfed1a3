// Bytes as lowercase hex, two digits each.
export function hex(bytes) {
  return bytes.map((x) => x.toString(16).padStart(2, '0')).join('');
}

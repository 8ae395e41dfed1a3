// Output of a child that runs beside others, passed on a whole line at a time so that lines of two children never splice.

/**
 * Relays a child's stdout and stderr to this process's, each line whole and prefixed with `prefix` (none by default).
 *
 * @example
 * relayWholeLines(spawn('node', ['x.mjs'], { stdio: ['ignore', 'pipe', 'pipe'] }), '[node 24] ');
 */
export function relayWholeLines(child, prefix = '') {
  for (const [from, to] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    let rest = '';
    from.setEncoding('utf8');
    from.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      if (lines.length > 0) to.write(lines.map((l) => `${prefix}${l}\n`).join(''));
    });
    from.on('end', () => rest && to.write(`${prefix}${rest}\n`));
  }
}

// What does not belong in the project's history: its reports, what `dialtone target` writes locally (.dialtone/: the
// reference target's profile and the .env file with its credentials), and node_modules/, which npm ci makes again in CI
// (an `npm init -y` project has no .gitignore, and a first commit would carry the whole tree).

/** The lines `dialtone init` makes sure the project's .gitignore has. */
export const IGNORE_LINES = ['node_modules/', 'reports/', '.dialtone/'] as const;

/** `reports`, `/reports` and `reports/` all keep the project's reports folder out: compare entries without the slashes. */
const bare = (line: string) => line.trim().replace(/^\//, '').replace(/\/$/, '');

/**
 * The lines of IGNORE_LINES that a .gitignore's text does not have yet (all of them when there is no file).
 *
 * @example
 * missingIgnoreLines('node_modules/\n/reports\n'); // ['.dialtone/']
 * missingIgnoreLines(undefined); // ['node_modules/', 'reports/', '.dialtone/']
 */
export function missingIgnoreLines(existing: string | undefined): string[] {
  const have = new Set((existing ?? '').split(/\r?\n/).map(bare));
  return IGNORE_LINES.filter((line) => !have.has(bare(line)));
}

/**
 * What to append to a .gitignore so it has `lines`: a newline first when its last line has none, so nothing is glued
 * to the user's last entry.
 *
 * @example
 * appendix('node_modules/', ['reports/']); // '\nreports/\n'
 */
export function appendix(existing: string, lines: readonly string[]): string {
  const separator = existing === '' || existing.endsWith('\n') ? '' : '\n';
  return `${separator}${lines.join('\n')}\n`;
}

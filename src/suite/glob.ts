/**
 * Turns a rule-id glob (`chat.*`, `chat.create.?ody-optional`, several joined by commas) into a
 * regular expression source that matches case titles, which start with the rule id.
 *
 * @example
 * new RegExp(globToPattern('chat.close.*')).test('chat.close.success-true closes …') // true
 */
export function globToPattern(glob: string): string {
  const alternatives = glob
    .split(',')
    .map((g) => g.trim())
    .filter(Boolean)
    .map((g) =>
      g
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '[^ ]*')
        .replace(/\?/g, '[^ ]'),
    );
  return `^(?:${alternatives.join('|')})(?: |$)`;
}

/** Whether a rule id matches the glob. */
export function matchesGlob(id: string, glob: string | undefined): boolean {
  return glob === undefined || new RegExp(globToPattern(glob)).test(id);
}

/**
 * The surfaces a glob is limited to, when every alternative starts with a literal surface name;
 * undefined when any alternative could match every surface. Used to load only those case files.
 *
 * @example
 * surfacesOf('chat.*,messaging.ws.*') // ['chat', 'messaging']
 * surfacesOf('*.auth.*') // undefined
 */
export function surfacesOf(glob: string | undefined): string[] | undefined {
  if (glob === undefined) return undefined;
  const heads = glob
    .split(',')
    .map((g) => g.trim())
    .filter(Boolean)
    .map((g) => g.split('.')[0] ?? '');
  if (heads.length === 0 || heads.some((h) => h === '' || /[*?]/.test(h))) return undefined;
  return [...new Set(heads)];
}

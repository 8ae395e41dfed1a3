/**
 * Reads a package list of the kind this workplace keeps (TSV, a header line, the name first) for the packages it marks
 * as not to be used. dialtone never reads such a list by itself (its users' machines have none); a test hands one in.
 */

/** The note a list puts at the start of a summary: `[tested here: …]`, from tests on the machine, not the authors. */
const TESTED_NOTE = /^\[tested here: ([^\]]*)\]/;

/** What such a note says when the package may not be used at all (as opposed to "pin 1.2.3"). */
const DO_NOT_USE = /not-to-use|use something else|not an open-source|paid licen[cs]e|non-commercial/i;

/**
 * The names a list marks not-to-use, each with the list's words: a column that is exactly `not-to-use` (the NuGet, Maven
 * and Go lists' version column), or a `[tested here: …]` note that says to use something else (the npm list's form).
 * Only the note counts among free text: an author's summary saying "why use something else?" marks nothing.
 *
 * @example
 * notToUse('name\tversion\tdownloads\tsummary\nremotion\t4.0.5\t9\t[tested here: it has its own licence, not an open-source one: use something else]
 * Videos\n');
 * // Map { 'remotion' => 'it has its own licence, not an open-source one: use something else' }
 */
export function notToUse(tsv: string): Map<string, string> {
  const out = new Map<string, string>();
  const lines = tsv.split('\n');
  for (const line of lines.slice(1)) {
    // Most rows say nothing of the kind; test the cheap way before splitting 200,000 lines.
    if (!line.includes('not-to-use') && !line.includes('[tested here:')) continue;
    const [name, ...rest] = line.replace(/\r$/, '').split('\t');
    if (!name) continue;
    const marked = rest.indexOf('not-to-use');
    if (marked >= 0) {
      // The reason is the row's last column that says something ("none: a paid licence; use something else").
      const reason = [...rest.slice(marked + 1)].reverse().find((c) => c.trim() && c !== 'unread') ?? 'not-to-use';
      out.set(name, reason.trim());
      continue;
    }
    const note = rest.map((c) => TESTED_NOTE.exec(c)?.[1]).find((n) => n !== undefined);
    if (note && DO_NOT_USE.test(note)) out.set(name, note.trim());
  }
  return out;
}

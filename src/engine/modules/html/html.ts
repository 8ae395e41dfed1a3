// `k6/html` (/javascript-api/k6-html/): `parseHTML(src)` gives a Selection, "jQuery-like" (k6 wraps goquery); here
// on cheerio (MIT), whose API is jQuery's. A Selection's traversals give Selections; `each` and `get` give Elements
// whose DOM-like properties are methods, as k6's are (`el.nodeName()`, `el.getAttribute('href')`).
import { type Cheerio, type CheerioAPI, type contains, load } from 'cheerio';

/** A parsed node, as cheerio types it (domhandler's node union). */
type AnyNode = Parameters<typeof contains>[1];

/** The parts of a parsed node this module reads (domhandler's nodes, as cheerio makes them). */
interface DomNode {
  readonly type: string;
  readonly name?: string;
  readonly attribs?: Record<string, string>;
  readonly data?: string;
  readonly parent: DomNode | null;
  readonly children?: DomNode[];
}

type Nodes = Cheerio<AnyNode>;
type SelectionFilter = string | Selection | ((index: number, s: Selection) => unknown);

/** The node types k6's Element.nodeType() gives, by domhandler's type names. */
const NODE_TYPE: Readonly<Record<string, number>> = { tag: 1, script: 1, style: 1, text: 3, cdata: 4, comment: 8, root: 9, directive: 10 };

/** A set of nodes of one parsed document, with k6's Selection methods. */
export class Selection {
  readonly #$: CheerioAPI;
  readonly #c: Nodes;
  constructor($: CheerioAPI, c: Nodes) {
    this.#$ = $;
    this.#c = c;
  }

  #wrap(c: Nodes): Selection {
    return new Selection(this.#$, c);
  }

  /** cheerio's filter argument for a k6 one: a selector, a Selection's nodes, or fn(index, Selection). */
  #filter(f: SelectionFilter): string | Nodes | ((i: number, el: AnyNode) => boolean) {
    if (typeof f === 'string') return f;
    if (f instanceof Selection) return f.#c;
    return (i, el) => Boolean(f(i, this.#wrap(this.#$(el))));
  }

  attr(name: string, def?: string): string | undefined {
    return this.#c.attr(name) ?? def;
  }
  children(sel?: string): Selection {
    return this.#wrap(sel ? this.#c.children(sel) : this.#c.children());
  }
  closest(sel: string): Selection {
    return this.#wrap(this.#c.closest(sel));
  }
  contents(): Selection {
    return this.#wrap(this.#c.contents());
  }
  contentsFiltered(sel: string): Selection {
    return this.#wrap(this.#c.contents().filter(sel));
  }
  data(key?: string): unknown {
    return key === undefined ? this.#c.data() : this.#c.data(key);
  }
  /** `each(fn(index, Element))`: fn runs for every node; the Selection is returned. */
  each(fn: (index: number, el: Element) => unknown): Selection {
    this.#c.each((i, el) => {
      fn(i, new Element(this.#$, el));
    });
    return this;
  }
  eq(i: number): Selection {
    return this.#wrap(this.#c.eq(i));
  }
  filter(f: SelectionFilter): Selection {
    return this.#wrap(this.#c.filter(this.#filter(f) as string));
  }
  find(sel: string): Selection {
    return this.#wrap(this.#c.find(sel));
  }
  first(): Selection {
    return this.#wrap(this.#c.first());
  }
  /** The node at `i` as an Element; undefined past the end. */
  get(i: number): Element | undefined {
    const el = this.#c.get(i);
    return el ? new Element(this.#$, el) : undefined;
  }
  has(sel: string): Selection {
    return this.#wrap(this.#c.has(sel));
  }
  html(): string | undefined {
    return this.#c.html() ?? undefined;
  }
  is(f: SelectionFilter): boolean {
    return this.#c.is(this.#filter(f) as string);
  }
  last(): Selection {
    return this.#wrap(this.#c.last());
  }
  /** `map(fn(index, Selection))`: what fn returned for each node, in an Array. */
  map(fn: (index: number, s: Selection) => unknown): unknown[] {
    return this.#c.toArray().map((el, i) => fn(i, this.#wrap(this.#$(el))));
  }
  next(sel?: string): Selection {
    return this.#wrap(this.#c.next(sel));
  }
  nextAll(sel?: string): Selection {
    return this.#wrap(this.#c.nextAll(sel));
  }
  nextUntil(sel?: string, filter?: string): Selection {
    return this.#wrap(this.#c.nextUntil(sel, filter));
  }
  not(f: SelectionFilter): Selection {
    return this.#wrap(this.#c.not(this.#filter(f) as string));
  }
  parent(sel?: string): Selection {
    return this.#wrap(this.#c.parent(sel));
  }
  parents(sel?: string): Selection {
    return this.#wrap(this.#c.parents(sel));
  }
  parentsUntil(sel?: string, filter?: string): Selection {
    return this.#wrap(this.#c.parentsUntil(sel, filter));
  }
  prev(sel?: string): Selection {
    return this.#wrap(this.#c.prev(sel));
  }
  prevAll(sel?: string): Selection {
    return this.#wrap(this.#c.prevAll(sel));
  }
  prevUntil(sel?: string, filter?: string): Selection {
    return this.#wrap(this.#c.prevUntil(sel, filter));
  }
  /** A form's fields as a query string (`a=1&b=2`). */
  serialize(): string {
    return this.#c.serialize();
  }
  /** A form's fields as `[{ name, value }]`. */
  serializeArray(): { name: string; value: string }[] {
    return this.#c.serializeArray();
  }
  /** A form's fields as `{ name: value }`. */
  serializeObject(): Record<string, string> {
    return Object.fromEntries(this.#c.serializeArray().map((f) => [f.name, f.value]));
  }
  siblings(sel?: string): Selection {
    return this.#wrap(this.#c.siblings(sel));
  }
  size(): number {
    return this.#c.length;
  }
  slice(start: number, end?: number): Selection {
    return this.#wrap(this.#c.slice(start, end));
  }
  /** The combined text of every node and its descendants. */
  text(): string {
    return this.#c.text();
  }
  /** Each node as a Selection of its own. */
  toArray(): Selection[] {
    return this.#c.toArray().map((el) => this.#wrap(this.#$(el)));
  }
  /** The value of the first input, select or textarea. */
  val(): string | undefined {
    const v = this.#c.val();
    return Array.isArray(v) ? v[0] : v;
  }
}

/** One node, with k6's Element methods (/javascript-api/k6-html/element/). */
export class Element {
  readonly #$: CheerioAPI;
  readonly #node: AnyNode;
  readonly #n: DomNode;
  constructor($: CheerioAPI, n: AnyNode) {
    this.#$ = $;
    this.#node = n;
    this.#n = n as unknown as DomNode;
  }
  #el(n: DomNode | AnyNode | null | undefined): Element | undefined {
    return n ? new Element(this.#$, n as AnyNode) : undefined;
  }
  #elements(): DomNode[] {
    return (this.#n.children ?? []).filter((c) => NODE_TYPE[c.type] === 1);
  }
  #sibling(step: 1 | -1): DomNode | undefined {
    const all = this.#n.parent?.children ?? [];
    for (let i = all.indexOf(this.#n) + step; i >= 0 && i < all.length; i += step) if (NODE_TYPE[(all[i] as DomNode).type] === 1) return all[i];
    return undefined;
  }
  /** The tag's name as parsed (lower case: k6 wraps goquery, whose node names are), `#text`, `#comment`, `#document`. */
  nodeName(): string {
    if (NODE_TYPE[this.#n.type] === 1) return this.#n.name ?? '';
    return this.#n.type === 'root' ? '#document' : `#${this.#n.type}`;
  }
  nodeType(): number {
    return NODE_TYPE[this.#n.type] ?? 1;
  }
  nodeValue(): string | undefined {
    return this.#n.data;
  }
  id(): string {
    return this.#n.attribs?.id ?? '';
  }
  className(): string {
    return this.#n.attribs?.class ?? '';
  }
  classList(): string[] {
    return this.className().split(/\s+/).filter(Boolean);
  }
  getAttribute(name: string): string | undefined {
    return this.#n.attribs?.[name];
  }
  hasAttribute(name: string): boolean {
    return this.#n.attribs !== undefined && name in this.#n.attribs;
  }
  hasAttributes(): boolean {
    return Object.keys(this.#n.attribs ?? {}).length > 0;
  }
  /** `{ name: { name, value } }` for every attribute. */
  attributes(): Record<string, { name: string; value: string }> {
    return Object.fromEntries(Object.entries(this.#n.attribs ?? {}).map(([name, value]) => [name, { name, value }]));
  }
  textContent(): string {
    return this.#$(this.#node).text();
  }
  innerHTML(): string {
    return this.#$(this.#node).html() ?? '';
  }
  children(): Element[] {
    return this.#elements().map((c) => new Element(this.#$, c as unknown as AnyNode));
  }
  childElementCount(): number {
    return this.#elements().length;
  }
  hasChildNodes(): boolean {
    return (this.#n.children ?? []).length > 0;
  }
  firstElementChild(): Element | undefined {
    return this.#el(this.#elements()[0]);
  }
  lastElementChild(): Element | undefined {
    return this.#el(this.#elements().at(-1));
  }
  nextElementSibling(): Element | undefined {
    return this.#el(this.#sibling(1));
  }
  previousElementSibling(): Element | undefined {
    return this.#el(this.#sibling(-1));
  }
  parentElement(): Element | undefined {
    return this.#n.parent && NODE_TYPE[this.#n.parent.type] === 1 ? this.#el(this.#n.parent) : undefined;
  }
  parentNode(): Element | undefined {
    return this.#el(this.#n.parent);
  }
  matches(sel: string): boolean {
    return this.#$(this.#node).is(sel);
  }
  querySelector(sel: string): Element | undefined {
    return this.#el(this.#$(this.#node).find(sel).get(0));
  }
  querySelectorAll(sel: string): Element[] {
    return this.#$(this.#node)
      .find(sel)
      .toArray()
      .map((n) => new Element(this.#$, n));
  }
  /** The Selection of this node alone. */
  selection(): Selection {
    return new Selection(this.#$, this.#$(this.#node));
  }
  toString(): string {
    return `[object html.Node]`;
  }
}

/**
 * `parseHTML(src)`: "Parse an HTML string and populate a Selection object". Also what a Response's `html([selector])`
 * needs (k6/http): `parseHTML(body).find(selector)`.
 *
 * @example
 * parseHTML('<title>k6</title>').find('title').text(); // 'k6'
 */
export function parseHTML(src: unknown): Selection {
  const $ = load(typeof src === 'string' ? src : String(src ?? ''));
  return new Selection($, $.root());
}

/** The `k6/html` module. */
export function htmlModule() {
  return { parseHTML, Selection, Element };
}

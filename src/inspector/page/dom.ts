/**
 * A few DOM helpers: the page is built with plain elements, no framework. Every string becomes a text
 * node (never HTML), with the characters that could hide or disguise text made visible.
 */

/**
 * C0 controls other than tab and line feed, DEL, C1 controls, and the bidi overrides and isolates
 * (which can make text read in another order than it is): shown as `\u{…}`, like the server's log.
 */
// eslint-disable-next-line no-control-regex
const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Text as the page shows it: what an agent sent, with its invisible controls made visible. */
export function visible(text: string): string {
  return text.replace(HIDDEN, (c) => `\\u{${c.charCodeAt(0).toString(16)}}`);
}

/** Attributes whose text a person reads (tooltips, alternatives, labels). */
const READ_ATTRS = new Set(['title', 'alt', 'aria-label', 'placeholder']);

/** An http(s) URL to link to, or undefined: a card's `javascript:` or `data:` URL is never a link. */
export function safeHref(url: string | undefined): string | undefined {
  return url !== undefined && /^https?:\/\//i.test(url) ? url : undefined;
}

/** What may be a child of {@link h}: nodes, text, nothing (skipped), or lists of those. */
export type Child = Node | string | number | null | undefined | false | Child[];

/** Attributes of {@link h}: `class`, `for`, `on<event>` handlers, booleans (present when true), anything else as an attribute. */
export type Attrs = Record<
  string,
  string | number | boolean | null | undefined | ((ev: never) => void)
>;

/** Makes an element: `h('button', { type: 'button', onclick: go }, 'Go')`. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Attrs | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function')
      el.addEventListener(k.slice(2), v as EventListener);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, READ_ATTRS.has(k) ? visible(String(v)) : String(v));
  }
  append(el, children);
  return el;
}

/** Appends children (flattening lists, skipping nothing-values). */
export function append(el: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else
      el.appendChild(
        typeof c === 'string' || typeof c === 'number'
          ? document.createTextNode(visible(String(c)))
          : c,
      );
  }
}

/** Replaces an element's content. */
export function replace(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/** The element with this id (the page's skeleton has them all). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} is missing from the page`);
  return el as T;
}

/** `TASK_STATE_INPUT_REQUIRED` → `INPUT_REQUIRED`. */
export function shortState(state: string): string {
  return state.replace(/^TASK_STATE_/, '');
}

/** A task state as a coloured label (the colour is never the only cue: the name is written). */
export function stateChip(state: string): HTMLElement {
  const s = shortState(state);
  return h(
    'span',
    { class: `state state-${s.toLowerCase().replace(/_/g, '-')}` },
    s.replace(/_/g, ' '),
  );
}

/** Whether a task in this state will never change again. */
export function isTerminal(state: string): boolean {
  return ['COMPLETED', 'FAILED', 'CANCELED', 'REJECTED'].includes(shortState(state));
}

/** A clock time for the timeline: `14:03:07`. */
export function clock(at?: string): string {
  const d = at ? new Date(at) : new Date();
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleTimeString([], { hour12: false });
}

/** The first characters of an id, full id in the tooltip. */
export function shortId(id: string): HTMLElement {
  return h('code', { class: 'id', title: id }, id.length > 12 ? `${id.slice(0, 8)}…` : id);
}

/** Copies text to the clipboard; says so in the status line. */
export async function copy(text: string, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    announce(`${what} copied to the clipboard`);
  } catch {
    announce(`could not copy ${what}; select it and copy by hand`);
  }
}

/** Says something in the status line (read out by screen readers). */
export function announce(text: string, kind: 'info' | 'error' = 'info'): void {
  const el = byId('status');
  el.className = kind === 'error' ? 'status error' : 'status';
  el.textContent = visible(text);
}

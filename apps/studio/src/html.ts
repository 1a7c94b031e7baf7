/** Markup that is already safe: produced by `html` or `raw`, never by interpolating a plain string. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const entities: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for HTML element content and quoted attribute values alike. */
export function escapeHtml(text: string): string {
  // Most text needs nothing: test once before building a new string.
  return special.test(text) ? text.replace(specialAll, (character) => entities[character]!) : text;
}

const special = /[&<>"']/;
const specialAll = /[&<>"']/g;

export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) {
    let out = "";
    for (const item of value as readonly HtmlValue[]) out += render(item);
    return out;
  }
  return escapeHtml(String(value));
}

/**
 * The one way pages are written: every interpolated value is escaped unless it is `Html` (from another `html` or
 * `raw`); arrays are concatenated, null, undefined and false render as nothing. Library and run text can hold
 * anything, `<script>` included, and always shows as text.
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0]!;
  for (let index = 0; index < values.length; index++) out += render(values[index]!) + strings[index + 1]!;
  return new Html(out);
}

/** Trusted markup (our own constants only). */
export function raw(markup: string): Html {
  return new Html(markup);
}

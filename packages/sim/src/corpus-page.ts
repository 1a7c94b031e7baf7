import { SIMULATED_LABEL } from "./simulated-label.js";

/** The simulated web's page template and text helpers (`corpus.ts` builds the world's pages with them). */

export function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

export function formatCount(count: number): string {
  return count.toLocaleString("en-US");
}

const monthNames = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

export function humanDate(iso: string): string {
  const [year, month, day] = iso.split("-").map(Number) as [number, number, number];
  return `${monthNames[month - 1]} ${day}, ${year}`;
}

export interface PageParts {
  site: string;
  nav: string[];
  title: string;
  description: string;
  published?: string;
  body: string;
  aside?: string;
  seed: number;
}

/** A realistic page: navigation, a dated article, an aside and a footer, all labelled as simulated. */
export function renderPage(parts: PageParts): string {
  const nav = parts.nav
    .map((item) => `<li><a href="/${slugify(item)}">${escapeHtml(item)}</a></li>`)
    .join("");
  const byline = parts.published
    ? `<p class="byline">Published <time datetime="${parts.published}">${humanDate(parts.published)}</time></p>`
    : "";
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<title>${escapeHtml(parts.title)}</title>`,
    `<meta name="description" content="${escapeHtml(parts.description)}">`,
    '<meta name="generator" content="tfgrpo-sim (SIMULATED)">',
    parts.published ? `<meta name="date" content="${parts.published}">` : "",
    "</head>",
    "<body>",
    `<header class="site-header"><a class="logo" href="/">${escapeHtml(parts.site)}</a><nav aria-label="Main"><ul>${nav}</ul></nav>`,
    '<form class="search" action="/search"><input name="q" placeholder="Search"></form></header>',
    '<div class="cookie-banner">We use cookies to improve your experience. <button>Accept</button></div>',
    "<main>",
    `<article><h1>${escapeHtml(parts.title)}</h1>${byline}${parts.body}</article>`,
    parts.aside ? `<aside class="related"><h2>Related</h2>${parts.aside}</aside>` : "",
    "</main>",
    `<footer><p>&copy; ${escapeHtml(parts.site)}. All rights reserved.</p><p><a href="/privacy">Privacy</a> · <a href="/contact">Contact</a></p>`,
    `<p class="sim-label">${escapeHtml(SIMULATED_LABEL)} · world seed ${parts.seed}</p></footer>`,
    "</body>",
    "</html>",
  ]
    .filter((line) => line !== "")
    .join("\n");
}

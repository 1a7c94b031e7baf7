import { gfm } from "@joplin/turndown-plugin-gfm";
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import TurndownService from "turndown";

// linkedom's document; the DOM lib is not in this package's TypeScript lib list.
type PageDocument = ReturnType<typeof parseHTML>["document"];

export interface PageMarkdown {
  title: string;
  markdown: string;
}

const maxListedLinks = 60;

function createTurndown(): TurndownService {
  const turndown = new TurndownService({
    headingStyle: "atx",
    codeBlockStyle: "fenced",
    bulletListMarker: "-",
    emDelimiter: "_",
  });
  turndown.use(gfm);
  turndown.remove([
    "script",
    "style",
    "noscript",
    "iframe",
    "form",
    "button",
    "select",
    "svg",
    "canvas",
  ] as never);
  // A model cannot see images; their alt text is what carries meaning.
  turndown.addRule("image-alt", {
    filter: "img",
    replacement: (_content, node) => {
      const alt = (node as unknown as { getAttribute(name: string): string | null })
        .getAttribute("alt")
        ?.trim();
      return alt ? `[image: ${alt}]` : "";
    },
  });
  return turndown;
}

let sharedTurndown: TurndownService | undefined;

/**
 * Readable Markdown of an HTML page: Readability picks the main content (over linkedom, no browser), Turndown
 * writes it as Markdown with GFM tables, and links are made absolute. The page's other links (navigation) are
 * listed after the content, since a web agent needs them to move through a site.
 */
export function htmlToMarkdown(html: string, pageUrl: string): PageMarkdown {
  sharedTurndown ??= createTurndown();
  const turndown = sharedTurndown;
  // linkedom builds no <html>/<body> around a fragment; broken or partial pages are common, so add them.
  const wrapped = /<html[\s>]/i.test(html)
    ? html
    : `<!doctype html><html><head></head><body>${html}</body></html>`;
  const { document } = parseHTML(wrapped);
  const base = baseUrl(document, pageUrl);
  absolutizeLinks(document, base);
  const pageTitle = clean(document.querySelector("title")?.textContent ?? "");
  const allLinks = collectLinks(document);
  const bodyText = clean(document.body?.textContent ?? "");

  let article: { title?: string | null; content?: string | null; textContent?: string | null } | null = null;
  try {
    // Readability edits the tree it reads; everything needed from the original was taken above. Huge pages are
    // left to the fallback: Readability's cost grows faster than the page.
    article = new Readability(document, { charThreshold: 100, maxElemsToParse: 20_000 }).parse();
  } catch {
    article = null;
  }
  let contentHtml: string;
  const articleText = clean(article?.textContent ?? "");
  // Readability can keep too little of short or list-like pages; then the cleaned body is the better reading.
  if (article?.content && articleText.length >= Math.min(200, bodyText.length * 0.5)) {
    contentHtml = article.content;
  } else {
    const { document: fresh } = parseHTML(wrapped);
    absolutizeLinks(fresh, base);
    for (const element of fresh.querySelectorAll("script, style, noscript, template, nav, header, footer")) {
      element.remove();
    }
    contentHtml = fresh.body?.innerHTML ?? "";
  }
  let markdown = turndown.turndown(contentHtml || "");
  markdown = markdown.replace(/\n{3,}/g, "\n\n").trim();

  const extraLinks = allLinks
    .filter((link) => !markdown.includes(`](${link.href})`))
    .slice(0, maxListedLinks);
  if (extraLinks.length > 0) {
    markdown += `\n\n## Links on this page\n\n${extraLinks.map((link) => `- [${link.text}](${link.href})`).join("\n")}`;
  }
  const title =
    pageTitle || clean(article?.title ?? "") || clean(document.querySelector("h1")?.textContent ?? "");
  // An unclosed <title> swallows the page (browsers do the same): keep the title a title.
  return { title: title.slice(0, 300) || pageUrl, markdown };
}

function baseUrl(document: PageDocument, pageUrl: string): string {
  const href = document.querySelector("base[href]")?.getAttribute("href");
  if (!href) return pageUrl;
  try {
    return new URL(href, pageUrl).href;
  } catch {
    return pageUrl;
  }
}

function absolutizeLinks(document: PageDocument, base: string): void {
  for (const [selector, attribute] of [
    ["a[href]", "href"],
    ["img[src]", "src"],
  ] as const) {
    for (const element of document.querySelectorAll(selector)) {
      const value = element.getAttribute(attribute) ?? "";
      if (/^\s*(javascript|data|vbscript):/i.test(value)) {
        element.removeAttribute(attribute);
        continue;
      }
      try {
        element.setAttribute(attribute, new URL(value, base).href);
      } catch {
        element.removeAttribute(attribute);
      }
    }
  }
}

function collectLinks(document: PageDocument): { text: string; href: string }[] {
  const seen = new Set<string>();
  const links: { text: string; href: string }[] = [];
  for (const element of document.querySelectorAll("a[href]")) {
    const href = element.getAttribute("href") ?? "";
    if (!/^https?:/i.test(href) || seen.has(href)) continue;
    const text = clean(element.textContent ?? "").replace(/[[\]]/g, "");
    if (!text) continue;
    seen.add(href);
    links.push({ text, href });
  }
  return links;
}

function clean(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

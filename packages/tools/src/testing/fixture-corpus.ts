import type { CorpusDocument } from "../web-search/local-corpus-provider.js";

/**
 * A small corpus for tests of search and fetch: a few HTML and Markdown pages on distinct topics, one in Chinese,
 * one with a table, linked to each other by relative URLs (serve it with startCorpusServer to follow the links).
 */
export function fixtureCorpusDocuments(baseUrl = "http://corpus.test"): CorpusDocument[] {
  const url = (path: string) => new URL(path, baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`).href;
  return [
    {
      url: url("wiki/eiffel-tower.html"),
      title: "Eiffel Tower",
      content: `<html><head><title>Eiffel Tower</title></head><body><nav><a href="/index.html">Home</a></nav>
<h1>Eiffel Tower</h1><p>The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris, France.
It is named after the engineer Gustave Eiffel, whose company designed and built the tower.</p>
<p>Construction began in 1887 and the tower was completed in 1889 as the centrepiece of the World's Fair.</p>
<p>The tower is 330 metres tall. It was the tallest man-made structure in the world until the Chrysler Building
in New York City was finished in 1930.</p><p>See also <a href="gustave-eiffel.html">Gustave Eiffel</a>.</p></body></html>`,
    },
    {
      url: url("wiki/gustave-eiffel.html"),
      title: "Gustave Eiffel",
      content: `<html><head><title>Gustave Eiffel</title></head><body><h1>Gustave Eiffel</h1>
<p>Alexandre Gustave Eiffel (1832–1923) was a French civil engineer. His company built the Eiffel Tower in Paris
and the internal structure of the Statue of Liberty.</p><p>He was born in Dijon.</p></body></html>`,
    },
    {
      url: url("wiki/prime-numbers.md"),
      title: "Prime numbers",
      content: `# Prime numbers

A prime number is a natural number greater than 1 that has no positive divisors other than 1 and itself.

The first prime numbers are 2, 3, 5, 7, 11 and 13. Euclid proved that there are infinitely many primes.

| n | primes up to n |
|---|---|
| 10 | 4 |
| 100 | 25 |
| 1000 | 168 |
`,
    },
    {
      url: url("wiki/great-wall.html"),
      title: "长城",
      content: `<html><head><title>长城</title></head><body><h1>长城</h1>
<p>长城是中国古代的军事防御工程，修筑历史可上溯到西周时期。</p><p>明长城总长度约为八千八百五十公里。</p></body></html>`,
    },
    {
      url: url("news/river-festival.html"),
      title: "River festival returns",
      content: `<html><head><title>River festival returns</title></head><body><article><h1>River festival returns</h1>
<p>The annual river festival returns on 14 June with boat races, music and food stalls along the embankment.</p>
<p>Organisers expect 40,000 visitors. Entry is free; the boat races start at 10:00.</p></article></body></html>`,
    },
    {
      url: url("index.html"),
      title: "Local test wiki",
      content: `<html><head><title>Local test wiki</title></head><body><h1>Local test wiki</h1><ul>
<li><a href="wiki/eiffel-tower.html">Eiffel Tower</a></li><li><a href="wiki/gustave-eiffel.html">Gustave Eiffel</a></li>
<li><a href="wiki/prime-numbers.md">Prime numbers</a></li><li><a href="news/river-festival.html">River festival</a></li>
</ul></body></html>`,
    },
  ];
}

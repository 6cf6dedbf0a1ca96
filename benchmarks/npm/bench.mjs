// The npm `sitemap` package (9.x) doing what `sitemill urls` does: a URL list (URL, TAB, lastmod
// per line) into uncompressed 50,000-URL children plus a sitemap index, written to a directory.
//
// usage: node bench.mjs URL_FILE OUT_DIR BASE_URL [LIMIT]
// Run by benchmarks/run.py, which times it and checks what it wrote.
import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SitemapAndIndexStream, SitemapStream } from 'sitemap';

const [urlFile, outDir, baseUrl, limitText = '50000'] = process.argv.slice(2);
if (!urlFile || !outDir || !baseUrl) {
  console.error('usage: node bench.mjs URL_FILE OUT_DIR BASE_URL [LIMIT]');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });

// One sitemap item per line of the list, read lazily (no array of every URL).
async function* readItems(path) {
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line) continue;
    const tab = line.indexOf('\t');
    yield tab < 0 ? { url: line } : { url: line.slice(0, tab), lastmod: line.slice(tab + 1) };
  }
}

const index = new SitemapAndIndexStream({
  limit: Number(limitText),
  // v9 API: return [index entry, the child's SitemapStream, the stream it finally writes to];
  // the third element lets the index stream wait for each child file to be flushed.
  getSitemapStream: (i) => {
    const name = `sitemap-${i + 1}.xml`;
    const sitemap = new SitemapStream({ hostname: baseUrl });
    const file = sitemap.pipe(createWriteStream(join(outDir, name)));
    return [new URL(name, baseUrl).toString(), sitemap, file];
  },
});

await pipeline(Readable.from(readItems(urlFile)), index, createWriteStream(join(outDir, 'sitemap.xml')));

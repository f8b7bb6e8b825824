// Reads a feed's items as its bytes stream in, never the whole file at once: Google's RSS 2.0 or
// Atom XML with saxes, TSV and CSV with csv-parse. Each yields the items of the text read so far,
// so what is held at a time is one chunk and the items it completed. A DOCTYPE is refused outright:
// a product feed has no need of one, and no entity it could declare is ever expanded.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SaxesParser } from 'saxes';
import { parse } from 'csv-parse';
import type { FeedFormat, RawItem } from './feed-items.js';

/** Why a file cannot be read as a feed (the run fails with this reason). */
export class NotAFeed extends Error {}

/** A field longer than this is cut here, and its item refused (its value would not be stored). */
const MAX_FIELD_CHARS = 200_000;
/** Values kept per item: enough for every Google field and ten more images. */
const MAX_VALUES = 200;

const localName = (name: string): string => name.slice(name.indexOf(':') + 1).toLowerCase();

function addValue(item: RawItem, name: string, value: string): void {
  const values = item.fields.get(name);
  if (values) {
    if (values.length < MAX_VALUES) values.push(value);
  } else if (item.fields.size < MAX_VALUES) item.fields.set(name, [value]);
}

/** The items of Google's XML (RSS 2.0 <item> or Atom <entry>); fields are the item's child elements by local name. */
export async function* xmlItems(text: AsyncIterable<string>): AsyncGenerator<RawItem> {
  const parser = new SaxesParser({ position: true });
  const ready: RawItem[] = [];
  let depth = 0;
  let itemDepth = 0;
  let item: RawItem | undefined;
  let field: { name: string; text: string } | undefined;
  parser.on('doctype', () => {
    throw new NotAFeed('the XML declares a DOCTYPE: a product feed has none (entities are never expanded); remove it');
  });
  parser.on('opentag', (tag) => {
    depth++;
    const name = localName(tag.name);
    if (depth === 1) {
      if (name === 'html') throw new NotAFeed('the answer is an HTML page, not a feed: check the feed URL');
      if (name !== 'rss' && name !== 'feed') throw new NotAFeed(`the XML's root element is <${tag.name}>, not <rss> (Google's RSS 2.0) or <feed> (Atom)`);
      return;
    }
    if (!item && (name === 'item' || name === 'entry')) {
      item = { fields: new Map(), line: parser.line };
      itemDepth = depth;
    } else if (item && depth === itemDepth + 1) {
      // Atom gives its link as an attribute.
      const href = name === 'link' ? tag.attributes.href : undefined;
      field = { name, text: typeof href === 'string' ? href : '' };
    }
  });
  const onText = (chunk: string) => {
    if (field && depth === itemDepth + 1 && field.text.length <= MAX_FIELD_CHARS) field.text += chunk.slice(0, MAX_FIELD_CHARS + 1 - field.text.length);
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', () => {
    if (item && field && depth === itemDepth + 1) {
      addValue(item, field.name, field.text);
      field = undefined;
    } else if (item && depth === itemDepth) {
      ready.push(item);
      item = undefined;
    }
    depth--;
  });
  const failed = (error: unknown): never => {
    if (error instanceof NotAFeed) throw error;
    throw new NotAFeed(`not well-formed XML: ${(error as Error).message}`);
  };
  for await (const chunk of text) {
    try {
      parser.write(chunk);
    } catch (error) {
      failed(error);
    }
    yield* ready.splice(0);
  }
  try {
    parser.close();
  } catch (error) {
    failed(error);
  }
  yield* ready.splice(0);
}

/** The items of a TSV (Google's, unquoted) or CSV file whose first line names the fields. */
export async function* delimitedItems(text: AsyncIterable<string>, format: Exclude<FeedFormat, 'google-xml'>): AsyncGenerator<RawItem> {
  const parser = parse({
      delimiter: format === 'csv' ? ',' : '\t',
      // Google's TSV has no quoting: a quote is part of the text.
      quote: format === 'csv' ? '"' : false,
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      max_record_size: MAX_FIELD_CHARS * 4,
    });
  // A failure upstream (the size limit, a broken connection) ends the reading below with its error.
  pipeline(Readable.from(text), parser).catch(() => undefined);
  let header: string[] | undefined;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (!header) {
        header = record.map((name) => localName(name.trim()));
        if (!header.includes('id')) throw new NotAFeed(`the first line names no id column (it names ${header.slice(0, 10).join(', ')}): the first line must name the fields, id, title, link, price…`);
        continue;
      }
      const item: RawItem = { fields: new Map(), line: info.lines };
      record.forEach((value, i) => {
        const name = header![i];
        if (name) addValue(item, name, value.slice(0, MAX_FIELD_CHARS + 1));
      });
      yield item;
    }
  } catch (error) {
    if (error instanceof NotAFeed) throw error;
    throw new NotAFeed(`not readable as ${format === 'csv' ? 'CSV' : 'TSV'}: ${(error as Error).message}`);
  }
}

export function itemsOf(text: AsyncIterable<string>, format: FeedFormat): AsyncGenerator<RawItem> {
  return format === 'google-xml' ? xmlItems(text) : delimitedItems(text, format);
}

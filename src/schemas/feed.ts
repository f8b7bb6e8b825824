import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Examples } from './common.js';
import { FEED_FORMATS } from '../domain/feeds/feed-items.js';

export const FEED_SCHEDULES = ['hourly', 'daily'] as const;

export const FeedIdParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9._-]+$', description: 'Your feed id (letters, digits, ".", "_" and "-"), unique among your feeds' }),
});

export const FeedRunParams = Type.Object({ ...FeedIdParams.properties, runId: Type.String({ minLength: 1, maxLength: 100, description: 'The run id' }) });

export const FeedInput = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'Where the feed is fetched: an https URL reaching a public address. Redirects are not followed (give the final URL); gzip files are read decompressed.',
    }),
    format: Type.Union(
      FEED_FORMATS.map((format) => Type.Literal(format)),
      { description: 'google-xml: Google Merchant Center RSS 2.0 or Atom; google-tsv: Google\'s tab-separated file; csv: comma-separated with the same field names. The first line of a TSV or CSV names the fields.' },
    ),
    schedule: Type.Union(
      FEED_SCHEDULES.map((schedule) => Type.Literal(schedule)),
      { description: 'How often the feed is fetched again after a run' },
    ),
  },
  {
    additionalProperties: false,
    ...Examples({ xml: ['Your Merchant Center XML, every day', { url: 'https://www.example.com/feeds/google.xml', format: 'google-xml', schedule: 'daily' }] }),
  },
);
export type FeedInput = Static<typeof FeedInput>;

const Refusal = Type.Object({
  line: Type.Optional(Type.Integer({ description: 'The line of the file where the item begins' })),
  item: Type.Optional(Type.String({ description: 'The item\'s id (g:id), when it has one' })),
  reason: Type.String({ description: 'Why the item was refused' }),
});

export const FeedRun = Type.Object(
  {
    id: Type.String(),
    feedId: Type.String(),
    source: Type.Union([Type.Literal('fetch'), Type.Literal('upload')], { description: 'fetch: the feed\'s URL; upload: a file sent to POST /advertiser/feeds/{id}/runs' }),
    status: Type.Union([Type.Literal('running'), Type.Literal('complete'), Type.Literal('failed')], {
      description:
        'running: bytes, items, added, updated, unchanged and refused say how far it got, each batch of 500 items as it is written. complete: the whole file was read, and your products from this feed it no longer lists were made unavailable. failed: see reason; the products it wrote stay written, and none was made unavailable',
    }),
    reason: Type.Optional(Type.String({ description: 'Why the run failed: what is wrong (e.g. refused: the address of HOST is not public; refused: HOST could not be resolved), never which address a name resolves to' })),
    bytes: Type.Integer({ description: 'Bytes read, decompressed' }),
    items: Type.Integer({ description: 'Items read (taken or refused)' }),
    added: Type.Integer({ description: 'Products created' }),
    updated: Type.Integer({ description: 'Products changed' }),
    unchanged: Type.Integer({ description: 'Products listed as they were' }),
    madeUnavailable: Type.Integer({ description: 'Products of this feed the file no longer lists, made unavailable (not deleted)' }),
    refused: Type.Integer({ description: 'Items refused, in all' }),
    refusals: Type.Array(Refusal, { description: 'The first 100 items refused, with why' }),
    startedAt: DateTime,
    finishedAt: Type.Optional(DateTime),
  },
  { $id: 'FeedRun', description: 'One run of a feed and what it did' },
);
export type FeedRun = Static<typeof FeedRun>;

export const Feed = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    format: Type.String(),
    schedule: Type.String(),
    nextRunAt: DateTime,
    lastRun: Type.Optional(Type.Ref(FeedRun)),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { $id: 'Feed', description: 'A product feed of yours, fetched on its schedule' },
);
export type Feed = Static<typeof Feed>;

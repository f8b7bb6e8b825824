// Clicks answered and not yet written, kept as bytes and numbers rather than as objects.
// A click waits for its batch (CLICK_FLUSH_MS), then for the writer thread to store it: longer
// than the time between two of the serving thread's young-generation collections at a high
// redirect rate. Kept as objects, most clicks were copied by one collection, promoted to the old
// generation by the next and collected again there, and those collections were the redirect's
// longest pauses. Here a click is a few typed-array slots and its text in a buffer, which
// collections never copy. Its flags are decided in place; what goes to the writer is built from
// here as it is sent and dropped at once, and a click leaves only once it is stored. The buffers
// come in chunks of a fixed size, taken as clicks come and given back (a few kept for reuse) as
// they are stored: a burst never copies what waits, nor leaves outgrown buffers behind.
import type { CachedTarget } from './redirect-cache.js';
import type { ClickBatch, ClickWrite } from '../../storage/click-enrichment.js';
import type { NewClickRow } from '../../storage/tables.js';
import type { BatchSubIds, ClickColumns, DecidedClickColumn } from '../../storage/repositories/clicks.js';

/** The parts of a link's target a click is stored with. */
export type ClickTarget = Pick<CachedTarget, 'linkId' | 'affiliateId' | 'channelId' | 'brandId' | 'mdasc' | 'suspended'>;

/** What a click's flags are decided by. */
export interface ClickFacts {
  linkId: string;
  /** When it was answered, in ms. */
  at: number;
  ip: string;
  userAgent: string | undefined;
  isHead: boolean;
  isSuspended: boolean;
}

/** What deciding found for a click. */
export interface ClickVerdict {
  isBot: boolean;
  isRepeat: boolean;
  isSuspicious: boolean;
  /** The salted hash of the visitor (32 hex characters). */
  visitor: string;
}

/** What became of a click: counted, or the first reason it does not count. */
export type ClickOutcome = 'counted' | 'bot' | 'head' | 'repeat' | 'suspicious' | 'suspended';

/** The outcome of a click with these flags (truthy when set), the first reason in this order. */
export function clickOutcome(suspended: unknown, bot: unknown, head: unknown, repeat: unknown, suspicious: unknown): ClickOutcome {
  if (suspended) return 'suspended';
  if (bot) return 'bot';
  if (head) return 'head';
  if (repeat) return 'repeat';
  if (suspicious) return 'suspicious';
  return 'counted';
}

/** Click ids and visitor hashes are 32 hex characters: each takes a fixed slot of its buffer. */
const HEX_BYTES = 32;
/** Stored user agents are cut to this many characters. */
const USER_AGENT_CHARS = 512;
// The request's facts, set as the click is answered.
const HEAD = 1;
const SUSPENDED = 2;
const HAS_USER_AGENT = 4;
const HAS_REFERER = 8;
const HAS_SUB_IDS = 16;
// The verdict, set when the click is decided.
const BOT = 1;
const REPEAT = 2;
const SUSPICIOUS = 4;
const COUNTED = 8;
/** The texts kept per click, in this order in the text buffer: address, user agent, referrer, sub-ids. */
const TEXTS = 4;
/** Bytes of a click's numbers: time, facts, verdict, text start and lengths, id, visitor, and the references to its link's ids. */
const SLOT_BYTES = 8 + 1 + 1 + 4 + TEXTS * 4 + 2 * HEX_BYTES + 5 * 8;
const CHUNK_SLOTS = 1_024;
/** A click's text is a few hundred bytes in the usual case (an agent of some 130 characters). */
const CHUNK_TEXT_BYTES = 128 * CHUNK_SLOTS;
const CHUNK_BYTES = CHUNK_SLOTS * SLOT_BYTES + CHUNK_TEXT_BYTES;
/** Empty chunks kept for the next clicks rather than left to the collector. */
const SPARE_CHUNKS = 4;

/** Room for CHUNK_SLOTS clicks. */
class Chunk {
  readonly at = new Float64Array(CHUNK_SLOTS);
  readonly facts = new Uint8Array(CHUNK_SLOTS);
  readonly verdicts = new Uint8Array(CHUNK_SLOTS);
  readonly textStart = new Uint32Array(CHUNK_SLOTS);
  readonly textLength = new Uint32Array(CHUNK_SLOTS * TEXTS);
  readonly ids = Buffer.alloc(CHUNK_SLOTS * HEX_BYTES);
  readonly visitors = Buffer.alloc(CHUNK_SLOTS * HEX_BYTES);
  // The link's ids by reference, not its target: the strings are the cache's own (the account ids
  // shared by all links), while a target read for one click would be kept alive with it.
  readonly linkIds = new Array<string | undefined>(CHUNK_SLOTS);
  readonly affiliateIds = new Array<string | undefined>(CHUNK_SLOTS);
  readonly channelIds = new Array<string | undefined>(CHUNK_SLOTS);
  readonly brandIds = new Array<string | undefined>(CHUNK_SLOTS);
  readonly mdascs = new Array<string | null | undefined>(CHUNK_SLOTS);
  readonly text: Buffer;
  /** Slots taken, and text bytes. */
  used = 0;
  textEnd = 0;

  /** `textBytes`: more than CHUNK_TEXT_BYTES only for a click whose text would not fit (a very long query). */
  constructor(textBytes = CHUNK_TEXT_BYTES) {
    this.text = Buffer.alloc(textBytes);
  }

  get bytes(): number {
    return CHUNK_SLOTS * SLOT_BYTES + this.text.length;
  }

  fits(textBytes: number): boolean {
    return this.used < CHUNK_SLOTS && this.textEnd + textBytes <= this.text.length;
  }

  /** Empty again; the ids it referred to are let go. */
  clear(): void {
    for (const ids of [this.linkIds, this.affiliateIds, this.channelIds, this.brandIds, this.mdascs]) ids.fill(undefined, 0, this.used);
    this.used = 0;
    this.textEnd = 0;
  }
}

/**
 * A first-in, first-out queue of answered clicks: the decided first, then the undecided. push()
 * appends; decide() sets the flags of the first undecided; drop() removes the first decided once
 * they are stored. Positions count from the first click waiting.
 */
export class PendingClicks {
  private chunks: Chunk[] = [new Chunk()];
  private spare: Chunk[] = [];
  /** The slot of the first click waiting, in the first chunk. */
  private headSlot = 0;
  private count = 0;
  private decidedCount = 0;
  /** A position's place, set by seek() and moved on by step(): its chunk and slot. */
  private chunk!: Chunk;
  private chunkIndex = 0;
  private slot = 0;
  /** Where nextText() reads: the next text's first byte, and the index of its length. */
  private reading = 0;
  private readingLength = 0;

  /** Clicks waiting. */
  get length(): number {
    return this.count;
  }

  /** Clicks waiting with their flags decided (the first ones). */
  get decided(): number {
    return this.decidedCount;
  }

  /** Clicks waiting to be decided (after the decided ones). */
  get undecided(): number {
    return this.count - this.decidedCount;
  }

  /**
   * Bytes the waiting clicks take: their slots and their text, or, once a burst has taken more
   * chunks than the first, the chunks' size, so that a bound on it bounds the memory they hold.
   */
  get bytes(): number {
    let allocated = 0;
    let text = 0;
    for (const chunk of this.chunks) {
      allocated += chunk.bytes;
      text += chunk.textEnd;
    }
    if (this.count > 0) text -= this.chunks[0]!.textStart[this.headSlot]!;
    return Math.max(this.count * SLOT_BYTES + text, allocated - CHUNK_BYTES);
  }

  push(target: ClickTarget, clickId: string, at: number, method: string, ip: string, userAgent: string | undefined, referer: string | undefined, subIds: string | undefined): void {
    // UTF-8 takes at most three bytes per UTF-16 code unit.
    const most = 3 * (ip.length + (userAgent?.length ?? 0) + (referer?.length ?? 0) + (subIds?.length ?? 0));
    let chunk = this.chunks[this.chunks.length - 1]!;
    if (!chunk.fits(most)) {
      chunk = most > CHUNK_TEXT_BYTES ? new Chunk(most) : (this.spare.pop() ?? new Chunk());
      this.chunks.push(chunk);
    }
    const slot = chunk.used++;
    this.count++;
    chunk.at[slot] = at;
    chunk.facts[slot] = (method === 'HEAD' ? HEAD : 0) | (target.suspended ? SUSPENDED : 0) | (userAgent === undefined ? 0 : HAS_USER_AGENT) | (referer === undefined ? 0 : HAS_REFERER) | (subIds === undefined ? 0 : HAS_SUB_IDS);
    chunk.verdicts[slot] = 0;
    chunk.ids.write(clickId, slot * HEX_BYTES, HEX_BYTES, 'latin1');
    chunk.linkIds[slot] = target.linkId;
    chunk.affiliateIds[slot] = target.affiliateId;
    chunk.channelIds[slot] = target.channelId;
    chunk.brandIds[slot] = target.brandId;
    chunk.mdascs[slot] = target.mdasc ?? null;
    chunk.textStart[slot] = chunk.textEnd;
    const lengths = slot * TEXTS;
    chunk.textLength[lengths] = writeText(chunk, ip);
    chunk.textLength[lengths + 1] = userAgent === undefined ? 0 : writeText(chunk, userAgent);
    chunk.textLength[lengths + 2] = referer === undefined ? 0 : writeText(chunk, referer);
    chunk.textLength[lengths + 3] = subIds === undefined ? 0 : writeText(chunk, subIds);
  }

  /** The position of the click with this id, or -1 when it does not wait here. */
  positionOf(clickId: string): number {
    if (clickId.length !== HEX_BYTES || this.count === 0) return -1;
    let before = -this.headSlot;
    for (const [index, chunk] of this.chunks.entries()) {
      const first = index === 0 ? this.headSlot * HEX_BYTES : 0;
      const last = chunk.used * HEX_BYTES;
      for (let at = chunk.ids.indexOf(clickId, first, 'latin1'); at !== -1 && at < last; at = chunk.ids.indexOf(clickId, at + 1, 'latin1')) {
        if (at % HEX_BYTES === 0) return before + at / HEX_BYTES;
      }
      before += chunk.used;
    }
    return -1;
  }

  /** What the first `count` undecided clicks are decided by. */
  factsToDecide(count: number): ClickFacts[] {
    const facts = new Array<ClickFacts>(Math.min(count, this.undecided));
    this.seek(this.decidedCount);
    for (let i = 0; i < facts.length; i++, this.step()) {
      const { chunk, slot } = this;
      const flags = chunk.facts[slot]!;
      this.startReading();
      const ip = this.nextText();
      const userAgent = this.nextText();
      facts[i] = { linkId: chunk.linkIds[slot]!, at: chunk.at[slot]!, ip, userAgent: flags & HAS_USER_AGENT ? userAgent : undefined, isHead: (flags & HEAD) !== 0, isSuspended: (flags & SUSPENDED) !== 0 };
    }
    return facts;
  }

  /** Sets the flags of the first `verdicts.length` undecided clicks, which are decided from then on. */
  decide(verdicts: readonly ClickVerdict[]): void {
    const n = Math.min(verdicts.length, this.undecided);
    this.seek(this.decidedCount);
    for (let i = 0; i < n; i++, this.step()) {
      const { chunk, slot } = this;
      const { isBot, isRepeat, isSuspicious, visitor } = verdicts[i]!;
      const flags = chunk.facts[slot]!;
      const counts = !(flags & (SUSPENDED | HEAD)) && !isBot && !isRepeat && !isSuspicious;
      chunk.verdicts[slot] = (isBot ? BOT : 0) | (isRepeat ? REPEAT : 0) | (isSuspicious ? SUSPICIOUS : 0) | (counts ? COUNTED : 0);
      chunk.visitors.write(visitor, slot * HEX_BYTES, HEX_BYTES, 'latin1');
    }
    this.decidedCount += n;
  }

  /** The first `count` decided clicks as the writer takes them: one array per column. */
  batch(count: number): ClickBatch {
    return this.batchFrom(0, Math.min(count, this.decidedCount));
  }

  /** The first `count` decided clicks, an object each (to keep in files). */
  writes(count: number): ClickWrite[] {
    const batch = this.batch(count);
    const subIds = new Array<string | null>(batch.columns.id.length).fill(null);
    batch.subIds?.at.forEach((at, i) => (subIds[at] = batch.subIds!.values[i]!));
    return subIds.map((subId, i) => writeOf(batch, i, subId));
  }

  /** The decided click at `position`, with its request facts. */
  writeAt(position: number): ClickWrite {
    const batch = this.batchFrom(position, 1);
    return writeOf(batch, 0, batch.subIds?.values[0] ?? null);
  }

  /** Whether the click at `position` is decided. */
  isDecided(position: number): boolean {
    return position < this.decidedCount;
  }

  /** What became of the decided click at `position`. */
  outcomeAt(position: number): ClickOutcome {
    this.seek(position);
    const flags = this.chunk.facts[this.slot]!;
    const verdict = this.chunk.verdicts[this.slot]!;
    return clickOutcome(flags & SUSPENDED, verdict & BOT, flags & HEAD, verdict & REPEAT, verdict & SUSPICIOUS);
  }

  /** Removes the first `count` clicks, which must be decided; the chunks they emptied are given back. */
  drop(count: number): void {
    const n = Math.min(count, this.decidedCount);
    this.headSlot += n;
    this.count -= n;
    this.decidedCount -= n;
    while (this.chunks.length > 1 && this.headSlot >= this.chunks[0]!.used) {
      const emptied = this.chunks.shift()!;
      this.headSlot -= emptied.used;
      emptied.clear();
      if (emptied.text.length === CHUNK_TEXT_BYTES && this.spare.length < SPARE_CHUNKS) this.spare.push(emptied);
    }
    if (this.count === 0) {
      this.chunks[0]!.clear();
      this.headSlot = 0;
    }
  }

  /** Clicks [position, position + n) as the writer takes them. */
  private batchFrom(position: number, n: number): ClickBatch {
    const columns: ClickColumns<DecidedClickColumn> = {
      id: new Array<string>(n),
      link_id: new Array<string>(n),
      affiliate_id: new Array<string>(n),
      channel_id: new Array<string>(n),
      organization_id: new Array<string>(n),
      mdasc: new Array<string | null>(n),
      created_at: new Array<string>(n),
      is_bot: new Array<number>(n),
      is_head: new Array<number>(n),
      is_repeat: new Array<number>(n),
      is_suspicious: new Array<number>(n),
      is_suspended: new Array<number>(n),
      counted: new Array<number>(n),
      visitor_hash: new Array<string>(n),
      user_agent: new Array<string | null>(n),
    };
    const address = new Array<string>(n);
    const referer = new Array<string | null>(n);
    let subIds: BatchSubIds | undefined;
    this.seek(position);
    for (let i = 0; i < n; i++, this.step()) {
      const { chunk, slot } = this;
      const flags = chunk.facts[slot]!;
      const verdict = chunk.verdicts[slot]!;
      columns.id[i] = chunk.ids.toString('latin1', slot * HEX_BYTES, (slot + 1) * HEX_BYTES);
      columns.link_id[i] = chunk.linkIds[slot]!;
      columns.affiliate_id[i] = chunk.affiliateIds[slot]!;
      columns.channel_id[i] = chunk.channelIds[slot]!;
      columns.organization_id[i] = chunk.brandIds[slot]!;
      columns.mdasc[i] = chunk.mdascs[slot]!;
      columns.created_at[i] = new Date(chunk.at[slot]!).toISOString();
      columns.is_bot[i] = verdict & BOT ? 1 : 0;
      columns.is_head[i] = flags & HEAD ? 1 : 0;
      columns.is_repeat[i] = verdict & REPEAT ? 1 : 0;
      columns.is_suspicious[i] = verdict & SUSPICIOUS ? 1 : 0;
      columns.is_suspended[i] = flags & SUSPENDED ? 1 : 0;
      columns.counted[i] = verdict & COUNTED ? 1 : 0;
      columns.visitor_hash[i] = chunk.visitors.toString('latin1', slot * HEX_BYTES, (slot + 1) * HEX_BYTES);
      this.startReading();
      address[i] = this.nextText();
      const userAgent = this.nextText();
      columns.user_agent[i] = userAgent === '' ? null : userAgent.slice(0, USER_AGENT_CHARS);
      const ref = this.nextText();
      referer[i] = flags & HAS_REFERER ? ref : null;
      if (flags & HAS_SUB_IDS) {
        subIds ??= { at: [], values: [] };
        subIds.at.push(i);
        subIds.values.push(this.nextText());
      }
    }
    return { columns, address, referer, ...(subIds && { subIds }) };
  }

  /** Points chunk and slot at the click at `position`. */
  private seek(position: number): void {
    this.chunkIndex = 0;
    this.chunk = this.chunks[0]!;
    this.slot = this.headSlot + position;
    while (this.slot >= this.chunk.used && this.chunkIndex < this.chunks.length - 1) {
      this.slot -= this.chunk.used;
      this.chunk = this.chunks[++this.chunkIndex]!;
    }
  }

  /** Moves chunk and slot on to the next click. */
  private step(): void {
    if (++this.slot < this.chunk.used || this.chunkIndex === this.chunks.length - 1) return;
    this.chunk = this.chunks[++this.chunkIndex]!;
    this.slot = 0;
  }

  private startReading(): void {
    this.reading = this.chunk.textStart[this.slot]!;
    this.readingLength = this.slot * TEXTS;
  }

  private nextText(): string {
    const length = this.chunk.textLength[this.readingLength++]!;
    const from = this.reading;
    this.reading += length;
    return length === 0 ? '' : this.chunk.text.toString('utf8', from, from + length);
  }
}

/** Click `i` of `batch`, an object, with its sub-ids. */
function writeOf({ columns: c, address, referer }: ClickBatch, i: number, subIds: string | null): ClickWrite {
  const click: NewClickRow = {
    id: c.id[i]!,
    link_id: c.link_id[i]!,
    affiliate_id: c.affiliate_id[i]!,
    channel_id: c.channel_id[i]!,
    organization_id: c.organization_id[i]!,
    mdasc: c.mdasc[i]!,
    created_at: c.created_at[i]!,
    is_bot: c.is_bot[i]!,
    is_head: c.is_head[i]!,
    is_repeat: c.is_repeat[i]!,
    is_suspicious: c.is_suspicious[i]!,
    is_suspended: c.is_suspended[i]!,
    counted: c.counted[i]!,
    visitor_hash: c.visitor_hash[i]!,
    user_agent: c.user_agent[i]!,
    sub_ids: subIds,
  };
  return { click, address: address[i]!, referer: referer[i]! };
}

function writeText(chunk: Chunk, value: string): number {
  const written = chunk.text.write(value, chunk.textEnd, 'utf8');
  chunk.textEnd += written;
  return written;
}

// Clicks answered and not yet written, kept as bytes and numbers rather than as objects.
// A click waits for its batch (CLICK_FLUSH_MS), then for the writer thread to store it: longer
// than the time between two of the serving thread's young-generation collections at a high
// redirect rate. Kept as objects, most clicks were copied by one collection, promoted to the old
// generation by the next and collected again there, and those collections were the redirect's
// longest pauses. Here a click is a few typed-array slots and its text in one buffer, which
// collections never copy. Its flags are decided in place; what goes to the writer is built from
// here as it is sent and dropped at once, and a click leaves only once it is stored.
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
const FIRST_SLOTS = 1_024;
/** A click's text is a few hundred bytes at most in the usual case (an agent of some 130 characters). */
const FIRST_TEXT_BYTES = 256 * FIRST_SLOTS;
/** The buffers' first size: held from the start, like the service's other fixed costs. */
const FIRST_BYTES = FIRST_SLOTS * SLOT_BYTES + FIRST_TEXT_BYTES;

/**
 * A first-in, first-out queue of answered clicks: the decided first, then the undecided. push()
 * appends; decide() sets the flags of the first undecided; drop() removes the first decided once
 * they are stored. Positions count from the first click waiting.
 */
export class PendingClicks {
  private at = new Float64Array(FIRST_SLOTS);
  private facts = new Uint8Array(FIRST_SLOTS);
  private verdicts = new Uint8Array(FIRST_SLOTS);
  private textStart = new Uint32Array(FIRST_SLOTS);
  private textLength = new Uint32Array(FIRST_SLOTS * TEXTS);
  private ids = Buffer.alloc(FIRST_SLOTS * HEX_BYTES);
  private visitors = Buffer.alloc(FIRST_SLOTS * HEX_BYTES);
  // The link's ids by reference, not its target: the strings are the cache's own (the account ids
  // shared by all links), while a target read for one click would be kept alive with it.
  private linkIds = new Array<string | undefined>(FIRST_SLOTS);
  private affiliateIds = new Array<string | undefined>(FIRST_SLOTS);
  private channelIds = new Array<string | undefined>(FIRST_SLOTS);
  private brandIds = new Array<string | undefined>(FIRST_SLOTS);
  private mdascs = new Array<string | null | undefined>(FIRST_SLOTS);
  private text = Buffer.alloc(FIRST_TEXT_BYTES);
  /** The slot of the first click waiting, of the first undecided one, and the slot after the last. */
  private head = 0;
  private undecidedFrom = 0;
  private end = 0;
  private textEnd = 0;
  /** Where nextText() reads: the next text's first byte, and the index of its length. */
  private reading = 0;
  private readingLength = 0;

  /** Clicks waiting. */
  get length(): number {
    return this.end - this.head;
  }

  /** Clicks waiting with their flags decided (the first ones). */
  get decided(): number {
    return this.undecidedFrom - this.head;
  }

  /** Clicks waiting to be decided (after the decided ones). */
  get undecided(): number {
    return this.end - this.undecidedFrom;
  }

  /**
   * Bytes the waiting clicks take: their slots and their text, or, once a burst has grown the
   * buffers past their first size, the buffers' size (they double when full and shrink when used
   * below an eighth), so that a bound on it bounds the memory they hold.
   */
  get bytes(): number {
    const used = this.length * SLOT_BYTES + this.textUsed();
    return Math.max(used, this.at.length * SLOT_BYTES + this.text.length - FIRST_BYTES);
  }

  push(target: ClickTarget, clickId: string, at: number, method: string, ip: string, userAgent: string | undefined, referer: string | undefined, subIds: string | undefined): void {
    // UTF-8 takes at most three bytes per UTF-16 code unit.
    const most = 3 * (ip.length + (userAgent?.length ?? 0) + (referer?.length ?? 0) + (subIds?.length ?? 0));
    if (this.end === this.at.length || this.textEnd + most > this.text.length) this.resize(most);
    const slot = this.end++;
    this.at[slot] = at;
    this.facts[slot] = (method === 'HEAD' ? HEAD : 0) | (target.suspended ? SUSPENDED : 0) | (userAgent === undefined ? 0 : HAS_USER_AGENT) | (referer === undefined ? 0 : HAS_REFERER) | (subIds === undefined ? 0 : HAS_SUB_IDS);
    this.verdicts[slot] = 0;
    this.ids.write(clickId, slot * HEX_BYTES, HEX_BYTES, 'latin1');
    this.linkIds[slot] = target.linkId;
    this.affiliateIds[slot] = target.affiliateId;
    this.channelIds[slot] = target.channelId;
    this.brandIds[slot] = target.brandId;
    this.mdascs[slot] = target.mdasc ?? null;
    this.textStart[slot] = this.textEnd;
    const lengths = slot * TEXTS;
    this.textLength[lengths] = this.writeText(ip);
    this.textLength[lengths + 1] = userAgent === undefined ? 0 : this.writeText(userAgent);
    this.textLength[lengths + 2] = referer === undefined ? 0 : this.writeText(referer);
    this.textLength[lengths + 3] = subIds === undefined ? 0 : this.writeText(subIds);
  }

  /** The position of the click with this id, or -1 when it does not wait here. */
  positionOf(clickId: string): number {
    if (clickId.length !== HEX_BYTES) return -1;
    const last = this.end * HEX_BYTES;
    for (let at = this.ids.indexOf(clickId, this.head * HEX_BYTES, 'latin1'); at !== -1 && at < last; at = this.ids.indexOf(clickId, at + 1, 'latin1')) {
      if (at % HEX_BYTES === 0) return at / HEX_BYTES - this.head;
    }
    return -1;
  }

  /** What the first `count` undecided clicks are decided by. */
  factsToDecide(count: number): ClickFacts[] {
    const facts = new Array<ClickFacts>(Math.min(count, this.undecided));
    for (let i = 0; i < facts.length; i++) {
      const slot = this.undecidedFrom + i;
      const flags = this.facts[slot]!;
      this.startReading(slot);
      const ip = this.nextText();
      const userAgent = this.nextText();
      facts[i] = { linkId: this.linkIds[slot]!, at: this.at[slot]!, ip, userAgent: flags & HAS_USER_AGENT ? userAgent : undefined, isHead: (flags & HEAD) !== 0, isSuspended: (flags & SUSPENDED) !== 0 };
    }
    return facts;
  }

  /** Sets the flags of the first `verdicts.length` undecided clicks, which are decided from then on. */
  decide(verdicts: readonly ClickVerdict[]): void {
    for (let i = 0; i < verdicts.length && this.undecidedFrom < this.end; i++) {
      const slot = this.undecidedFrom++;
      const { isBot, isRepeat, isSuspicious, visitor } = verdicts[i]!;
      const flags = this.facts[slot]!;
      const counts = !(flags & (SUSPENDED | HEAD)) && !isBot && !isRepeat && !isSuspicious;
      this.verdicts[slot] = (isBot ? BOT : 0) | (isRepeat ? REPEAT : 0) | (isSuspicious ? SUSPICIOUS : 0) | (counts ? COUNTED : 0);
      this.visitors.write(visitor, slot * HEX_BYTES, HEX_BYTES, 'latin1');
    }
  }

  /** The first `count` decided clicks as the writer takes them: one array per column. */
  batch(count: number): ClickBatch {
    const n = Math.min(count, this.decided);
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
    for (let i = 0; i < n; i++) {
      const slot = this.head + i;
      const flags = this.facts[slot]!;
      const verdict = this.verdicts[slot]!;
      columns.id[i] = this.ids.toString('latin1', slot * HEX_BYTES, (slot + 1) * HEX_BYTES);
      columns.link_id[i] = this.linkIds[slot]!;
      columns.affiliate_id[i] = this.affiliateIds[slot]!;
      columns.channel_id[i] = this.channelIds[slot]!;
      columns.organization_id[i] = this.brandIds[slot]!;
      columns.mdasc[i] = this.mdascs[slot]!;
      columns.created_at[i] = new Date(this.at[slot]!).toISOString();
      columns.is_bot[i] = verdict & BOT ? 1 : 0;
      columns.is_head[i] = flags & HEAD ? 1 : 0;
      columns.is_repeat[i] = verdict & REPEAT ? 1 : 0;
      columns.is_suspicious[i] = verdict & SUSPICIOUS ? 1 : 0;
      columns.is_suspended[i] = flags & SUSPENDED ? 1 : 0;
      columns.counted[i] = verdict & COUNTED ? 1 : 0;
      columns.visitor_hash[i] = this.visitors.toString('latin1', slot * HEX_BYTES, (slot + 1) * HEX_BYTES);
      this.startReading(slot);
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

  /** The first `count` decided clicks, an object each (to keep in files). */
  writes(count: number): ClickWrite[] {
    const writes = new Array<ClickWrite>(Math.min(count, this.decided));
    for (let i = 0; i < writes.length; i++) writes[i] = this.writeAt(i);
    return writes;
  }

  /** The decided click at `position`, with its request facts. */
  writeAt(position: number): ClickWrite {
    const head = this.head;
    this.head += position;
    let batch: ClickBatch;
    try {
      batch = this.batch(1);
    } finally {
      this.head = head;
    }
    const { columns: c, address, referer, subIds } = batch;
    const click: NewClickRow = {
      id: c.id[0]!,
      link_id: c.link_id[0]!,
      affiliate_id: c.affiliate_id[0]!,
      channel_id: c.channel_id[0]!,
      organization_id: c.organization_id[0]!,
      mdasc: c.mdasc[0]!,
      created_at: c.created_at[0]!,
      is_bot: c.is_bot[0]!,
      is_head: c.is_head[0]!,
      is_repeat: c.is_repeat[0]!,
      is_suspicious: c.is_suspicious[0]!,
      is_suspended: c.is_suspended[0]!,
      counted: c.counted[0]!,
      visitor_hash: c.visitor_hash[0]!,
      user_agent: c.user_agent[0]!,
      sub_ids: subIds?.values[0] ?? null,
    };
    return { click, address: address[0]!, referer: referer[0]! };
  }

  /** Whether the click at `position` is decided. */
  isDecided(position: number): boolean {
    return position < this.decided;
  }

  /** What became of the decided click at `position`. */
  outcomeAt(position: number): ClickOutcome {
    const slot = this.head + position;
    const flags = this.facts[slot]!;
    const verdict = this.verdicts[slot]!;
    if (flags & SUSPENDED) return 'suspended';
    if (verdict & BOT) return 'bot';
    if (flags & HEAD) return 'head';
    if (verdict & REPEAT) return 'repeat';
    if (verdict & SUSPICIOUS) return 'suspicious';
    return 'counted';
  }

  /** Removes the first `count` clicks, which must be decided. */
  drop(count: number): void {
    this.head = Math.min(this.head + count, this.undecidedFrom);
    if (this.head === this.end) this.empty();
    else if ((this.at.length > FIRST_SLOTS && this.length * 8 < this.at.length) || (this.text.length > FIRST_TEXT_BYTES && this.textUsed() * 8 < this.text.length)) this.resize(0);
  }

  private textUsed(): number {
    return this.length === 0 ? 0 : this.textEnd - this.textStart[this.head]!;
  }

  private startReading(slot: number): void {
    this.reading = this.textStart[slot]!;
    this.readingLength = slot * TEXTS;
  }

  private nextText(): string {
    const length = this.textLength[this.readingLength++]!;
    const from = this.reading;
    this.reading += length;
    return length === 0 ? '' : this.text.toString('utf8', from, from + length);
  }

  private writeText(value: string): number {
    const written = this.text.write(value, this.textEnd, 'utf8');
    this.textEnd += written;
    return written;
  }

  /**
   * Moves the waiting clicks to the start of buffers sized to be at most half full with
   * `textBytes` more text: each move is followed by at least as many pushes or drops as it moved.
   */
  private resize(textBytes: number): void {
    const count = this.length;
    const capacity = this.at.length;
    const textFrom = count === 0 ? this.textEnd : this.textStart[this.head]!;
    const textUsed = this.textEnd - textFrom;
    let slots = FIRST_SLOTS;
    while (count >= slots / 2) slots *= 2;
    let textSize = FIRST_TEXT_BYTES;
    while (textUsed + textBytes > textSize / 2) textSize *= 2;
    const column = <T extends Float64Array | Uint8Array | Uint32Array>(from: T, grown: (n: number) => T, width = 1): T => {
      const to = slots === capacity ? from : grown(slots * width);
      to.set(from.subarray(this.head * width, this.end * width)); // set() copies overlapping ranges correctly
      return to;
    };
    this.at = column(this.at, (n) => new Float64Array(n));
    this.facts = column(this.facts, (n) => new Uint8Array(n));
    this.verdicts = column(this.verdicts, (n) => new Uint8Array(n));
    this.textLength = column(this.textLength, (n) => new Uint32Array(n), TEXTS);
    this.ids = column(this.ids, (n) => Buffer.alloc(n), HEX_BYTES);
    this.visitors = column(this.visitors, (n) => Buffer.alloc(n), HEX_BYTES);
    this.textStart = column(this.textStart, (n) => new Uint32Array(n));
    for (let i = 0; i < count; i++) this.textStart[i] = this.textStart[i]! - textFrom;
    const references = <T>(from: T[]): T[] => {
      const to = slots === capacity ? from : new Array<T>(slots);
      for (let i = 0; i < count; i++) to[i] = from[this.head + i]!;
      if (slots === capacity) to.fill(undefined as T, count, this.end);
      return to;
    };
    this.linkIds = references(this.linkIds);
    this.affiliateIds = references(this.affiliateIds);
    this.channelIds = references(this.channelIds);
    this.brandIds = references(this.brandIds);
    this.mdascs = references(this.mdascs);
    const text = textSize === this.text.length ? this.text : Buffer.alloc(textSize);
    this.text.copy(text, 0, textFrom, this.textEnd);
    this.text = text;
    this.undecidedFrom -= this.head;
    this.head = 0;
    this.end = count;
    this.textEnd = textUsed;
  }

  /** Nothing waits: the buffers are used from their start again, and shrunk after a burst. */
  private empty(): void {
    // Forget the ids, so those of links the cache dropped are not held here.
    for (const ids of [this.linkIds, this.affiliateIds, this.channelIds, this.brandIds, this.mdascs]) ids.fill(undefined, 0, this.end);
    this.head = 0;
    this.undecidedFrom = 0;
    this.end = 0;
    this.textEnd = 0;
    if (this.at.length > FIRST_SLOTS) {
      this.at = new Float64Array(FIRST_SLOTS);
      this.facts = new Uint8Array(FIRST_SLOTS);
      this.verdicts = new Uint8Array(FIRST_SLOTS);
      this.textStart = new Uint32Array(FIRST_SLOTS);
      this.textLength = new Uint32Array(FIRST_SLOTS * TEXTS);
      this.ids = Buffer.alloc(FIRST_SLOTS * HEX_BYTES);
      this.visitors = Buffer.alloc(FIRST_SLOTS * HEX_BYTES);
      this.linkIds = new Array<string | undefined>(FIRST_SLOTS);
      this.affiliateIds = new Array<string | undefined>(FIRST_SLOTS);
      this.channelIds = new Array<string | undefined>(FIRST_SLOTS);
      this.brandIds = new Array<string | undefined>(FIRST_SLOTS);
      this.mdascs = new Array<string | null | undefined>(FIRST_SLOTS);
    }
    if (this.text.length > FIRST_TEXT_BYTES) this.text = Buffer.alloc(FIRST_TEXT_BYTES);
  }
}

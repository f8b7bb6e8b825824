// Clicks waiting to be written are kept as bytes, not objects: whatever goes in (any text, absent
// or empty values, thousands at once while earlier ones leave) comes out exactly, in order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PendingClicks, type ClickTarget, type ClickVerdict } from '../../src/domain/links/pending-clicks.js';
import type { ClickWrite } from '../../src/storage/click-enrichment.js';
import { batchWrites } from '../helpers/click-batches.js';
import { newClickId } from '../../src/domain/links/click-ids.js';

/** A small deterministic generator (mulberry32), so a failure replays. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TEXTS = ['', 'a', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15', 'promoção=verão', 'emoji 🎉 e acentuação', 'x'.repeat(700), 'https://blog.example/post?ref=1'];

interface Sent {
  target: ClickTarget;
  id: string;
  at: number;
  method: string;
  ip: string;
  userAgent: string | undefined;
  referer: string | undefined;
  subIds: string | undefined;
  verdict?: ClickVerdict;
}

/** What the writer should receive for a click sent and decided. */
function expected(c: Sent): ClickWrite {
  const v = c.verdict!;
  const isHead = c.method === 'HEAD';
  return {
    click: {
      id: c.id,
      link_id: c.target.linkId,
      affiliate_id: c.target.affiliateId,
      channel_id: c.target.channelId,
      organization_id: c.target.brandId,
      mdasc: c.target.mdasc,
      created_at: new Date(c.at).toISOString(),
      is_bot: v.isBot ? 1 : 0,
      is_head: isHead ? 1 : 0,
      is_repeat: v.isRepeat ? 1 : 0,
      is_suspicious: v.isSuspicious ? 1 : 0,
      is_suspended: c.target.suspended ? 1 : 0,
      counted: !c.target.suspended && !isHead && !v.isBot && !v.isRepeat && !v.isSuspicious ? 1 : 0,
      visitor_hash: v.visitor,
      user_agent: c.userAgent ? c.userAgent.slice(0, 512) : null,
      sub_ids: c.subIds ?? null,
    },
    address: c.ip,
    referer: c.referer ?? null,
  };
}

test('clicks come out as they went in, in order, through growth, moves and shrinking', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    const draw = random(seed);
    const pick = <T>(values: readonly T[]): T => values[Math.floor(draw() * values.length)]!;
    const maybe = (): string | undefined => (draw() < 0.2 ? undefined : pick(TEXTS));
    const pending = new PendingClicks();
    const model: Sent[] = [];
    let decided = 0;
    let time = Date.UTC(2026, 11, 1);
    for (let step = 0; step < 400; step++) {
      const action = draw();
      if (action < 0.5) {
        // A burst of clicks: up to 3,000 at once, so the buffers grow past their first size.
        for (let n = Math.floor(draw() * (draw() < 0.1 ? 3_000 : 60)); n > 0; n--) {
          time += 7;
          const target: ClickTarget = { linkId: `link-${Math.floor(draw() * 50)}`, affiliateId: 'aff-1', channelId: 'ch-1', brandId: 'brand-1', mdasc: draw() < 0.5 ? null : 'm-1', suspended: draw() < 0.05 };
          const c: Sent = { target, id: newClickId(time), at: time, method: draw() < 0.1 ? 'HEAD' : 'GET', ip: pick(['10.0.0.1', '2001:db8::1', '192.168.100.200']), userAgent: maybe(), referer: maybe(), subIds: maybe() };
          pending.push(c.target, c.id, c.at, c.method, c.ip, c.userAgent, c.referer, c.subIds);
          model.push(c);
        }
      } else if (action < 0.75) {
        const facts = pending.factsToDecide(Math.floor(draw() * 1_500));
        const undecided = model.slice(decided, decided + facts.length);
        assert.deepEqual(
          facts,
          undecided.map((c) => ({ linkId: c.target.linkId, at: c.at, ip: c.ip, userAgent: c.userAgent, isHead: c.method === 'HEAD', isSuspended: c.target.suspended })),
        );
        const verdicts = facts.map(() => ({ isBot: draw() < 0.2, isRepeat: draw() < 0.2, isSuspicious: draw() < 0.1, visitor: newClickId(time).replace(/^./, 'v') }));
        pending.decide(verdicts);
        verdicts.forEach((v, i) => (model[decided + i]!.verdict = v));
        decided += verdicts.length;
      } else {
        const count = Math.floor(draw() * (decided + 1));
        assert.deepEqual(batchWrites(pending.batch(count)), model.slice(0, count).map(expected), `seed ${seed}, step ${step}: the batch`);
        if (count > 0) {
          const position = Math.floor(draw() * count);
          assert.equal(pending.positionOf(model[position]!.id), position);
          assert.deepEqual(pending.writeAt(position), expected(model[position]!));
        }
        pending.drop(count);
        model.splice(0, count);
        decided -= count;
      }
      assert.equal(pending.length, model.length, `seed ${seed}, step ${step}: the count`);
      assert.equal(pending.decided, decided);
    }
    // Every click still waiting is found by its id; one that left is not.
    for (const [i, c] of model.entries()) assert.equal(pending.positionOf(c.id), i);
    assert.equal(pending.positionOf(newClickId(time + 1)), -1);
    assert.equal(pending.positionOf('not-a-click-id'), -1);
  }
});

test('the bytes counted against the memory bound follow the clicks waiting, and the buffers they grew', () => {
  const pending = new PendingClicks();
  const target: ClickTarget = { linkId: 'l', affiliateId: 'a', channelId: 'c', brandId: 'b', mdasc: null, suspended: false };
  assert.equal(pending.bytes, 0);
  for (let i = 0; i < 50_000; i++) pending.push(target, newClickId(i), i, 'GET', '10.0.0.1', 'Mozilla/5.0', undefined, undefined);
  const burst = pending.bytes;
  assert.ok(burst > 50_000 * 100 && burst < 50_000 * 500, `${burst} bytes for 50,000 clicks`);
  pending.decide(pending.factsToDecide(50_000).map(() => ({ isBot: false, isRepeat: false, isSuspicious: false, visitor: 'f'.repeat(32) })));
  pending.drop(49_999);
  assert.ok(pending.bytes < 1_000, `the buffers shrink once the burst is written: ${pending.bytes} bytes for one click`);
  pending.drop(1);
  assert.equal(pending.bytes, 0);
});

test('a click whose text would not fit a chunk (a very long query) is kept whole', () => {
  const pending = new PendingClicks();
  const target: ClickTarget = { linkId: 'l', affiliateId: 'a', channelId: 'c', brandId: 'b', mdasc: null, suspended: false };
  const long = 'sub1=' + 'ç'.repeat(60_000);
  pending.push(target, newClickId(1), 1, 'GET', '10.0.0.1', 'Mozilla/5.0', undefined, undefined);
  pending.push(target, newClickId(2), 2, 'GET', '10.0.0.2', 'Mozilla/5.0', undefined, long);
  pending.push(target, newClickId(3), 3, 'GET', '10.0.0.3', 'Mozilla/5.0', undefined, 'sub1=x');
  pending.decide(pending.factsToDecide(3).map(() => ({ isBot: false, isRepeat: false, isSuspicious: false, visitor: 'f'.repeat(32) })));
  assert.deepEqual(batchWrites(pending.batch(3)).map((w) => [w.address, w.click.sub_ids]), [
    ['10.0.0.1', null],
    ['10.0.0.2', long],
    ['10.0.0.3', 'sub1=x'],
  ]);
});

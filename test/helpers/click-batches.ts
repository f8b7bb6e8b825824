// What a click sink was handed, an object per click: the inverse of clickBatch, for tests that
// look at the clicks written.
import { DECIDED_CLICK_COLUMNS } from '../../src/storage/repositories/clicks.js';
import { clickBatch, type ClickBatch, type ClickWrite } from '../../src/storage/click-enrichment.js';
import type { NewClickRow } from '../../src/storage/tables.js';

export function batchWrites(clicks: ClickBatch | readonly ClickWrite[]): ClickWrite[] {
  const { columns, address, referer, subIds } = 'columns' in clicks ? clicks : clickBatch(clicks);
  const writes = columns.id.map((_, i) => ({
    click: { ...(Object.fromEntries(DECIDED_CLICK_COLUMNS.map((column) => [column, columns[column][i]])) as unknown as NewClickRow), sub_ids: null as string | null },
    address: address[i]!,
    referer: referer[i] ?? null,
  }));
  subIds?.at.forEach((at, i) => (writes[at]!.click.sub_ids = subIds.values[i]!));
  return writes;
}
